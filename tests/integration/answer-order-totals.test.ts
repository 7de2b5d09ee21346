// A shop whose orders carry a money column named `total` (docs/design.md "Answering on unseen
// databases", precision rules): "how many orders" counts the orders, never adds up their totals;
// "the total of orders" adds up the column. Each question is proposed by the builtin engine,
// passed through the guard of the dialect as tenant 1 and run on PGlite, on a PostgreSQL server
// (TABLETALK_TEST_POSTGRES_URL) and on MySQL/MariaDB (TABLETALK_TEST_MYSQL_URL); the numbers are
// the seed's own, tenant 2's orders never counted.
import { expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { catalogOf, col, type TableSpec } from '../fixtures/catalogs/define.ts';
import { onEachEngine, type Runner } from '../helpers/each-engine.ts';

const NOW = new Date('2026-03-15T12:00:00Z');

const tables: TableSpec[] = [
  {
    name: 'customers',
    columns: [
      col('id', 'integer', 'integer'),
      col('store_id', 'integer', 'integer'),
      col('name', 'text', 'text'),
    ],
  },
  {
    name: 'orders',
    columns: [
      col('id', 'integer', 'integer'),
      col('store_id', 'integer', 'integer'),
      col('customer_id', 'integer', 'integer', { references: 'customers' }),
      col('placed_at', 'date', 'date'),
      col('total', 'decimal', 'numeric(10,2)'),
    ],
  },
];

/** Tenant 1: four orders, three of them in 2025 (totals 100 + 250.50 + 49.50 = 400). */
const ddl = `
CREATE TABLE customers (id integer PRIMARY KEY, store_id integer NOT NULL, name varchar(100) NOT NULL);
CREATE TABLE orders (id integer PRIMARY KEY, store_id integer NOT NULL,
  customer_id integer NOT NULL REFERENCES customers (id), placed_at date NOT NULL, total numeric(10,2) NOT NULL);
INSERT INTO customers VALUES (1, 1, 'Ada'), (2, 1, 'Grace'), (3, 2, 'Linus');
INSERT INTO orders VALUES
  (1, 1, 1, '2025-02-03', 100.00), (2, 1, 1, '2025-06-30', 250.50), (3, 1, 2, '2025-11-12', 49.50),
  (4, 1, 2, '2024-12-31', 999.00), (5, 2, 3, '2025-05-05', 5000.00), (6, 2, 3, '2025-07-07', 7000.00)`;

const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'store_id',
  policy: { tenant_column: 'store_id', tables: {} },
});

/** The one number the engine's answer to `question` comes to, run as tenant 1. */
const answer = async (
  dialect: 'postgres' | 'mysql',
  schema: string,
  run: Runner,
  question: string,
): Promise<number> => {
  const catalog = catalogOf(tables, { schema, dialect });
  const proposal = proposeBuiltin({
    question,
    catalog,
    dialect,
    history: [],
    now: NOW,
    tenantColumn: 'store_id',
  });
  if (proposal.kind !== 'sql') throw new Error(`${question}: ${proposal.kind} ${JSON.stringify(proposal)}`);
  const request = { sql: proposal.sql, catalog, policy, tenant: '1', rowCap: 100 };
  const guarded = await (dialect === 'mysql' ? guardMysql(request) : guardPostgres(request));
  if (!('sql' in guarded)) throw new Error(`${question}: ${guarded.message}`);
  const rows = await run(guarded.sql, guarded.params);
  expect(rows).toHaveLength(1);
  return Number(Object.values(rows[0]!)[0]);
};

const suite = (dialect: 'postgres' | 'mysql', schema: () => string, run: () => Runner) => {
  const ask = (question: string) => answer(dialect, schema(), run(), question);

  it('counts orders for "how many orders", whatever their totals', async () => {
    expect(await ask('How many orders were placed in 2025?')).toBe(3);
    expect(await ask('how many orders do we have')).toBe(4);
    expect(await ask('number of orders')).toBe(4);
    expect(await ask('the total number of orders in 2025')).toBe(3);
  });

  it('adds up the total column for "total of orders"', async () => {
    expect(await ask('total of orders in 2025')).toBe(400);
    expect(await ask('what is the sum of order totals in 2025')).toBe(400);
  });
};

onEachEngine('orders with a money column named total', ddl, suite);
