// The builtin engine against a real PostgreSQL (PGlite) holding the shop fixture: the SQL it
// proposes must return the same rows as a query written by hand for the same question, pass the
// SQL guard of both dialects unchanged in meaning, and compose into the expected sentence.
// Clock: 2026-03-15 (tests/fixtures/catalogs/shop.ts).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAnswer } from '#lib/answer/compose.ts';
import type { SqlProposal } from '#lib/answer/engine.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { askSql, converse } from '../fixtures/catalogs/ask.ts';
import { shopCatalog, shopSql } from '../fixtures/catalogs/shop.ts';

let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(shopSql);
});

afterAll(async () => {
  await db.close();
});

type Row = Record<string, unknown>;

const run = async (sql: string, params: unknown[] = []): Promise<Row[]> =>
  (await db.query<Row>(sql, params)).rows;

/** Rows as lists of comparable values (numbers for numeric strings, ISO text for dates). */
const values = (rows: Row[]): unknown[][] =>
  rows.map((row) =>
    Object.values(row).map((value) => {
      if (value instanceof Date) return value.toISOString();
      if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
      if (typeof value === 'bigint') return Number(value);
      return value;
    }),
  );

const sorted = (rows: unknown[][]): unknown[][] =>
  [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('the shop fixture', () => {
  it('matches its catalog: every column exists and every sample is a value in the data', async () => {
    for (const relation of shopCatalog.relations) {
      const columns = await run(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [relation.name],
      );
      expect(columns.map((row) => row.column_name).sort()).toEqual(
        relation.columns.map((column) => column.name).sort(),
      );
      for (const [column, samples] of Object.entries(relation.samples)) {
        const distinct = await run(`SELECT DISTINCT ${column} AS value FROM ${relation.name}`);
        expect(distinct.map((row) => row.value)).toEqual(expect.arrayContaining(samples));
      }
    }
  });
});

// [question, reference SQL, whether row order matters]
const cases: [string, string, boolean][] = [
  ['How many customers are there?', 'SELECT count(*) FROM customers', false],
  [
    'How many cancelled orders were placed in 2025?',
    "SELECT count(*) FROM orders WHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
    false,
  ],
  [
    'How many orders from customers in Spain?',
    "SELECT count(*) FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE country = 'Spain')",
    false,
  ],
  [
    'How many employees work in the North region?',
    "SELECT count(*) FROM employees e JOIN stores s ON s.id = e.store_id JOIN regions r ON r.id = s.region_id WHERE r.name = 'North'",
    false,
  ],
  [
    'how many orders that are not cancelled',
    "SELECT count(*) FROM orders WHERE status <> 'cancelled'",
    false,
  ],
  [
    'how many customers have orders',
    'SELECT count(*) FROM customers WHERE id IN (SELECT customer_id FROM orders)',
    false,
  ],
  [
    'List customers in Spain',
    "SELECT id, name, email, country, city, tier, created_at FROM customers WHERE country = 'Spain' ORDER BY id",
    true,
  ],
  [
    'Which products cost more than $100?',
    'SELECT id, name, sku, category, price, in_stock FROM products WHERE price > 100 ORDER BY id',
    true,
  ],
  [
    'orders shipped in 2025',
    "SELECT id, customer_id, store_id, status, ordered_at, shipped_at FROM orders WHERE shipped_at >= '2025-01-01' AND shipped_at < '2026-01-01' ORDER BY id",
    true,
  ],
  ['What is the total revenue?', 'SELECT sum(quantity * unit_price) FROM order_items', false],
  [
    'total sales in 2025',
    "SELECT sum(i.quantity * i.unit_price) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
    false,
  ],
  [
    'revenue from customers in Spain last year',
    "SELECT sum(i.quantity * i.unit_price) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.country = 'Spain' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
    false,
  ],
  ["What's the average price of products?", 'SELECT avg(price) FROM products', false],
  ['minimum salary', 'SELECT min(salary) FROM employees', false],
  [
    'orders per status',
    'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY n DESC, status',
    true,
  ],
  [
    'revenue per category',
    'SELECT p.category, sum(i.quantity * i.unit_price) AS r FROM order_items i JOIN products p ON p.id = i.product_id GROUP BY p.category ORDER BY r DESC, p.category',
    true,
  ],
  [
    'revenue by month in 2025',
    "SELECT extract(year FROM o.ordered_at) AS y, extract(month FROM o.ordered_at) AS m, sum(i.quantity * i.unit_price) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY 1, 2 ORDER BY 1, 2",
    true,
  ],
  [
    'employees per region',
    'SELECT r.id, r.name, count(*) AS n FROM employees e JOIN stores s ON s.id = e.store_id JOIN regions r ON r.id = s.region_id GROUP BY r.id, r.name ORDER BY n DESC, r.id, r.name',
    true,
  ],
  [
    'orders per customer country',
    'SELECT c.country, count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.country ORDER BY n DESC, c.country',
    true,
  ],
  [
    'top 5 customers by revenue',
    'SELECT c.id, c.name, sum(i.quantity * i.unit_price) AS r FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name ORDER BY r DESC, c.id LIMIT 5',
    true,
  ],
  [
    'most expensive product',
    'SELECT id, name, sku, category, price, in_stock FROM products ORDER BY price DESC, id LIMIT 1',
    true,
  ],
  [
    'which category has the most products',
    'SELECT category, count(*) AS n FROM products GROUP BY category ORDER BY n DESC, category LIMIT 1',
    true,
  ],
  [
    'best-selling products',
    'SELECT p.id, p.name, sum(i.quantity) AS q FROM order_items i JOIN products p ON p.id = i.product_id GROUP BY p.id, p.name ORDER BY q DESC, p.id LIMIT 5',
    true,
  ],
  [
    'most recent order',
    'SELECT id, customer_id, store_id, status, ordered_at, shipped_at FROM orders ORDER BY ordered_at DESC, id LIMIT 1',
    true,
  ],
  [
    'customers with more than 5 orders',
    'SELECT c.id, c.name, count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name HAVING count(*) > 5 ORDER BY n DESC, c.id',
    true,
  ],
  [
    'customers with at least 2 cancelled orders',
    "SELECT c.id, c.name, count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'cancelled' GROUP BY c.id, c.name HAVING count(*) >= 2 ORDER BY n DESC, c.id",
    true,
  ],
  [
    'orders in Q1 2025',
    "SELECT id, customer_id, store_id, status, ordered_at, shipped_at FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2025-04-01' ORDER BY id",
    true,
  ],
  [
    'products ordered in 2025',
    "SELECT DISTINCT p.id, p.name, p.sku, p.category, p.price, p.in_stock FROM products p JOIN order_items i ON i.product_id = p.id JOIN orders o ON o.id = i.order_id WHERE o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' ORDER BY p.id",
    true,
  ],
];

describe('generated SQL returns the rows of a hand-written query', () => {
  it.each(cases)('%s', async (question, reference, ordered) => {
    const proposal = askSql(question);
    const [actual, expected] = [values(await run(proposal.sql)), values(await run(reference))];
    expect(ordered ? actual : sorted(actual)).toEqual(ordered ? expected : sorted(expected));
    // The shop needs no quoting: the MySQL text is the same standard SQL.
    expect(askSql(question, { dialect: 'mysql' }).sql).toBe(proposal.sql);
  });

  it('answers a conversation of follow-ups with the right rows', async () => {
    const [, cancelled, lastYear] = converse([
      'How many orders in 2025?',
      'and how many of those were cancelled?',
      'what about 2024?',
    ]);
    const count = async (proposal: unknown) => values(await run((proposal as SqlProposal).sql))[0]![0];
    expect(await count(cancelled)).toBe(
      values(
        await run(
          "SELECT count(*) FROM orders WHERE status = 'cancelled' AND extract(year FROM ordered_at) = 2025",
        ),
      )[0]![0],
    );
    expect(await count(lastYear)).toBe(
      values(
        await run(
          "SELECT count(*) FROM orders WHERE status = 'cancelled' AND extract(year FROM ordered_at) = 2024",
        ),
      )[0]![0],
    );
  });
});

describe('composed answers from real rows', () => {
  const answer = async (question: string): Promise<string> => {
    const proposal = askSql(question);
    const result = await db.query<Row>(proposal.sql);
    return composeAnswer(proposal, {
      columns: result.fields.map((field) => field.name),
      rows: result.rows,
      truncated: false,
    }).text;
  };

  it('says counts, values, rankings and breakdowns in plain English', async () => {
    const [cancelled] = values(
      await run(
        "SELECT count(*) FROM orders WHERE status = 'cancelled' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
      ),
    )[0]!;
    expect(await answer('How many cancelled orders were placed in 2025?')).toBe(
      `There are ${cancelled} cancelled orders in 2025.`,
    );
    expect(await answer('most expensive product')).toBe('The most expensive product is E-Reader (149.00).');
    expect(await answer('which category has the most products')).toMatch(
      /^The category with the most products is \w+ \(\d+\)\.$/,
    );
    expect(await answer('orders per status')).toMatch(
      /^Orders per status: (\w+ \d+, ){3}\w+ \d+ and \w+ \d+\.$/,
    );
    expect(await answer('total revenue in 2025')).toMatch(/^The total revenue in 2025 is [\d,]+\.\d\d\.$/);
    expect(await answer('orders in March 2025')).toBe('There are no orders in March 2025.');
  });
});

describe('the SQL guard accepts what the engine proposes', () => {
  const policy = effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
  });

  it.each(cases)('%s', async (question, reference) => {
    const proposal = askSql(question);
    const guarded = await guardPostgres({
      sql: proposal.sql,
      catalog: shopCatalog,
      policy,
      tenant: 1,
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(`${guarded.code}: ${guarded.message}`);
    // The rewrite keeps the meaning: the same rows as the reference on tenant 1's rows only.
    const tenantOnly = await db.transaction(async (tx) => {
      for (const relation of shopCatalog.relations) {
        const column = relation.name === 'organizations' ? 'id' : 'org_id';
        await tx.exec(
          `CREATE TEMP VIEW ${relation.name} AS SELECT * FROM public.${relation.name} WHERE ${column} = 1`,
        );
      }
      const rows = (await tx.query<Row>(reference)).rows;
      await tx.rollback();
      return rows;
    });
    const actual = values(await run(guarded.sql, guarded.params));
    expect(sorted(actual)).toEqual(sorted(values(tenantOnly)));
    const mysql = askSql(question, { dialect: 'mysql' });
    const mysqlGuarded = await guardMysql({
      sql: mysql.sql,
      catalog: { ...shopCatalog, dialect: 'mysql' },
      policy,
      tenant: 1,
      rowCap: 100,
    });
    expect(mysqlGuarded.allowed).toBe(true);
  });
});
