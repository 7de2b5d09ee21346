// The builtin engine, table-driven: questions about the shop fixture and the intent each
// must map to, then the shape every generated query must have in both dialects (one SELECT that
// the MySQL and PostgreSQL grammars accept, qualified columns, ORDER BY and LIMIT on lists, no
// placeholders, never the tenant column). Clock: 2026-03-15 (tests/fixtures/catalogs/shop.ts).
import nodeSqlParser from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import {
  ask,
  askSql,
  column,
  during,
  eq,
  intentOf,
  not,
  ref,
  revenue,
  table,
} from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const { Parser } = nodeSqlParser;

/** The parts of the intent a question must produce (matched with toMatchObject). */
type Expected = { subject: string } & Record<string, unknown>;

const count = { fn: 'count' } as const;
const sum = (measure: object, name?: string) => ({ fn: 'sum', measure, ...(name ? { name } : {}) });

const cases: [string, Expected][] = [
  // ---- counts ----
  ['How many customers are there?', { subject: table('customers'), metric: count, filters: [] }],
  ['How many orders?', { subject: table('orders'), metric: count, filters: [] }],
  ['number of products', { subject: table('products'), metric: count, filters: [] }],
  [
    'count cancelled orders',
    { subject: table('orders'), metric: count, filters: [eq('orders', 'status', 'cancelled')] },
  ],
  [
    'How many cancelled orders were placed in 2025?',
    {
      subject: table('orders'),
      metric: count,
      filters: [
        eq('orders', 'status', 'cancelled'),
        during('orders', 'ordered_at', '2025-01-01', '2026-01-01'),
      ],
    },
  ],
  [
    'How many customers in Spain?',
    { subject: table('customers'), metric: count, filters: [eq('customers', 'country', 'Spain')] },
  ],
  [
    'How many clients do we have in Germany?',
    { subject: table('customers'), metric: count, filters: [eq('customers', 'country', 'Germany')] },
  ],
  [
    'How many orders were placed last month?',
    {
      subject: table('orders'),
      metric: count,
      filters: [during('orders', 'ordered_at', '2026-02-01', '2026-03-01')],
    },
  ],
  [
    'How many orders from customers in Spain?',
    { subject: table('orders'), metric: count, filters: [eq('customers', 'country', 'Spain')] },
  ],
  [
    'How many employees work in the North region?',
    { subject: table('employees'), metric: count, filters: [eq('regions', 'name', 'North')] },
  ],
  [
    'how many products in the Books category',
    { subject: table('products'), metric: count, filters: [eq('products', 'category', 'Books')] },
  ],
  [
    'How many purchases did buyers in France make this year?',
    {
      subject: table('orders'),
      metric: count,
      filters: [
        eq('customers', 'country', 'France'),
        during('orders', 'ordered_at', '2026-01-01', '2027-01-01'),
      ],
    },
  ],
  [
    'how many customers in Spain or France',
    { subject: table('customers'), metric: count, filters: [eq('customers', 'country', 'Spain', 'France')] },
  ],
  [
    'how many orders that are not cancelled',
    { subject: table('orders'), metric: count, filters: [not('orders', 'status', 'cancelled')] },
  ],
  [
    'how many active employees',
    { subject: table('employees'), metric: count, filters: [eq('employees', 'active', true)] },
  ],
  [
    'how many products are in stock',
    { subject: table('products'), metric: count, filters: [eq('products', 'in_stock', true)] },
  ],
  [
    'how many customers have orders',
    { subject: table('customers'), metric: count, filters: [{ kind: 'present', ref: ref('orders', 'id') }] },
  ],
  // ---- lists ----
  [
    'List customers in Spain',
    { subject: table('customers'), filters: [eq('customers', 'country', 'Spain')] },
  ],
  [
    'Show me the cancelled orders',
    { subject: table('orders'), filters: [eq('orders', 'status', 'cancelled')] },
  ],
  [
    'Which products cost more than $100?',
    {
      subject: table('products'),
      filters: [{ kind: 'compare', ref: ref('products', 'price'), op: '>', value: 100 }],
    },
  ],
  [
    'products with a price over 50',
    {
      subject: table('products'),
      filters: [{ kind: 'compare', ref: ref('products', 'price'), op: '>', value: 50 }],
    },
  ],
  [
    'list employees hired since March',
    { subject: table('employees'), filters: [during('employees', 'hired_at', '2026-03-01', undefined)] },
  ],
  [
    'show customers created in the last 30 days',
    { subject: table('customers'), filters: [during('customers', 'created_at', '2026-02-14', '2026-03-16')] },
  ],
  [
    'show orders placed yesterday',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', '2026-03-14', '2026-03-15')] },
  ],
  [
    'list stores in the North region',
    { subject: table('stores'), filters: [eq('regions', 'name', 'North')] },
  ],
  [
    'products between $20 and $50',
    {
      subject: table('products'),
      filters: [{ kind: 'between', ref: ref('products', 'price'), low: 20, high: 50 }],
    },
  ],
  [
    'employees with salary between 3000 and 5000',
    {
      subject: table('employees'),
      filters: [{ kind: 'between', ref: ref('employees', 'salary'), low: 3000, high: 5000 }],
    },
  ],
  [
    'show customers from Madrid',
    { subject: table('customers'), filters: [eq('customers', 'city', 'Madrid')] },
  ],
  [
    'orders shipped in 2025',
    { subject: table('orders'), filters: [during('orders', 'shipped_at', '2025-01-01', '2026-01-01')] },
  ],
  ['gold customers', { subject: table('customers'), filters: [eq('customers', 'tier', 'gold')] }],
  [
    'order 42',
    {
      subject: table('orders'),
      filters: [{ kind: 'compare', ref: ref('orders', 'id'), op: '=', value: 42 }],
    },
  ],
  [
    "customers named 'Ada Moreno'",
    { subject: table('customers'), filters: [eq('customers', 'name', 'Ada Moreno')] },
  ],
  [
    'products sorted by price descending',
    { subject: table('products'), order: { by: 'column', ref: ref('products', 'price'), dir: 'desc' } },
  ],
  // ---- sums, averages, min, max ----
  [
    'What is the total revenue?',
    { subject: table('order_items'), metric: sum(revenue, 'revenue'), filters: [] },
  ],
  [
    'total sales in 2025',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      filters: [during('orders', 'ordered_at', '2025-01-01', '2026-01-01')],
    },
  ],
  [
    "What's the average price of products?",
    { subject: table('products'), metric: { fn: 'avg', measure: column('products', 'price') } },
  ],
  [
    'average salary of employees',
    { subject: table('employees'), metric: { fn: 'avg', measure: column('employees', 'salary') } },
  ],
  [
    'maximum price of products',
    { subject: table('products'), metric: { fn: 'max', measure: column('products', 'price') } },
  ],
  [
    'minimum salary',
    { subject: table('employees'), metric: { fn: 'min', measure: column('employees', 'salary') } },
  ],
  [
    'what is the highest price',
    { subject: table('products'), metric: { fn: 'max', measure: column('products', 'price') } },
  ],
  ['sum of payment amounts', { subject: table('payments'), metric: sum(column('payments', 'amount')) }],
  ['total payments', { subject: table('payments'), metric: sum(column('payments', 'amount')) }],
  [
    'revenue from customers in Spain last year',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      filters: [
        eq('customers', 'country', 'Spain'),
        during('orders', 'ordered_at', '2025-01-01', '2026-01-01'),
      ],
    },
  ],
  [
    'how much revenue did we make in Q1 2025',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      filters: [during('orders', 'ordered_at', '2025-01-01', '2025-04-01')],
    },
  ],
  // ---- groups ----
  [
    'orders per status',
    { subject: table('orders'), metric: count, group: { kind: 'column', ref: ref('orders', 'status') } },
  ],
  [
    'number of customers by country',
    { subject: table('customers'), group: { kind: 'column', ref: ref('customers', 'country') } },
  ],
  [
    'revenue per category',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      group: { kind: 'column', ref: ref('products', 'category') },
    },
  ],
  [
    'revenue by month in 2025',
    {
      subject: table('order_items'),
      group: { kind: 'time', ref: ref('orders', 'ordered_at'), unit: 'month' },
      filters: [during('orders', 'ordered_at', '2025-01-01', '2026-01-01')],
    },
  ],
  [
    'how many orders per customer',
    { subject: table('orders'), metric: count, group: { kind: 'entity', table: table('customers') } },
  ],
  [
    'average price by category',
    {
      subject: table('products'),
      metric: { fn: 'avg', measure: column('products', 'price') },
      group: { kind: 'column', ref: ref('products', 'category') },
    },
  ],
  ['orders per store', { subject: table('orders'), group: { kind: 'entity', table: table('stores') } }],
  [
    'employees per region',
    { subject: table('employees'), group: { kind: 'entity', table: table('regions') } },
  ],
  [
    'count of payments by method',
    { subject: table('payments'), group: { kind: 'column', ref: ref('payments', 'method') } },
  ],
  [
    'orders per year',
    { subject: table('orders'), group: { kind: 'time', ref: ref('orders', 'ordered_at'), unit: 'year' } },
  ],
  [
    'orders per customer country',
    { subject: table('orders'), group: { kind: 'column', ref: ref('customers', 'country') } },
  ],
  [
    'quantity per product',
    {
      subject: table('order_items'),
      metric: sum(column('order_items', 'quantity')),
      group: { kind: 'entity', table: table('products') },
    },
  ],
  // ---- top-N and superlatives ----
  [
    'top 5 customers by revenue',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      group: { kind: 'entity', table: table('customers') },
      order: { by: 'metric', dir: 'desc' },
      limit: 5,
    },
  ],
  [
    'most expensive product',
    {
      subject: table('products'),
      order: { by: 'column', ref: ref('products', 'price'), dir: 'desc' },
      limit: 1,
    },
  ],
  [
    'the 3 cheapest products',
    {
      subject: table('products'),
      order: { by: 'column', ref: ref('products', 'price'), dir: 'asc' },
      limit: 3,
    },
  ],
  [
    'which category has the most products',
    {
      subject: table('products'),
      metric: count,
      group: { kind: 'column', ref: ref('products', 'category') },
      order: { by: 'metric', dir: 'desc' },
      limit: 1,
    },
  ],
  [
    'which customer has the most orders',
    {
      subject: table('orders'),
      metric: count,
      group: { kind: 'entity', table: table('customers') },
      limit: 1,
    },
  ],
  [
    'top 3 products by quantity',
    {
      subject: table('order_items'),
      metric: sum(column('order_items', 'quantity')),
      group: { kind: 'entity', table: table('products') },
      limit: 3,
    },
  ],
  [
    'best-selling products',
    {
      subject: table('order_items'),
      metric: sum(column('order_items', 'quantity'), 'units sold'),
      group: { kind: 'entity', table: table('products') },
      limit: 5,
    },
  ],
  [
    'newest customers',
    {
      subject: table('customers'),
      order: { by: 'column', ref: ref('customers', 'created_at'), dir: 'desc' },
      limit: 5,
    },
  ],
  [
    'most recent order',
    {
      subject: table('orders'),
      order: { by: 'column', ref: ref('orders', 'ordered_at'), dir: 'desc' },
      limit: 1,
    },
  ],
  [
    'top 10 products by price',
    {
      subject: table('products'),
      order: { by: 'column', ref: ref('products', 'price'), dir: 'desc' },
      limit: 10,
    },
  ],
  [
    'which store has the highest revenue',
    {
      subject: table('order_items'),
      metric: sum(revenue, 'revenue'),
      group: { kind: 'entity', table: table('stores') },
      limit: 1,
    },
  ],
  [
    'employee with the highest salary',
    {
      subject: table('employees'),
      order: { by: 'column', ref: ref('employees', 'salary'), dir: 'desc' },
      limit: 1,
    },
  ],
  [
    'which country has the most customers',
    { subject: table('customers'), group: { kind: 'column', ref: ref('customers', 'country') }, limit: 1 },
  ],
  // ---- counts of related rows ----
  [
    'customers with more than 5 orders',
    {
      subject: table('orders'),
      metric: count,
      group: { kind: 'entity', table: table('customers') },
      having: { op: '>', value: 5 },
    },
  ],
  [
    'customers with at least 2 cancelled orders',
    {
      subject: table('orders'),
      filters: [eq('orders', 'status', 'cancelled')],
      group: { kind: 'entity', table: table('customers') },
      having: { op: '>=', value: 2 },
    },
  ],
  // ---- date ranges ----
  [
    'orders in March 2025',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', '2025-03-01', '2025-04-01')] },
  ],
  [
    'orders between 2025-01-01 and 2025-03-31',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', '2025-01-01', '2025-04-01')] },
  ],
  [
    'orders in Q1 2025',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', '2025-01-01', '2025-04-01')] },
  ],
  [
    'orders since 2025',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', '2025-01-01', undefined)] },
  ],
  [
    'orders before 2025',
    { subject: table('orders'), filters: [during('orders', 'ordered_at', undefined, '2025-01-01')] },
  ],
];

const parser = new Parser();

describe('builtin engine: question → intent', () => {
  it('covers at least 60 questions', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases)('%s', (question, expected) => {
    const intent = intentOf(askSql(question));
    expect(intent).toMatchObject(expected);
    // Cases that expect no metric are lists of rows.
    if (!('metric' in expected) && !('group' in expected)) expect(intent.metric).toBeUndefined();
  });
});

describe('builtin engine: the shape of every query', () => {
  it.each(cases)('%s', (question) => {
    for (const dialect of ['postgres', 'mysql'] as const) {
      const proposal = askSql(question, { dialect });
      const { sql } = proposal;
      const intent = intentOf(proposal);
      expect(sql.startsWith('SELECT ')).toBe(true);
      expect(sql).not.toMatch(/\$\d|\?|;|--|\/\*/);
      expect(sql).not.toContain('org_id');
      // Both grammars accept it (the guard parses MySQL with node-sql-parser).
      const ast = parser.astify(sql, { database: dialect === 'mysql' ? 'MySQL' : 'PostgresQL' });
      expect(Array.isArray(ast) ? ast.length : 1).toBe(1);
      // Lists and groups are ordered and limited; single values are neither.
      const isList = !intent.metric || intent.group !== undefined;
      expect(sql.includes('\nORDER BY ')).toBe(isList);
      expect(/\nLIMIT \d+$/.test(sql)).toBe(isList);
      if (intent.limit !== undefined) expect(sql.endsWith(`LIMIT ${intent.limit}`)).toBe(true);
      // Every column is qualified by a table alias.
      const select = sql.split('\n')[0]!.replace(/^SELECT (DISTINCT )?/, '');
      for (const part of select.split(/,(?![^(]*\))/)) {
        const expression = part.trim().split(/ AS /)[0]!;
        if (/^(COUNT\(\*\))$/.test(expression)) continue;
        expect(expression).toMatch(/[a-z0-9]+\.[a-zA-Z_"`]/);
      }
      expect(proposal.description.length).toBeGreaterThan(10);
    }
  });
});

// A small haulage schema of its own: a status column whose samples miss a value, a yes/no column
// that shares its word with another relation's status value, a later-step date beside the row's
// own one, one amount per charge, names that are not sampled.
const haulage = catalogOf([
  { name: 'organizations', columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text')] },
  {
    name: 'depots',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer', { references: 'organizations' }),
      col('name', 'text', 'text'),
      col('opened_on', 'date', 'date'),
    ],
  },
  {
    name: 'drivers',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer', { references: 'organizations' }),
      col('depot_id', 'integer', 'integer', { references: 'depots' }),
      col('full_name', 'text', 'text'),
      col('hourly_wage', 'decimal', 'numeric(10,2)'),
      col('active', 'boolean', 'boolean'),
    ],
  },
  {
    name: 'shipments',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer', { references: 'organizations' }),
      col('driver_id', 'integer', 'integer', { references: 'drivers' }),
      col('picked_up_at', 'timestamp', 'timestamp'),
      col('due_on', 'date', 'date'),
      col('delivered_on', 'date', 'date', { nullable: true }),
      col('status', 'text', 'text', { samples: ['active', 'delayed', 'delivered'] }),
      col('weight_kg', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'charges',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer', { references: 'organizations' }),
      col('shipment_id', 'integer', 'integer', { references: 'shipments' }),
      col('amount', 'decimal', 'numeric(10,2)'),
      col('issued_on', 'date', 'date'),
      col('paid', 'boolean', 'boolean'),
    ],
  },
]);
const haul = (question: string) => askSql(question, { catalog: haulage });
const haulIntent = (question: string) => intentOf(haul(question));
const max = (relation: string, name: string) => ({ fn: 'max', measure: column(relation, name) });
const min = (relation: string, name: string) => ({ fn: 'min', measure: column(relation, name) });

describe('builtin engine: superlatives of a named measure', () => {
  it('reads "the highest <column> of <relation>" as the largest value, not as rows', () => {
    expect(intentOf(askSql('What is the highest salary of employees?'))).toMatchObject({
      subject: table('employees'),
      metric: max('employees', 'salary'),
    });
    expect(haulIntent('What is the highest hourly wage of drivers?')).toMatchObject({
      metric: max('drivers', 'hourly_wage'),
    });
  });

  it('reads "the cheapest <relation> <column>" and "the lowest <relation> <column>" as the smallest value', () => {
    expect(intentOf(askSql('What is the cheapest product price?'))).toMatchObject({
      subject: table('products'),
      metric: min('products', 'price'),
    });
    expect(haulIntent('What is the lowest charge amount?')).toMatchObject({
      metric: min('charges', 'amount'),
    });
  });

  it('still ranks rows when the relation comes first', () => {
    const intent = haulIntent('Which driver has the highest hourly wage?');
    expect(intent.metric).toBeUndefined();
    expect(intent).toMatchObject({
      order: { by: 'column', ref: ref('drivers', 'hourly_wage'), dir: 'desc' },
      limit: 1,
    });
  });

  it('reads "the maximum number of <numeric column>" as that column, not a count', () => {
    expect(haulIntent('What is the maximum number of weight kg of shipments?')).toMatchObject({
      metric: max('shipments', 'weight_kg'),
    });
  });
});

describe('builtin engine: rankings without a named key', () => {
  it('ranks "largest" rows by their one amount', () => {
    expect(haulIntent('Top 5 largest charges')).toMatchObject({
      subject: table('charges'),
      order: { by: 'column', ref: ref('charges', 'amount'), dir: 'desc' },
      limit: 5,
    });
  });

  it('asks when the only money column is not the size of the row', () => {
    expect(ask('the largest drivers', { catalog: haulage }).kind).toBe('clarification');
  });

  it('takes the number of "which 3 <rows> ... the most" as the ranking\'s size', () => {
    expect(haulIntent('Which 3 drivers have the most shipments?')).toMatchObject({
      subject: table('shipments'),
      metric: { fn: 'count' },
      group: { kind: 'entity', table: table('drivers') },
      order: { by: 'metric', dir: 'desc' },
      limit: 3,
    });
  });
});

describe('builtin engine: values and flags', () => {
  it("prefers the named relation's yes/no column over another relation's status value", () => {
    expect(haulIntent('How many drivers are active?')).toMatchObject({
      subject: table('drivers'),
      filters: [eq('drivers', 'active', true)],
    });
    expect(haulIntent('How many active shipments?')).toMatchObject({
      filters: [eq('shipments', 'status', 'active')],
    });
  });

  it('reads un-/in- before a yes/no column as its negation', () => {
    expect(haulIntent('Total amount of unpaid charges')).toMatchObject({
      metric: { fn: 'sum', measure: column('charges', 'amount') },
      filters: [eq('charges', 'paid', false)],
    });
    expect(haulIntent('list inactive drivers').filters).toEqual([eq('drivers', 'active', false)]);
  });

  it('reads a participle next to a relation as a value of its status column when sampled, else asks', () => {
    expect(haulIntent('List the delayed shipments').filters).toEqual([eq('shipments', 'status', 'delayed')]);
    expect(haulIntent('how many shipments are delayed').filters).toEqual([
      eq('shipments', 'status', 'delayed'),
    ]);
    // Unsampled: only a value the lookup finds in the asker's data (tests/unit/answer-precision.test.ts).
    expect(ask('List the returned shipments', { catalog: haulage }).kind).toBe('clarification');
    expect(ask('how many shipments are pending', { catalog: haulage }).kind).toBe('clarification');
    expect(ask('list the heavy shipments', { catalog: haulage }).kind).toBe('clarification');
  });

  it('reads capitalized unknown words before a relation as the name of one of its rows', () => {
    expect(haulIntent('How many drivers does the North Depot have?').filters).toEqual([
      eq('depots', 'name', 'North Depot'),
    ]);
    expect(haulIntent('How many drivers work at the Harbor depot?').filters).toEqual([
      eq('depots', 'name', 'Harbor', 'Harbor depot', 'Harbor Depot'),
    ]);
  });
});

describe('builtin engine: the date of a row', () => {
  it('dates a row by its own event, not by a deadline or a later step', () => {
    expect(haulIntent('How many shipments in 2025?').filters).toMatchObject([
      during('shipments', 'picked_up_at', '2025-01-01', '2026-01-01'),
    ]);
    expect(haulIntent('How many shipments were delivered in 2025?').filters).toMatchObject([
      during('shipments', 'delivered_on', '2025-01-01', '2026-01-01'),
    ]);
  });
});
