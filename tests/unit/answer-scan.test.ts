// The scanner of the builtin engine: tokens become mentions (schema phrases, periods,
// comparisons, rankings, aggregates, groupings), and whatever is left is reported.
import { describe, expect, it } from 'vitest';
import { buildLexicon } from '#lib/answer/builtin/lexicon.ts';
import { negatedFlag, scan } from '#lib/answer/builtin/scan.ts';
import { tokenize } from '#lib/answer/builtin/tokens.ts';
import type { Mention } from '#lib/answer/builtin/types.ts';
import { SHOP_NOW, shopCatalog } from '../fixtures/catalogs/shop.ts';

const lexicon = buildLexicon(shopCatalog, 'org_id');
const mentions = (question: string): Mention[] => scan(lexicon, tokenize(question), SHOP_NOW);
const kinds = (question: string): string[] => mentions(question).map((mention) => mention.kind);

describe('scan', () => {
  it('skips function words and fillers and keeps what matters', () => {
    expect(kinds('Please show me all of the cancelled orders that were placed in 2025')).toEqual([
      'list',
      'schema',
      'schema',
      'period',
    ]);
  });

  it('matches the longest schema phrase first', () => {
    const [first] = mentions('order items');
    expect(first).toMatchObject({ kind: 'schema', text: 'order items', at: 0, end: 2 });
    expect(mentions('united kingdom customers')[0]).toMatchObject({ kind: 'schema', text: 'united kingdom' });
  });

  it('reads comparisons, with money and ranges', () => {
    expect(mentions('price over $100')[1]).toMatchObject({
      kind: 'compare',
      op: '>',
      value: 100,
      money: true,
    });
    expect(mentions('at least 3')[0]).toMatchObject({ kind: 'compare', op: '>=', value: 3 });
    expect(mentions('no more than five')[0]).toMatchObject({ kind: 'compare', op: '<=', value: 5 });
    expect(mentions('5 or more')[0]).toMatchObject({ kind: 'compare', op: '>=', value: 5 });
    expect(mentions('between 10 and 20')[0]).toMatchObject({
      kind: 'compare',
      op: 'between',
      value: 10,
      high: 20,
    });
  });

  it('reads a range of years after a numeric column as numbers, elsewhere as a period', () => {
    expect(mentions('salary between 2000 and 3000')[1]).toMatchObject({ kind: 'compare', op: 'between' });
    expect(mentions('orders between 2020 and 2023')[1]).toMatchObject({
      kind: 'period',
      period: { from: '2020-01-01', to: '2024-01-01' },
    });
  });

  it('reads top-N and superlatives', () => {
    expect(mentions('top 5 customers')[0]).toMatchObject({ kind: 'top', n: 5, dir: 'desc' });
    expect(mentions('bottom 3 stores')[0]).toMatchObject({ kind: 'top', n: 3, dir: 'asc' });
    expect(mentions('3 cheapest products')[0]).toMatchObject({
      kind: 'top',
      n: 3,
      dir: 'asc',
      hint: 'money',
    });
    expect(mentions('most expensive product')[0]).toMatchObject({
      kind: 'superlative',
      dir: 'desc',
      hint: 'money',
    });
    expect(mentions('best-selling products')[0]).toMatchObject({ kind: 'superlative', hint: 'units' });
    expect(mentions('last 5 orders')[0]).toMatchObject({ kind: 'top', n: 5, dir: 'desc', hint: 'date' });
    expect(mentions('the most orders')[0]).toMatchObject({ kind: 'superlative', word: 'most' });
  });

  it('reads aggregates and groupings', () => {
    expect(mentions('how many orders')[0]).toMatchObject({ kind: 'aggregate', fn: 'count' });
    expect(mentions('average price')[0]).toMatchObject({ kind: 'aggregate', fn: 'avg' });
    expect(mentions('total revenue')[0]).toMatchObject({ kind: 'aggregate', fn: 'sum' });
    expect(mentions('orders per month')[1]).toMatchObject({ kind: 'group', unit: 'month' });
    expect(mentions('monthly revenue')[0]).toMatchObject({ kind: 'group', unit: 'month' });
    expect(mentions('orders for each store')[1]).toMatchObject({ kind: 'group' });
    expect(mentions('products sorted by price')[1]).toMatchObject({ kind: 'sort' });
  });

  it('does not read "placed by" as a grouping', () => {
    expect(kinds('orders placed by gold customers')).toEqual(['schema', 'schema', 'schema']);
  });

  it('reads the small words of follow-ups', () => {
    expect(kinds('what about last year?')).toEqual(['followup', 'period']);
    expect(kinds('how many of those were cancelled')).toEqual(['aggregate', 'anaphora', 'schema']);
    expect(kinds('not cancelled')).toEqual(['negation', 'schema']);
  });

  it('reports words it cannot place, and symbols that are not English', () => {
    expect(mentions('how many widgets')).toContainEqual(
      expect.objectContaining({ kind: 'unknown', text: 'widgets' }),
    );
    expect(mentions('orders * 2')).toContainEqual(expect.objectContaining({ kind: 'unknown', text: '*' }));
  });

  it('reads un-/in- before a yes/no column as a negation of it, and nothing else', () => {
    expect(mentions('inactive employees').slice(0, 2)).toMatchObject([
      { kind: 'negation' },
      { kind: 'schema', text: 'active', entries: [{ kind: 'column', column: 'active' }] },
    ]);
    expect(negatedFlag(lexicon, 'unknown')).toBeUndefined();
    expect(negatedFlag(lexicon, 'invoices')).toBeUndefined();
  });

  it('reads capitalized unknown words before a relation as a name of one of its rows', () => {
    expect(mentions('stores of the Harbor Region')[1]).toMatchObject({
      kind: 'schema',
      entries: [{ kind: 'value', table: 'public.regions', column: 'name', value: 'Harbor Region' }],
    });
    expect(mentions('stores of the Harbor region')[1]).toMatchObject({
      entries: [
        { kind: 'value', value: 'Harbor' },
        { kind: 'value', value: 'Harbor region' },
        { kind: 'value', value: 'Harbor Region' },
      ],
    });
    expect(mentions('stores of the harbor region')).toContainEqual(
      expect.objectContaining({ kind: 'unknown', text: 'harbor' }),
    );
  });

  it('keeps quoted literals with the sample values they equal', () => {
    expect(mentions('status "Cancelled"')[1]).toMatchObject({
      kind: 'quoted',
      entries: [{ kind: 'value', column: 'status', value: 'cancelled' }],
    });
    expect(mentions('name "Nobody"')[1]).toMatchObject({ kind: 'quoted', entries: [] });
  });
});
