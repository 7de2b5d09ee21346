// `admin database add` (connect, test, index; nothing stored on failure), `admin database
// index` and `admin sql check` as an operator runs them: child processes against the suite's
// DynamoDB Local, with the demo shop (PGlite) always and PostgreSQL / MySQL when their test URLs
// are set. Tenants of the demo: 1 (1050 orders), 2 (800), 3 (700).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryAll } from '#lib/store/client.ts';
import { findDatabaseById } from '#lib/store/databases.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { freePort } from '../../local/dynamodb.ts';
import { admin, adminFails, adminLines, adminOk, root } from '../helpers/admin.ts';

const POSTGRES_URL = process.env.TABLETALK_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.TABLETALK_TEST_MYSQL_URL;
const PASSWORD = 'Adm1n-Secret-Pw';
const demoSeed = join(root, 'local/demo/shop.sql');
/** Each admin run that opens the demo builds its own PGlite copy (~2 s; more on a busy 2-CPU runner). */
const SLOW = 120_000;

interface Added {
  id: string;
  engine: string;
  schema_index: { relations: number; indexed_at: string } | null;
  warnings?: string[];
}
interface CheckLine {
  id: string | number;
  allowed: boolean;
  sql?: string;
  params?: unknown[];
  rows?: Record<string, unknown>[];
  code?: string;
  message?: string;
  error?: { code: string; detail?: string; message: string };
}

let dir: string;
let org: string;
let demoId: string;
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** `database add` of the demo shop with the demo's row policy. */
const addDemo = (extra: string[] = []) => [
  'database',
  'add',
  '--org',
  org,
  '--name',
  'Demo shop',
  '--engine',
  'pglite',
  '--url',
  'memory:',
  '--seed',
  demoSeed,
  '--requires-scoping',
  '--tenant-column',
  'org_id',
  '--shared-tables',
  'countries,categories',
  '--policy',
  file(
    'demo-policy.json',
    JSON.stringify({
      tables: { organizations: { tenant_column: 'id' }, monthly_sales: { tenant_column: 'org_id' } },
    }),
  ),
  ...extra,
];

const partitionItems = (id: string) =>
  queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `DB#${id}` } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'admin-sql-'));
  const created = await adminOk<{ id: number }>([
    'org',
    'create',
    '--name',
    'SQL Check Co',
    '--plan',
    'professional',
  ]);
  org = String(created.id);
  const added = await adminOk<Added>(addDemo());
  demoId = added.id;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('admin database add: connect, test and index', { timeout: SLOW }, () => {
  it('indexes the demo shop: relations, kinds, keys, estimates and tenant-safe samples', async () => {
    const record = await findDatabaseById(demoId);
    expect(record).toMatchObject({ engine: 'pglite', requiresOrganizationScoping: true, seedFile: demoSeed });
    expect(record?.schemaIndex).toMatchObject({ relations: 11, chunks: 1 });
    const catalog = await readSchemaIndex(record as NonNullable<typeof record>);
    const names = catalog?.relations.map((r) => `${r.name}:${r.kind}`).sort();
    expect(names).toEqual([
      'categories:table',
      'countries:table',
      'customers:table',
      'employees:table',
      'monthly_sales:view',
      'order_items:table',
      'orders:table',
      'organizations:table',
      'payments:table',
      'products:table',
      'stores:table',
    ]);
    const orders = catalog?.relations.find((r) => r.name === 'orders');
    expect(orders?.rowEstimate).toBe(2550);
    expect(orders?.foreignKeys.map((fk) => `${fk.columns[0]}→${fk.references.name}`).sort()).toEqual([
      'customer_id→customers',
      'employee_id→employees',
      'org_id→organizations',
      'store_id→stores',
    ]);
    expect(orders?.columns.find((c) => c.name === 'ordered_at')).toMatchObject({ kind: 'timestamp' });
    // 'pending' occurs under one tenant only in the demo data, so it is not a shared sample.
    expect(orders?.samples.status).toEqual(['cancelled', 'delivered', 'paid', 'returned', 'shipped']);
    // Tenant names and tenant-specific categories of values never reach the shared index.
    expect(catalog?.relations.find((r) => r.name === 'organizations')?.samples).toEqual({});
    expect(catalog?.relations.find((r) => r.name === 'countries')?.samples.region).toContain('Europe');
  });

  it('prints the database with its index and warns about policy names the database lacks', async () => {
    // Another name: a second database of the same name is refused (docs/design.md "The control plane").
    const added = await adminOk<Added>(
      addDemo(['--name', 'Demo shop 2', '--shared-tables', 'countries,categories,currencies']),
    );
    expect(added).toMatchObject({
      engine: 'pglite',
      requires_organization_scoping: true,
      tenant_filter_column: 'org_id',
      schema_index: { relations: 11, indexed_at: expect.any(String) },
      warnings: ['the policy lists currencies, which the database does not have'],
    });
    const list = await adminOk<{ databases: Added[] }>(['database', 'list', '--org', org]);
    expect(list.databases.map((d) => d.id)).toContain(added.id);
    expect(await adminFails(1, addDemo())).toContain('already has a database named "Demo shop"');
  });

  describe('an unreachable database stores nothing', () => {
    let silent: Server;
    let silentPort: number;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      silent = createServer((socket) => {
        sockets.push(socket);
      });
      await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
      silentPort = (silent.address() as { port: number }).port;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => silent.close(done));
    });

    it('exits 1 with the reason, never the password, and leaves no record, index or locator', async () => {
      const refusedPort = await freePort();
      // The URL from each of its three sources: a file, an environment variable, the command
      // line (which works but warns that the password is on it).
      const cases = [
        { engine: 'postgres', port: refusedPort, reason: 'COULD_NOT_CONNECT', source: 'url-file' },
        { engine: 'mysql', port: refusedPort, reason: 'COULD_NOT_CONNECT', source: 'url-env' },
        { engine: 'postgres', port: silentPort, reason: 'COULD_NOT_CONNECT', source: 'url' },
      ];
      await Promise.all(
        cases.map(async ({ engine, port, reason, source }, n) => {
          const id = `01900000-0000-7000-8000-${String(900000000000 + n + Number(org) * 10)}`;
          const url = `${engine}://reporter:${PASSWORD}@127.0.0.1:${port}/shop`;
          const given = {
            'url-file': ['--url-file', file(`url-${n}.txt`, `${url}\n`)],
            'url-env': ['--url-env', 'NOWHERE_URL'],
            url: ['--url', url],
          }[source] as string[];
          const base = ['database', 'add', '--org', org, '--name', 'Nowhere', '--engine', engine];
          const run = await admin([...base, ...given, '--id', id], {
            DB_CONNECT_TIMEOUT_MS: '500',
            NOWHERE_URL: url,
          });
          expect(run.code, run.stderr).toBe(1);
          expect(run.stdout).toBe('');
          const stderr = run.stderr.trim().split('\n');
          expect(stderr).toHaveLength(source === 'url' ? 2 : 1);
          if (source === 'url')
            expect(stderr[0]).toMatch(/^admin: warning: --url holds a password.*--url-file/);
          expect(stderr.at(-1)).toContain('Connection test failed');
          expect(stderr.at(-1)).toContain(reason);
          // Errors carry no data (docs/design.md): the host and port reach the logs only.
          expect(stderr.at(-1)).not.toContain(`127.0.0.1:${port}`);
          expect(run.stderr).not.toContain(PASSWORD);
          expect(await findDatabaseById(id)).toBeUndefined();
          expect(await partitionItems(id)).toEqual([]);
        }),
      );
    });
  });
});

describe('admin database index', { timeout: SLOW }, () => {
  it('re-indexes a database and moves its pointer to the new version', async () => {
    const before = await findDatabaseById(demoId);
    const result = await adminOk<{
      id: string;
      schema_index: { version: string; relations: number };
      relations: { name: string; kind: string; rows: number }[];
    }>(['database', 'index', '--id', demoId]);
    expect(result.id).toBe(demoId);
    expect(result.schema_index.relations).toBe(11);
    expect(result.relations).toContainEqual({ name: 'public.orders', kind: 'table', columns: 9, rows: 2550 });
    const after = await findDatabaseById(demoId);
    expect(after?.schemaIndex?.version).toBe(result.schema_index.version);
    expect(after?.schemaIndex?.version).not.toBe(before?.schemaIndex?.version);
    expect((await readSchemaIndex(after as NonNullable<typeof after>))?.relations).toHaveLength(11);
    // The superseded version is left to expire, not deleted under a reader's feet.
    const old = (await partitionItems(demoId)).filter((item) =>
      String(item.SK).startsWith(`INDEX#${before?.schemaIndex?.version}#`),
    );
    expect(old.every((item) => typeof item.expiresAt === 'number')).toBe(true);
  });

  it('reports an unknown database (exit 1) and a bad id (exit 2)', async () => {
    expect(
      await adminFails(1, ['database', 'index', '--id', '01900000-0000-7000-8000-00000000dead']),
    ).toContain('not found');
    expect(await adminFails(2, ['database', 'index', '--id', 'nope'])).toContain('--id must be a UUID');
  });
});

describe('admin sql check', { timeout: SLOW }, () => {
  it('shows the guarded SQL and its parameters, and runs it with --execute', async () => {
    const [dry] = await adminLines<CheckLine>([
      'sql',
      'check',
      '--database',
      demoId,
      '--tenant',
      '1',
      '--sql',
      'SELECT count(*) FROM orders',
    ]);
    expect(dry).toEqual({
      id: 'sql',
      allowed: true,
      sql: expect.stringContaining('public.orders'),
      params: [1],
    });

    const [one, two] = await Promise.all(
      ['1', '2'].map((tenant) =>
        adminLines<CheckLine>([
          'sql',
          'check',
          '--database',
          demoId,
          '--tenant',
          tenant,
          '--sql',
          'SELECT count(*) FROM orders',
          '--execute',
        ]),
      ),
    );
    expect(one).toEqual([{ ...dry, rows: [{ count: 1050 }] }]);
    expect(two?.[0]).toMatchObject({ params: [2], rows: [{ count: 800 }] });
  });

  it('reads queries from --jsonl and answers one line per query, refusals included', async () => {
    const queries = file(
      'queries.jsonl',
      [
        { id: 'status', sql: 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status' },
        { id: 'write', sql: "UPDATE orders SET status = 'x'" },
        { id: 'catalog', sql: 'SELECT * FROM pg_catalog.pg_user' },
        { id: 7, sql: "SELECT name FROM countries WHERE code = 'IE'" },
        { id: 'other-tenant', sql: 'SELECT count(*) AS n FROM orders WHERE org_id = 2' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const lines = await adminLines<CheckLine>([
      'sql',
      'check',
      '--database',
      demoId,
      '--tenant',
      '3',
      '--jsonl',
      queries,
      '--execute',
    ]);
    expect(lines.map((line) => [line.id, line.allowed])).toEqual([
      ['status', true],
      ['write', false],
      ['catalog', false],
      [7, true],
      ['other-tenant', true],
    ]);
    expect(lines[0]?.rows?.reduce((sum, row) => sum + Number(row.n), 0)).toBe(700);
    expect(lines[1]).toEqual({
      id: 'write',
      allowed: false,
      code: 'NOT_SELECT',
      message: expect.any(String),
    });
    expect(lines[2]).toMatchObject({ allowed: false, code: 'SYSTEM_CATALOG' });
    expect(lines[3]?.rows).toEqual([{ name: 'Ireland' }]);
    // Tenant 3 asking for tenant 2's rows gets none of them.
    expect(lines[4]?.rows).toEqual([{ n: 0 }]);
  });

  it('answers every line of a --jsonl file with bad lines in it, and exits 1', async () => {
    const queries = file(
      'mixed.jsonl',
      [
        JSON.stringify({ id: 'first', sql: 'SELECT count(*) AS n FROM orders' }),
        '',
        '{"id": "broken", "sql": "SELECT 1"',
        JSON.stringify({ id: 'no-sql' }),
        JSON.stringify({ id: 'empty-sql', sql: '  ' }),
        JSON.stringify({ id: 'extra', sql: 'SELECT 1', tenant: '2' }),
        '   ',
        '[1, 2]',
        JSON.stringify({ sql: 'SELECT 1' }),
        JSON.stringify({ id: 'write', sql: "UPDATE orders SET status = 'x'" }),
        JSON.stringify({ id: 7, sql: "SELECT name FROM countries WHERE code = 'IE'" }),
        '',
      ].join('\n'),
    );
    const run = await admin([
      'sql',
      'check',
      '--database',
      demoId,
      '--tenant',
      '3',
      '--jsonl',
      queries,
      '--execute',
    ]);
    expect(run.code, run.stderr).toBe(1);
    // The blank lines (2, 7, 12) are no records; every other line has one answer, in order.
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as CheckLine);
    expect(lines.map((line) => [line.id, line.allowed, line.code])).toEqual([
      ['first', true, undefined],
      ['line-3', false, 'INVALID_INPUT'],
      ['no-sql', false, 'INVALID_INPUT'],
      ['empty-sql', false, 'INVALID_INPUT'],
      ['extra', false, 'INVALID_INPUT'],
      ['line-8', false, 'INVALID_INPUT'],
      ['line-9', false, 'INVALID_INPUT'],
      ['write', false, 'NOT_SELECT'],
      [7, true, undefined],
    ]);
    expect(lines[0]?.rows).toEqual([{ n: 700 }]);
    expect(lines[8]?.rows).toEqual([{ name: 'Ireland' }]);
    expect(lines.slice(1, 7).map((line) => Object.keys(line))).toEqual(
      Array(6).fill(['id', 'allowed', 'code', 'message']),
    );
    expect(lines.slice(1, 7).map((line) => line.message)).toEqual([
      expect.stringMatching(/^line 3 is not JSON/),
      'line 4: sql is missing',
      'line 5: sql is empty',
      'line 6: unknown field "tenant" (a line holds id and sql only)',
      expect.stringMatching(/^line 8 is not a JSON object/),
      'line 9: id is missing',
    ]);
    // A refusal is an answer; the invalid lines are the failures.
    expect(run.stderr).toBe(
      'admin: sql check: 6 of 9 lines failed (6 invalid input lines); each has its answer on stdout\n',
    );
  });

  it('reports a query that runs past --timeout-ms as DB_QUERY_FAILED / QUERY_TIMEOUT, and exits 1', async () => {
    const run = await admin(
      [
        'sql',
        'check',
        '--database',
        demoId,
        '--tenant',
        '1',
        '--sql',
        'SELECT count(*) FROM order_items a JOIN order_items b ON a.quantity = b.quantity JOIN order_items c ON b.quantity = c.quantity',
        '--execute',
        '--timeout-ms',
        '300',
      ],
      { DB_MAX_COST: '0' },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe(
      'admin: sql check: 1 of 1 line failed (1 query error); each has its answer on stdout\n',
    );
    const [line, ...more] = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as CheckLine);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      id: 'sql',
      allowed: true,
      error: { code: 'DB_QUERY_FAILED', detail: 'QUERY_TIMEOUT' },
    });
    expect(line).not.toHaveProperty('rows');
  });

  it('refuses tenant relations without --tenant, and validates --tenant against the column type', async () => {
    const [missing] = await adminLines<CheckLine>([
      'sql',
      'check',
      '--database',
      demoId,
      '--sql',
      'SELECT count(*) FROM orders',
    ]);
    expect(missing).toMatchObject({ allowed: false, code: 'TENANT_REQUIRED' });
    expect(
      await adminFails(1, ['sql', 'check', '--database', demoId, '--tenant', 'acme', '--sql', 'SELECT 1']),
    ).toContain('--tenant: X-Tenant-Id must be a positive integer');
  });

  it('says so when a tenant is given for a database without scoping', async () => {
    const open = await adminOk<Added>([
      'database',
      'add',
      '--org',
      org,
      '--name',
      'Unscoped',
      '--engine',
      'pglite',
      '--url',
      'memory:',
      '--seed',
      file('open.sql', 'CREATE TABLE notes (id int PRIMARY KEY, body text);\n'),
    ]);
    const stderr = await adminFails(1, [
      'sql',
      'check',
      '--database',
      open.id,
      '--tenant',
      '1',
      '--sql',
      'SELECT 1',
    ]);
    expect(stderr).toContain('Organization scoping is not enabled for this database');
  });

  it('rejects bad usage with exit 2 before touching anything', async () => {
    const runs = await Promise.all([
      admin(['sql', 'check', '--database', demoId, '--sql', 'SELECT 1', '--jsonl', demoSeed]),
      admin(['sql', 'check', '--database', demoId]),
      admin(['sql', 'check', '--database', demoId, '--sql', 'SELECT 1', '--timeout-ms', '100']),
      admin(['sql', 'check', '--database', demoId, '--sql', 'SELECT 1', '--execute', '--timeout-ms', '0']),
      admin(['sql', 'check', '--database', demoId, '--jsonl', file('blank.jsonl', '\n  \n\n')]),
      admin(['sql', 'check', '--database', demoId, '--sql', ' ']),
      admin(['sql', 'check', '--database', 'x', '--sql', 'SELECT 1']),
    ]);
    const expected = [
      'one of --sql',
      'one of --sql',
      '--timeout-ms applies with --execute',
      '--timeout-ms must be a whole number',
      '--jsonl: the file holds no queries',
      '--sql must not be empty',
      '--database must be a UUID',
    ];
    runs.forEach((run, index) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(expected[index]);
    });
  });
});

describe.runIf(POSTGRES_URL)('admin with PostgreSQL', { timeout: SLOW }, () => {
  const schema = `tt_admin_${randomBytes(4).toString('hex')}`;
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA "${schema}";
      CREATE TABLE "${schema}".accounts (id integer PRIMARY KEY, org_id integer NOT NULL, plan text NOT NULL);
      INSERT INTO "${schema}".accounts SELECT g, 1 + g % 2, CASE WHEN g % 3 = 0 THEN 'gold' ELSE 'basic' END FROM generate_series(1, 30) g;
      ANALYZE "${schema}".accounts;`);
  });
  afterAll(async () => {
    await client?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client?.end();
  });

  it('adds, indexes and checks a PostgreSQL database; the password never shows', async () => {
    const url = new URL(POSTGRES_URL as string);
    url.password = PASSWORD;
    const run = await admin([
      'database',
      'add',
      '--org',
      org,
      '--name',
      'PG',
      '--engine',
      'postgres',
      '--url',
      url.toString(),
      '--requires-scoping',
      '--tenant-column',
      'org_id',
    ]);
    // --url with a password works, with a warning on stderr; stdout stays the one JSON document.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^admin: warning: --url holds a password[^\n]*--url-env NAME instead\n$/);
    expect(run.stderr).not.toContain(PASSWORD);
    expect(run.stdout).not.toContain(PASSWORD);
    const added = JSON.parse(run.stdout) as Added;
    expect(added.schema_index?.relations).toBeGreaterThanOrEqual(1);
    const catalog = await readSchemaIndex(
      (await findDatabaseById(added.id)) as NonNullable<Awaited<ReturnType<typeof findDatabaseById>>>,
    );
    expect(catalog?.relations.find((r) => r.schema === schema && r.name === 'accounts')).toMatchObject({
      rowEstimate: 30,
      primaryKey: ['id'],
      samples: { plan: ['basic', 'gold'] },
    });
    const [line] = await adminLines<CheckLine>([
      'sql',
      'check',
      '--database',
      added.id,
      '--tenant',
      '2',
      '--sql',
      `SELECT count(*) AS n FROM ${schema}.accounts`,
      '--execute',
    ]);
    expect(line).toMatchObject({ allowed: true, params: [2], rows: [{ n: 15 }] });
  });
});

describe.runIf(MYSQL_URL)('admin with MySQL', { timeout: SLOW }, () => {
  const database = `tt_admin_${randomBytes(4).toString('hex')}`;
  let connection: mysql.Connection;
  beforeAll(async () => {
    connection = await mysql.createConnection(MYSQL_URL as string);
    await connection.query(`CREATE DATABASE \`${database}\``);
    await connection.query(
      `CREATE TABLE \`${database}\`.accounts (id INT PRIMARY KEY, org_id INT NOT NULL, plan VARCHAR(20) NOT NULL)`,
    );
    const rows = Array.from(
      { length: 30 },
      (_, i) => `(${i + 1}, ${1 + ((i + 1) % 2)}, '${(i + 1) % 3 === 0 ? 'gold' : 'basic'}')`,
    );
    await connection.query(`INSERT INTO \`${database}\`.accounts VALUES ${rows.join(', ')}`);
  });
  afterAll(async () => {
    await connection?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await connection?.end();
  });

  it('adds, indexes and checks a MySQL/MariaDB database', async () => {
    const url = new URL(MYSQL_URL as string);
    url.pathname = `/${database}`;
    const added = await adminOk<Added>(
      [
        'database',
        'add',
        '--org',
        org,
        '--name',
        'My',
        '--engine',
        'mysql',
        '--url-env',
        'ADMIN_MYSQL_URL',
        '--requires-scoping',
        '--tenant-column',
        'org_id',
      ],
      { ADMIN_MYSQL_URL: url.toString() },
    );
    expect(added.schema_index?.relations).toBe(1);
    const [line] = await adminLines<CheckLine>([
      'sql',
      'check',
      '--database',
      added.id,
      '--tenant',
      '1',
      '--jsonl',
      file(
        'mysql.jsonl',
        JSON.stringify({
          id: 'plans',
          sql: 'SELECT plan, COUNT(*) AS n FROM accounts GROUP BY plan ORDER BY plan',
        }),
      ),
      '--execute',
    ]);
    expect(line).toMatchObject({
      id: 'plans',
      allowed: true,
      params: [1],
      rows: [
        { plan: 'basic', n: 10 },
        { plan: 'gold', n: 5 },
      ],
    });
  });
});
