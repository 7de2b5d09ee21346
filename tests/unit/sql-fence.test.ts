// The fence and the leakproof push-down as the guards print them (docs/design.md "Each wrapped
// relation is an optimisation fence"), without a database: PostgreSQL wrappers carry OFFSET 0
// and receive copies of leakproof column-to-constant WHERE conditions only; MySQL wrappers carry
// LIMIT 18446744073709551615 and the independent filter check insists on it. What the planners
// make of them: tests/integration/sql-fence.test.ts.
import { describe, expect, it } from 'vitest';
import { parseStatements } from '#lib/dialects/mysql/parser.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { filteringProblems } from '#lib/dialects/mysql/verify.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { GuardOutcome } from '#lib/sql/types.ts';
import { corpusCatalog, corpusPolicy } from '../corpus/postgres-oracle.ts';
import { sampleCatalog, samplePolicy } from './sql-mysql-corpus.ts';

const postgres = async (sql: string, extra: { scope?: string; pushDown?: boolean } = {}) => {
  const outcome = await guardPostgres({
    sql,
    catalog: corpusCatalog(),
    policy: corpusPolicy(),
    tenant: 1,
    rowCap: 100,
    ...extra,
  });
  if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}`);
  return outcome.sql;
};

/** The WHERE clause of the wrapper of `table` in printed SQL. */
const inside = (printed: string, table: string): string => {
  const match = new RegExp(`\\( SELECT \\* FROM (?:ONLY )?public\\.${table} WHERE (.*?) OFFSET 0 \\)`).exec(
    printed,
  );
  if (!match) throw new Error(`no wrapper of ${table} in ${printed}`);
  return match[1]!;
};

describe('the PostgreSQL fence', () => {
  it('ends every wrapper with OFFSET 0, wherever the table is read', async () => {
    for (const sql of [
      'SELECT id FROM customers',
      'SELECT c.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id',
      'SELECT id FROM customers WHERE id IN (SELECT customer_id FROM orders)',
      'WITH x AS (SELECT * FROM orders) SELECT * FROM x',
      'SELECT c.id FROM customers c, LATERAL (SELECT o.id FROM orders o WHERE o.customer_id = c.id) l',
      'SELECT id FROM customers UNION SELECT id FROM orders',
      'SELECT status FROM order_summary',
    ]) {
      const printed = await postgres(sql);
      const wrappers = printed.match(/\( SELECT \* FROM [^()]*? WHERE [^()]*?\)/g) ?? [];
      expect(wrappers.length, printed).toBeGreaterThan(0);
      for (const wrapper of wrappers) expect(wrapper, printed).toMatch(/ OFFSET 0 \)$/);
    }
  });
});

describe('the leakproof push-down', () => {
  it('copies column-to-constant comparisons next to the tenant filter and keeps them outside', async () => {
    const printed = await postgres(
      "SELECT id FROM customers WHERE id = 241 AND to_date(email, 'YYYY') IS NULL",
    );
    expect(inside(printed, 'customers')).toBe('customers.org_id = $1 AND customers.id = 241');
    expect(printed).toMatch(/\) AS customers WHERE id = 241 AND to_date\(email, 'YYYY'\) IS NULL/);
  });

  it('copies =, <>, <, IN, NOT IN, BETWEEN and IS NOT NULL on integer, text, date, timestamp and boolean columns', async () => {
    const printed = await postgres(
      "SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id IN (1, 2) AND 5 < c.id AND c.name <> 'x' AND c.vip = true AND c.created_at >= '2024-01-01' AND c.country_code = 'FR' AND o.status NOT IN ('new', 'paid') AND o.id BETWEEN 1 AND 9 AND o.note IS NOT NULL",
    );
    expect(inside(printed, 'customers')).toBe(
      "customers.org_id = $1 AND customers.id IN (1, 2) AND 5 < customers.id AND customers.name <> 'x' AND customers.vip = true AND customers.created_at >= '2024-01-01' AND customers.country_code = 'FR'",
    );
    expect(inside(printed, 'orders')).toBe(
      "orders.org_id = $1 AND orders.status NOT IN ('new', 'paid') AND orders.id BETWEEN 1 AND 9 AND orders.note IS NOT NULL",
    );
  });

  it('copies nothing else: functions, casts, numeric columns, column pairs, OR, IS NULL, subqueries', async () => {
    for (const condition of [
      "to_date(email, 'YYYY') IS NULL",
      'email::int = 0',
      "lower(email) = 'x'",
      "id = '241'",
      'id = 1 + 1',
      'id = org_id',
      'id = 1 OR id = 2',
      'NOT (id = 1)',
      'email IS NULL',
      'id IN (SELECT 1)',
      'id = (SELECT 1)',
      'email = \'x\' COLLATE "C"',
      "email ~ 'x'",
      "email LIKE 'x%'",
      'id = 1.5',
      'id = 9999999999',
      'id = NULL',
      "id BETWEEN 1 AND length('x')",
    ]) {
      const printed = await postgres(`SELECT id FROM customers WHERE ${condition}`);
      expect(inside(printed, 'customers'), condition).toBe('customers.org_id = $1');
    }
    const decimal = await postgres('SELECT id FROM orders WHERE total > 100');
    expect(inside(decimal, 'orders'), 'numeric is not leakproof').toBe('orders.org_id = $1');
  });

  it('names a column only when it resolves to this level’s wrapper, as PostgreSQL resolves it', async () => {
    // Unqualified columns in a join: which table's? Not copied.
    const joined = await postgres(
      'SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE status = 5',
    );
    expect(inside(joined, 'orders')).toBe('orders.org_id = $1');
    // A correlated reference belongs to the outer query.
    const correlated = await postgres(
      'SELECT id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE c.id = 3 AND o.customer_id = c.id)',
    );
    expect(inside(correlated, 'customers')).toBe('customers.org_id = $1');
    expect(inside(correlated, 'orders')).toBe('orders.org_id = $1');
    // A column list in the alias renames the columns.
    const renamed = await postgres('SELECT x.a FROM customers AS x(a, b) WHERE x.a = 3');
    expect(inside(renamed, 'customers')).toBe('customers.org_id = $1');
    // A column the table does not have stays outside (PostgreSQL reports it there).
    const unknown = await postgres('SELECT id FROM customers WHERE nope = 3');
    expect(inside(unknown, 'customers')).toBe('customers.org_id = $1');
    // ON conditions are not copied: only WHERE.
    const on = await postgres(
      'SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id AND o.id = 3',
    );
    expect(inside(on, 'orders')).toBe('orders.org_id = $1');
  });

  it('copies into the scope-filtered wrapper after the scope filter, and not at all when switched off', async () => {
    const scoped = await postgres('SELECT id FROM customers WHERE id = 3', { scope: 'alice' });
    expect(inside(scoped, 'customers')).toBe(
      'customers.org_id = $1 AND customers.scope_id = $2 AND customers.id = 3',
    );
    const off = await postgres('SELECT id FROM customers WHERE id = 3', { pushDown: false });
    expect(inside(off, 'customers')).toBe('customers.org_id = $1');
  });
});

describe('the MySQL fence', () => {
  const mysql = (sql: string): Extract<GuardOutcome, { allowed: true }> => {
    const outcome = guardMysql({
      sql,
      catalog: sampleCatalog(),
      policy: samplePolicy(),
      tenant: 1,
      rowCap: 100,
    }) as GuardOutcome;
    if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}`);
    return outcome;
  };

  it('ends every derived table the rewrite adds with LIMIT 18446744073709551615', () => {
    const { sql } = mysql(
      'SELECT c.id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id IN (SELECT customer_id FROM orders) UNION SELECT id FROM products',
    );
    const wrappers = sql.match(/\(SELECT \* FROM `shop`\.`\w+` WHERE [^()]*?\)/g) ?? [];
    expect(wrappers).toHaveLength(4);
    for (const wrapper of wrappers) expect(wrapper).toMatch(/ LIMIT 18446744073709551615\)$/);
  });

  it('fails the independent filter check for a wrapper without the fence, or with another limit', () => {
    const context = { catalog: sampleCatalog(), policy: samplePolicy(), tenant: 1 };
    const problems = (sql: string) => filteringProblems(parseStatements(sql)[0]!, context, 1);
    const wrapper = (limit: string) =>
      `SELECT * FROM (SELECT * FROM \`shop\`.\`orders\` WHERE \`orders\`.\`org_id\` = ?${limit}) AS \`o\``;
    expect(problems(wrapper(' LIMIT 18446744073709551615'))).toEqual([]);
    for (const limit of ['', ' LIMIT 10', ' LIMIT 18446744073709551614', ' LIMIT 0, 18446744073709551615']) {
      expect(problems(wrapper(limit)), limit).toContain('relation shop.orders is read without its filter');
    }
  });
});
