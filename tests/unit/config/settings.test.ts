// Settings are read on first use (lib/config.ts): importing any module of lib/ or functions/
// reads nothing and creates nothing that depends on the environment, so the environment a
// process sets after its imports (the local stack, the admin command) is the one it runs with.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { fromSettings, readSettings, resetSettings, settings } from '#lib/config.ts';

const root = new URL('../../..', import.meta.url).pathname;

const modulesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    // A worker thread's entry point refuses to load on the main thread.
    .filter((file) => !file.endsWith('pglite-worker.ts'))
    .sort();

describe('readSettings', () => {
  it('falls back to defaults and keeps numbers inside their bounds', () => {
    const defaults = readSettings({});
    expect(defaults.stage).toBe('local');
    expect(defaults.dynamodbEndpoint).toBeUndefined();
    expect(defaults.dynamodbTimeoutMs).toBe(3_000);
    expect(defaults.database).toMatchObject({ connectTimeoutMs: 10_000, poolSize: 2, maxCost: 10_000_000 });
    expect(defaults.observability).toEqual({
      logLevel: 'INFO',
      metricsEnabled: false,
      tracingEnabled: false,
    });
    expect(defaults.limitsEnabled).toBe(true);

    const set = readSettings({
      DYNAMODB_TIMEOUT_MS: '50', // outside 100..20000: the default
      DB_POOL_SIZE: '99',
      DB_STATEMENT_TIMEOUT_MS: 'soon',
      POWERTOOLS_LOG_LEVEL: 'debug',
      POWERTOOLS_METRICS_DISABLED: 'false',
      LIMITS_ENABLED: 'off',
      ROUTE_METHODS: '{"/a":["GET"],"/b":"POST","constructor":1}',
      ANSWER_ENGINE_TIMEOUT_MS: '5000',
    });
    expect(set.dynamodbTimeoutMs).toBe(3_000);
    expect(set.database.poolSize).toBe(5);
    expect(set.database.statementTimeoutMs).toBe(30_000);
    expect(set.observability.logLevel).toBe('DEBUG');
    expect(set.observability.metricsEnabled).toBe(true);
    expect(set.limitsEnabled).toBe(false);
    expect(set.routeMethods).toEqual({ '/a': ['GET'] });
    expect(set.answering.timeoutMs).toBe(5_000);
    expect(readSettings({ ROUTE_METHODS: 'not json' }).routeMethods).toEqual({});
  });
});

describe('settings()', () => {
  it('reads the environment once, until reset', () => {
    vi.stubEnv('STAGE', 'first');
    expect(settings().stage).toBe('first');
    vi.stubEnv('STAGE', 'second');
    expect(settings().stage).toBe('first');
    resetSettings();
    expect(settings().stage).toBe('second');
  });

  it('builds a fromSettings value once and again only after a reset', () => {
    const build = vi.fn(({ stage }: { stage: string }) => ({ stage }));
    const value = fromSettings(build);
    vi.stubEnv('STAGE', 'one');
    const first = value();
    expect(value()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    vi.stubEnv('STAGE', 'two');
    resetSettings();
    expect(value()).toEqual({ stage: 'two' });
    expect(build).toHaveBeenCalledTimes(2);
  });
});

describe('importing lib/ and functions/', () => {
  it('reads no environment: clients built after the imports use the environment set after them', async () => {
    // Arrange: a child process with no AWS settings at all imports every module first (as the
    // local stack's gateway does), then sets the local environment, as local/stack.ts does.
    const modules = [...modulesUnder('lib'), ...modulesUnder('functions')];
    expect(modules.length).toBeGreaterThan(50);
    const script = `
      const { installAwsLambdaGlobal } = await import('./local/lambda.ts');
      installAwsLambdaGlobal();
      for (const file of ${JSON.stringify(modules)}) await import('./' + file);
      const before = { metrics: process.env.POWERTOOLS_METRICS_DISABLED ?? null };
      process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:8999';
      process.env.TABLE_NAME = 'after-import';
      process.env.AWS_REGION = 'eu-west-3';
      const { resetSettings } = await import('#lib/config.ts');
      resetSettings();
      const { documents, tableName } = await import('#lib/store/client.ts');
      const client = documents();
      const endpoint = await client.config.endpoint();
      const credentials = await client.config.credentials();
      console.log(JSON.stringify({
        before,
        endpoint: endpoint.protocol + '//' + endpoint.hostname + ':' + endpoint.port,
        accessKeyId: credentials.accessKeyId,
        region: await client.config.region(),
        table: tableName(),
      }));
    `;
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
    };

    // Act
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env,
      timeout: 60_000,
    });

    // Assert: the client got the local endpoint and dummy credentials (the quick start's failure
    // was a client built at import: no endpoint, and "Could not load credentials").
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(result).toEqual({
      before: { metrics: null },
      endpoint: 'http://127.0.0.1:8999',
      accessKeyId: 'local',
      region: 'eu-west-3',
      table: 'after-import',
    });
  }, 90_000);
});
