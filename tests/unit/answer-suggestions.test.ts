// Suggested follow-ups (lib/answer/suggestions.ts): up to three, about the answer's tables first,
// never the question just asked, and each one answered with SQL by the builtin engine on the
// same catalog.
import { describe, expect, it } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import { type Intent, readState } from '#lib/answer/builtin/intent.ts';
import { suggestionsFor } from '#lib/answer/suggestions.ts';
import { SHOP_NOW, SHOP_TENANT_COLUMN, shopCatalog } from '../fixtures/catalogs/shop.ts';

const suggest = (question: string, sql: string | null) =>
  suggestionsFor({ question, sql, catalog: shopCatalog, tenantColumn: SHOP_TENANT_COLUMN, now: SHOP_NOW });

describe('suggestionsFor', () => {
  it('suggests up to three questions, each answered with SQL by the builtin engine', async () => {
    const suggestions = await suggest(
      'How many orders were placed in 2025?',
      'SELECT count(*) FROM orders o',
    );
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(3);
    for (const question of suggestions) {
      const proposal = await builtinEngine.propose({
        question,
        catalog: shopCatalog,
        dialect: 'postgres',
        history: [],
        now: SHOP_NOW,
        tenantColumn: SHOP_TENANT_COLUMN,
      });
      expect(proposal.kind, question).toBe('sql');
    }
  });

  it('starts with the tables the answer read and never repeats the question', async () => {
    const suggestions = await suggest('How many orders are there?', 'SELECT count(*) FROM orders');
    expect(suggestions[0]).toMatch(/orders/);
    expect(suggestions).not.toContain('How many orders are there?');
  });

  it('names columns and tables only, never a sampled value', async () => {
    const samples = shopCatalog.relations.flatMap((relation) => Object.values(relation.samples).flat());
    const suggestions = await suggest('revenue per category', null);
    for (const suggestion of suggestions) {
      for (const value of samples.filter((sample) => sample.length > 3)) {
        expect(suggestion.toLowerCase()).not.toContain(value.toLowerCase());
      }
    }
  });

  /** The builtin's intent for a question (every suggestion must have one). */
  const intentOf = async (question: string): Promise<Intent> => {
    const proposal = await builtinEngine.propose({
      question,
      catalog: shopCatalog,
      dialect: 'postgres',
      history: [],
      now: SHOP_NOW,
      tenantColumn: SHOP_TENANT_COLUMN,
    });
    const state = proposal.kind === 'sql' ? readState(proposal.state) : undefined;
    if (!state) throw new Error(`no intent for ${question}`);
    return state.intent;
  };

  it('continues "revenue per category": the same measure over time, by another dimension, its top N', async () => {
    const suggestions = await suggest(
      'revenue per category',
      'SELECT p.category, SUM(oi.quantity * oi.unit_price) AS total_revenue FROM order_items oi JOIN products p ON oi.product_id = p.id GROUP BY p.category',
    );
    expect(suggestions).toHaveLength(3);
    const intents = await Promise.all(suggestions.map(intentOf));
    // Every one sums revenue (the same measure), none counts another table's rows.
    for (const [index, intent] of intents.entries()) {
      expect(intent.metric, suggestions[index]).toMatchObject({ fn: 'sum', name: 'revenue' });
      expect(suggestions[index]).not.toMatch(/^How many/);
    }
    // Over time, by a dimension other than the category, and a top N.
    expect(intents.some((intent) => intent.group?.kind === 'time')).toBe(true);
    expect(
      intents.some(
        (intent) =>
          (intent.group?.kind === 'column' && intent.group.ref.column !== 'category') ||
          intent.group?.kind === 'entity',
      ),
    ).toBe(true);
    expect(intents.some((intent) => intent.limit === 5 && intent.order?.by === 'metric')).toBe(true);
  });

  it('offers the previous period of an answer limited to one, with the same grouping', async () => {
    const suggestions = await suggest('revenue per month in 2025', null);
    expect(suggestions[0]).toBe('Revenue per month in 2024');
    const previous = await intentOf(suggestions[0] ?? '');
    expect(previous.group).toMatchObject({ kind: 'time', unit: 'month' });
    expect(previous.filters).toEqual([
      expect.objectContaining({ kind: 'period', from: '2024-01-01', to: '2025-01-01' }),
    ]);
    const counted = await suggest('How many orders were placed in 2025?', 'SELECT count(*) FROM orders o');
    expect(counted[0]).toBe('How many orders in 2024?');
    for (const question of counted) expect((await intentOf(question)).metric).toEqual({ fn: 'count' });
  });

  it('keeps an answer without a measure on the tables it read', async () => {
    const suggestions = await suggest('list the customers in Berlin', 'SELECT c.name FROM customers c');
    expect(suggestions.length).toBeGreaterThan(0);
    for (const question of suggestions) expect(question).toMatch(/customers/);
  });
});
