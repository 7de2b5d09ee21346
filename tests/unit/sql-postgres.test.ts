// The PostgreSQL guard without a database (lib/dialects/postgres/sql-guard.ts): the printed shape of each
// rewrite, the row cap, every refusal code, and the corpus at the guard level. Execution and
// the leak oracle: tests/integration/sql-postgres-*.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import { COMMON_FUNCTIONS, POSTGRES_FUNCTIONS } from '#lib/dialects/postgres/functions.ts';
import { loadPostgresParser, parseStatements } from '#lib/dialects/postgres/parser.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { GuardOutcome, GuardRequest, RefusalCode } from '#lib/sql/types.ts';
import { corpusAttacks, corpusCatalog, corpusPolicy, corpusQueries } from '../corpus/postgres-oracle.ts';
import { randomQuery } from '../corpus/postgres-random.ts';

const catalog = corpusCatalog();
const policy = corpusPolicy();

/** Request fields to change; `undefined` removes one (no tenant, no scope). */
type Overrides = { [K in keyof GuardRequest]?: GuardRequest[K] | undefined };

const guard = async (sql: string, overrides: Overrides = {}): Promise<GuardOutcome> => {
  const request: Record<string, unknown> = { sql, catalog, policy, tenant: 7, rowCap: 100, ...overrides };
  for (const key of Object.keys(request)) if (request[key] === undefined) delete request[key];
  return guardPostgres(request as unknown as GuardRequest);
};

/** The printed SQL and parameters of an allowed query (fails the test when refused). */
const rewrite = async (sql: string, overrides: Overrides = {}) => {
  const outcome = await guard(sql, overrides);
  if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}`);
  return outcome;
};

const refusal = async (sql: string, overrides: Overrides = {}) => {
  const outcome = await guard(sql, overrides);
  if (outcome.allowed) throw new Error(`allowed: ${outcome.sql}`);
  return outcome;
};

const wrapped = (table: string, alias = table, condition = `${table}.org_id = $1`) =>
  `( SELECT * FROM public.${table} WHERE ${condition} OFFSET 0 ) AS ${alias}`;

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('guardPostgres: rewrite shapes', () => {
  it('wraps a tenant table in a filtering subquery named like the table', async () => {
    const { sql, params } = await rewrite('SELECT id FROM products');
    expect(sql).toBe(`SELECT id FROM ${wrapped('products')} LIMIT 101`);
    expect(params).toEqual([7]);
  });

  it('adds the scope filter to tables with a scope column when a scope is given, as $2', async () => {
    const { sql, params } = await rewrite('SELECT o.id, p.name FROM orders o JOIN products p ON true', {
      scope: 'alice',
    });
    expect(sql).toBe(
      `SELECT o.id, p.name FROM ${wrapped('orders', 'o', 'orders.org_id = $1 AND orders.scope_id = $2')} ` +
        `JOIN ${wrapped('products', 'p')} ON true LIMIT 101`,
    );
    expect(params).toEqual([7, 'alice']);
  });

  it('keeps the alias, its column list and ONLY', async () => {
    const { sql } = await rewrite('SELECT x.a FROM ONLY orders AS x(a, b)');
    expect(sql).toBe(
      'SELECT x.a FROM ( SELECT * FROM ONLY public.orders WHERE orders.org_id = $1 OFFSET 0 ) AS x(a, b) LIMIT 101',
    );
  });

  it('uses per-table tenant columns, other schemas and quoted names', async () => {
    expect((await rewrite('SELECT name FROM organizations')).sql).toContain(
      wrapped('organizations', 'organizations', 'organizations.id = $1'),
    );
    expect((await rewrite('SELECT * FROM invoices')).sql).toContain(
      'WHERE invoices.organization_id = $1 OFFSET 0 ) AS invoices',
    );
    expect((await rewrite('SELECT * FROM analytics.daily_metrics m')).sql).toContain(
      '( SELECT * FROM analytics.daily_metrics WHERE daily_metrics.org_id = $1 OFFSET 0 ) AS m',
    );
    expect((await rewrite('SELECT "Id" FROM "AuditLog"')).sql).toBe(
      'SELECT "Id" FROM ( SELECT * FROM public."AuditLog" WHERE "AuditLog".org_id = $1 OFFSET 0 ) AS "AuditLog" LIMIT 101',
    );
  });

  it('only schema-qualifies shared tables, and needs no tenant for them', async () => {
    const outcome = await rewrite('SELECT c.name FROM countries c', { tenant: undefined });
    expect(outcome).toEqual({
      allowed: true,
      sql: 'SELECT c.name FROM public.countries AS c LIMIT 101',
      params: [],
    });
  });

  it('filters on the scope alone (as $1) when the database does not require tenant scoping', async () => {
    const unscoped = corpusPolicy(false);
    expect(
      await rewrite('SELECT id FROM orders', { policy: unscoped, tenant: undefined, scope: 's1' }),
    ).toEqual({
      allowed: true,
      sql: `SELECT id FROM ${wrapped('orders', 'orders', 'orders.scope_id = $1')} LIMIT 101`,
      params: ['s1'],
    });
    expect(await rewrite('SELECT id FROM products', { policy: unscoped, tenant: undefined })).toEqual({
      allowed: true,
      sql: 'SELECT id FROM public.products LIMIT 101',
      params: [],
    });
  });

  it('filters every side of LEFT, RIGHT and FULL joins inside the join, not in the outer WHERE', async () => {
    for (const join of ['LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']) {
      const { sql } = await rewrite(
        `SELECT c.id, o.id FROM customers c ${join} orders o ON o.customer_id = c.id`,
      );
      expect(sql).toBe(
        `SELECT c.id, o.id FROM ${wrapped('customers', 'c')} ${join} ${wrapped('orders', 'o')} ON o.customer_id = c.id LIMIT 101`,
      );
    }
  });

  it('filters subqueries in every position', async () => {
    const positions = [
      'SELECT (SELECT count(*) FROM orders) FROM customers',
      'SELECT id FROM customers WHERE id IN (SELECT customer_id FROM orders)',
      'SELECT id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)',
      'SELECT id FROM customers WHERE id = ANY (SELECT customer_id FROM orders)',
      'SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) > (SELECT count(*) FROM customers)',
      'SELECT id FROM customers ORDER BY (SELECT max(total) FROM orders)',
      'SELECT c.id FROM customers c, LATERAL (SELECT o.id FROM orders o WHERE o.customer_id = c.id) x',
      'SELECT s.n FROM (SELECT count(*) AS n FROM orders) s CROSS JOIN customers',
      'SELECT id FROM customers UNION SELECT id FROM orders',
      'SELECT id FROM customers INTERSECT SELECT id FROM orders EXCEPT SELECT 1',
      'SELECT id, ARRAY(SELECT id FROM orders) FROM customers',
      'SELECT coalesce((SELECT max(id) FROM orders), 0) FROM customers',
      'SELECT id FROM customers LIMIT (SELECT count(*) FROM orders)',
    ];
    for (const sql of positions) {
      const printed = (await rewrite(sql)).sql;
      expect(count(printed, 'WHERE customers.org_id = $1'), sql).toBe(1);
      expect(count(printed, 'WHERE orders.org_id = $1'), sql).toBe(1);
      expect(printed, sql).not.toMatch(/FROM (customers|orders)\b/);
    }
  });

  it('leaves CTE references alone and filters the tables in CTE bodies', async () => {
    const { sql } = await rewrite(
      'WITH big AS (SELECT * FROM orders WHERE total > 100) SELECT count(*) FROM big',
    );
    expect(sql).toBe(
      `WITH big AS (SELECT * FROM ${wrapped('orders')} WHERE total > 100) SELECT count(*) FROM big LIMIT 101`,
    );
  });

  it('resolves a CTE that shadows a table as PostgreSQL does', async () => {
    // The body's `orders` is the table (a CTE does not see itself without RECURSIVE); the main query's is the CTE.
    expect((await rewrite('WITH orders AS (SELECT * FROM orders) SELECT * FROM orders')).sql).toBe(
      `WITH orders AS (SELECT * FROM ${wrapped('orders')}) SELECT * FROM orders LIMIT 101`,
    );
    // A schema-qualified name is never a CTE.
    expect(
      (await rewrite('WITH orders AS (SELECT 1 AS id) SELECT o.id FROM public.orders o, orders')).sql,
    ).toBe(`WITH orders AS (SELECT 1 AS id) SELECT o.id FROM ${wrapped('orders', 'o')}, orders LIMIT 101`);
    // Without RECURSIVE an earlier CTE cannot see a later one: `customers` in `a` is the table.
    expect(
      (
        await rewrite(
          'WITH a AS (SELECT id FROM customers), customers AS (SELECT * FROM a) SELECT * FROM customers',
        )
      ).sql,
    ).toBe(
      `WITH a AS (SELECT id FROM ${wrapped('customers')}), customers AS (SELECT * FROM a) SELECT * FROM customers LIMIT 101`,
    );
    // With RECURSIVE every CTE of the list sees all of them.
    expect(
      (
        await rewrite(
          'WITH RECURSIVE a AS (SELECT * FROM customers), customers AS (SELECT 1 AS id) SELECT * FROM a',
        )
      ).sql,
    ).toBe(
      'WITH RECURSIVE a AS (SELECT * FROM customers), customers AS (SELECT 1 AS id) SELECT * FROM a LIMIT 101',
    );
    // A CTE of a subquery is not visible to its siblings.
    expect(
      (await rewrite('SELECT * FROM (WITH orders AS (SELECT 1 AS id) SELECT * FROM orders) a, orders b')).sql,
    ).toBe(
      `SELECT * FROM ( WITH orders AS (SELECT 1 AS id) SELECT * FROM orders ) AS a, ${wrapped('orders', 'b')} LIMIT 101`,
    );
    // ... but it is visible in nested subqueries below it.
    expect(
      (
        await rewrite(
          'WITH orders AS (SELECT 1 AS id) SELECT * FROM (SELECT * FROM (SELECT id FROM orders) x) y',
        )
      ).sql,
    ).not.toContain('public.orders');
  });

  it('filters the tables of a recursive CTE and leaves its self-reference', async () => {
    const { sql } = await rewrite(
      'WITH RECURSIVE t AS (SELECT id FROM categories WHERE parent_id IS NULL UNION ALL SELECT c.id FROM categories c JOIN t ON c.parent_id = t.id) SELECT * FROM t',
    );
    expect(sql).toBe(
      `WITH RECURSIVE t AS (SELECT id FROM ${wrapped('categories')} WHERE parent_id IS NULL UNION ALL ` +
        `SELECT c.id FROM ${wrapped('categories', 'c')} JOIN t ON c.parent_id = t.id) SELECT * FROM t LIMIT 101`,
    );
  });

  it('rewrites schema.table.column references to the table name the subquery carries', async () => {
    const { sql } = await rewrite(
      'SELECT public.orders.id, public.orders.* FROM public.orders WHERE public.orders.total > 1',
    );
    expect(sql).toBe(`SELECT orders.id, orders.* FROM ${wrapped('orders')} WHERE orders.total > 1 LIMIT 101`);
  });

  it('binds tenant and scope values as parameters, never in the SQL text', async () => {
    const tenant = "7'; DROP TABLE orders; --";
    const { sql, params } = await rewrite('SELECT id FROM orders', { tenant, scope: "x' OR '1'='1" });
    expect(params).toEqual([tenant, "x' OR '1'='1"]);
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain("'1'='1");
  });

  it('prints strings so that their meaning does not depend on standard_conforming_strings', async () => {
    const { sql } = await rewrite(String.raw`SELECT E'a\\b\'c', $$it's$$, U&'\0041' FROM countries`);
    expect(sql).toBe(String.raw`SELECT E'a\\b''c', 'it''s', 'A' FROM public.countries LIMIT 101`);
  });
});

describe('guardPostgres: row cap', () => {
  it('adds LIMIT cap+1 when there is none, and keeps OFFSET', async () => {
    expect((await rewrite('SELECT id FROM countries', { rowCap: 50 })).sql).toBe(
      'SELECT id FROM public.countries LIMIT 51',
    );
    expect((await rewrite('SELECT code FROM countries OFFSET 3', { rowCap: 0 })).sql).toBe(
      'SELECT code FROM public.countries LIMIT 1 OFFSET 3',
    );
  });

  it('keeps a smaller constant limit and lowers a larger one (LIMIT ALL included)', async () => {
    expect((await rewrite('SELECT code FROM countries LIMIT 5')).sql).toBe(
      'SELECT code FROM public.countries LIMIT 5',
    );
    expect((await rewrite('SELECT code FROM countries LIMIT 101')).sql).toBe(
      'SELECT code FROM public.countries LIMIT 101',
    );
    expect((await rewrite('SELECT code FROM countries LIMIT 100000')).sql).toBe(
      'SELECT code FROM public.countries LIMIT 101',
    );
    expect((await rewrite('SELECT code FROM countries LIMIT ALL')).sql).toBe(
      'SELECT code FROM public.countries LIMIT 101',
    );
    expect((await rewrite('SELECT code FROM countries FETCH FIRST 3 ROWS ONLY')).sql).toBe(
      'SELECT code FROM public.countries LIMIT 3',
    );
  });

  it('wraps a query whose limit is not a constant', async () => {
    expect((await rewrite('SELECT code FROM countries LIMIT 2 + 2')).sql).toBe(
      'SELECT * FROM ( SELECT code FROM public.countries LIMIT 2 + 2 ) AS capped LIMIT 101',
    );
  });

  it('caps a set operation as a whole', async () => {
    expect(
      (await rewrite('SELECT code FROM countries UNION ALL SELECT name FROM countries ORDER BY 1')).sql,
    ).toBe(
      'SELECT code FROM public.countries UNION ALL SELECT name FROM public.countries ORDER BY 1 LIMIT 101',
    );
  });

  it('refuses FETCH ... WITH TIES: the deparser prints it as a plain LIMIT (fail closed)', async () => {
    const outcome = await refusal('SELECT code FROM countries ORDER BY region FETCH FIRST 2 ROWS WITH TIES');
    expect(outcome.code).toBe('REPRINT_MISMATCH');
  });
});

describe('guardPostgres: refusals', () => {
  const cases: [RefusalCode, string, Overrides?][] = [
    ['PARSE_ERROR', 'SELEC 1'],
    ['PARSE_ERROR', 'SELECT * FROM orders /* unterminated'],
    ['NOT_ONE_STATEMENT', 'SELECT 1; SELECT 2'],
    ['NOT_ONE_STATEMENT', '  '],
    ['NOT_ONE_STATEMENT', '-- only a comment'],
    ['NOT_SELECT', 'DELETE FROM orders'],
    ['NOT_SELECT', "COPY orders TO '/tmp/x'"],
    ['NOT_SELECT', 'DO $$ BEGIN END $$'],
    ['NOT_SELECT', 'EXPLAIN SELECT 1'],
    ['NOT_SELECT', 'SET search_path = public'],
    ['DATA_MODIFYING_CTE', 'WITH d AS (DELETE FROM orders RETURNING id) SELECT * FROM d'],
    [
      'DATA_MODIFYING_CTE',
      'SELECT * FROM (WITH u AS (UPDATE orders SET total = 0 RETURNING id) SELECT id FROM u) s',
    ],
    ['SELECT_INTO', 'SELECT * INTO copy FROM orders'],
    ['LOCKING_CLAUSE', 'SELECT * FROM orders FOR UPDATE'],
    ['LOCKING_CLAUSE', 'SELECT id FROM (SELECT id FROM orders FOR SHARE) s'],
    ['TABLESAMPLE', 'SELECT * FROM orders TABLESAMPLE SYSTEM (5)'],
    ['PLACEHOLDER', 'SELECT * FROM orders WHERE id = $1'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT pg_sleep(1)'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT pg_catalog.set_config($$a.b$$, $$c$$, false)'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT public.lower(name) FROM customers'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT tenant_secret()'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT reverse(name) FROM customers'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT current_user'],
    ['FUNCTION_NOT_ALLOWED', "SELECT 'x'::public.mood"],
    ['FUNCTION_NOT_ALLOWED', "SELECT name OPERATOR(public.+) 'x' FROM customers"],
    ['SYSTEM_CATALOG', 'SELECT * FROM pg_class'],
    ['SYSTEM_CATALOG', 'SELECT * FROM information_schema.tables'],
    ['SYSTEM_CATALOG', "SELECT 'pg_authid'::regclass"],
    ['RELATION_NOT_ALLOWED', 'SELECT * FROM platform_admins'],
    ['RELATION_NOT_ALLOWED', 'SELECT * FROM all_customer_emails'],
    ['RELATION_NOT_ALLOWED', 'SELECT * FROM invoice_number_seq'],
    ['UNKNOWN_RELATION', 'SELECT * FROM nope'],
    ['TENANT_REQUIRED', 'SELECT * FROM orders', { tenant: undefined }],
    ['UNSUPPORTED_SYNTAX', 'SELECT * FROM test.public.orders'],
    ['UNSUPPORTED_SYNTAX', "SELECT xmlelement(name a, 'x')"],
    ['UNSUPPORTED_SYNTAX', `SELECT ${Array.from({ length: 600 }, () => '1').join(' + ')}`],
    ['UNSUPPORTED_SYNTAX', `SELECT 1 WHERE ${'1 = 1 AND '.repeat(2_500)}true`],
    ['REPRINT_MISMATCH', 'SELECT status, count(*) FROM orders GROUP BY DISTINCT status'],
  ];

  it.each(cases)('%s: %s', async (code, sql, overrides) => {
    const outcome = await refusal(sql, overrides ?? {});
    expect(outcome.code).toBe(code);
    expect(outcome.message).not.toBe('');
  });

  it('covers every refusal code of the contract', () => {
    const codes = new Set(cases.map(([code]) => code));
    const all: RefusalCode[] = [
      'PARSE_ERROR',
      'NOT_ONE_STATEMENT',
      'NOT_SELECT',
      'DATA_MODIFYING_CTE',
      'SELECT_INTO',
      'LOCKING_CLAUSE',
      'TABLESAMPLE',
      'PLACEHOLDER',
      'FUNCTION_NOT_ALLOWED',
      'SYSTEM_CATALOG',
      'RELATION_NOT_ALLOWED',
      'UNKNOWN_RELATION',
      'TENANT_REQUIRED',
      'UNSUPPORTED_SYNTAX',
      'REPRINT_MISMATCH',
    ];
    expect([...codes].sort()).toEqual([...all].sort());
  });

  it('refuses names of user functions even when listed schema-qualified in the catalog', async () => {
    const withQualified: Catalog = { ...catalog, userFunctions: ['public.lower'] };
    expect((await refusal('SELECT lower(name) FROM customers', { catalog: withQualified })).code).toBe(
      'FUNCTION_NOT_ALLOWED',
    );
    expect(await guard('SELECT lower(name) FROM customers')).toMatchObject({ allowed: true });
  });

  it('refuses pathological nesting without exhausting the stack, and keeps working after it', async () => {
    expect((await refusal(`SELECT ${'ARRAY['.repeat(3_000)}1${']'.repeat(3_000)}`)).code).toBe(
      'UNSUPPORTED_SYNTAX',
    );
    expect((await refusal(`SELECT ${'('.repeat(20_000)}1${')'.repeat(20_000)}`)).code).toBe(
      'UNSUPPORTED_SYNTAX',
    );
    expect(await guard('SELECT 1')).toMatchObject({ allowed: true });
  });

  it('rejects a row cap that is not a non-negative integer', async () => {
    await expect(guard('SELECT 1', { rowCap: -1 })).rejects.toThrow(RangeError);
  });
});

describe('guardPostgres: the corpus', () => {
  it.each(corpusQueries().map((query) => [query.id, query.sql]))('allows %s', async (_id, sql) => {
    expect(await guard(sql, { scope: 'alice' })).toMatchObject({ allowed: true });
  });

  it.each(corpusAttacks().map((attack) => [attack.id, attack]))('attack %s', async (_id, attack) => {
    const outcome = await guard(attack.sql);
    if (attack.expect === 'refused') {
      expect(outcome).toMatchObject({ allowed: false, ...(attack.code ? { code: attack.code } : {}) });
    } else if (outcome.allowed) {
      // Stopped at execution (tests/integration): allowed here only with the row cap applied.
      expect(outcome.sql).toMatch(/LIMIT 101$/);
    }
  });

  it('holds at least 150 legitimate queries and 80 attacks', () => {
    expect(corpusQueries().length).toBeGreaterThanOrEqual(150);
    expect(corpusAttacks().length).toBeGreaterThanOrEqual(80);
  });
});

describe('guardPostgres: structural property over random queries', () => {
  interface Found {
    relations: { schema?: string; name: string }[];
    ctes: Set<string>;
    filters: number;
  }

  /** Every RangeVar, CTE name and `= $1` comparison in a parse tree. */
  const collect = (node: unknown, found: Found): Found => {
    if (Array.isArray(node)) for (const child of node) collect(child, found);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const range = record.RangeVar as { schemaname?: string; relname: string } | undefined;
      if (range)
        found.relations.push({
          ...(range.schemaname ? { schema: range.schemaname } : {}),
          name: range.relname,
        });
      const cte = record.CommonTableExpr as { ctename: string } | undefined;
      if (cte) found.ctes.add(cte.ctename);
      const param = record.ParamRef as { number?: number } | undefined;
      if (param?.number === 1) found.filters++;
      for (const child of Object.values(record)) collect(child, found);
    }
    return found;
  };

  it('allows them, leaves no relation unqualified but CTEs, and filters each tenant table', async () => {
    await loadPostgresParser();
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        // Arrange
        const sql = randomQuery(g);

        // Act
        const outcome = await guard(sql);

        // Assert
        if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}\n${sql}`);
        const found = collect(parseStatements(outcome.sql), { relations: [], ctes: new Set(), filters: 0 });
        for (const relation of found.relations) {
          if (relation.schema === undefined) expect(found.ctes, sql).toContain(relation.name);
        }
        const tenantTables = found.relations.filter((r) => r.schema !== undefined && r.name !== 'countries');
        expect(found.filters, sql).toBe(tenantTables.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('function allowlist', () => {
  it('leaves out the functions that read files, sleep, lock, change settings or run SQL text', () => {
    for (const name of [
      'pg_sleep',
      'pg_read_file',
      'pg_ls_dir',
      'lo_import',
      'lo_get',
      'dblink',
      'query_to_xml',
      'set_config',
      'current_setting',
      'txid_current',
      'pg_advisory_lock',
      'nextval',
      'setval',
      'currval',
      'version',
      'setseed',
      'to_regclass',
    ]) {
      expect(POSTGRES_FUNCTIONS.has(name), name).toBe(false);
    }
  });

  it('includes the common names in the PostgreSQL list', () => {
    for (const name of COMMON_FUNCTIONS) expect(POSTGRES_FUNCTIONS.has(name), name).toBe(true);
  });
});
