// From intent to SQL: join paths along foreign keys (shortest, unambiguous, through the relations
// the question named), identifiers quoted only when needed in each dialect, literals printed
// safely, distinct counts when a join repeats rows, time groups with EXTRACT.
import { describe, expect, it } from 'vitest';
import type { Intent } from '#lib/answer/builtin/intent.ts';
import { pathBetween, planJoins } from '#lib/answer/builtin/joins.ts';
import { buildLexicon } from '#lib/answer/builtin/lexicon.ts';
import { renderSql } from '#lib/answer/builtin/render.ts';
import {
  isPrintableValue,
  literal,
  numberLiteral,
  outputName,
  quoteIdentifier,
  stringLiteral,
} from '#lib/answer/builtin/sql.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { edgeCatalog } from '../fixtures/catalogs/edge.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';

const shop = buildLexicon(shopCatalog, 'org_id');
const edge = buildLexicon(edgeCatalog);
const t = (name: string) => `public.${name}`;

const sqlOf = (intent: Intent, dialect: 'postgres' | 'mysql' = 'postgres', lexicon = shop): string => {
  const result = renderSql(lexicon, intent, dialect);
  if (result.kind !== 'sql') throw new Error(`render problem: ${result.reason}`);
  return result.rendered.sql;
};

describe('SQL text', () => {
  it('quotes identifiers only when needed, per dialect', () => {
    expect(quoteIdentifier('orders', 'postgres')).toBe('orders');
    expect(quoteIdentifier('order', 'postgres')).toBe('"order"');
    expect(quoteIdentifier('createdAt', 'postgres')).toBe('"createdAt"');
    expect(quoteIdentifier('we"ird', 'postgres')).toBe('"we""ird"');
    expect(quoteIdentifier('createdAt', 'mysql')).toBe('createdAt');
    expect(quoteIdentifier('order', 'mysql')).toBe('`order`');
    expect(quoteIdentifier('we`ird', 'mysql')).toBe('`we``ird`');
    expect(quoteIdentifier('1st', 'mysql')).toBe('`1st`');
  });

  it('prints literals: strings with quotes doubled, numbers plainly, booleans as keywords', () => {
    expect(stringLiteral("O'Brien's")).toBe("'O''Brien''s'");
    expect(literal(12.5)).toBe('12.5');
    expect(literal(true)).toBe('TRUE');
    expect(literal('2025-01-01')).toBe("'2025-01-01'");
  });

  it('refuses values it cannot print safely in both dialects', () => {
    expect(isPrintableValue('back\\slash')).toBe(false);
    expect(isPrintableValue('new\nline')).toBe(false);
    expect(isPrintableValue('zero\u200bwidth')).toBe(false);
    expect(isPrintableValue('x'.repeat(201))).toBe(false);
    expect(() => stringLiteral('a\\b')).toThrow();
    expect(() => numberLiteral(1e21)).toThrow();
    expect(() => numberLiteral(Number.NaN)).toThrow();
  });

  it('makes safe output column names', () => {
    expect(outputName('Total revenue')).toBe('total_revenue');
    expect(outputName('order')).toBe('order_value');
    expect(outputName('2025 sales')).toBe('v_2025_sales');
  });
});

describe('join paths', () => {
  it('follows foreign keys both ways, shortest first', () => {
    const path = pathBetween(shop, t('employees'), t('regions'));
    expect(path.kind === 'path' && path.steps.map((step) => step.to)).toEqual([t('stores'), t('regions')]);
    const down = pathBetween(shop, t('customers'), t('order_items'));
    expect(down.kind === 'path' && down.steps.map((step) => step.toMany)).toEqual([true, true]);
  });

  it('reports two foreign keys to the same table as ambiguous', () => {
    expect(pathBetween(edge, t('order'), t('addresses')).kind).toBe('ambiguous');
  });

  it('reports relations with no path', () => {
    expect(pathBetween(edge, t('logs'), t('order')).kind).toBe('none');
  });

  it('joins a later target to the nearest relation already joined', () => {
    const lexicon = buildLexicon(
      catalogOf([
        { name: 'countries', columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text')] },
        {
          name: 'customers',
          columns: [
            col('id', 'integer', 'integer'),
            col('country_id', 'integer', 'integer', { references: 'countries' }),
          ],
        },
        {
          name: 'stores',
          columns: [
            col('id', 'integer', 'integer'),
            col('country_id', 'integer', 'integer', { references: 'countries' }),
          ],
        },
        {
          name: 'orders',
          columns: [
            col('id', 'integer', 'integer'),
            col('customer_id', 'integer', 'integer', { references: 'customers' }),
            col('store_id', 'integer', 'integer', { references: 'stores' }),
          ],
        },
      ]),
    );
    expect(planJoins(lexicon, t('orders'), [t('countries')]).kind).toBe('ambiguous');
    const plan = planJoins(lexicon, t('orders'), [t('countries'), t('customers')]);
    expect(plan.kind === 'plan' && plan.plan.steps.map((step) => `${step.from}→${step.to}`)).toEqual([
      `${t('orders')}→${t('customers')}`,
      `${t('customers')}→${t('countries')}`,
    ]);
  });
});

describe('renderSql', () => {
  it('counts with filters, a join to a parent and a period', () => {
    const sql = sqlOf({
      subject: t('orders'),
      metric: { fn: 'count' },
      filters: [
        { kind: 'in', ref: { table: t('customers'), column: 'country' }, values: ['Spain'], negated: false },
        {
          kind: 'period',
          ref: { table: t('orders'), column: 'ordered_at' },
          from: '2025-01-01',
          to: '2026-01-01',
          label: 'in 2025',
        },
      ],
    });
    expect(sql).toBe(
      [
        'SELECT COUNT(*) AS order_count',
        'FROM orders o',
        'JOIN customers c ON o.customer_id = c.id',
        "WHERE c.country = 'Spain' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
      ].join('\n'),
    );
  });

  it('counts distinct keys, and lists distinct rows, when a join repeats them', () => {
    const related = { kind: 'present' as const, ref: { table: t('orders'), column: 'id' } };
    expect(sqlOf({ subject: t('customers'), metric: { fn: 'count' }, filters: [related] })).toContain(
      'SELECT COUNT(DISTINCT c.id) AS customer_count',
    );
    expect(sqlOf({ subject: t('customers'), filters: [related] })).toMatch(/^SELECT DISTINCT c\.id, c\.name/);
  });

  it('refuses to add up over a join that repeats rows', () => {
    const result = renderSql(
      shop,
      {
        subject: t('products'),
        metric: { fn: 'sum', measure: { kind: 'column', ref: { table: t('products'), column: 'price' } } },
        filters: [{ kind: 'present', ref: { table: t('order_items'), column: 'id' } }],
      },
      'postgres',
    );
    expect(result).toMatchObject({ kind: 'problem', reason: 'fan-out' });
  });

  it('groups by a related row with its key and label, ranked, with ties broken by the key', () => {
    const sql = sqlOf({
      subject: t('orders'),
      metric: { fn: 'count' },
      filters: [],
      group: { kind: 'entity', table: t('customers') },
      order: { by: 'metric', dir: 'desc' },
      limit: 3,
    });
    expect(sql).toBe(
      [
        'SELECT c.id, c.name, COUNT(*) AS order_count',
        'FROM orders o',
        'JOIN customers c ON o.customer_id = c.id',
        'GROUP BY c.id, c.name',
        'ORDER BY order_count DESC, c.id, c.name',
        'LIMIT 3',
      ].join('\n'),
    );
  });

  it('groups by month with EXTRACT, in calendar order', () => {
    const sql = sqlOf({
      subject: t('orders'),
      metric: { fn: 'count' },
      filters: [],
      group: { kind: 'time', ref: { table: t('orders'), column: 'ordered_at' }, unit: 'month' },
    });
    expect(sql).toContain(
      'EXTRACT(YEAR FROM o.ordered_at) AS period_year, EXTRACT(MONTH FROM o.ordered_at) AS period_month',
    );
    expect(sql).toContain('GROUP BY EXTRACT(YEAR FROM o.ordered_at), EXTRACT(MONTH FROM o.ordered_at)');
    expect(sql).toContain('ORDER BY period_year, period_month');
  });

  it('repeats the aggregate in HAVING (output names are not visible there in PostgreSQL)', () => {
    const sql = sqlOf({
      subject: t('orders'),
      metric: { fn: 'count' },
      filters: [],
      group: { kind: 'entity', table: t('customers') },
      having: { op: '>', value: 5 },
      order: { by: 'metric', dir: 'desc' },
    });
    expect(sql).toContain('HAVING COUNT(*) > 5');
    expect(sql.endsWith('LIMIT 100')).toBe(true);
  });

  it('keeps NULLs out of a ranking on a nullable column and orders by the key after it', () => {
    const sql = sqlOf({
      subject: t('orders'),
      filters: [{ kind: 'present', ref: { table: t('orders'), column: 'shipped_at' } }],
      order: { by: 'column', ref: { table: t('orders'), column: 'shipped_at' }, dir: 'desc' },
      limit: 1,
    });
    expect(sql).toContain('WHERE o.shipped_at IS NOT NULL');
    expect(sql).toContain('ORDER BY o.shipped_at DESC, o.id');
  });

  it('writes a negated value so that NULLs stay in when the column allows them', () => {
    const sql = sqlOf(
      {
        subject: t('order'),
        metric: { fn: 'count' },
        filters: [
          {
            kind: 'in',
            ref: { table: t('order'), column: 'Status' },
            values: ['open', 'closed'],
            negated: true,
          },
        ],
      },
      'postgres',
      edge,
    );
    expect(sql).toContain(`WHERE o."Status" NOT IN ('open', 'closed')`);
    const nullable = buildLexicon(
      catalogOf([
        {
          name: 'tickets',
          columns: [col('id', 'integer', 'integer'), col('state', 'text', 'text', { nullable: true })],
        },
      ]),
    );
    const open = sqlOf(
      {
        subject: t('tickets'),
        metric: { fn: 'count' },
        filters: [
          { kind: 'in', ref: { table: t('tickets'), column: 'state' }, values: ['open'], negated: true },
        ],
      },
      'postgres',
      nullable,
    );
    expect(open).toContain(`WHERE (t.state <> 'open' OR t.state IS NULL)`);
  });

  it('quotes reserved and mixed-case names in each dialect', () => {
    const intent: Intent = {
      subject: t('order'),
      filters: [
        { kind: 'in', ref: { table: t('user'), column: 'name' }, values: ["O'Neil"], negated: false },
      ],
      order: { by: 'column', ref: { table: t('order'), column: 'createdAt' }, dir: 'desc' },
      limit: 5,
    };
    const postgres = sqlOf(intent, 'postgres', edge);
    expect(postgres).toContain('FROM "order" o');
    expect(postgres).toContain('JOIN "user" u ON o.user_id = u.id');
    expect(postgres).toContain(`WHERE u.name = 'O''Neil'`);
    expect(postgres).toContain('ORDER BY o."createdAt" DESC, o.id');
    const mysql = sqlOf(intent, 'mysql', edge);
    expect(mysql).toContain('FROM `order` o');
    expect(mysql).toContain('ORDER BY o.createdAt DESC, o.id');
  });

  it('orders a list of rows without a key by its first columns', () => {
    const sql = sqlOf({ subject: t('logs'), filters: [] }, 'postgres', edge);
    expect(sql).toContain('ORDER BY l.message, l.level, l.logged_at');
  });
});
