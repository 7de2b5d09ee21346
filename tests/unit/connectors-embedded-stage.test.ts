// The embedded demo database per stage (serverless.yml `embeddedDatabaseSeeds`): a stage without
// seeds bundles lib/dialects/postgres/pglite-absent.ts in place of the PGlite connector, which fails as a
// missing engine does; a stage with seeds carries them in `seeds/` beside the connector, and a
// record's seed path that this machine lacks is read from there.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedPath, workerNodeOptions } from '#lib/dialects/postgres/pglite.ts';
import { PgliteConnector as AbsentConnector } from '#lib/dialects/postgres/pglite-absent.ts';
import { ServiceError } from '#lib/errors.ts';

describe('a stage without an embedded database', () => {
  it('fails every use of a pglite database with DB_CONNECTION_FAILED / ENGINE_UNAVAILABLE, naming no path', async () => {
    const connector = new AbsentConnector();
    for (const attempt of [
      () => connector.test(),
      () => connector.introspect(),
      () => connector.execute('SELECT 1', [], { timeoutMs: 1000 }),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ kind: 'DB_CONNECTION_FAILED', detail: 'ENGINE_UNAVAILABLE' });
      expect((error as Error).message).toBe(
        'Could not connect to the database: the database engine is not available in this deployment',
      );
    }
    await expect(connector.close()).resolves.toBeUndefined();
  });
});

describe('the seed file of an embedded database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabletalk-seeds-'));
  const packaged = join(dir, 'seeds');
  mkdirSync(packaged);
  writeFileSync(join(packaged, 'shop.sql'), 'SELECT 1;');
  const local = join(dir, 'local-shop.sql');
  writeFileSync(local, 'SELECT 2;');

  it('is the recorded file when this machine has it', () => {
    expect(seedPath(local, packaged)).toBe(local);
  });

  it('is the packaged seed of the same name when the recorded path is not here (a checkout path in a deployed stage)', () => {
    expect(seedPath('/srv/elsewhere/local/demo/shop.sql', packaged)).toBe(join(packaged, 'shop.sql'));
  });

  it('stays the recorded path when neither exists, so loading it fails as before', () => {
    expect(seedPath('/srv/elsewhere/other.sql', packaged)).toBe('/srv/elsewhere/other.sql');
  });
});

describe('the Node options of the embedded database worker', () => {
  it('keeps the process options but never the code it was started with', () => {
    expect(
      workerNodeOptions([
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        'await import(process.argv[1])',
        '--require',
        '/x/suppress.cjs',
      ]),
    ).toEqual(['--enable-source-maps', '--require', '/x/suppress.cjs']);
    expect(workerNodeOptions(['--eval=1', '--print', '2', '-p', '3', '--conditions=x'])).toEqual([
      '--conditions=x',
    ]);
  });
});
