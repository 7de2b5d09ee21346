// Token counts of prompt text with a real tokenizer (js-tiktoken, cl100k_base), not a ratio of
// characters: schema text runs about 3.3 characters a token, prose about 4, so a character
// estimate either wastes the budget or overruns it (docs/model-engines.md "Linking"). The
// encoder is built on the first count (its rank table is large) and kept for the container's life.
// Providers tokenize differently; cl100k_base is the yardstick the budgets are set in.
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | undefined;

const encoderOf = (): Tiktoken => {
  encoder ??= new Tiktoken(cl100k);
  return encoder;
};

/** The tokens of `text`. */
export const tokensOf = (text: string): number[] => encoderOf().encode(text);

/** How many tokens `text` is. */
export const countTokens = (text: string): number => (text === '' ? 0 : tokensOf(text).length);
