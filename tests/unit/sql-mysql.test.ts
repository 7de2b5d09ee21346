// The MySQL/MariaDB guard (lib/dialects/mysql/sql-guard.ts) without a server: the rewrite per construct, the
// bound values in the printed text's order, the row cap, every refusal code, CTE resolution
// and the corpus (tests/corpus/mysql-*). The same corpus runs against MariaDB in
// tests/integration/sql-mysql.test.ts.
import { describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import { parseStatements } from '#lib/dialects/mysql/parser.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { filteringProblems } from '#lib/dialects/mysql/verify.ts';
import type { GuardOutcome, GuardRequest } from '#lib/sql/types.ts';
import {
  attacks,
  inDatabase,
  legitimateQueries,
  PORTABLE_REFUSED,
  portableQueries,
  sampleCatalog,
  samplePolicy,
  sharedAttacks,
} from './sql-mysql-corpus.ts';

/** Overrides of the default request; `tenant: undefined` sends none. */
type Overrides = { [K in keyof GuardRequest]?: GuardRequest[K] | undefined };

const guard = (sql: string, overrides: Overrides = {}): GuardOutcome =>
  guardMysql({
    sql,
    catalog: sampleCatalog(),
    policy: samplePolicy(),
    tenant: 1,
    rowCap: 100,
    ...overrides,
  } as GuardRequest) as GuardOutcome;

const allowed = (sql: string, overrides: Overrides = {}) => {
  const outcome = guard(sql, overrides);
  if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}`);
  return outcome;
};

const refusal = (sql: string, overrides: Overrides = {}) => {
  const outcome = guard(sql, overrides);
  return outcome.allowed ? 'ALLOWED' : outcome.code;
};

/** The fence that keeps a derived table unmerged (lib/dialects/mysql/fence.ts FENCE_LIMIT). */
const FENCE = ' LIMIT 18446744073709551615';

/** The filtering derived table of a sample relation, as the guard prints it. */
const orders = (alias = 'orders', scoped = false) =>
  `(SELECT * FROM \`shop\`.\`orders\` WHERE \`orders\`.\`org_id\` = ?${
    scoped ? ' AND `orders`.`scope_id` = ? AND CAST(`orders`.`scope_id` AS BINARY) = ?' : ''
  }${FENCE}) AS \`${alias}\``;
const wrapped = (table: string, column = 'org_id', alias = table) =>
  `(SELECT * FROM \`shop\`.\`${table}\` WHERE \`${table}\`.\`${column}\` = ?${FENCE}) AS \`${alias}\``;

describe('guardMysql rewrite', () => {
  it('wraps a tenant table in FROM and binds the tenant', () => {
    expect(allowed('SELECT id FROM orders')).toEqual({
      allowed: true,
      sql: `SELECT \`id\` FROM ${orders()} LIMIT 101`,
      params: [1],
    });
  });

  it('keeps the alias and adds the scope, compared exactly', () => {
    const outcome = allowed('SELECT o.id FROM orders o', { scope: 'alice' });
    expect(outcome.sql).toBe(`SELECT \`o\`.\`id\` FROM ${orders('o', true)} LIMIT 101`);
    expect(outcome.params).toEqual([1, 'alice', 'alice']);
  });

  it('wraps joined tables and qualifies shared ones, keeping ON and USING', () => {
    expect(
      allowed('SELECT c.name, k.name FROM customers c LEFT JOIN countries k ON k.code = c.country_code').sql,
    ).toBe(
      `SELECT \`c\`.\`name\`, \`k\`.\`name\` FROM ${wrapped('customers', 'org_id', 'c')} LEFT JOIN \`shop\`.\`countries\` AS \`k\` ON \`k\`.\`code\` = \`c\`.\`country_code\` LIMIT 101`,
    );
    expect(allowed('SELECT * FROM orders JOIN order_items USING (org_id)').sql).toBe(
      `SELECT * FROM ${orders()} INNER JOIN ${wrapped('order_items')} USING (org_id) LIMIT 101`,
    );
  });

  it('wraps inside derived tables, CTE bodies, subqueries anywhere and set operations', () => {
    expect(allowed('SELECT * FROM (SELECT id FROM orders) d').sql).toBe(
      `SELECT * FROM (SELECT \`id\` FROM ${orders()}) AS \`d\` LIMIT 101`,
    );
    expect(allowed('WITH big AS (SELECT * FROM orders) SELECT * FROM big').sql).toBe(
      `WITH \`big\` AS (SELECT * FROM ${orders()}) SELECT * FROM \`big\` LIMIT 101`,
    );
    const nested = allowed(
      'SELECT (SELECT MAX(total) FROM orders) AS m FROM customers WHERE id IN (SELECT customer_id FROM orders) ' +
        'AND EXISTS (SELECT 1 FROM invoices) GROUP BY id HAVING COUNT(*) > (SELECT COUNT(*) FROM products)',
    );
    expect(nested.sql).toBe(
      `SELECT (SELECT MAX(\`total\`) FROM ${orders()}) AS \`m\` FROM ${wrapped('customers')} ` +
        `WHERE \`id\` IN (SELECT \`customer_id\` FROM ${orders()}) AND EXISTS(SELECT 1 FROM ${wrapped('invoices', 'organization_id')}) ` +
        `GROUP BY \`id\` HAVING COUNT(*) > (SELECT COUNT(*) FROM ${wrapped('products')}) LIMIT 101`,
    );
    expect(nested.params).toEqual([1, 1, 1, 1, 1]);
    expect(allowed('SELECT id FROM orders UNION SELECT id FROM invoices').sql).toBe(
      `SELECT \`id\` FROM ${orders()} UNION SELECT \`id\` FROM ${wrapped('invoices', 'organization_id')} LIMIT 101`,
    );
  });

  it('lists the bound values in the order of the printed text', () => {
    // Arrange: a CTE first, then a scalar subquery, a join and an EXISTS.
    const sql =
      'WITH c AS (SELECT * FROM tickets) SELECT (SELECT COUNT(*) FROM products) AS n, c.id FROM c ' +
      'JOIN organizations o ON o.id = c.org_id WHERE EXISTS (SELECT 1 FROM invoices)';
    // Act
    const outcome = allowed(sql, { tenant: 2, scope: 'bob' });
    // Assert: each ? follows the column its value is for.
    const columns = [...outcome.sql.matchAll(/`(\w+)`\.`(\w+)`( AS BINARY\))? = \?/g)].map((m) => m[2]);
    expect(columns).toEqual(['org_id', 'scope_id', 'scope_id', 'org_id', 'id', 'organization_id']);
    expect(outcome.params).toEqual([2, 'bob', 'bob', 2, 2, 2]);
    expect(outcome.sql.split('?').length - 1).toBe(outcome.params.length);
  });

  it('binds the tenant as its column compares it', () => {
    expect(allowed('SELECT id FROM orders', { tenant: '2' }).params).toEqual([2]);
    expect(allowed('SELECT id FROM tickets', { tenant: 2, scope: 7 }).params).toEqual([2, '7', '7']);
    expect(refusal('SELECT id FROM orders', { tenant: '2abc' })).toBe('TENANT_REQUIRED');
    expect(refusal('SELECT id FROM orders', { tenant: 2 ** 60 })).toBe('TENANT_REQUIRED');
  });

  it('filters on the scope alone, or qualifies only, when the database needs no tenant', () => {
    const unscoped: Overrides = { policy: samplePolicy(false), tenant: undefined };
    expect(allowed('SELECT o.id, p.id FROM orders o, products p', { ...unscoped, scope: 'alice' })).toEqual({
      allowed: true,
      sql:
        'SELECT `o`.`id`, `p`.`id` FROM (SELECT * FROM `shop`.`orders` WHERE `orders`.`scope_id` = ? AND ' +
        'CAST(`orders`.`scope_id` AS BINARY) = ? LIMIT 18446744073709551615) AS `o`, `shop`.`products` AS `p` LIMIT 101',
      params: ['alice', 'alice'],
    });
    expect(allowed('SELECT o.id FROM orders o', unscoped)).toEqual({
      allowed: true,
      sql: 'SELECT `o`.`id` FROM `shop`.`orders` AS `o` LIMIT 101',
      params: [],
    });
  });

  it('filters a listed view like a table and names a wrapped table by its bare name', () => {
    expect(allowed('SELECT * FROM order_summary').sql).toBe(
      `SELECT * FROM ${wrapped('order_summary')} LIMIT 101`,
    );
    expect(allowed('SELECT shop.orders.id FROM shop.orders').sql).toBe(
      `SELECT \`orders\`.\`id\` FROM ${orders()} LIMIT 101`,
    );
  });

  it('prints double-quoted strings single-quoted, whatever ANSI_QUOTES says', () => {
    expect(allowed(`SELECT "say ""hi"" it's" AS s`).sql).toBe(`SELECT 'say "hi" it''s' AS \`s\` LIMIT 101`);
  });

  it('escapes odd relation and column names from the catalog', () => {
    // Arrange
    const catalog: Catalog = {
      ...sampleCatalog(),
      relations: [
        {
          schema: 'shop',
          name: 'we`ird',
          kind: 'table',
          columns: [{ name: 'org id', kind: 'integer', nativeType: 'int', nullable: false }],
          primaryKey: [],
          foreignKeys: [],
          rowEstimate: 0,
          samples: {},
        },
      ],
    };
    const policy = { ...samplePolicy(), tables: { 'we`ird': { tenant_column: 'org id' } } };
    // Act / Assert
    expect(allowed('SELECT * FROM `we``ird`', { catalog, policy }).sql).toBe(
      'SELECT * FROM (SELECT * FROM `shop`.`we``ird` WHERE `we``ird`.`org id` = ? LIMIT 18446744073709551615) AS `we``ird` LIMIT 101',
    );
  });
});

describe('guardMysql CTE resolution', () => {
  it('treats a CTE name as the CTE and the same name inside its own body as the table', () => {
    expect(allowed('WITH orders AS (SELECT * FROM orders WHERE total > 1) SELECT * FROM orders').sql).toBe(
      `WITH \`orders\` AS (SELECT * FROM ${orders()} WHERE \`total\` > 1) SELECT * FROM \`orders\` LIMIT 101`,
    );
  });

  it('sees earlier CTEs from later ones, and only later ones as tables', () => {
    expect(
      allowed('WITH a AS (SELECT id FROM orders), b AS (SELECT * FROM a) SELECT * FROM b').params,
    ).toEqual([1]);
    expect(
      allowed('WITH a AS (SELECT * FROM orders), orders AS (SELECT 1 AS id) SELECT * FROM a').sql,
    ).toContain(orders());
  });

  it('lets a recursive CTE read itself', () => {
    const outcome = allowed(
      'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
    );
    expect(outcome.params).toEqual([]);
  });

  it('refuses names that MySQL and MariaDB resolve differently', () => {
    // MariaDB reads a nested WITH's CTE body without the enclosing CTEs: base table, unfiltered.
    expect(
      refusal(
        'WITH orders AS (SELECT 1 AS id) SELECT * FROM (WITH y AS (SELECT * FROM orders) SELECT * FROM y) d',
      ),
    ).toBe('UNSUPPORTED_SYNTAX');
    expect(refusal('WITH Orders AS (SELECT 1 AS id) SELECT * FROM orders')).toBe('UNSUPPORTED_SYNTAX');
    expect(refusal('WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a')).toBe(
      'UNSUPPORTED_SYNTAX',
    );
  });

  it('sees an enclosing CTE from a nested WITH’s own body, where both engines agree', () => {
    expect(
      allowed(
        'WITH orders AS (SELECT 1 AS id) SELECT * FROM (WITH y AS (SELECT 2 AS z) SELECT * FROM orders) d',
      ).params,
    ).toEqual([]);
  });

  it('keeps the WITH of a parenthesized UNION member to that member', () => {
    // MySQL 8 reads the second `orders` as the table; taking it for the CTE would leave it bare.
    expect(
      allowed('(WITH orders AS (SELECT 1 AS id) SELECT id FROM orders) UNION ALL SELECT id FROM orders').sql,
    ).toBe(
      `(WITH \`orders\` AS (SELECT 1 AS \`id\`) SELECT \`id\` FROM \`orders\`) UNION ALL SELECT \`id\` FROM ${orders()} LIMIT 101`,
    );
    expect(
      allowed('WITH c AS (SELECT id FROM orders) SELECT id FROM c UNION ALL SELECT id FROM c').params,
    ).toEqual([1]);
  });

  it('never takes a qualified name for a CTE', () => {
    expect(refusal('WITH cte AS (SELECT 1 AS x) SELECT * FROM shop.cte')).toBe('UNKNOWN_RELATION');
  });
});

describe('guardMysql row cap', () => {
  const capped = (sql: string) => allowed(sql, { rowCap: 10 }).sql;

  it('adds LIMIT cap+1, keeps a smaller limit and lowers a larger one', () => {
    expect(capped('SELECT id FROM orders')).toMatch(/ LIMIT 11$/);
    expect(capped('SELECT id FROM orders LIMIT 5')).toMatch(/ LIMIT 5$/);
    expect(capped('SELECT id FROM orders LIMIT 500')).toMatch(/ LIMIT 11$/);
    expect(capped('SELECT id FROM orders LIMIT 10, 500')).toMatch(/ LIMIT 10, 11$/);
    expect(capped('SELECT id FROM orders LIMIT 500 OFFSET 3')).toMatch(/ LIMIT 11 OFFSET 3$/);
  });

  it('limits the whole result of a set operation and of a query with a WINDOW clause', () => {
    expect(capped('SELECT id FROM orders UNION ALL SELECT id FROM invoices LIMIT 1000')).toMatch(
      /AS `invoices` LIMIT 11$/,
    );
    expect(capped('(SELECT id FROM orders) UNION ALL (SELECT id FROM invoices) ORDER BY 1')).toMatch(
      /\) ORDER BY 1 ASC LIMIT 11$/,
    );
    expect(capped('SELECT id, SUM(total) OVER w AS s FROM orders WINDOW w AS (ORDER BY id)')).toMatch(
      /WINDOW w AS \(ORDER BY `id` ASC\) LIMIT 11$/,
    );
  });
});

describe('guardMysql refusals', () => {
  it.each([
    ['PARSE_ERROR', 'SELEC id FROM orders'],
    ['NOT_ONE_STATEMENT', 'SELECT 1; SELECT 2'],
    ['NOT_ONE_STATEMENT', ''],
    ['NOT_SELECT', 'DELETE FROM orders'],
    ['SELECT_INTO', 'SELECT * FROM orders INTO OUTFILE "/tmp/x"'],
    ['LOCKING_CLAUSE', 'SELECT * FROM orders FOR UPDATE'],
    ['PLACEHOLDER', 'SELECT * FROM orders WHERE id = ?'],
    ['PLACEHOLDER', 'SELECT * FROM orders WHERE id = :id'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT SLEEP(1)'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT @@version'],
    ['FUNCTION_NOT_ALLOWED', 'SELECT @x := 1'],
    ['SYSTEM_CATALOG', 'SELECT * FROM information_schema.tables'],
    ['RELATION_NOT_ALLOWED', 'SELECT * FROM platform_admins'],
    ['UNKNOWN_RELATION', 'SELECT * FROM nowhere'],
    ['UNSUPPORTED_SYNTAX', 'SELECT 1 /*!50000 , 2 */'],
    ['UNSUPPORTED_SYNTAX', "SELECT 'a\\' OR 1 -- '"],
    ['UNSUPPORTED_SYNTAX', 'SELECT MATCH(note) AGAINST ("x") FROM orders'],
    // The printer writes `- -1` as `--1`, which the parser reads back as a comment.
    ['REPRINT_MISMATCH', 'SELECT - -1 AS x'],
  ])('%s: %s', (code, sql) => {
    expect(refusal(sql)).toBe(code);
  });

  it('requires a tenant for a tenant-filtered relation', () => {
    expect(refusal('SELECT id FROM orders', { tenant: undefined })).toBe('TENANT_REQUIRED');
    expect(refusal('SELECT code FROM countries', { tenant: undefined })).toBe('ALLOWED');
    expect(refusal('SELECT id FROM orders', { policy: samplePolicy(false), tenant: undefined })).toBe(
      'ALLOWED',
    );
  });

  it('refuses the catalog’s user functions whatever their letter case', () => {
    const catalog = { ...sampleCatalog(), userFunctions: ['Upper'] };
    expect(guard('SELECT UPPER(name) FROM customers', { catalog })).toMatchObject({
      allowed: false,
      code: 'FUNCTION_NOT_ALLOWED',
      message: expect.stringMatching(/User-defined/),
    });
  });

  it('refuses input longer than the limit before parsing it', () => {
    expect(refusal(`SELECT 1${' '.repeat(20_000)}`)).toBe('UNSUPPORTED_SYNTAX');
  });
});

describe('filteringProblems', () => {
  const context = { catalog: sampleCatalog(), policy: samplePolicy(), tenant: 1 };
  const problems = (sql: string, parameters: number) =>
    filteringProblems(parseStatements(sql)[0]!, context, parameters);

  it('accepts what the guard prints', () => {
    const outcome = allowed('SELECT o.id FROM orders o JOIN countries k ON 1 = 1');
    expect(problems(outcome.sql, outcome.params.length)).toEqual([]);
  });

  it('finds an unwrapped, misfiltered or unknown relation and a stray placeholder', () => {
    expect(problems('SELECT * FROM `shop`.`orders`', 0)).toEqual([
      expect.stringMatching(/without its filter/),
    ]);
    expect(
      problems('SELECT * FROM (SELECT * FROM `shop`.`orders` WHERE `orders`.`customer_id` = ?) AS `o`', 1),
    ).toContain('relation shop.orders is read without its filter');
    expect(problems('SELECT * FROM `orders`', 0)).toEqual(['unqualified relation orders is not a CTE']);
    expect(problems(`SELECT * FROM ${orders()} WHERE \`id\` = ?`, 2)).toEqual([
      expect.stringMatching(/2 placeholders for 1 filter terms/),
    ]);
  });
});

describe('guardMysql corpus (tests/corpus/mysql-*)', () => {
  it('allows every legitimate query, filtered as the filter check expects', () => {
    const queries = legitimateQueries();
    expect(queries.length).toBeGreaterThanOrEqual(60);
    for (const context of [{ tenant: 1 }, { tenant: 2, scope: 'alice' }]) {
      for (const query of queries) {
        const outcome = guard(inDatabase(query.sql, 'shop'), context);
        expect(outcome, query.id).toMatchObject({ allowed: true });
        if (!outcome.allowed) continue;
        expect(problems(outcome.sql, outcome.params.length, context), query.id).toEqual([]);
      }
    }
  });

  it('refuses each attack with its code, and allows the contained and stopped ones', () => {
    const list = attacks();
    expect(
      list.filter((a) => a.expect !== 'CONTAINED' && a.expect !== 'STOPPED').length,
    ).toBeGreaterThanOrEqual(50);
    for (const attack of list) {
      const got = refusal(inDatabase(attack.sql, 'shop'), { scope: 'alice' });
      const want = attack.expect === 'CONTAINED' || attack.expect === 'STOPPED' ? 'ALLOWED' : attack.expect;
      expect(got, `${attack.id}: ${attack.note}`).toBe(want);
    }
  });

  it('allows the portable queries of the PostgreSQL corpus (tests/corpus/queries.jsonl)', () => {
    for (const query of portableQueries()) {
      const outcome = guard(query.sql, { scope: 'alice' });
      const expected = PORTABLE_REFUSED[query.id];
      if (expected) {
        expect(outcome, query.id).toMatchObject({ allowed: false, code: expected });
        continue;
      }
      expect(outcome, query.id).toMatchObject({ allowed: true });
      if (outcome.allowed)
        expect(problems(outcome.sql, outcome.params.length, { scope: 'alice' }), query.id).toEqual([]);
    }
  });

  it('refuses the PostgreSQL attacks, or filters what it allows (tests/corpus/attacks.jsonl)', () => {
    for (const attack of sharedAttacks()) {
      const outcome = guard(attack.sql, { scope: 'alice' });
      if (outcome.allowed)
        expect(problems(outcome.sql, outcome.params.length, { scope: 'alice' }), attack.id).toEqual([]);
    }
  });

  it('guards a query in a few milliseconds (median over the corpus)', () => {
    const timings: number[] = [];
    for (const query of legitimateQueries()) {
      const started = performance.now();
      guard(inDatabase(query.sql, 'shop'), { scope: 'alice' });
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    expect(timings[Math.floor(timings.length / 2)]).toBeLessThan(25);
  });
});

function problems(sql: string, parameters: number, context: Partial<GuardRequest>): string[] {
  return filteringProblems(
    parseStatements(sql)[0]!,
    { catalog: sampleCatalog(), policy: samplePolicy(), ...context },
    parameters,
  );
}
