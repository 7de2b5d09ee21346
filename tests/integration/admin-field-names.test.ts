// Every admin subcommand prints the API's field names (docs/admin.md): snake_case as the API
// writes them (created_at, prefix, organization_id, database_id, revoked_at, effective_limits…),
// never the store's camelCase (createdAt, hint, organizationId). Run as a real child process
// against the suite's DynamoDB Local, every subcommand that prints JSON, and each output
// compared key by key, at every depth, with the names the API uses for the same record.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicApiKey } from '#lib/manage/api-keys.ts';
import { findApiKey } from '#lib/store/api-keys.ts';
import { runners } from '../../admin/commands.ts';
import { demoSeedFile } from '../../local/demo/seed.ts';

const root = new URL('../..', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

const admin = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(node, ['admin/main.ts', ...args], { cwd: root, env: process.env }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });

type Json = Record<string, unknown>;

/** Every key of a JSON value, at every depth, with its path. */
const keysOf = (value: unknown, path = ''): string[] => {
  if (Array.isArray(value)) return value.flatMap((item, index) => keysOf(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    `${path}.${key}`,
    ...keysOf(inner, `${path}.${key}`),
  ]);
};

/** The keys that are not snake_case (a capital letter anywhere). */
const camelKeys = (value: unknown): string[] =>
  keysOf(value).filter((path) => /[A-Z]/.test(path.split('.').at(-1) ?? ''));

let dir: string;
const outputs = new Map<string, unknown>();

/** Runs a subcommand that must succeed; keeps each JSON line it printed under its name. */
const run = async (name: string, ...args: string[]): Promise<Json> => {
  const result = await admin(args);
  expect(result.stderr, `stderr of admin ${args.join(' ')}`).toBe('');
  expect(result.code, name).toBe(0);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
  outputs.set(name, lines.length === 1 ? lines[0] : lines);
  return lines[0] as Json;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'admin-names-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('admin output field names', () => {
  it('prints every subcommand’s JSON with the API’s snake_case names', { timeout: 180_000 }, async () => {
    const file = (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    };
    const org = await run('org create', 'org', 'create', '--name', 'Names Inc', '--plan', 'professional');
    const id = String(org.id);
    expect(org).toMatchObject({ plan: 'professional', created_at: expect.any(String) });
    await run('org set-plan', 'org', 'set-plan', '--org', id, '--plan', 'enterprise');
    const limits = await run('org set-limits', 'org', 'set-limits', '--org', id, '--per-minute', '900');
    expect(limits).toMatchObject({
      limits: { requests_per_minute: 900 },
      effective_limits: { requests_per_minute: 900 },
    });

    const sk = await run('key create (sk)', 'key', 'create', '--org', id, '--kind', 'sk', '--manage');
    // The same fields, and names, as the API's key (GET /organization/api-keys), plus the key and
    // the organization.
    const stored = await findApiKey(sk.id as string, Number(id));
    expect(stored).toBeDefined();
    if (stored) expect(sk).toEqual({ ...publicApiKey(stored), key: sk.key, organization_id: Number(id) });

    const database = await run(
      'database add',
      'database',
      'add',
      '--org',
      id,
      '--name',
      'Shop',
      '--engine',
      'pglite',
      '--url',
      'memory:',
      '--seed',
      demoSeedFile,
    );
    const databaseId = database.id as string;
    const pk = await run(
      'key create (pk)',
      'key',
      'create',
      '--org',
      id,
      '--kind',
      'pk',
      '--database',
      databaseId,
    );
    expect(pk).toMatchObject({ database_id: databaseId, prefix: expect.stringMatching(/^pk_…/) });
    await run('key list', 'key', 'list', '--org', id);
    await run('key revoke', 'key', 'revoke', '--id', pk.id as string);
    await run(
      'branding set',
      'branding',
      'set',
      '--org',
      id,
      '--file',
      file('branding.json', { colors: { primary: '#0f766e' } }),
    );
    await run('database list', 'database', 'list', '--org', id);
    await run('database index', 'database', 'index', '--id', databaseId);
    await run(
      'database glossary set',
      'database',
      'glossary',
      'set',
      '--database',
      databaseId,
      '--file',
      file('glossary.json', { synonyms: { clients: 'customers' } }),
    );
    await run(
      'personality create',
      'personality',
      'create',
      '--org',
      id,
      '--name',
      'Brief',
      '--instructions',
      'Be brief.',
    );
    await run('personality list', 'personality', 'list', '--org', id);
    await run(
      'pattern add',
      'pattern',
      'add',
      '--database',
      databaseId,
      '--question',
      'Which countries are there?',
      '--sql',
      'SELECT name FROM countries',
    );
    await run('pattern list', 'pattern', 'list', '--database', databaseId);
    await run(
      'database egress set',
      'database',
      'egress',
      'set',
      '--database',
      databaseId,
      '--model-data',
      'aggregates',
    );
    await run('conversations migrate-addresses', 'conversations', 'migrate-addresses');
    await run(
      'sql check',
      'sql',
      'check',
      '--database',
      databaseId,
      '--sql',
      'SELECT name FROM countries',
      '--execute',
    );

    // Every subcommand ran (key create twice: sk and pk).
    const ran = new Set([...outputs.keys()].map((name) => name.replace(/ \(.*\)$/, '')));
    expect([...ran].toSorted()).toEqual(Object.keys(runners).toSorted());
    for (const [name, output] of outputs) expect(camelKeys(output), name).toEqual([]);
    // Names the store uses never appear; the API's do.
    const all = JSON.stringify([...outputs.values()]);
    for (const storeName of ['"createdAt"', '"hint"', '"organizationId"', '"revokedAt"', '"effectiveLimits"'])
      expect(all).not.toContain(storeName);
    expect((outputs.get('key revoke') as Json).revoked_at).toEqual(expect.any(String));
  });
});
