// Follow-ups: a question that refers to the previous answer starts from its saved intent
// (SqlProposal.state, read back from history) and changes one part of it.
import { describe, expect, it } from 'vitest';
import type { PriorTurn, Proposal } from '#lib/answer/engine.ts';
import { ask, converse, during, eq, intentOf, table } from '../fixtures/catalogs/ask.ts';

const sql = (proposal: Proposal | undefined) => {
  if (proposal?.kind !== 'sql') throw new Error(`expected SQL, got ${proposal?.kind}`);
  return proposal;
};

describe('follow-ups', () => {
  it('narrows a grouping to a named row of a related relation: "only for the North region"', () => {
    const [, narrowed] = converse(['How many stores per city?', 'only for the North region']);
    expect(intentOf(sql(narrowed))).toMatchObject({
      subject: table('stores'),
      metric: { fn: 'count' },
      group: { kind: 'column', ref: { table: table('stores'), column: 'city' } },
      filters: [eq('regions', 'name', 'North')],
    });
  });

  it('switches the value of a filter: "and delivered?"', () => {
    const [, switched, again] = converse([
      'How many orders are pending?',
      'and delivered?',
      'what about returned?',
    ]);
    expect(intentOf(sql(switched)).filters).toEqual([eq('orders', 'status', 'delivered')]);
    expect(intentOf(sql(again)).filters).toEqual([eq('orders', 'status', 'returned')]);
  });

  it('adds a filter to the previous count: "and how many of those were cancelled?"', () => {
    const [, narrowed] = converse(['How many orders in 2025?', 'and how many of those were cancelled?']);
    expect(intentOf(sql(narrowed))).toEqual({
      subject: table('orders'),
      metric: { fn: 'count' },
      filters: [
        { ...during('orders', 'ordered_at', '2025-01-01', '2026-01-01'), label: 'in 2025' },
        eq('orders', 'status', 'cancelled'),
      ],
    });
  });

  it('replaces the period: "what about last year?"', () => {
    const [, , lastYear] = converse([
      'How many cancelled orders this year?',
      'what about last year?',
      'and 2024?',
    ]);
    expect(intentOf(sql(lastYear)).filters).toEqual([
      eq('orders', 'status', 'cancelled'),
      { ...during('orders', 'ordered_at', '2024-01-01', '2025-01-01'), label: 'in 2024' },
    ]);
  });

  it('lists the rows behind a count: "show them"', () => {
    const [, listed] = converse(['how many cancelled orders last month', 'show them']);
    const intent = intentOf(sql(listed));
    expect(intent.metric).toBeUndefined();
    expect(intent.filters).toHaveLength(2);
    expect(sql(listed).sql).toContain('LIMIT 100');
  });

  it('replaces a value on the same column: "what about Germany?"', () => {
    const [, germany, france] = converse([
      'how many customers in Spain',
      'what about Germany?',
      'and France?',
    ]);
    expect(intentOf(sql(germany)).filters).toEqual([eq('customers', 'country', 'Germany')]);
    expect(intentOf(sql(france)).filters).toEqual([eq('customers', 'country', 'France')]);
  });

  it('keeps the subject when the follow-up names only a related value: "what about in Spain?"', () => {
    const [, spain] = converse(['how many cancelled orders last month', 'what about in Spain?']);
    const intent = intentOf(sql(spain));
    expect(intent.subject).toBe(table('orders'));
    expect(intent.filters).toContainEqual(eq('customers', 'country', 'Spain'));
  });

  it('adds a period or a grouping to a breakdown, and keeps its metric', () => {
    const [first, period, monthly] = converse(['revenue per category', 'only in 2025', 'by month']);
    const metric = intentOf(sql(first)).metric;
    expect(intentOf(sql(period))).toMatchObject({
      metric,
      group: { kind: 'column' },
      filters: [{ kind: 'period' }],
    });
    expect(intentOf(sql(monthly))).toMatchObject({ metric, group: { kind: 'time', unit: 'month' } });
  });

  it('replaces the grouping with a relation named after a breakdown: "what about products?"', () => {
    const [, products] = converse(['revenue per category', 'what about products?']);
    expect(intentOf(sql(products))).toMatchObject({
      subject: table('order_items'),
      group: { kind: 'entity', table: table('products') },
    });
  });

  it('moves a count to another relation and keeps the period: "what about customers?"', () => {
    const [, customers] = converse(['how many orders last month', 'what about customers?']);
    expect(intentOf(sql(customers))).toEqual({
      subject: table('customers'),
      metric: { fn: 'count' },
      filters: [{ ...during('customers', 'created_at', '2026-02-01', '2026-03-01'), label: 'last month' }],
    });
  });

  it('turns a ranking around: "and the bottom 3?"', () => {
    const [, bottom] = converse(['top 5 customers by revenue', 'and the bottom 3?']);
    expect(intentOf(sql(bottom))).toMatchObject({ order: { by: 'metric', dir: 'asc' }, limit: 3 });
  });

  it('narrows and sorts a list', () => {
    const [, , sorted] = converse(['list products over $50', 'only Electronics', 'sorted by price']);
    const intent = intentOf(sql(sorted));
    expect(intent.filters).toHaveLength(2);
    expect(intent.order).toEqual({
      by: 'column',
      ref: { table: table('products'), column: 'price' },
      dir: 'asc',
    });
  });

  it('treats a complete question as a new one', () => {
    const [, fresh] = converse(['how many orders in 2025', 'how many customers are there?']);
    expect(intentOf(sql(fresh))).toEqual({
      subject: table('customers'),
      metric: { fn: 'count' },
      filters: [],
    });
  });

  it('reaches back past small talk and clarifications', () => {
    const [, , , thisYear] = converse([
      'how many orders last year',
      'thanks',
      'what is the total amount?',
      'and this year?',
    ]);
    expect(intentOf(sql(thisYear)).filters).toEqual([
      { ...during('orders', 'ordered_at', '2026-01-01', '2027-01-01'), label: 'this year' },
    ]);
  });

  it("ignores state it cannot read: another engine's, another version, or columns that are gone", () => {
    const [first] = converse(['how many orders in 2025']);
    const state = sql(first).state as { intent: { filters: { ref: { column: string } }[] } };
    const turns: PriorTurn[][] = [
      [{ question: 'q', kind: 'sql', engine: 'bedrock', state }],
      [{ question: 'q', kind: 'sql', engine: 'builtin', state: { ...state, version: 99 } }],
      [
        {
          question: 'q',
          kind: 'sql',
          engine: 'builtin',
          state: { engine: 'builtin', version: 1, intent: { subject: 'x' } },
        },
      ],
      [
        {
          question: 'q',
          kind: 'sql',
          engine: 'builtin',
          state: structuredClone({
            ...state,
            intent: {
              ...state.intent,
              filters: [{ ...state.intent.filters[0]!, ref: { table: 'public.orders', column: 'gone' } }],
            },
          }),
        },
      ],
      [{ question: 'q', kind: 'sql', engine: 'builtin', state: 'not an object' }],
    ];
    for (const history of turns) expect(ask('what about last year?', { history }).kind).toBe('clarification');
  });
});
