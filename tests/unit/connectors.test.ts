// The pieces of the connectors that need no database: driver errors as catalogue errors with
// nothing secret left, URL → driver options (TLS from sslmode), one row shape for all drivers,
// column kinds, and the sampling rule that keeps one tenant's values from another.
import { describe, expect, it } from 'vitest';
import { type Failures, failuresOf, QueryTimeout, type Redact, redactorFor } from '#lib/connectors/errors.ts';
import { collectSamples, MAX_SAMPLE_VALUES, type SampleRequest } from '#lib/connectors/introspect.ts';
import { jsonValue, rowObjects, uniqueColumnNames } from '#lib/connectors/rows.ts';
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { mysqlConfig, mysqlSsl } from '#lib/dialects/mysql/connector.ts';
import { MYSQL_CODES } from '#lib/dialects/mysql/errors.ts';
import { mysqlColumnKind } from '#lib/dialects/mysql/introspect.ts';
import { postgresConfig, sslOptions } from '#lib/dialects/postgres/connector.ts';
import { POSTGRES_CODES } from '#lib/dialects/postgres/errors.ts';
import { postgres } from '#lib/dialects/postgres/index.ts';
import { postgresColumnKind } from '#lib/dialects/postgres/introspect.ts';

const password = 'Pa55:w@rd/%secret';
const url = `postgres://reporter:${encodeURIComponent(password)}@db.example:6543/shop?sslmode=require`;

// Each dialect maps its own drivers' codes (lib/dialects/<name>/errors.ts): a MySQL driver's
// error carries an errno or a sqlState, a PostgreSQL one its SQLSTATE as its code.
const failuresFor = (error: unknown): Failures =>
  failuresOf(
    typeof error === 'object' && error !== null && ('errno' in error || 'sqlState' in error)
      ? MYSQL_CODES
      : POSTGRES_CODES,
  );
const connectionFailed = (error: unknown, redact: Redact, where?: string) =>
  failuresFor(error).connectionFailed(error, redact, where);
const queryFailed = (error: unknown, redact: Redact, sql?: string) =>
  failuresFor(error).queryFailed(error, redact, sql);

describe('redaction', () => {
  it('cuts the password (raw, decoded, encoded) and any URL, keeping host and port', () => {
    const redact = redactorFor(url);
    const text = `failed for ${url}; password ${password}; encoded ${encodeURIComponent(password)}; other mysql://u:p@h/db at db.example:6543`;
    const safe = redact(text);
    expect(safe).not.toContain(password);
    expect(safe).not.toContain(encodeURIComponent(password));
    expect(safe).not.toContain('postgres://');
    expect(safe).not.toContain('u:p@');
    expect(safe).toContain('db.example:6543');
  });
});

describe('connection errors', () => {
  const redact = redactorFor(url);
  const driver = (message: string, fields: Record<string, unknown> = {}) =>
    Object.assign(new Error(message), fields);

  it.each([
    [driver('connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' }), 'CONNECTION_REFUSED'],
    [driver('timeout exceeded when trying to connect'), 'CONNECTION_TIMEOUT'],
    [driver('Connection terminated due to connection timeout'), 'CONNECTION_TIMEOUT'],
    [driver('connect ETIMEDOUT', { code: 'ETIMEDOUT' }), 'CONNECTION_TIMEOUT'],
    [driver('getaddrinfo ENOTFOUND db.example', { code: 'ENOTFOUND' }), 'HOST_NOT_FOUND'],
    [driver('password authentication failed for user "reporter"', { code: '28P01' }), 'AUTH_FAILED'],
    [
      driver("Access denied for user 'root'@'localhost' (using password: YES)", { errno: 1045 }),
      'AUTH_FAILED',
    ],
    [driver('database "shop" does not exist', { code: '3D000' }), 'DATABASE_NOT_FOUND'],
    [driver('The server does not support SSL connections'), 'TLS_FAILED'],
    [driver('something odd'), 'CONNECTION_FAILED'],
  ])('%s → DB_CONNECTION_FAILED / %s', (error, detail) => {
    const failure = connectionFailed(error, redact, 'db.example:6543');
    expect(failure).toMatchObject({ kind: 'DB_CONNECTION_FAILED', status: 500, detail });
    // Errors carry no data: host, port and user go to the logs only.
    expect(failure.message).not.toMatch(/db\.example|6543|127\.0\.0\.1|reporter|root/);
  });

  it('never keeps the driver error: the cause is a redacted copy', () => {
    const raw = driver(`could not connect with ${url} (${password})`, { code: 'EWHATEVER' });
    const failure = connectionFailed(raw, redact);
    expect(failure.cause).not.toBe(raw);
    for (const text of [
      failure.message,
      String(failure.cause),
      JSON.stringify(failure),
      failure.stack ?? '',
    ]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(encodeURIComponent(password));
    }
  });
});

describe('query errors', () => {
  const redact = redactorFor(url);
  it.each([
    [
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      'QUERY_TIMEOUT',
    ],
    [
      Object.assign(new Error('max_statement_time exceeded'), { errno: 1969, sqlState: '70100' }),
      'QUERY_TIMEOUT',
    ],
    [Object.assign(new Error('maximum statement execution time exceeded'), { errno: 3024 }), 'QUERY_TIMEOUT'],
    [new QueryTimeout('statement timeout'), 'QUERY_TIMEOUT'],
    [
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      '25006',
    ],
    [
      Object.assign(new Error('Cannot execute statement in a READ ONLY transaction'), {
        code: 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
        errno: 1792,
        sqlState: '25006',
      }),
      '25006',
    ],
    [
      Object.assign(new Error("Table 'x' doesn't exist"), { code: 'ER_NO_SUCH_TABLE', sqlState: '42S02' }),
      '42S02',
    ],
  ])('%s → DB_QUERY_FAILED / %s', (error, detail) => {
    expect(queryFailed(error, redact)).toMatchObject({ kind: 'DB_QUERY_FAILED', detail });
  });

  it('reports a connection lost mid-query as DB_CONNECTION_FAILED', () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), {});
    expect(queryFailed(lost, redact)).toMatchObject({
      kind: 'DB_CONNECTION_FAILED',
      detail: 'CONNECTION_RESET',
    });
  });
});

describe('URLs as driver options', () => {
  // Every mode and host kind: tests/unit/connectors-tls.test.ts.
  it('maps sslmode to pg TLS options', () => {
    expect(sslOptions(null, 'db.example')).toEqual({ rejectUnauthorized: true, servername: 'db.example' });
    expect(sslOptions(null, '127.0.0.1')).toBe(false);
    expect(sslOptions('disable', 'db.example')).toBe(false);
    expect(sslOptions('verify-ca', 'db.example')).toMatchObject({ rejectUnauthorized: true });
    expect(() => sslOptions('sometimes', 'db.example')).toThrow(/unsupported sslmode/);
  });

  it('reads user, password, database and port from a postgres URL', () => {
    expect(postgresConfig(url, 1500, 2)).toMatchObject({
      host: 'db.example',
      port: 6543,
      user: 'reporter',
      password,
      database: 'shop',
      // sslmode=require verifies (docs/databases.md "Transport security").
      ssl: { rejectUnauthorized: true, servername: 'db.example' },
      connectionTimeoutMillis: 1500,
      max: 2,
    });
    expect(postgresConfig('postgres://[::1]/x', 10, 1)).toMatchObject({ host: '::1', port: 5432 });
  });

  it('reads a mysql URL: no multi-statements, strings for dates, ssl-mode', () => {
    const config = mysqlConfig(
      `mysql://root:${encodeURIComponent(password)}@127.0.0.1/app?ssl-mode=VERIFY_IDENTITY`,
      900,
      3,
    );
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password,
      database: 'app',
      multipleStatements: false,
      dateStrings: true,
      connectTimeout: 900,
      connectionLimit: 3,
      ssl: { rejectUnauthorized: true, verifyIdentity: true },
    });
    expect(mysqlSsl('REQUIRED', 'db.example')).toEqual({ rejectUnauthorized: true, verifyIdentity: true });
    expect(mysqlSsl('DISABLED', 'db.example')).toBeUndefined();
  });
});

describe('rows', () => {
  it('renames repeated columns instead of losing values', () => {
    expect(uniqueColumnNames(['id', 'id', 'name', 'id_2', 'id'])).toEqual([
      'id',
      'id_3',
      'name',
      'id_2',
      'id_4',
    ]);
    expect(rowObjects(['id', 'id'], [[1, 2]])).toEqual({
      columns: ['id', 'id_2'],
      rows: [{ id: 1, id_2: 2 }],
    });
  });

  it('gives JSON-safe values', () => {
    expect(jsonValue(5n)).toBe(5);
    expect(jsonValue(2n ** 63n - 1n)).toBe('9223372036854775807');
    expect(jsonValue(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(jsonValue(new Uint8Array([1, 255]))).toBe('\\x01ff');
    expect(jsonValue({ a: [1n, null] })).toEqual({ a: [1, null] });
    expect(jsonValue(Number.NaN)).toBe('NaN');
  });
});

describe('column kinds', () => {
  it('maps PostgreSQL types, enums and domains by their base type', () => {
    expect(postgresColumnKind('int8', 'b')).toBe('integer');
    expect(postgresColumnKind('numeric', 'b')).toBe('decimal');
    expect(postgresColumnKind('varchar', 'b')).toBe('text');
    expect(postgresColumnKind('mood', 'e')).toBe('text');
    expect(postgresColumnKind('uuid', 'b')).toBe('uuid');
    expect(postgresColumnKind('timestamptz', 'b')).toBe('timestamp');
    expect(postgresColumnKind('jsonb', 'b')).toBe('json');
    expect(postgresColumnKind('interval', 'b')).toBe('other');
  });

  it('maps MySQL types, with TINYINT(1) as boolean', () => {
    expect(mysqlColumnKind('tinyint', 'tinyint(1)')).toBe('boolean');
    expect(mysqlColumnKind('tinyint', 'tinyint(4)')).toBe('integer');
    expect(mysqlColumnKind('bigint', 'bigint(20) unsigned')).toBe('integer');
    expect(mysqlColumnKind('enum', "enum('a','b')")).toBe('text');
    expect(mysqlColumnKind('datetime', 'datetime')).toBe('timestamp');
    expect(mysqlColumnKind('decimal', 'decimal(10,2)')).toBe('decimal');
    expect(mysqlColumnKind('blob', 'blob')).toBe('other');
  });
});

describe('samples', () => {
  const relation = (name: string, columns: [string, 'text' | 'integer'][]): CatalogRelation => ({
    schema: 'public',
    name,
    kind: 'table',
    columns: columns.map(([column, kind]) => ({ name: column, kind, nativeType: kind, nullable: true })),
    primaryKey: [],
    foreignKeys: [],
    rowEstimate: 0,
    samples: {},
  });
  const catalog = (): Catalog => ({
    dialect: 'postgres',
    defaultSchema: 'public',
    relations: [
      relation('orders', [
        ['org_id', 'integer'],
        ['status', 'text'],
        ['note', 'text'],
      ]),
      relation('organizations', [
        ['id', 'integer'],
        ['name', 'text'],
      ]),
      relation('countries', [['name', 'text']]),
      relation('secrets', [['value', 'text']]),
    ],
    userFunctions: [],
    indexedAt: '2026-01-01T00:00:00.000Z',
  });
  const data: Record<string, { v: string; tenants: number }[]> = {
    'orders.status': [
      { v: 'delivered', tenants: 2 },
      { v: 'tenant-one-only', tenants: 1 },
    ],
    'orders.note': Array.from({ length: MAX_SAMPLE_VALUES + 1 }, (_, i) => ({ v: `note ${i}`, tenants: 2 })),
    'organizations.name': [
      { v: 'Acme', tenants: 1 },
      { v: 'Initech', tenants: 1 },
    ],
    'countries.name': [
      { v: 'Spain', tenants: 0 },
      { v: 'Japan', tenants: 0 },
    ],
    'secrets.value': [{ v: 'hunter2', tenants: 0 }],
  };
  const requests: SampleRequest[] = [];
  const query = async (request: SampleRequest) => {
    requests.push(request);
    return data[`${request.relation.name}.${request.column}`] ?? [];
  };

  it('keeps only values of two tenants or more on tenant-filtered relations, none of refused ones', async () => {
    const policy = effectivePolicy({
      requiresOrganizationScoping: true,
      tenantFilterColumn: 'org_id',
      policy: {
        tenant_column: 'org_id',
        tables: { organizations: { tenant_column: 'id' }, countries: { shared: true } },
      },
    });
    const scoped = catalog();
    requests.length = 0;
    await collectSamples(scoped, { policy }, query, postgres);
    const samples = Object.fromEntries(scoped.relations.map((r) => [r.name, r.samples]));
    expect(samples).toEqual({
      orders: { status: ['delivered'] }, // note: more than 50 distinct values, not a category
      organizations: {}, // tenant names never reach another tenant
      countries: { name: ['Spain', 'Japan'] },
      secrets: {}, // refused by the guard: not even queried
    });
    expect(requests.find((r) => r.relation.name === 'orders')?.tenantColumn).toBe('org_id');
    expect(requests.find((r) => r.relation.name === 'organizations')?.tenantColumn).toBe('id');
    expect(requests.some((r) => r.relation.name === 'secrets')).toBe(false);
  });

  it('keeps every value without a policy (a database without tenants)', async () => {
    const open = catalog();
    await collectSamples(open, {}, query, postgres);
    expect(open.relations[0]?.samples).toEqual({ status: ['delivered', 'tenant-one-only'] });
    expect(open.relations[1]?.samples).toEqual({ name: ['Acme', 'Initech'] });
  });
});
