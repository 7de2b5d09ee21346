// The builtin engine's word vectors (lib/answer/builtin/vectors.ts): the committed file is what
// scripts/word-vectors.ts writes, it loads only when asked for, and its similarities order words
// by meaning as the full-precision vectors do.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_WORDS, encode } from '../../scripts/word-vectors.ts';

// Imported afresh each time: the first test resets the module registry to see an import alone.
const resetSettings = async () => (await import('#lib/config.ts')).resetSettings();

afterEach(async () => {
  vi.unstubAllEnvs();
  await resetSettings();
  (await import('#lib/answer/builtin/vectors.ts')).resetWordVectors();
});

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((sum, value, index) => sum + value * b[index]!, 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

describe('word vectors', () => {
  it('are not read when the module is imported, only on the first call', async () => {
    vi.resetModules();
    const vectors = await import('#lib/answer/builtin/vectors.ts');
    expect(vectors.wordVectorsLoaded()).toBe(false);
    const loaded = vectors.wordVectors();
    expect(vectors.wordVectorsLoaded()).toBe(true);
    expect(loaded?.size).toBe(DEFAULT_WORDS);
    expect(loaded?.dimensions).toBe(100);
    expect(loaded?.loadMs).toBeGreaterThan(0);
  });

  it('rank people-words and money-words by meaning', async () => {
    const vectors = (await import('#lib/answer/builtin/vectors.ts')).wordVectors()!;
    expect(vectors.similarity('subscribers', 'customers')!).toBeGreaterThan(
      vectors.similarity('subscribers', 'products')!,
    );
    expect(vectors.similarity('riders', 'passengers')!).toBeGreaterThan(
      vectors.similarity('riders', 'flights')!,
    );
    expect(vectors.similarity('revenue', 'amount')!).toBeGreaterThan(vectors.similarity('revenue', 'email')!);
    const nearest = vectors.nearest('patrons', ['products', 'members', 'customers', 'categories'], 0.4);
    expect(nearest.map((neighbour) => neighbour.candidate)).toEqual(['customers', 'members']);
    expect(nearest[0]!.similarity).toBeGreaterThanOrEqual(nearest[1]!.similarity);
  });

  it('read identifiers and phrases as the mean of their known words', async () => {
    const vectors = (await import('#lib/answer/builtin/vectors.ts')).wordVectors()!;
    expect(vectors.similarity('unitPrice', 'unit_price')).toBeCloseTo(1, 5);
    expect(vectors.similarity('Unit price', 'unit_price')).toBeCloseTo(1, 5);
    expect(vectors.similarity('order_total', 'amount')!).toBeGreaterThan(
      vectors.similarity('order_total', 'email')!,
    );
    expect(vectors.similarity("clinic's", 'clinic')).toBeCloseTo(1, 5);
    expect(vectors.has('Customers')).toBe(true);
    expect(vectors.has('xqzvw')).toBe(false);
    expect(vectors.similarity('xqzvw', 'customers')).toBeUndefined();
    expect(vectors.nearest('xqzvw', ['customers'], -1)).toEqual([]);
  });

  it('keep the full-precision cosine within 0.01 after int8 quantization', async () => {
    // Random vectors of very different lengths: the per-vector scale keeps each one's precision.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    const floats = new Map(
      ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((word, index) => [
        word,
        Array.from({ length: 100 }, () => random() * 10 ** (index - 2)),
      ]),
    );
    const file = join(mkdtempSync(join(tmpdir(), 'vectors-')), 'v.bin');
    writeFileSync(
      file,
      encode([...floats.keys()], (word) => floats.get(word)!, 100),
    );
    vi.stubEnv('WORD_VECTORS_FILE', file);
    await resetSettings();
    const vectors = (await import('#lib/answer/builtin/vectors.ts')).wordVectors()!;
    expect(vectors.size).toBe(5);
    for (const a of floats.keys()) {
      for (const b of floats.keys()) {
        expect(Math.abs(vectors.similarity(a, b)! - cosine(floats.get(a)!, floats.get(b)!))).toBeLessThan(
          0.01,
        );
      }
    }
  });

  it('are off with WORD_VECTORS_FILE=off or without the file, and refuse a file of another format', async () => {
    const module = await import('#lib/answer/builtin/vectors.ts');
    vi.stubEnv('WORD_VECTORS_FILE', 'off');
    await resetSettings();
    expect(module.wordVectors()).toBeUndefined();
    module.resetWordVectors();
    vi.stubEnv('WORD_VECTORS_FILE', join(tmpdir(), 'no-such-vectors.bin'));
    await resetSettings();
    expect(module.wordVectors()).toBeUndefined();
    module.resetWordVectors();
    const other = join(mkdtempSync(join(tmpdir(), 'vectors-')), 'v.bin');
    writeFileSync(other, readFileSync(new URL('../../package.json', import.meta.url)));
    vi.stubEnv('WORD_VECTORS_FILE', other);
    await resetSettings();
    expect(() => module.wordVectors()).toThrow(/word vector file/);
    // Said again without reading the file again (it is gone now), and none for the optional use.
    rmSync(other);
    expect(() => module.wordVectors()).toThrow(/word vector file/);
    expect(module.loadedVectors()).toBeUndefined();
    module.resetWordVectors();
    expect(module.wordVectors()).toBeUndefined();
  });
});
