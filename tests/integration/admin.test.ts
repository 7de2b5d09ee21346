// The admin command, run as a real child process (Node 24 from node_modules/.bin, as
// `npm run admin` does) against the suite's DynamoDB Local, which it finds through the
// DYNAMODB_ENDPOINT / TABLE_NAME / LOCAL_SECRET_KEY_FILE environment set by the global setup.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '#lib/auth/api-keys.ts';
import { clearPrincipalCaches, resolvePrincipal } from '#lib/auth/principal.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { findApiKeyByHash } from '#lib/store/api-keys.ts';
import { readBranding } from '#lib/store/branding.ts';
import { documents, tableName } from '#lib/store/client.ts';
import { findDatabase } from '#lib/store/databases.ts';
import { findOrganization } from '#lib/store/organizations.ts';
import { applyTarget, resolveTarget } from '../../admin/target.ts';
import { freePort } from '../../local/dynamodb.ts';

const root = new URL('../..', import.meta.url).pathname;
const node = join(root, 'node_modules/.bin/node');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const admin = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  new Promise((done) => {
    execFile(
      node,
      ['admin/main.ts', ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });

/** Runs a command that must succeed and returns its one JSON document. */
const ok = async <T = Record<string, unknown>>(...args: string[]): Promise<T> => {
  const run = await admin(args);
  expect(run.stderr, `stderr of admin ${args.join(' ')}`).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as T;
};

/** Runs a command that must fail: nothing on stdout, one line on stderr. */
const fails = async (expectedCode: number, ...args: string[]): Promise<string> => {
  const run = await admin(args);
  expect(run.stdout).toBe('');
  expect(run.code).toBe(expectedCode);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  return run.stderr;
};

interface Org {
  id: number;
  name: string;
  plan: string;
  status: string;
  created_at: string;
}

let dir: string;
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'admin-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('admin command line', () => {
  it('prints usage: --help exits 0, no arguments exits 2; unknown commands and options exit 2', async () => {
    const [help, none, unknown, unknownAction, unknownOption] = await Promise.all([
      admin(['--help']),
      admin([]),
      admin(['frobnicate']),
      admin(['org', 'delete', '--org', '1']),
      admin(['org', 'create', '--name', 'X', '--colour', 'red']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run --silent admin --/);
    expect(help.stdout).toContain('database add --org ID');
    expect(none.code).toBe(2);
    expect(none.stdout).toBe(help.stdout);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(unknownAction).toMatchObject({ code: 2, stdout: '' });
    expect(unknownAction.stderr).toContain('org: create, set-plan');
    expect(unknownOption).toMatchObject({ code: 2, stdout: '' });
    expect(unknownOption.stderr).toContain('unknown option --colour');
  });

  it('reports a local stack that is not running in one line', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const run = await admin(['org', 'create', '--name', 'Nowhere'], { DYNAMODB_ENDPOINT: endpoint });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toBe(
      `admin: DynamoDB not reachable at ${endpoint}: start the local stack with npm start\n`,
    );
  });

  it('targets the environment first, and a stage table without an endpoint with --stage', () => {
    expect(resolveTarget(undefined, { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', TABLE_NAME: 't' })).toEqual({
      kind: 'local',
      stage: 'local',
      endpoint: 'http://127.0.0.1:9',
      tableName: 't',
    });
    const env: NodeJS.ProcessEnv = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', TABLE_NAME: 't' };
    applyTarget(resolveTarget('dev', env), env);
    expect(env).toEqual({ STAGE: 'dev', TABLE_NAME: 'tabletalk-dev' });
    expect(() => resolveTarget('not a stage', {})).toThrow(/--stage/);
  });
});

describe('admin org', () => {
  it('creates organizations with increasing integer ids and changes their plan', async () => {
    const first = await ok<Org>('org', 'create', '--name', 'Acme', '--plan', 'professional');
    const second = await ok<Org>('org', 'create', '--name', 'Initech');
    expect(Number.isInteger(first.id)).toBe(true);
    expect(second.id).toBeGreaterThan(first.id);
    expect(first).toMatchObject({ name: 'Acme', plan: 'professional', status: 'active' });
    expect(second.plan).toBe('free');
    const stored = await findOrganization(first.id);
    expect(first).toEqual({
      id: stored?.id,
      name: stored?.name,
      plan: stored?.plan,
      status: stored?.status,
      created_at: stored?.createdAt,
    });

    const changed = await ok<Org>('org', 'set-plan', '--org', String(second.id), '--plan', 'starter');
    expect(changed).toEqual({ ...second, plan: 'starter' });
    expect((await findOrganization(second.id))?.plan).toBe('starter');
  });

  it('rejects bad input with exit 2 and unknown organizations with exit 1', async () => {
    const [badPlan, noName, badId, missing] = await Promise.all([
      fails(2, 'org', 'create', '--name', 'X', '--plan', 'platinum'),
      fails(2, 'org', 'create', '--name', '  '),
      fails(2, 'org', 'set-plan', '--org', 'one', '--plan', 'free'),
      fails(1, 'org', 'set-plan', '--org', '987654321', '--plan', 'free'),
    ]);
    expect(badPlan).toContain('--plan must be one of free, starter, professional, business, enterprise');
    expect(noName).toContain('name must not be empty');
    expect(badId).toContain('--org must be an organization id');
    expect(missing).toBe('admin: organization 987654321 not found\n');
  });
});

describe('admin key', () => {
  it('creates an sk key that authenticates, lists it without secrets, and revokes it', async () => {
    const org = await ok<Org>('org', 'create', '--name', 'Keys Inc', '--plan', 'starter');
    const created = await ok('key', 'create', '--org', String(org.id), '--kind', 'sk');
    expect(created).toMatchObject({
      kind: 'sk',
      organization_id: org.id,
      database_id: null,
      prefix: expect.stringMatching(/^sk_…/),
      created_at: expect.any(String),
    });
    expect(created.key).toMatch(/^sk_/);

    const principal = await resolvePrincipal({ apiKey: created.key as string });
    expect(principal).toMatchObject({
      credential: 'sk',
      organizationId: org.id,
      plan: 'starter',
      keyId: created.id,
    });

    const run = await admin(['key', 'list', '--org', String(org.id)]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(created.key as string);
    expect(run.stdout).not.toContain(hashApiKey(created.key as string));
    const { keys } = JSON.parse(run.stdout) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      id: created.id,
      kind: 'sk',
      organization_id: org.id,
      prefix: created.prefix,
      revoked_at: null,
    });
    expect(keys[0]).not.toHaveProperty('key');
    expect(keys[0]).not.toHaveProperty('hash');

    const revoked = await ok('key', 'revoke', '--id', created.id as string);
    expect(revoked).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    expect(revoked).not.toHaveProperty('hash');
    const relisted = await ok<{ keys: Record<string, unknown>[] }>('key', 'list', '--org', String(org.id));
    expect(relisted.keys[0]?.revoked_at).toBe(revoked.revoked_at);
    expect((await findApiKeyByHash(hashApiKey(created.key as string)))?.revokedAt).toBe(revoked.revoked_at);
    clearPrincipalCaches(); // the 60 s key cache of a warm container
    await expect(resolvePrincipal({ apiKey: created.key as string })).rejects.toMatchObject({
      kind: 'INVALID_CREDENTIALS',
    });

    expect(await fails(1, 'key', 'revoke', '--id', '01900000-0000-7000-8000-000000000000')).toContain(
      'not found',
    );
  });

  it('binds a pk key to an existing database of the organization', async () => {
    const org = await ok<Org>('org', 'create', '--name', 'Widgets', '--plan', 'professional');
    const other = await ok<Org>('org', 'create', '--name', 'Other');
    const seed = file('pk-seed.sql', 'CREATE TABLE t (id int);\n');
    const database = await ok(
      'database',
      'add',
      '--org',
      String(org.id),
      '--name',
      'Demo',
      '--engine',
      'pglite',
      '--url',
      'memory:',
      '--seed',
      seed,
    );

    const [noDatabase, skWithDatabase, badOrigin, unknownDatabase, otherOrg, unknownOrg] = await Promise.all([
      fails(2, 'key', 'create', '--org', String(org.id), '--kind', 'pk'),
      fails(2, 'key', 'create', '--org', String(org.id), '--kind', 'sk', '--database', database.id as string),
      fails(
        2,
        'key',
        'create',
        '--org',
        String(org.id),
        '--kind',
        'pk',
        '--database',
        database.id as string,
        '--origins',
        'https://a.example/app',
      ),
      fails(
        1,
        'key',
        'create',
        '--org',
        String(org.id),
        '--kind',
        'pk',
        '--database',
        '01900000-0000-7000-8000-000000000000',
      ),
      fails(
        1,
        'key',
        'create',
        '--org',
        String(other.id),
        '--kind',
        'pk',
        '--database',
        database.id as string,
      ),
      fails(1, 'key', 'create', '--org', '987654321', '--kind', 'sk'),
    ]);
    expect(noDatabase).toContain('pk key needs --database');
    expect(skWithDatabase).toContain('leave out --database');
    expect(badOrigin).toContain('--origins');
    expect(unknownDatabase).toContain('database 01900000-0000-7000-8000-000000000000 not found');
    expect(otherOrg).toContain(`not found in organization ${other.id}`);
    expect(unknownOrg).toContain('organization 987654321 not found');

    const created = await ok(
      'key',
      'create',
      '--org',
      String(org.id),
      '--kind',
      'pk',
      '--database',
      database.id as string,
      '--origins',
      'https://a.example, https://b.example/',
    );
    expect(created).toMatchObject({
      kind: 'pk',
      organization_id: org.id,
      database_id: database.id,
      origins: ['https://a.example', 'https://b.example'],
    });
    expect(created.key).toMatch(/^pk_/);
    expect(await resolvePrincipal({ apiKey: created.key as string })).toMatchObject({
      credential: 'pk',
      organizationId: org.id,
      databaseId: database.id,
      allowedOrigins: ['https://a.example', 'https://b.example'],
    });
  });
});

describe('admin database', () => {
  const password = 'S3cret-Pa55word';
  const url = `postgres://reporter:${password}@db.internal.example:5432/shop`;
  // `database add` connects before it stores anything (tests/integration/admin-sql.test.ts has
  // the unreachable cases), so the stored-secret checks need a real server: the test PostgreSQL,
  // whose trust authentication ignores the password in the URL.
  const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
  const reachable = (() => {
    if (!postgresUrl) return url;
    const parsed = new URL(postgresUrl);
    parsed.username = 'postgres';
    parsed.password = password;
    return parsed.toString();
  })();

  it.runIf(postgresUrl)(
    'adds a database without ever showing its URL, and stores only a secret reference',
    async () => {
      const org = await ok<Org>('org', 'create', '--name', 'Shopco', '--plan', 'business');
      const policy = file(
        'policy.json',
        JSON.stringify({
          scope_column: 'user_id',
          tables: { 'public.orders': { tenant_column: 'shop_id' }, countries: { shared: false } },
        }),
      );
      const id = '01900000-0000-7000-8000-00000000abcd';
      // The URL with its password from a file (one line, a trailing newline is fine).
      const run = await admin([
        'database',
        'add',
        '--org',
        String(org.id),
        '--name',
        'Shop',
        '--engine',
        'postgres',
        '--url-file',
        file('shop-url.txt', `${reachable}\n`),
        '--requires-scoping',
        '--tenant-column',
        'org_id',
        '--shared-tables',
        'countries,currencies',
        '--policy',
        policy,
        '--id',
        id,
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      for (const secret of [password, 'postgres://', '127.0.0.1']) expect(run.stdout).not.toContain(secret);
      const { warnings, ...shown } = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(shown).toEqual({
        id,
        name: 'Shop',
        engine: 'postgres',
        status: 'active',
        requires_organization_scoping: true,
        tenant_filter_column: 'org_id',
        scope_filter_column: 'user_id',
        created_at: expect.any(String),
        schema_index: { relations: expect.any(Number), indexed_at: expect.any(String) },
      });
      expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining('currencies')]));

      const record = await findDatabase(org.id, id);
      expect(record?.connectionRef).toBeDefined();
      expect(record?.connectionRef).not.toBe(reachable);
      expect(await secretStore().read(record?.connectionRef as string)).toBe(reachable);
      expect(record?.policy).toEqual({
        tenant_column: 'org_id',
        scope_column: 'user_id',
        tables: {
          'public.orders': { tenant_column: 'shop_id' },
          countries: { shared: true },
          currencies: { shared: true },
        },
      });
      const { Item } = await documents().send(
        new GetCommand({ TableName: tableName(), Key: { PK: `ORG#${org.id}`, SK: `DB#${id}` } }),
      );
      expect(JSON.stringify(Item)).not.toContain(password);

      const list = await admin(['database', 'list', '--org', String(org.id)]);
      expect(list.code).toBe(0);
      expect(list.stdout).not.toContain(password);
      expect(list.stdout).not.toContain('connectionRef');
      expect(JSON.parse(list.stdout)).toEqual({ databases: [shown] });

      // The same URL from an environment variable.
      const again = await admin(
        [
          'database',
          'add',
          '--org',
          String(org.id),
          '--name',
          'Shop',
          '--engine',
          'postgres',
          '--url-env',
          'SHOP_DATABASE_URL',
          '--id',
          id,
        ],
        { SHOP_DATABASE_URL: reachable },
      );
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toContain('already exists');
      expect(again.stderr).not.toContain(password);
    },
  );

  it('adds a pglite database with the absolute path of its seed file', async () => {
    const org = await ok<Org>('org', 'create', '--name', 'Demo Org');
    const seed = file('seed.sql', 'CREATE TABLE items (id int, org_id int);\n');
    const added = await ok(
      'database',
      'add',
      '--org',
      String(org.id),
      '--name',
      'Demo',
      '--engine',
      'pglite',
      '--url',
      'memory:',
      '--seed',
      seed,
    );
    expect(added).toMatchObject({
      engine: 'pglite',
      requires_organization_scoping: false,
      tenant_filter_column: null,
    });
    const record = await findDatabase(org.id, added.id as string);
    expect(record?.seedFile).toBe(seed);
    expect(record?.connectionRef).not.toBe('memory:');
  });

  it('rejects invalid input with exit 2 without repeating the URL', async () => {
    const org = await ok<Org>('org', 'create', '--name', 'Strict');
    const base = ['database', 'add', '--org', String(org.id), '--name', 'Shop'];
    const badPolicy = file('bad-policy.json', JSON.stringify({ tenant_column: 'org id' }));
    const conflicting = file('conflict-policy.json', JSON.stringify({ tenant_column: 'tenant_id' }));
    const urlFile = file('bad-engine-url.txt', `${url}\n`);
    const runs = await Promise.all([
      admin([...base, '--engine', 'mysql', '--url', url]),
      admin([...base, '--engine', 'postgres', '--url', url, '--requires-scoping']),
      admin([...base, '--engine', 'postgres', '--url', url, '--policy', badPolicy]),
      admin([
        ...base,
        '--engine',
        'postgres',
        '--url',
        url,
        '--policy',
        conflicting,
        '--tenant-column',
        'org_id',
      ]),
      admin([...base, '--engine', 'postgres', '--url', url, '--shared-tables', 'ok,not ok']),
      admin([...base, '--engine', 'postgres', '--url', url, '--seed', join(dir, 'seed.sql')]),
      admin([...base, '--engine', 'oracle', '--url', url]),
      admin([...base, '--engine', 'pglite', '--url', 'memory:', '--seed', join(dir, 'missing.sql')]),
      admin([...base, '--engine', 'pglite', '--url', url, '--seed', join(dir, 'seed.sql')]),
      admin([...base, '--engine', 'postgres', '--uri', url]),
      admin([...base, '--engine', 'postgres', url]),
      // --url-file, --url-env and --url: exactly one, and what it gives is checked as --url is.
      admin([...base, '--engine', 'postgres', '--url', url, '--url-env', 'SHOP_URL'], { SHOP_URL: url }),
      admin([...base, '--engine', 'postgres', '--url-file', urlFile, '--url-env', 'SHOP_URL'], {
        SHOP_URL: url,
      }),
      admin([...base, '--engine', 'postgres']),
      admin([...base, '--engine', 'postgres', '--url-file', join(dir, 'missing-url.txt')]),
      admin([...base, '--engine', 'postgres', '--url-file', file('empty-url.txt', '\n \n')]),
      admin([...base, '--engine', 'postgres', '--url-file', file('two-urls.txt', `${url}\n${url}\n`)]),
      admin([...base, '--engine', 'mysql', '--url-file', urlFile]),
      admin([...base, '--engine', 'postgres', '--url-env', 'SHOP_URL'], { SHOP_URL: '' }),
      admin([...base, '--engine', 'postgres', '--url-env', url]),
      admin([...base, '--engine', 'mysql', '--url-env', 'SHOP_URL'], { SHOP_URL: url }),
      admin([...base, '--engine', 'postgres', '--url-env', 'SHOP_URL'], { SHOP_URL: 'not a url' }),
    ]);
    const expected = [
      '--url for engine mysql must start with mysql:// or mariadb://',
      '--requires-scoping needs a tenant column',
      'tenant_column: must be a plain column name',
      'disagrees',
      'tables.not ok: must be a table name',
      '--seed applies to engine pglite only',
      '--engine must be one of postgres, mysql, pglite',
      `--seed: no such file ${join(dir, 'missing.sql')}`,
      'engine pglite takes --url memory:',
      'unknown option --uri',
      'unexpected extra argument',
      'database add takes one of --url-file, --url-env or --url',
      'database add takes one of --url-file, --url-env or --url',
      'engine postgres needs its URL: --url-file FILE or --url-env NAME',
      `--url-file: no such file ${join(dir, 'missing-url.txt')}`,
      `--url-file: ${join(dir, 'empty-url.txt')} must hold the URL on one line (it is empty)`,
      `--url-file: ${join(dir, 'two-urls.txt')} must hold the URL on one line`,
      '--url-file for engine mysql must start with mysql:// or mariadb://',
      '--url-env: the environment variable SHOP_URL is not set or is empty',
      '--url-env takes the name of an environment variable',
      '--url-env for engine mysql must start with mysql:// or mariadb://',
      '--url-env is not a valid URL',
    ];
    runs.forEach((run, index) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(expected[index]);
      expect(run.stderr).not.toContain(password);
    });
    // A password on the command line is warned about (before the error); a URL without one,
    // or one from a file or the environment, is not.
    expect(runs[1]?.stderr.split('\n')[0]).toMatch(/^admin: warning: --url holds a password/);
    const quiet = await Promise.all([
      admin([
        ...base,
        '--engine',
        'postgres',
        '--url',
        'postgres://reporter@db.internal.example/shop',
        '--requires-scoping',
      ]),
      admin([...base, '--engine', 'postgres', '--url-env', 'SHOP_URL', '--requires-scoping'], {
        SHOP_URL: url,
      }),
    ]);
    for (const run of quiet) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        'admin: --requires-scoping needs a tenant column: --tenant-column COL or tenant_column in --policy\n',
      );
    }
    // 22 admin processes at once: on a busy machine that takes more than the suite's 30 s.
  }, 120_000);
});

describe('admin branding', () => {
  it('sets branding from a file and names the invalid field of a bad one', async () => {
    const org = await ok<Org>('org', 'create', '--name', 'Branded');
    const good = file(
      'branding.json',
      JSON.stringify({ colors: { primary: '#112233' }, widget_theme: { position: 'top-left' } }),
    );
    const effective = await ok<{ colors: Record<string, string>; widget_theme: Record<string, string> }>(
      'branding',
      'set',
      '--org',
      String(org.id),
      '--file',
      good,
    );
    expect(effective.colors.primary).toBe('#112233');
    expect(effective.colors.secondary).toBe('#1e293b');
    expect(effective.widget_theme.position).toBe('top-left');
    expect(await readBranding(org.id)).toEqual(effective);

    const bad = file('bad-branding.json', JSON.stringify({ colors: { primary: 'blue' } }));
    const [badColor, notJson, missingOrg] = await Promise.all([
      fails(2, 'branding', 'set', '--org', String(org.id), '--file', bad),
      fails(2, 'branding', 'set', '--org', String(org.id), '--file', file('broken.json', '{')),
      fails(1, 'branding', 'set', '--org', '987654321', '--file', good),
    ]);
    expect(badColor).toContain('colors.primary: must be a hex color');
    expect(notJson).toContain('is not valid JSON');
    expect(missingOrg).toContain('organization 987654321 not found');
    expect((await readBranding(org.id)).colors.primary).toBe('#112233');
  });
});
