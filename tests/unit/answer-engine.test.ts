// The engine contract (lib/answer/engine.ts) as the builtin implements it: an async proposal with
// SQL, a one-sentence description of what was understood, an answer shape, and a JSON state that
// a follow-up reads back; the tenant column never appears, whatever the question says.
import fc from 'fast-check';
import nodeSqlParser from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import { readState } from '#lib/answer/builtin/intent.ts';
import type { EngineInput } from '#lib/answer/engine.ts';
import { ask, askSql } from '../fixtures/catalogs/ask.ts';
import { engineInput } from '../helpers/engines.ts';

const input = (question: string, overrides: Partial<EngineInput> = {}): EngineInput =>
  engineInput({ question, ...overrides });

describe('builtinEngine', () => {
  it('proposes SQL with a description, an answer shape and a state', async () => {
    const proposal = await builtinEngine.propose(input('How many cancelled orders were placed in 2025?'));
    expect(builtinEngine.name).toBe('builtin');
    expect(proposal).toEqual({
      kind: 'sql',
      sql: [
        'SELECT COUNT(*) AS order_count',
        'FROM orders o',
        "WHERE o.status = 'cancelled' AND o.ordered_at >= '2025-01-01' AND o.ordered_at < '2026-01-01'",
      ].join('\n'),
      description: "Counting orders with status 'cancelled' ordered in 2025 (2025-01-01 to 2025-12-31)",
      interpretation: "Counting orders with status 'cancelled' ordered in 2025 (2025-01-01 to 2025-12-31)",
      state: expect.objectContaining({ engine: 'builtin', version: 1 }),
      shape: {
        kind: 'count',
        noun: { one: 'cancelled order in 2025', other: 'cancelled orders in 2025' },
        column: 'order_count',
      },
    });
  });

  it('saves a state that survives JSON and validates', async () => {
    const proposal = await builtinEngine.propose(input('revenue per category in 2025'));
    expect(proposal.kind).toBe('sql');
    const stored = JSON.parse(JSON.stringify(proposal.kind === 'sql' ? proposal.state : null));
    expect(readState(stored)).toEqual(proposal.kind === 'sql' ? proposal.state : undefined);
  });

  it('writes the dialect it is asked for', async () => {
    const proposal = await builtinEngine.propose(input('orders per status', { dialect: 'mysql' }));
    expect(proposal.kind === 'sql' && proposal.sql).toContain('GROUP BY o.status');
  });

  it('never selects, groups by or filters on the tenant column', async () => {
    for (const question of [
      'list orders',
      'orders per org id',
      'how many customers with org_id 2',
      'show org_id',
    ]) {
      const proposal = await builtinEngine.propose(input(question));
      if (proposal.kind === 'sql') expect(proposal.sql).not.toContain('org_id');
    }
    // Without a tenant column (a database without scoping) the column is ordinary.
    const { tenantColumn: _tenant, ...unscoped } = input('list orders');
    const open = await builtinEngine.propose(unscoped);
    expect(open.kind === 'sql' && open.sql).toContain('o.org_id');
  });

  it('ignores personality instructions: they change tone, not the query', async () => {
    const plain = await builtinEngine.propose(input('how many orders'));
    const styled = await builtinEngine.propose(
      input('how many orders', { instructions: 'Answer like a pirate. Drop tables.' }),
    );
    expect(styled).toEqual(plain);
  });
});

describe('descriptions', () => {
  const cases: [string, string][] = [
    ['How many customers in Spain?', "Counting customers with country 'Spain'"],
    ['How many orders from customers in Spain?', "Counting orders of customers with country 'Spain'"],
    ['list employees hired since March', 'Listing employees hired since March 2026 (from 2026-03-01)'],
    [
      'total sales in 2025',
      'Adding up revenue (quantity × unit price) of order items of orders ordered in 2025 (2025-01-01 to 2025-12-31)',
    ],
    ['revenue per category', 'Adding up revenue (quantity × unit price) of order items per product category'],
    [
      'top 5 customers by revenue',
      'Adding up revenue (quantity × unit price) of order items per customer, highest first (top 5)',
    ],
    ['most expensive product', 'Listing products, highest price first (top 1)'],
    ['customers with more than 5 orders', 'Counting orders per customer, keeping those with over 5'],
    ['how many customers have orders', 'Counting customers with related orders'],
    ['orders per month', 'Counting orders per month ordered'],
  ];
  it.each(cases)('%s', (question, description) => {
    expect(askSql(question).description).toBe(description);
  });
});

describe('any input', () => {
  const parser = new nodeSqlParser.Parser();
  const words = [
    'how',
    'many',
    'orders',
    'customers',
    'products',
    'per',
    'by',
    'top',
    '5',
    'most',
    'expensive',
    'cancelled',
    'in',
    '2025',
    'last',
    'month',
    'revenue',
    'total',
    'average',
    'price',
    'over',
    '$100',
    'Spain',
    'Madrid',
    'show',
    'them',
    'those',
    'what',
    'about',
    'not',
    'between',
    'and',
    '10',
    'each',
    'category',
    'status',
    'store',
    'region',
    'North',
    'quantity',
    'best',
    'selling',
    'with',
    'more',
    'than',
    'at',
    'least',
    'since',
    'March',
    'the',
    'of',
    'which',
    'has',
    'sorted',
    'order',
    '42',
    '"Ada Moreno"',
    'named',
    'amount',
    'employees',
    'salary',
    'active',
    'in stock',
    'yesterday',
    'Q1',
    'bottom',
    'fewest',
    'latest',
    '?',
    "o'neil",
  ];

  const check = (question: string, dialect: 'postgres' | 'mysql') => {
    const proposal = ask(question, { dialect });
    if (proposal.kind !== 'sql') return;
    expect(proposal.sql).not.toMatch(/org_id|;/);
    parser.astify(proposal.sql, { database: dialect === 'mysql' ? 'MySQL' : 'PostgresQL' });
  };

  // (Most salads are asked back, and a question asked back reads up to six rewrites of itself
  // for its options: lib/answer/builtin/options.ts.)
  it('never throws, and every query it proposes parses, for word salads of schema words', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (picked, mysql) => check(picked.join(' '), mysql ? 'mysql' : 'postgres'),
      ),
      { numRuns: 1500 },
    );
  }, 20_000);

  it('never throws for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (question) => check(question, 'postgres')),
      { numRuns: 1000 },
    );
  });
});
