// Whose bytes a bundle holds, read from its source map (bench/bundle-bytes.ts): the AWS SDK's
// are kept apart from the function's own code, which the 150 KB budget applies to.
import { describe, expect, it } from 'vitest';
import { AWS_SDK_SOURCE, sourceBytes } from '../../bench/bundle-bytes.ts';

describe('sourceBytes', () => {
  it('counts each mapped span for its source, and shares the unmapped glue in proportion', () => {
    // Line 0: "ab" from the SDK (column 0, source 0), "cd" from our code (column 2, source 1);
    // line 1, "xyz", and the line end are unmapped: 4 bytes, half of them the SDK's.
    const map = {
      sources: ['../../node_modules/@aws-sdk/core/dist-es/a.js', '../../lib/b.ts'],
      mappings: 'AAAA,ECAA;',
    };

    expect(sourceBytes('abcd\nxyz', map)).toEqual({ total: 8, sdk: 4 });
  });

  it('attributes nothing to the SDK in a file without SDK sources', () => {
    expect(sourceBytes('abcd\nxyz', { sources: ['../../lib/a.ts'], mappings: 'AAAA;' })).toEqual({
      total: 8,
      sdk: 0,
    });
  });

  it('knows the SDK and the packages only it brings in, not our other dependencies', () => {
    for (const source of [
      'node_modules/@aws-sdk/client-dynamodb/dist-es/index.js',
      'node_modules/@smithy/core/dist-es/index.js',
      'node_modules/@aws-crypto/util/build/index.js',
      'node_modules/mnemonist/lru-cache.js',
    ])
      expect(AWS_SDK_SOURCE.test(source), source).toBe(true);
    for (const source of ['node_modules/@aws-lambda-powertools/logger/lib/index.js', 'lib/store/client.ts'])
      expect(AWS_SDK_SOURCE.test(source), source).toBe(false);
  });
});
