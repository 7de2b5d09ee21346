// The prompt budget's token counts (lib/answer/engines/tokens.ts) are cl100k_base's: the same
// counts as js-tiktoken's own encoder, on prompts of the fixtures and on text that exercises the
// split pattern and the byte-pair merges (accents, scripts, emoji, digits, whitespace runs,
// contractions, a special token's text).
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '#lib/answer/engines/prompt.ts';
import { countTokens } from '#lib/answer/engines/tokens.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { wideCatalog } from '../fixtures/catalogs/wide.ts';
import { engineInput } from '../helpers/engines.ts';

const reference = new Tiktoken(cl100k);
/** A special token's text is counted as text (js-tiktoken would refuse it by default). */
const referenceCount = (text: string) => reference.encode(text, [], []).length;

const texts = [
  '',
  'a',
  'How many orders were placed in 2025?',
  "SELECT c.name, sum(o.total_cents) / 100.0 AS revenue FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status <> 'cancelled' GROUP BY c.name ORDER BY 2 DESC LIMIT 10",
  'Côte d’Ivoire, São Paulo, Zürich, Ærøskøbing — naïve café crème',
  '東京の注文は何件ありますか？ Сколько заказов? كم عدد الطلبات؟ 🚚📦 👩🏽‍💻',
  "they're we'LL it's I'd you've 12345678901234 3.14159 -42 1e10",
  '   leading spaces\n\n\n\ttabs\t\tand   runs    \r\n  of\u00a0whitespace   ',
  'the text <|endoftext|> of a special token, and <|fim_prefix|> another',
  'x'.repeat(300),
  'supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic',
];

describe('countTokens', () => {
  it.each(texts.map((text, index) => [index, text]))('counts text %i as cl100k_base does', (_, text) => {
    expect(countTokens(text)).toBe(referenceCount(text));
  });

  it('counts whole prompts of a small and a 50-table schema as cl100k_base does', () => {
    for (const catalog of [shopCatalog, wideCatalog]) {
      const prompt = buildPrompt(
        engineInput({ question: 'Total amount of approved contracts per department in 2025', catalog }),
        'openai',
      );
      const text = [prompt.system, ...prompt.messages.map((message) => message.content)].join('\n');
      expect(countTokens(text)).toBe(referenceCount(text));
      expect(countTokens(text)).toBeGreaterThan(500);
    }
  });
});
