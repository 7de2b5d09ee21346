// The three connectors against real databases: PGlite always, PostgreSQL and MySQL/MariaDB when
// TABLETALK_TEST_POSTGRES_URL / TABLETALK_TEST_MYSQL_URL are set. Each suite creates its own
// schema (or database) and drops it afterwards. One contract for all: introspection (tables,
// views, kinds, keys, estimates, tenant-safe samples), bound parameters and one row shape,
// read-only execution, the statement timeout, and connection failures that never show a password.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeConnectors, connectorFor, createConnector } from '#lib/connectors/index.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import type { Connector } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { SQL_MODE } from '#lib/dialects/mysql/connector.ts';
import type { PgliteConnector } from '#lib/dialects/postgres/pglite.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { freePort } from '../../local/dynamodb.ts';

const POSTGRES_URL = process.env.TABLETALK_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.TABLETALK_TEST_MYSQL_URL;
const PASSWORD = 'Sup3r-Secret-Pw';

// ---- the fixture, in both dialects -------------------------------------------------------------

const regions = ['North', 'South', 'West'];
const customers = Array.from({ length: 60 }, (_, i) => {
  const id = i + 1;
  const org = id <= 40 ? 1 : 2;
  // 'vip' exists in tenant 1 only: a tenant-filtered sample must not show it.
  const status = org === 1 ? ['active', 'inactive', 'vip'][id % 3] : ['active', 'inactive'][id % 2];
  const signedUp = `2024-${String((id % 12) + 1).padStart(2, '0')}-15`;
  return { id, org, region: (id % 3) + 1, name: `Customer ${id}`, status, signedUp };
});
const orders = Array.from({ length: 120 }, (_, i) => {
  const customer = customers[i % customers.length] as (typeof customers)[0];
  return {
    id: i + 1,
    org: customer.org,
    customer: customer.id,
    total: ((i * 37) % 250) + 0.5,
    placedAt: `2025-0${(i % 9) + 1}-0${(i % 9) + 1} 10:${String(i % 60).padStart(2, '0')}:00`,
    paid: i % 4 !== 0,
  };
});
const org1Orders = orders.filter((o) => o.org === 1).length;

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

// Comments: what the relations and columns hold in words (a view has none on MySQL).
const CUSTOMERS_COMMENT = 'Shoppers (buyers / clients) with an account';
const TOTAL_COMMENT = "Order total in euros, tax included; it's the amount charged";
const BIG_ORDERS_COMMENT = 'Orders over 100 euros';

const postgresFixture = (schema: string): string => {
  const t = (name: string) => (schema === 'public' ? name : `"${schema}".${name}`);
  return `
CREATE TABLE ${t('regions')} (id integer PRIMARY KEY, name varchar(50) NOT NULL);
CREATE TABLE ${t('customers')} (id integer PRIMARY KEY, org_id integer NOT NULL,
  region_id integer REFERENCES ${t('regions')} (id), name text NOT NULL, status varchar(20) NOT NULL,
  signed_up date NOT NULL, external_id uuid);
CREATE TABLE ${t('orders')} (id integer PRIMARY KEY, org_id integer NOT NULL,
  customer_id integer NOT NULL REFERENCES ${t('customers')} (id), total numeric(10, 2) NOT NULL,
  placed_at timestamp NOT NULL, paid boolean NOT NULL, meta jsonb);
CREATE VIEW ${t('big_orders')} AS SELECT id, org_id, total FROM ${t('orders')} WHERE total > 100;
COMMENT ON TABLE ${t('customers')} IS ${quote(`  ${CUSTOMERS_COMMENT}  `)};
COMMENT ON TABLE ${t('regions')} IS '   ';
COMMENT ON COLUMN ${t('orders')}.total IS ${quote(TOTAL_COMMENT)};
COMMENT ON VIEW ${t('big_orders')} IS ${quote(BIG_ORDERS_COMMENT)};
INSERT INTO ${t('regions')} VALUES ${regions.map((r, i) => `(${i + 1}, ${quote(r)})`).join(', ')};
INSERT INTO ${t('customers')} (id, org_id, region_id, name, status, signed_up) VALUES
${customers.map((c) => `(${c.id}, ${c.org}, ${c.region}, ${quote(c.name)}, ${quote(c.status ?? '')}, '${c.signedUp}')`).join(',\n')};
INSERT INTO ${t('orders')} (id, org_id, customer_id, total, placed_at, paid) VALUES
${orders.map((o) => `(${o.id}, ${o.org}, ${o.customer}, ${o.total}, '${o.placedAt}', ${o.paid})`).join(',\n')};
ANALYZE ${t('regions')}; ANALYZE ${t('customers')}; ANALYZE ${t('orders')};
`;
};

const mysqlFixture = (): string[] => [
  "CREATE TABLE regions (id INT PRIMARY KEY, name VARCHAR(50) NOT NULL) ENGINE=InnoDB COMMENT='   '",
  `CREATE TABLE customers (id INT PRIMARY KEY, org_id INT NOT NULL, region_id INT, name VARCHAR(100) NOT NULL,
    status VARCHAR(20) NOT NULL, signed_up DATE NOT NULL, external_id CHAR(36),
    FOREIGN KEY (region_id) REFERENCES regions (id)) ENGINE=InnoDB COMMENT=${quote(`  ${CUSTOMERS_COMMENT}  `)}`,
  `CREATE TABLE orders (id INT PRIMARY KEY, org_id INT NOT NULL, customer_id INT NOT NULL,
    total DECIMAL(10, 2) NOT NULL COMMENT ${quote(TOTAL_COMMENT)}, placed_at DATETIME NOT NULL, paid TINYINT(1) NOT NULL, meta JSON,
    FOREIGN KEY (customer_id) REFERENCES customers (id)) ENGINE=InnoDB`,
  'CREATE VIEW big_orders AS SELECT id, org_id, total FROM orders WHERE total > 100',
  `INSERT INTO regions VALUES ${regions.map((r, i) => `(${i + 1}, ${quote(r)})`).join(', ')}`,
  `INSERT INTO customers (id, org_id, region_id, name, status, signed_up) VALUES ${customers
    .map(
      (c) => `(${c.id}, ${c.org}, ${c.region}, ${quote(c.name)}, ${quote(c.status ?? '')}, '${c.signedUp}')`,
    )
    .join(', ')}`,
  `INSERT INTO orders (id, org_id, customer_id, total, placed_at, paid) VALUES ${orders
    .map((o) => `(${o.id}, ${o.org}, ${o.customer}, ${o.total}, '${o.placedAt}', ${o.paid ? 1 : 0})`)
    .join(', ')}`,
  'ANALYZE TABLE regions, customers, orders',
];

/** Tenant rows on org_id; regions (no org_id) shared, named with its schema. */
const policyFor = (schema: string) =>
  effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: { [`${schema}.regions`]: { shared: true } } },
  });

// ---- the contract ------------------------------------------------------------------------------

interface Subject {
  connector: Connector;
  /** Where the fixture lives (a schema, or the MySQL database). */
  schema: string;
  table: (name: string) => string;
  param: (n: number) => string;
  sleep: string;
  dialect: 'postgres' | 'mysql';
  mariadb?: boolean;
}

const relation = (catalog: Catalog, schema: string, name: string) => {
  const found = catalog.relations.find((r) => r.schema === schema && r.name === name);
  if (!found) throw new Error(`${schema}.${name} not in the catalog`);
  return found;
};

const contract = (subject: () => Subject) => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await subject().connector.introspect({ policy: policyFor(subject().schema) });
  });

  it('introspects tables, views, columns with their kinds, primary and foreign keys', () => {
    const { schema, dialect } = subject();
    const customersRelation = relation(catalog, schema, 'customers');
    expect(customersRelation.kind).toBe('table');
    expect(customersRelation.primaryKey).toEqual(['id']);
    expect(customersRelation.foreignKeys).toEqual([
      { columns: ['region_id'], references: { schema, name: 'regions', columns: ['id'] } },
    ]);
    expect(Object.fromEntries(customersRelation.columns.map((c) => [c.name, c.kind]))).toEqual({
      id: 'integer',
      org_id: 'integer',
      region_id: 'integer',
      name: 'text',
      status: 'text',
      signed_up: 'date',
      external_id: dialect === 'postgres' ? 'uuid' : 'text',
    });
    expect(customersRelation.columns.find((c) => c.name === 'region_id')?.nullable).toBe(true);
    expect(customersRelation.columns.find((c) => c.name === 'name')?.nullable).toBe(false);

    const ordersRelation = relation(catalog, schema, 'orders');
    expect(ordersRelation.foreignKeys).toEqual([
      { columns: ['customer_id'], references: { schema, name: 'customers', columns: ['id'] } },
    ]);
    expect(ordersRelation.columns.map((c) => [c.name, c.kind])).toEqual(
      expect.arrayContaining([
        ['total', 'decimal'],
        ['placed_at', 'timestamp'],
        ['paid', 'boolean'],
      ]),
    );
    expect(relation(catalog, schema, 'big_orders')).toMatchObject({ kind: 'view', rowEstimate: 0 });
    expect(relation(catalog, schema, 'big_orders').columns.map((c) => c.name)).toEqual([
      'id',
      'org_id',
      'total',
    ]);
  });

  it('reads the comments of relations and columns as their descriptions, none when empty', () => {
    const { schema, dialect } = subject();
    expect(relation(catalog, schema, 'customers').description).toBe(CUSTOMERS_COMMENT);
    expect(relation(catalog, schema, 'regions')).not.toHaveProperty('description');
    expect(relation(catalog, schema, 'orders')).not.toHaveProperty('description');
    const total = relation(catalog, schema, 'orders').columns.find((c) => c.name === 'total');
    expect(total?.description).toBe(TOTAL_COMMENT);
    expect(relation(catalog, schema, 'orders').columns.find((c) => c.name === 'paid')).not.toHaveProperty(
      'description',
    );
    // MySQL views carry the word VIEW where a table has its comment: it is no description.
    const view = relation(catalog, schema, 'big_orders');
    if (dialect === 'postgres') expect(view.description).toBe(BIG_ORDERS_COMMENT);
    else expect(view).not.toHaveProperty('description');
  });

  it('has row estimates and tenant-safe samples of low-cardinality text columns', () => {
    const { schema } = subject();
    expect(relation(catalog, schema, 'customers').rowEstimate).toBeGreaterThan(0);
    expect(relation(catalog, schema, 'orders').rowEstimate).toBeGreaterThan(0);
    // vip occurs under tenant 1 only; 60 distinct names are not a category.
    expect(relation(catalog, schema, 'customers').samples).toEqual({ status: ['active', 'inactive'] });
    expect(relation(catalog, schema, 'regions').samples).toEqual({ name: ['North', 'South', 'West'] });
  });

  it('runs a query with bound parameters and gives one row shape', async () => {
    const { connector, table, param, dialect } = subject();
    const result = await connector.execute(
      `SELECT c.id, o.id, c.status, c.signed_up, o.total, o.placed_at, o.paid FROM ${table('customers')} c
       JOIN ${table('orders')} o ON o.customer_id = c.id WHERE c.org_id = ${param(1)} AND c.id = ${param(2)}
       ORDER BY o.id LIMIT 1`,
      [1, 2],
      { timeoutMs: 10_000 },
    );
    expect(result.columns).toEqual(['id', 'id_2', 'status', 'signed_up', 'total', 'placed_at', 'paid']);
    expect(result.rows).toEqual([
      {
        id: 2,
        id_2: 2,
        status: 'vip',
        signed_up: '2024-03-15',
        total: '37.50',
        placed_at: '2025-02-02 10:01:00',
        paid: dialect === 'postgres' ? true : 1,
      },
    ]);
    const count = await connector.execute(
      `SELECT count(*) AS n FROM ${table('orders')} WHERE org_id = ${param(1)}`,
      [1],
      { timeoutMs: 10_000 },
    );
    expect(count.rows).toEqual([{ n: org1Orders }]);
  });

  it('refuses to write: an INSERT passed straight to execute fails and changes nothing', async () => {
    const { connector, table } = subject();
    await expect(
      connector.execute(`INSERT INTO ${table('regions')} (id, name) VALUES (99, 'East')`, [], {
        timeoutMs: 10_000,
      }),
    ).rejects.toMatchObject({ kind: 'DB_QUERY_FAILED', detail: '25006' });
    const after = await connector.execute(`SELECT count(*) AS n FROM ${table('regions')}`, [], {
      timeoutMs: 10_000,
    });
    expect(after.rows).toEqual([{ n: 3 }]);
  });

  it('cuts a slow query at the statement timeout (QUERY_TIMEOUT) and answers the next one', async () => {
    const { connector, sleep, table } = subject();
    const started = performance.now();
    await expect(connector.execute(sleep, [], { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'DB_QUERY_FAILED',
      detail: 'QUERY_TIMEOUT',
    });
    expect(performance.now() - started).toBeLessThan(4_000);
    const next = await connector.execute(`SELECT count(*) AS n FROM ${table('regions')}`, [], {
      timeoutMs: 30_000,
    });
    expect(next.rows).toEqual([{ n: 3 }]);
  });
};

const postgresOnly = (subject: () => Subject) => {
  it('bounds the memory of each sort or hash of a guarded query (work_mem)', async () => {
    const result = await subject().connector.execute("SELECT current_setting('work_mem') AS work_mem", [], {
      timeoutMs: 10_000,
    });
    expect(result.rows).toEqual([{ work_mem: '8MB' }]);
  });

  it('pins search_path to pg_catalog: an unqualified table does not resolve', async () => {
    await expect(
      subject().connector.execute('SELECT count(*) FROM customers', [], { timeoutMs: 10_000 }),
    ).rejects.toMatchObject({ kind: 'DB_QUERY_FAILED', detail: '42P01' });
  });

  it('checks the EXPLAIN cost ceiling before running', async () => {
    const { connector, table } = subject();
    const sql = `SELECT count(*) FROM ${table('orders')} a, ${table('orders')} b`;
    await expect(connector.execute(sql, [], { timeoutMs: 10_000, maxCost: 1 })).rejects.toMatchObject({
      kind: 'DB_QUERY_FAILED',
      detail: 'QUERY_TOO_EXPENSIVE',
    });
    expect((await connector.execute(sql, [], { timeoutMs: 10_000, maxCost: 1e7 })).rows).toEqual([
      { count: orders.length ** 2 },
    ]);
  });
};

// ---- PGlite ------------------------------------------------------------------------------------

describe('PGlite connector', { timeout: 60_000 }, () => {
  let dir: string;
  let connector: Connector;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'connectors-'));
    const seedFile = join(dir, 'seed.sql');
    writeFileSync(seedFile, postgresFixture('public'));
    connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile });
  });
  afterAll(async () => {
    await connector.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const subject = (): Subject => ({
    connector,
    schema: 'public',
    table: (name) => `public.${name}`,
    param: (n) => `$${n}`,
    sleep: 'SELECT pg_sleep(5)',
    dialect: 'postgres',
  });
  contract(subject);
  postgresOnly(subject);

  it('queues requests and keeps serving them across a worker replacement', async () => {
    const results = await Promise.allSettled([
      connector.execute('SELECT pg_sleep(5)', [], { timeoutMs: 300 }),
      connector.execute('SELECT count(*) AS n FROM public.customers', [], { timeoutMs: 30_000 }),
      connector.execute('SELECT $1::int + 1 AS n', [41], { timeoutMs: 30_000 }),
    ]);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { detail: 'QUERY_TIMEOUT' } });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 60 }] } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 42 }] } });
  });

  it('cuts overrunning queries by killing the worker process, never a thread of this one', async () => {
    // Stopping WebAssembly mid-run by terminating a worker thread while its replacement starts
    // can crash the whole process (SIGSEGV); a killed child process cannot take this one along.
    const pglite = connector as PgliteConnector;
    await connector.execute('SELECT 1', [], { timeoutMs: 30_000 });
    for (let cut = 0; cut < 2; cut++) {
      const before = pglite.workerProcessId;
      expect(before).toBeGreaterThan(0);
      expect(before).not.toBe(process.pid);
      await expect(connector.execute('SELECT pg_sleep(5)', [], { timeoutMs: 200 })).rejects.toMatchObject({
        detail: 'QUERY_TIMEOUT',
      });
      const alive = () => {
        try {
          process.kill(before as number, 0);
          return true;
        } catch {
          return false;
        }
      };
      await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 5_000 });
      expect((await connector.execute('SELECT 41 + 1 AS n', [], { timeoutMs: 30_000 })).rows).toEqual([
        { n: 42 },
      ]);
      expect(pglite.workerProcessId).not.toBe(before);
    }
  });

  it('reports a seed that does not load as DB_CONNECTION_FAILED / SEED_FAILED', async () => {
    const bad = join(dir, 'bad.sql');
    writeFileSync(bad, 'CREATE TABLE broken (;\n');
    const broken = await createConnector({ engine: 'pglite', url: 'memory:', seedFile: bad });
    await expect(broken.test()).rejects.toMatchObject({
      kind: 'DB_CONNECTION_FAILED',
      detail: 'SEED_FAILED',
    });
    await broken.close();
  });
});

// ---- PostgreSQL --------------------------------------------------------------------------------

describe.runIf(POSTGRES_URL)('PostgreSQL connector', () => {
  const schema = `tt_conn_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let connector: Connector;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.query(postgresFixture(schema));
    // A password in the URL (trust authentication ignores it) must never surface anywhere.
    const url = new URL(POSTGRES_URL as string);
    url.password = PASSWORD;
    connector = await createConnector({ engine: 'postgres', url: url.toString() });
  });
  afterAll(async () => {
    await connector?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });
  const subject = (): Subject => ({
    connector,
    schema,
    table: (name) => `"${schema}".${name}`,
    param: (n) => `$${n}`,
    sleep: 'SELECT pg_sleep(5)',
    dialect: 'postgres',
  });
  contract(subject);
  postgresOnly(subject);

  it('runs every query in a read-only transaction with the statement timeout set', async () => {
    const result = await connector.execute(
      "SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout, current_setting('search_path') AS path",
      [],
      { timeoutMs: 1234 },
    );
    expect(result.rows).toEqual([{ ro: 'on', timeout: '1234ms', path: 'pg_catalog' }]);
  });
});

// ---- MySQL / MariaDB ---------------------------------------------------------------------------

describe.runIf(MYSQL_URL)('MySQL connector', () => {
  const database = `tt_conn_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection;
  let connector: Connector;
  let mariadb = false;
  beforeAll(async () => {
    admin = await mysql.createConnection(MYSQL_URL as string);
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`USE \`${database}\``);
    for (const statement of mysqlFixture()) await admin.query(statement);
    const [rows] = await admin.query<mysql.RowDataPacket[]>('SELECT VERSION() AS v');
    mariadb = /mariadb/i.test(String(rows[0]?.v));
    const url = new URL(MYSQL_URL as string);
    url.pathname = `/${database}`;
    connector = await createConnector({ engine: 'mysql', url: url.toString() });
  });
  afterAll(async () => {
    await connector?.close();
    await admin?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin?.end();
  });
  const subject = (): Subject => ({
    connector,
    schema: database,
    table: (name) => `\`${database}\`.\`${name}\``,
    param: () => '?',
    sleep: 'SELECT SLEEP(5)',
    dialect: 'mysql',
    mariadb,
  });
  contract(subject);

  it('pins sql_mode for every query', async () => {
    const result = await connector.execute('SELECT @@SESSION.sql_mode AS mode', [], { timeoutMs: 1000 });
    expect(String(result.rows[0]?.mode).split(',').sort()).toEqual(SQL_MODE.split(',').sort());
  });

  it('reports a wrong password as AUTH_FAILED without showing it', async () => {
    const url = new URL(MYSQL_URL as string);
    url.password = PASSWORD;
    const wrong = await createConnector({ engine: 'mysql', url: url.toString() });
    const error = await wrong.test().then(
      () => undefined,
      (e: unknown) => e,
    );
    await wrong.close();
    expect(error).toMatchObject({ kind: 'DB_CONNECTION_FAILED', detail: 'AUTH_FAILED' });
    expectNoSecret(error);
  });
});

// ---- connection failures (no server needed) ----------------------------------------------------

const expectNoSecret = (error: unknown) => {
  const e = error as Error & { cause?: unknown; detail?: string };
  for (const text of [e.message, e.stack ?? '', String(e.cause), JSON.stringify(e), e.detail ?? '']) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toMatch(/(postgres|mysql):\/\//);
  }
};

describe('connection failures', () => {
  let silent: Server;
  let silentPort: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never says a word: the connect timeout must fire.
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

  for (const engine of ['postgres', 'mysql'] as const) {
    const scheme = engine === 'postgres' ? 'postgres' : 'mysql';

    it(`${engine}: a refused port is DB_CONNECTION_FAILED / CONNECTION_REFUSED, without the password`, async () => {
      const port = await freePort();
      const connector = await createConnector({
        engine,
        url: `${scheme}://reporter:${PASSWORD}@127.0.0.1:${port}/shop`,
        connectTimeoutMs: 2_000,
      });
      const error = await connector.test().then(
        () => undefined,
        (e: unknown) => e,
      );
      await connector.close();
      expect(error).toMatchObject({ kind: 'DB_CONNECTION_FAILED', detail: 'CONNECTION_REFUSED' });
      // Errors carry no data: neither host, port nor user reach the message (logs only).
      expect((error as Error).message).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${port}|reporter`));
      expectNoSecret(error);
    });

    it(`${engine}: a server that never answers is CONNECTION_TIMEOUT after the connect timeout`, async () => {
      const connector = await createConnector({
        engine,
        url: `${scheme}://reporter:${PASSWORD}@127.0.0.1:${silentPort}/shop`,
        connectTimeoutMs: 300,
      });
      const started = performance.now();
      const error = await connector.execute('SELECT 1', [], { timeoutMs: 1_000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      await connector.close();
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(error).toMatchObject({ kind: 'DB_CONNECTION_FAILED', detail: 'CONNECTION_TIMEOUT' });
      expectNoSecret(error);
    });
  }
});

// ---- the container cache -----------------------------------------------------------------------

describe('connectorFor', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'connector-for-'));
  });
  afterAll(async () => {
    await closeConnectors();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the URL through the secret store and keeps one connector per database', async () => {
    const seedFile = join(dir, 'seed.sql');
    writeFileSync(seedFile, 'CREATE TABLE t (id int); INSERT INTO t VALUES (1), (2);\n');
    const record: DatabaseRecord = {
      id: '01900000-0000-7000-8000-0000000000c1',
      organizationId: 1,
      name: 'Cached',
      engine: 'pglite',
      status: 'active',
      requiresOrganizationScoping: false,
      policy: { tables: {} },
      connectionRef: await secretStore().save('cached', 'memory:'),
      seedFile,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const first = await connectorFor(record);
    expect(await connectorFor(record)).toBe(first);
    expect(
      (await first.execute('SELECT count(*) AS n FROM public.t', [], { timeoutMs: 30_000 })).rows,
    ).toEqual([{ n: 2 }]);
    const rotated = await connectorFor({
      ...record,
      connectionRef: await secretStore().save('cached', 'memory:'),
    });
    expect(rotated).not.toBe(first);
  });
});
