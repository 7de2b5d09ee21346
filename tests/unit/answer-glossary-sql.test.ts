// Glossary metrics and filters of any SQL over one relation in the builtin engine
// (lib/answer/builtin/glossary-sql.ts): read with PostgreSQL's parser, used by their terms as named
// measures and conditions beside the engine's other parts (groupings, periods, joins, rankings),
// printed for PostgreSQL and MySQL, and refused when they are not a pure expression of one
// relation. Checked on two schemas of different domains: a shop and a lettings agency.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glossaryIndex } from '#lib/answer/builtin/glossary.ts';
import { printExpr } from '#lib/answer/builtin/glossary-expr.ts';
import { prepareGlossarySql, readDefinition } from '#lib/answer/builtin/glossary-sql.ts';
import type { Proposal } from '#lib/answer/engine.ts';
import type { Catalog, DialectName as Dialect } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { SHOP_TENANT_COLUMN, shopCatalog, shopSql } from '../fixtures/catalogs/shop.ts';
import { lettingsCatalog } from '../fixtures/catalogs/unseen.ts';

const shopGlossary: Glossary = {
  synonyms: {},
  metrics: {
    revenue: 'SUM(order_items.quantity * order_items.unit_price)',
    'average basket': 'AVG(order_items.quantity * order_items.unit_price)',
    buyers: 'COUNT(DISTINCT orders.customer_id)',
    'fulfilment hours': 'sum(extract(epoch from (orders.shipped_at - orders.ordered_at)) / 3600)',
    'time to ship': 'avg(extract(epoch from (orders.shipped_at - orders.ordered_at)) / 3600)',
    'premium units': 'SUM(order_items.quantity) FILTER (WHERE order_items.unit_price > 100)',
  },
  filters: {
    late: "orders.shipped_at > orders.ordered_at + interval '2 days'",
    unshipped: 'orders.shipped_at IS NULL',
    'bulk lines': 'order_items.quantity >= 5 AND order_items.unit_price > 100',
    gmail: "customers.email ILIKE '%@gmail.com'",
    vip: "customers.tier = 'gold'",
  },
};

const lettingsGlossary: Glossary = {
  synonyms: {},
  metrics: {
    'average rent': 'AVG(leases.monthly_rent)',
    'tenants housed': 'count(distinct leases.tenant_id)',
    'annual rent': 'SUM(leases.monthly_rent * 12)',
    'live leases': "COUNT(*) FILTER (WHERE leases.status = 'active')",
  },
  filters: {
    'long lets': 'leases.end_date - leases.start_date > 365',
    'unpriced repairs': 'maintenance_requests.cost IS NULL',
    'needs price': 'maintenance_requests.cost IS NULL',
    'costly repairs': 'maintenance_requests.cost BETWEEN 500 AND 2000',
    // Two relations: not a condition of one row.
    'below asking': 'leases.monthly_rent < properties.monthly_rent',
  },
};

const onDialect = (catalog: Catalog, dialect: Dialect): Catalog => ({ ...catalog, dialect });

const askShop = (question: string, dialect: Dialect = 'postgres'): Proposal =>
  askOn(onDialect(shopCatalog, dialect), SHOP_TENANT_COLUMN)(question, { glossary: shopGlossary, dialect });
const askLettings = (question: string, dialect: Dialect = 'postgres'): Proposal =>
  askOn(onDialect(lettingsCatalog, dialect), 'agency_id')(question, { glossary: lettingsGlossary, dialect });

const interpretation = (proposal: Proposal): string =>
  proposal.kind === 'sql' ? (proposal.interpretation ?? '') : `${proposal.kind}: ${proposal.message}`;

const policyOf = (tenantColumn: string, tenants: Record<string, { tenant_column: string }> = {}) =>
  effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: tenantColumn,
    policy: { tenant_column: tenantColumn, tables: tenants },
  });

/** The proposal's SQL passes the dialect's guard (which fences every query as before). */
const guarded = async (proposal: Proposal, catalog: Catalog, dialect: Dialect, tenantColumn: string) => {
  const guard = dialect === 'mysql' ? guardMysql : guardPostgres;
  const outcome = await guard({
    sql: sqlOf(proposal),
    catalog: onDialect(catalog, dialect),
    policy: policyOf(
      tenantColumn,
      tenantColumn === 'org_id' ? { organizations: { tenant_column: 'id' } } : {},
    ),
    tenant: 1,
    rowCap: 100,
  });
  return outcome.allowed;
};

beforeAll(async () => {
  await prepareGlossarySql();
});

describe('glossary filters of any condition over one relation', () => {
  it('compares two columns of a row ("late") and names the term', async () => {
    const proposal = askShop('how many late orders were placed in 2025');
    expect(sqlOf(proposal)).toBe(
      "SELECT COUNT(*) AS order_count FROM orders o WHERE o.shipped_at > o.ordered_at + CAST('2 days' AS INTERVAL) AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
    );
    expect(interpretation(proposal)).toContain('that are late (shipped at > ordered at');
    expect(await guarded(proposal, shopCatalog, 'postgres', SHOP_TENANT_COLUMN)).toBe(true);
  });

  it('compares two date columns in whole days on both dialects ("long lets")', async () => {
    const postgres = askLettings('how many long lets are there');
    expect(sqlOf(postgres)).toBe(
      'SELECT COUNT(*) AS lease_count FROM leases l WHERE l.end_date - l.start_date > 365',
    );
    const mysql = askLettings('how many long lets are there', 'mysql');
    expect(sqlOf(mysql)).toBe(
      'SELECT COUNT(*) AS lease_count FROM leases l WHERE DATEDIFF(l.end_date, l.start_date) > 365',
    );
    expect(await guarded(postgres, lettingsCatalog, 'postgres', 'agency_id')).toBe(true);
    expect(await guarded(mysql, lettingsCatalog, 'mysql', 'agency_id')).toBe(true);
  });

  it('reads IS NULL and BETWEEN conditions, on a grouping by a related relation', () => {
    expect(sqlOf(askShop('unshipped orders per store'))).toBe(
      'SELECT s.id, s.name, COUNT(*) AS order_count FROM orders o JOIN stores s ON o.store_id = s.id WHERE o.shipped_at IS NULL GROUP BY s.id, s.name ORDER BY order_count DESC, s.id, s.name LIMIT 100',
    );
    expect(sqlOf(askLettings('costly repairs per property'))).toContain(
      'WHERE mr.cost BETWEEN 500 AND 2000 GROUP BY p.id',
    );
    expect(sqlOf(askLettings('how many unpriced repairs were reported in 2025'))).toBe(
      "SELECT COUNT(*) AS request_count FROM maintenance_requests mr WHERE mr.cost IS NULL AND mr.reported_on >= '2025-01-01' AND mr.reported_on < '2026-01-01'",
    );
  });

  it('keeps an AND combination together beside the other conditions', () => {
    const sql = sqlOf(askShop('bulk lines per product category'));
    expect(sql).toContain('WHERE (oi.quantity >= 5 AND oi.unit_price > 100)');
    expect(sql).toContain('GROUP BY p.category');
  });

  it('turns a condition around, rows where it does not hold (NULL included)', () => {
    expect(sqlOf(askShop('how many orders are not late'))).toBe(
      "SELECT COUNT(*) AS order_count FROM orders o WHERE (o.shipped_at > o.ordered_at + CAST('2 days' AS INTERVAL)) IS NOT TRUE",
    );
  });

  it('follows up on an answer with a glossary condition', () => {
    const first = askShop('how many unshipped orders');
    const history = [
      {
        question: 'how many unshipped orders',
        kind: 'sql' as const,
        engine: 'builtin',
        state: JSON.parse(JSON.stringify(first.kind === 'sql' ? first.state : null)),
      },
    ];
    const followUp = askOn(shopCatalog, SHOP_TENANT_COLUMN)('what about in 2025?', {
      glossary: shopGlossary,
      history,
    });
    expect(sqlOf(followUp)).toBe(
      "SELECT COUNT(*) AS order_count FROM orders o WHERE o.shipped_at IS NULL AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
    );
  });
});

describe('glossary metrics of any aggregate over one relation', () => {
  it('computes an AVG of arithmetic as defined, per a related column', async () => {
    const proposal = askShop('average basket per product category');
    expect(sqlOf(proposal)).toBe(
      'SELECT p.category, AVG(oi.quantity * oi.unit_price) AS average_basket FROM order_items oi JOIN products p ON oi.product_id = p.id GROUP BY p.category ORDER BY average_basket DESC, p.category LIMIT 100',
    );
    expect(interpretation(proposal)).toContain('Computing average basket');
    expect(await guarded(proposal, shopCatalog, 'postgres', SHOP_TENANT_COLUMN)).toBe(true);
    expect(sqlOf(askLettings('what is the average rent of leases that started in 2025'))).toBe(
      "SELECT AVG(l.monthly_rent) AS average_rent FROM leases l WHERE l.start_date >= '2025-01-01' AND l.start_date < '2026-01-01'",
    );
  });

  it('counts different values (COUNT DISTINCT), per month of a period', () => {
    expect(sqlOf(askShop('buyers per month in 2025'))).toBe(
      "SELECT EXTRACT(YEAR FROM o.ordered_at) AS period_year, EXTRACT(MONTH FROM o.ordered_at) AS period_month, COUNT(DISTINCT o.customer_id) AS buyers FROM orders o WHERE o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01' GROUP BY EXTRACT(YEAR FROM o.ordered_at), EXTRACT(MONTH FROM o.ordered_at) ORDER BY period_year, period_month LIMIT 100",
    );
    expect(sqlOf(askLettings('tenants housed per property'))).toContain(
      'COUNT(DISTINCT l.tenant_id) AS tenants_housed',
    );
  });

  it('adds up arithmetic, and another aggregate of what it adds up when asked', () => {
    expect(sqlOf(askLettings('annual rent of active leases'))).toBe(
      "SELECT SUM(l.monthly_rent * 12) AS total_annual_rent FROM leases l WHERE l.status = 'active'",
    );
    expect(sqlOf(askShop('average fulfilment hours of orders'))).toBe(
      'SELECT AVG(EXTRACT(EPOCH FROM (o.shipped_at - o.ordered_at)) / 3600) AS average_fulfilment_hours FROM orders o',
    );
  });

  it('combines a glossary metric with a glossary condition and a ranking', () => {
    expect(sqlOf(askShop('top 3 stores by fulfilment hours of late orders'))).toBe(
      "SELECT s.id, s.name, SUM(EXTRACT(EPOCH FROM (o.shipped_at - o.ordered_at)) / 3600) AS total_fulfilment_hours FROM orders o JOIN stores s ON o.store_id = s.id WHERE o.shipped_at > o.ordered_at + CAST('2 days' AS INTERVAL) GROUP BY s.id, s.name ORDER BY total_fulfilment_hours DESC, s.id, s.name LIMIT 3",
    );
  });

  it("reads an average of the hours between two timestamps as the engine's duration (units, as defined)", () => {
    expect(sqlOf(askShop('time to ship per store in minutes'))).toContain(
      'AVG(EXTRACT(EPOCH FROM (o.shipped_at - o.ordered_at)) / 60) AS average_time_to_ship_in_minutes',
    );
    expect(sqlOf(askShop('average time to ship'))).toBe(
      'SELECT AVG(EXTRACT(EPOCH FROM (o.shipped_at - o.ordered_at)) / 3600) AS average_time_to_ship_in_hours FROM orders o',
    );
  });

  it('reads an aggregate with FILTER (WHERE …) as a CASE inside it, said alike in both dialects', () => {
    expect(sqlOf(askShop('premium units per product category'))).toContain(
      'SUM(CASE WHEN oi.unit_price > 100 THEN oi.quantity END) AS',
    );
    expect(sqlOf(askLettings('live leases per property type'))).toContain(
      "COUNT(CASE WHEN l.status = 'active' THEN 1 END) AS live_leases",
    );
    expect(sqlOf(askLettings('live leases per property type', 'mysql'))).toContain(
      "COUNT(CASE WHEN l.status = 'active' THEN 1 END)",
    );
  });

  it('asks rather than take the highest of an average', () => {
    expect(askShop('what is the highest average basket').kind).toBe('clarification');
  });
});

describe('on PGlite, the rows the definition itself selects', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(shopSql);
    // PGlite's first start is slow on a loaded machine.
  }, 60_000);

  afterAll(async () => {
    await db.close();
  });

  const rows = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;

  it.each([
    [
      'how many late orders were placed in 2025',
      "SELECT count(*) AS order_count FROM orders WHERE shipped_at > ordered_at + interval '2 days' AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
    ],
    [
      'how many orders are not late',
      "SELECT count(*) AS order_count FROM orders WHERE NOT coalesce(shipped_at > ordered_at + interval '2 days', false)",
    ],
    [
      'average basket per product category',
      'SELECT p.category, avg(oi.quantity * oi.unit_price) AS average_basket FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category ORDER BY average_basket DESC, p.category',
    ],
    [
      'buyers per month in 2025',
      "SELECT extract(year FROM ordered_at) AS period_year, extract(month FROM ordered_at) AS period_month, count(DISTINCT customer_id) AS buyers FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01' GROUP BY 1, 2 ORDER BY 1, 2",
    ],
  ])('%s', async (question, hand) => {
    expect(await rows(sqlOf(askShop(question)))).toEqual(await rows(hand));
  });
});

describe('a group of rows with a code of their own', () => {
  const university = catalogOf([
    {
      name: 'courses',
      columns: [
        col('id', 'integer', 'integer'),
        col('institution_id', 'integer', 'integer'),
        col('course_code', 'text', 'text'),
        col('title', 'text', 'text'),
      ],
    },
    {
      name: 'enrolments',
      columns: [
        col('id', 'integer', 'integer'),
        col('institution_id', 'integer', 'integer'),
        col('course_id', 'integer', 'integer', { references: 'courses' }),
        col('grade_pts', 'decimal', 'numeric(3,2)', { nullable: true }),
      ],
    },
  ]);
  const glossary: Glossary = {
    synonyms: {},
    metrics: { 'average grade': 'AVG(enrolments.grade_pts)' },
    filters: {},
  };

  it('shows the code beside the key and the name (courses.course_code, title)', () => {
    expect(sqlOf(askOn(university, 'institution_id')('top 5 courses by average grade', { glossary }))).toBe(
      'SELECT c.id, c.course_code, c.title, AVG(e.grade_pts) AS average_grade FROM enrolments e JOIN courses c ON e.course_id = c.id GROUP BY c.id, c.course_code, c.title ORDER BY average_grade DESC, c.id, c.course_code, c.title LIMIT 5',
    );
  });
});

describe('MySQL', () => {
  it('says the epoch of a difference of two timestamps as TIMESTAMPDIFF', async () => {
    const proposal = askShop('fulfilment hours per store', 'mysql');
    expect(sqlOf(proposal)).toContain(
      'SUM(TIMESTAMPDIFF(SECOND, o.ordered_at, o.shipped_at) / 3600) AS total_fulfilment_hours',
    );
    expect(await guarded(proposal, shopCatalog, 'mysql', SHOP_TENANT_COLUMN)).toBe(true);
  });

  it('prints a condition turned around and a BETWEEN the MySQL guard accepts', async () => {
    const reversed = askShop('how many orders are not unshipped', 'mysql');
    expect(sqlOf(reversed)).toBe(
      'SELECT COUNT(*) AS order_count FROM orders o WHERE (o.shipped_at IS NULL) IS NOT TRUE',
    );
    expect(await guarded(reversed, shopCatalog, 'mysql', SHOP_TENANT_COLUMN)).toBe(true);
    const between = askLettings('costly repairs per property', 'mysql');
    expect(sqlOf(between)).toContain('WHERE mr.cost BETWEEN 500 AND 2000');
    expect(await guarded(between, lettingsCatalog, 'mysql', 'agency_id')).toBe(true);
  });

  it('leaves out a term the dialect cannot say (an interval, ILIKE) instead of printing it wrong', () => {
    const terms = (dialect: Dialect) =>
      [
        ...new Set(
          glossaryIndex(onDialect(shopCatalog, dialect), shopGlossary, SHOP_TENANT_COLUMN).filters.map(
            (filter) => filter.name,
          ),
        ),
      ].sort();
    expect(terms('postgres')).toEqual(['bulk lines', 'gmail', 'late', 'unshipped', 'vip']);
    expect(terms('mysql')).toEqual(['bulk lines', 'unshipped', 'vip']);
    expect(askShop('how many late orders', 'mysql').kind).toBe('clarification');
    expect(sqlOf(askShop('how many gmail customers'))).toContain("c.email ILIKE '%@gmail.com'");
  });

  it('asks back when an answer in one dialect is rendered for another that cannot say it', () => {
    const proposal = askOn(shopCatalog, SHOP_TENANT_COLUMN)('how many late orders', {
      glossary: shopGlossary,
      dialect: 'mysql',
    });
    expect(proposal.kind).toBe('clarification');
  });
});

describe('what is not a pure expression of one relation is not read', () => {
  it.each([
    ['filter', 'customers.id IN (SELECT usesysid FROM pg_catalog.pg_user)', 'a subquery'],
    ['filter', 'leases.monthly_rent < properties.monthly_rent', 'two relations'],
    ['filter', 'orders.ordered_at > now()', 'the function now'],
    ['metric', 'SUM(pg_sleep(1) + orders.id)', 'the function pg_sleep'],
    ['metric', 'SUM(orders.id) FROM orders', 'a whole query'],
    ['metric', 'SUM(orders.id); DROP TABLE orders', 'more than one expression'],
    ['metric', 'orders.id + SUM(orders.id)', 'a metric is an aggregate'],
    ['metric', 'SUM(orders.id) OVER ()', 'a window'],
    ['metric', 'SUM(SUM(orders.id))', 'an aggregate inside an aggregate'],
    ['filter', 'SUM(orders.id) > 3', 'a filter holds no aggregate'],
    ['filter', 'orders.org_id = 2', 'no column org_id'],
    ['filter', 'orders.status', 'a filter is a condition'],
    ['filter', 'orders.status = $1', 'the expression ParamRef'],
    // Names every JavaScript object has are no functions of the list.
    ['metric', 'SUM(constructor(orders.id))', 'the function constructor'],
    ['filter', 'abs("toString"(orders.id)) > 1', 'the function toString'],
  ] as const)('%s %s', (kind, sql, reason) => {
    const catalog = sql.includes('leases') ? lettingsCatalog : shopCatalog;
    const read = readDefinition(catalog, kind, 'term', sql, SHOP_TENANT_COLUMN);
    expect(read).toEqual({ rejected: expect.stringContaining(reason) });
  });

  it('prints a sign before a signed operand in parentheses, never as a comment (--)', () => {
    const read = readDefinition(shopCatalog, 'filter', 'term', '- -orders.id > 5', SHOP_TENANT_COLUMN);
    if ('rejected' in read) throw new Error(read.rejected);
    const printed = printExpr(read.expr, 'postgres', (column) => `o.${column}`, new Map());
    expect(printed).toBe('-(-o.id) > 5');
    expect(printed).not.toContain('--');
  });

  it('drops a rejected entry from the glossary the engine uses, keeping the others', () => {
    const index = glossaryIndex(lettingsCatalog, lettingsGlossary, 'agency_id');
    expect([...new Set(index.filters.map((filter) => filter.name))].sort()).toEqual([
      'costly repairs',
      'long lets',
      'needs price',
      'unpriced repairs',
    ]);
  });

  it('reads a term of several words with its verbs in other forms ("need reordering")', () => {
    expect(sqlOf(askLettings('how many maintenance requests need pricing'))).toBe(
      'SELECT COUNT(*) AS request_count FROM maintenance_requests mr WHERE mr.cost IS NULL',
    );
    const index = glossaryIndex(shopCatalog, shopGlossary, SHOP_TENANT_COLUMN);
    expect(
      index.filters.filter((filter) => filter.name === 'bulk lines').map((filter) => filter.words.join(' ')),
    ).toContain('bulk lining');
    expect(index.filters.filter((filter) => filter.name === 'late').map((filter) => filter.words)).toEqual([
      ['late'],
    ]);
  });

  it('keeps the simple forms as they were', () => {
    const index = glossaryIndex(shopCatalog, shopGlossary, SHOP_TENANT_COLUMN);
    expect(index.metrics.find((metric) => metric.name === 'revenue')?.measure.kind).toBe('product');
    expect(index.filters.find((filter) => filter.name === 'vip')?.filter).toEqual({
      kind: 'in',
      ref: { table: 'public.customers', column: 'tier' },
      values: ['gold'],
      negated: false,
    });
  });
});
