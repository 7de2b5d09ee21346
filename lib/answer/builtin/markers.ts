// Step 3 of the builtin pipeline, the phrase tables (phrases.ts) read at a token position: the
// words and numbers at an index, the first phrase of a list that matches there, and the markers
// built from them: a comparison ("more than 5", "between 10 and 20"), a top-N or superlative,
// a unit of time, a grouping ("per store", "by month") or a sort clause. scan.ts calls them in
// its order.
import { trailingTimeWords } from './columns.ts';
import type { TimeUnit } from './intent.ts';
import {
  adverbUnits,
  agentVerbs,
  comparisonOps,
  comparisonPhrases,
  sortPhrases,
  superlativeOf,
  superlativePhrases,
  symbolOps,
  timeUnits,
  unitPhrases,
  unitWords,
} from './phrases.ts';
import type { ColumnInfo, CompareOp, Entry, Lexicon, MentionOf, Token } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { abbreviates, numberWord, phraseKey, singular } from './words.ts';

const wordAt = (tokens: readonly Token[], index: number): string | undefined => {
  const token = tokens[index];
  return token?.kind === 'word' ? token.text : undefined;
};

/** Matches a fixed word sequence at `index`; returns the index after it. */
const phraseAt = (tokens: readonly Token[], index: number, words: readonly string[]): number | undefined => {
  for (let offset = 0; offset < words.length; offset += 1) {
    if (wordAt(tokens, index + offset) !== words[offset]) return undefined;
  }
  return index + words.length;
};

/** Phrases split into their words once, not at every token of every question. */
const splitPhrases = new Map<string, readonly string[]>();
const wordsOfPhrase = (phrase: string): readonly string[] => {
  let words = splitPhrases.get(phrase);
  if (!words) {
    words = phrase.split(' ');
    splitPhrases.set(phrase, words);
  }
  return words;
};

/** The first of `phrases` (space-separated words) found at `index`. */
export const firstPhraseAt = (
  tokens: readonly Token[],
  index: number,
  phrases: readonly string[],
): { phrase: string; end: number } | undefined => {
  const first = wordAt(tokens, index);
  if (first === undefined) return undefined;
  for (const phrase of phrases) {
    const words = wordsOfPhrase(phrase);
    if (words[0] !== first) continue;
    const end = phraseAt(tokens, index, words);
    if (end !== undefined) return { phrase, end };
  }
  return undefined;
};

const numberAt = (tokens: readonly Token[], index: number): { value: number; money: boolean } | undefined => {
  const token = tokens[index];
  if (token?.kind === 'number' && !token.percent) return { value: token.value, money: token.money };
  const word = wordAt(tokens, index);
  const value = word === undefined ? undefined : numberWord(word);
  return value === undefined ? undefined : { value, money: false };
};

// ---- comparisons -------------------------------------------------------------------------------

export const comparisonAt = (tokens: readonly Token[], index: number): MentionOf<'compare'> | undefined => {
  const token = tokens[index];
  if (wordAt(tokens, index) === 'between') {
    const low = numberAt(tokens, index + 1);
    const joiner = wordAt(tokens, index + 2);
    const high = numberAt(tokens, index + 3);
    if (low && high && (joiner === 'and' || joiner === 'to')) {
      return {
        kind: 'compare',
        op: 'between',
        value: Math.min(low.value, high.value),
        high: Math.max(low.value, high.value),
        money: low.money || high.money,
        at: index,
        end: index + 4,
      };
    }
    return undefined;
  }
  let op: CompareOp | undefined;
  let after = index;
  if (token?.kind === 'symbol' && symbolOps[token.text]) {
    op = symbolOps[token.text];
    after = index + 1;
  } else {
    const found = firstPhraseAt(tokens, index, comparisonPhrases);
    if (found) {
      op = comparisonOps.get(found.phrase);
      after = found.end;
    }
  }
  if (op !== undefined) {
    const number = numberAt(tokens, after);
    if (!number) return undefined;
    return { kind: 'compare', op, value: number.value, money: number.money, at: index, end: after + 1 };
  }
  // "5 or more", "3 or fewer", "100+"
  const number = numberAt(tokens, index);
  if (number && wordAt(tokens, index + 1) === 'or') {
    const which = wordAt(tokens, index + 2);
    const trailing: CompareOp | undefined =
      which === 'more' || which === 'above' || which === 'greater'
        ? '>='
        : which === 'less' || which === 'fewer' || which === 'below'
          ? '<='
          : undefined;
    if (trailing)
      return {
        kind: 'compare',
        op: trailing,
        value: number.value,
        money: number.money,
        at: index,
        end: index + 3,
      };
  }
  const next = tokens[index + 1];
  if (number && next?.kind === 'symbol' && next.text === '+') {
    return { kind: 'compare', op: '>=', value: number.value, money: number.money, at: index, end: index + 2 };
  }
  return undefined;
};

// ---- rankings ----------------------------------------------------------------------------------

export const rankingAt = (
  tokens: readonly Token[],
  index: number,
): MentionOf<'top' | 'superlative'> | undefined => {
  const word = wordAt(tokens, index);
  // "top 5", "bottom 3", "top"
  if (word === 'top' || word === 'bottom') {
    const dir = word === 'top' ? 'desc' : 'asc';
    const number = numberAt(tokens, index + 1);
    const n = number && Number.isInteger(number.value) && !number.money ? number.value : undefined;
    const after = n === undefined ? index + 1 : index + 2;
    // "top 5 selling products", "top 3 most expensive"
    const qualifier = firstPhraseAt(tokens, after, superlativePhrases);
    const described = qualifier ? superlativeOf.get(qualifier.phrase) : undefined;
    return {
      kind: 'top',
      ...(n === undefined ? {} : { n }),
      dir: described?.dir ?? dir,
      ...(described?.hint ? { hint: described.hint } : {}),
      word: qualifier?.phrase ?? word,
      at: index,
      end: qualifier?.end ?? after,
    };
  }
  // "5 most expensive", "3 cheapest", "10 largest", "the 5 newest"
  const number = numberAt(tokens, index);
  if (number && Number.isInteger(number.value) && !number.money) {
    const qualifier = firstPhraseAt(tokens, index + 1, superlativePhrases);
    if (qualifier) {
      const { dir, hint } = superlativeOf.get(qualifier.phrase)!;
      return {
        kind: 'top',
        n: number.value,
        dir,
        ...(hint ? { hint } : {}),
        word: qualifier.phrase,
        at: index,
        end: qualifier.end,
      };
    }
  }
  // "first 10", "last 5" (a period was tried before: "last 5 days" is not a ranking)
  if ((word === 'first' || word === 'last') && number === undefined) {
    const count = numberAt(tokens, index + 1);
    if (count && Number.isInteger(count.value) && !count.money) {
      const dir = word === 'first' ? 'asc' : 'desc';
      return { kind: 'top', n: count.value, dir, hint: 'date', word, at: index, end: index + 2 };
    }
  }
  const found = firstPhraseAt(tokens, index, superlativePhrases);
  if (found) {
    const { dir, hint } = superlativeOf.get(found.phrase)!;
    return {
      kind: 'superlative',
      dir,
      ...(hint ? { hint } : {}),
      word: found.phrase,
      at: index,
      end: found.end,
    };
  }
  return undefined;
};

// ---- aggregates, grouping, the rest ------------------------------------------------------------

/** The unit of time at `index`, in one word or a phrase, and where it ends. */
const unitAt = (tokens: readonly Token[], index: number): { unit: TimeUnit; end: number } | undefined => {
  const phrase = firstPhraseAt(
    tokens,
    index,
    unitPhrases.map(([words]) => words),
  );
  if (phrase) return { unit: unitPhrases.find(([words]) => words === phrase.phrase)![1], end: phrase.end };
  const unit = timeUnits[wordAt(tokens, index) ?? ''];
  return unit ? { unit, end: index + 1 } : undefined;
};

/** Words after a sort phrase, up to the end of the clause: what to sort by, in words. */
const clauseEnd = (tokens: readonly Token[], from: number): number => {
  let end = from;
  while (end < tokens.length && tokens[end]!.kind !== 'break') end += 1;
  return end;
};

/** A past participle ("cited", "written"): a verb form the lexical database reads as a verb. */
export const participle = (word: string): boolean =>
  /(ed|en|wn|ught)$/.test(word) && lexicalDatabase()?.dominantClass(word) === 'v';

export const groupAt = (
  lexicon: Lexicon,
  tokens: readonly Token[],
  index: number,
): MentionOf<'group' | 'sort'> | undefined => {
  const word = wordAt(tokens, index);
  if (word === undefined) return undefined;
  // "placed by", "cited by": `by` after a participle names who did it, not a grouping.
  const before = wordAt(tokens, index - 1) ?? '';
  if (word === 'by' && (agentVerbs.test(before) || participle(before))) return undefined;
  // "books by Harriet Oakes", "total spend by Acme Logistics": a value after `by` is whose rows.
  const after = word === 'by' ? longestSchemaAt(lexicon, tokens, index + 1, 1) : undefined;
  if (after?.entries.every((entry) => entry.kind === 'value')) return undefined;
  if (adverbUnits[word]) return { kind: 'group', unit: adverbUnits[word], at: index, end: index + 1 };
  // "which month of 2024 had the fewest bookings": one row per month, ranked.
  const unitAfter = unitAt(tokens, index + 1);
  if ((word === 'which' || word === 'what') && unitAfter && unitAfter.unit !== 'day')
    return { kind: 'group', unit: unitAfter.unit, at: index, end: unitAfter.end };
  const sort = firstPhraseAt(tokens, index, sortPhrases);
  if (sort) {
    // "ordered by the number of publications in descending order": the clause says how to sort.
    // A column of the rows listed sorts them; anything else (the count, the name of a group)
    // sorts what is already computed, and the words are read as that.
    const end = clauseEnd(tokens, sort.end);
    const found = longestSchemaAt(
      lexicon,
      tokens,
      sort.end + (wordAt(tokens, sort.end) === 'the' ? 1 : 0),
      1,
    );
    // "by price descending", "by name in ascending order": a column, then only its direction.
    const rest = tokens.slice(found?.end ?? end, end);
    const target = rest.every(
      (token) =>
        token.kind === 'word' &&
        /^(desc|descending|asc|ascending|in|order|first|the|alphabetically|alphabetical|to|from|highest|lowest|reverse)$/.test(
          token.text,
        ),
    )
      ? found
      : undefined;
    const words = tokens.slice(sort.end, end).flatMap((token) => (token.kind === 'word' ? [token.text] : []));
    const dir = words.some((w) => /^(desc|descending|highest|largest|most|best|latest|newest)$/.test(w))
      ? 'desc'
      : 'asc';
    return { kind: 'sort', at: index, end, dir, ...(target ? { target } : {}) };
  }
  const marker = firstPhraseAt(tokens, index, [
    'grouped by',
    'group by',
    'broken down by',
    'broken out by',
    'split by',
    'in terms of',
    'based on',
    'for each',
    'for every',
    'in each',
    'per',
    'by',
    'each',
  ]);
  if (!marker) return undefined;
  let end = marker.end;
  if (wordAt(tokens, end) === 'the' || wordAt(tokens, end) === 'each') end += 1;
  // "for each day of the week": a column's phrase before a unit of time.
  let unit = longestSchemaAt(lexicon, tokens, end, 2) ? undefined : unitAt(tokens, end);
  // "by hours", "per week" where a column is named so (hours, week): the column.
  if (
    unit &&
    unit.end === end + 1 &&
    /^(week|weekday|hour)$/.test(unit.unit) &&
    longestSchemaAt(lexicon, tokens, end, 1)
  )
    unit = undefined;
  if (unit) return { kind: 'group', unit: unit.unit, at: index, end: unit.end };
  // "by each author", "per every store": one marker.
  const each = wordAt(tokens, marker.end) === 'each' || wordAt(tokens, marker.end) === 'every';
  return { kind: 'group', at: index, end: each ? marker.end + 1 : marker.end };
};

// ---- schema phrases -------------------------------------------------------------------------------

/** The schema phrase of exactly `words` words at `index`, or undefined. */
const schemaAt = (
  lexicon: Lexicon,
  tokens: readonly Token[],
  index: number,
  words: number,
): MentionOf<'schema'> | undefined => {
  const parts: string[] = [];
  for (let offset = 0; offset < words; offset += 1) {
    const token = tokens[index + offset];
    if (token?.kind === 'word') parts.push(token.text);
    else if (token?.kind === 'number' && !token.money && !token.percent) parts.push(token.raw.toLowerCase());
    else return undefined;
  }
  const entries = lexicon.phrases.get(phraseKey(parts));
  if (!entries) return undefined;
  return { kind: 'schema', text: parts.join(' '), entries, at: index, end: index + words };
};

export const longestSchemaAt = (
  lexicon: Lexicon,
  tokens: readonly Token[],
  index: number,
  minWords: number,
): MentionOf<'schema'> | undefined => {
  for (let words = lexicon.maxWords; words >= minWords; words -= 1) {
    const found = schemaAt(lexicon, tokens, index, words);
    if (found) return found;
  }
  return undefined;
};

/** A column's name word said in full: its own word, or one it abbreviates ("pay" of payment). */
const wordOf = (part: string, said: string, written: string, alone: boolean): 'own' | 'short' | 'other' => {
  if (singular(part) === said) return 'own';
  // One word alone only as a prefix of four letters or more ("frequency" → freq).
  const short = (word: string): boolean =>
    alone
      ? part.length >= 4 && part.length >= word.length * 0.4 && word.startsWith(part)
      : abbreviates(part, word);
  return short(said) || short(written) ? 'short' : 'other';
};

/** Columns that may be said in 1, 2 or 3 words, by the initials of those words, per lexicon. */
const byInitials = new WeakMap<Lexicon, Map<string, { table: string; column: ColumnInfo }[]>>();
const columnsByInitials = (lexicon: Lexicon): Map<string, { table: string; column: ColumnInfo }[]> => {
  let index = byInitials.get(lexicon);
  if (!index) {
    index = new Map();
    for (const relation of lexicon.relations.values()) {
      for (const column of relation.columns) {
        if (column.key) continue;
        for (let size = 1; size <= Math.min(3, column.words.length); size += 1) {
          // (A unit or time word after the words said is not said: pay_terms_days.)
          const unsaid = column.words.slice(size);
          if (unsaid.some((word) => !trailingTimeWords.has(singular(word)) && !unitWords.has(word))) continue;
          const key = column.words
            .slice(0, size)
            .map((word) => word[0])
            .join('');
          index.set(key, [...(index.get(key) ?? []), { table: relation.key, column }]);
        }
      }
    }
    byInitials.set(lexicon, index);
  }
  return index;
};

/**
 * Words that say a column whose name abbreviates them ("payment method" → pay_method, "payment
 * terms" → pay_terms_days: a unit or time word after them is not said; "frequency" → freq), each
 * word the column's own or abbreviated by it, not all its own; one word only by a prefix of four
 * letters or more. Only the columns whose words begin with the same letters are tried.
 */
export const abbreviatedColumnAt = (
  lexicon: Lexicon,
  tokens: readonly Token[],
  index: number,
): MentionOf<'schema'> | undefined => {
  const columns = columnsByInitials(lexicon);
  for (const size of [3, 2, 1]) {
    /** The words as written, lower case ("years" abbreviated yrs, though its singular is "year"). */
    const written: string[] = [];
    for (let offset = 0; offset < size; offset += 1) {
      const token = tokens[index + offset];
      if (token?.kind !== 'word') break;
      written.push(token.text.toLowerCase());
    }
    if (written.length < size) continue;
    const said = written.map(singular);
    const candidates = columns.get(written.map((word) => word[0]).join('')) ?? [];
    if (candidates.length === 0) continue;
    // One word alone: a dictionary word the index does not already know ("frequency", not a
    // value "distributors" or a typo "scholarhsips").
    if (size === 1 && (lexicon.phrases.has(phraseKey(said)) || !lexicalDatabase()?.readings(said[0]!).length))
      continue;
    const entries: Entry[] = candidates.flatMap(({ table, column }) => {
      const words = column.words
        .slice(0, size)
        .map((part, at) => wordOf(part, said[at]!, written[at]!, size === 1));
      return words.includes('other') || !words.includes('short')
        ? []
        : [{ kind: 'column' as const, table, column: column.name, rank: 2 }];
    });
    if (entries.length > 0)
      return { kind: 'schema', text: said.join(' '), entries, at: index, end: index + size };
  }
  return undefined;
};
