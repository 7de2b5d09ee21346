// Token counts of prompt text with a real tokenizer (cl100k_base's byte-pair ranks and split
// pattern, from the js-tiktoken package), not a ratio of characters: schema text runs about 3.3
// characters a token, prose about 4, so a character estimate either wastes the budget or overruns
// it (docs/model-engines.md "Linking"). Providers tokenize differently; cl100k_base is the
// yardstick the budgets are set in.
//
// Only counts are needed, so the ranks are read into one map keyed by each token's bytes as a
// binary string: about a tenth of the time js-tiktoken's encoder takes to build (it decodes and
// re-joins every token twice, 0.8–1.7 s in a container), and the same byte-pair merges, so the
// same counts (tests/unit/answer-engines-tokens.test.ts compares them). The map is built on the
// first count and kept for the container's life.
import cl100k from 'js-tiktoken/ranks/cl100k_base';

let ranks: Map<string, number> | undefined;
let pattern: RegExp | undefined;

/** Token bytes (as a binary string) → rank. */
const ranksOf = (): Map<string, number> => {
  if (ranks) return ranks;
  const built = new Map<string, number>();
  for (const line of cl100k.bpe_ranks.split('\n')) {
    if (line === '') continue;
    // `<first token> <offset> <token> <token> …`, each token in base64, ranks counting up.
    const parts = line.split(' ');
    const offset = Number.parseInt(parts[1] ?? '', 10);
    for (let index = 2; index < parts.length; index++)
      built.set(Buffer.from(parts[index]!, 'base64').toString('latin1'), offset + index - 2);
  }
  ranks = built;
  return built;
};

/** How many tokens one piece of the split pattern is (its UTF-8 bytes as a binary string). */
const pieceTokens = (piece: string, table: Map<string, number>): number => {
  if (table.has(piece)) return 1;
  // Byte-pair merging: join the adjacent parts whose union has the lowest rank, until none has one.
  const bounds = Array.from({ length: piece.length + 1 }, (_, index) => index);
  while (bounds.length > 2) {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let index = 0; index < bounds.length - 2; index++) {
      const rank = table.get(piece.slice(bounds[index], bounds[index + 2]));
      if (rank !== undefined && rank < bestRank) {
        bestRank = rank;
        best = index;
      }
    }
    if (best < 0) break;
    bounds.splice(best + 1, 1);
  }
  return bounds.length - 1;
};

/** How many tokens `text` is (special tokens are counted as the text they are). */
export const countTokens = (text: string): number => {
  if (text === '') return 0;
  const table = ranksOf();
  pattern ??= new RegExp(cl100k.pat_str, 'gu');
  let count = 0;
  for (const match of text.matchAll(pattern)) {
    count += pieceTokens(Buffer.from(match[0], 'utf8').toString('latin1'), table);
  }
  return count;
};
