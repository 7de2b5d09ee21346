// Suggested follow-ups (lib/answer/suggestions.ts): up to three, about the answer's tables first,
// never the question just asked, and each one answered with SQL by the builtin engine on the
// same catalog.
import { describe, expect, it } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
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
});
