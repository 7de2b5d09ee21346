// Step 3 of the builtin pipeline: tokens become mentions, left to right. At each position the
// scanner tries, in order: a schema phrase of two words or more, a period, a comparison, a
// top-N or superlative, an aggregate word, a grouping or sorting word, the small words of
// follow-ups, a one-word schema phrase; then skips function words and fillers. Whatever is left
// is reported as not understood, so that the engine never answers a question it half read.

import type { TimeUnit } from './intent.ts';
import type { Entry, Lexicon } from './lexicon.ts';
import { joinedLink, linkWord, misspelledFiller, roleOf } from './link.ts';
import { periodAt } from './periods.ts';
import { lightVerbAt } from './roles.ts';
import type { AggregateFn, CompareOp, Hint, Mention, MentionOf, Token } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { anaphora, fillers, numberWord, phraseKey, stopwords, unitWords, wordTable } from './words.ts';

export type { AggregateFn, CompareOp, Hint, Mention, MentionOf } from './types.ts';

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

/** The first of `phrases` (space-separated words) found at `index`. */
const firstPhraseAt = (
  tokens: readonly Token[],
  index: number,
  phrases: readonly string[],
): { phrase: string; end: number } | undefined => {
  for (const phrase of phrases) {
    const end = phraseAt(tokens, index, phrase.split(' '));
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

// Longest first: "no more than" before "more than".
const comparisonWords: [string, CompareOp][] = [
  ['no more than', '<='],
  ['not more than', '<='],
  ['no less than', '>='],
  ['not less than', '>='],
  ['no fewer than', '>='],
  ['greater than or equal to', '>='],
  ['less than or equal to', '<='],
  ['more than', '>'],
  ['greater than', '>'],
  ['higher than', '>'],
  ['larger than', '>'],
  ['bigger than', '>'],
  ['over', '>'],
  ['above', '>'],
  ['exceeding', '>'],
  ['at least', '>='],
  ['minimum of', '>='],
  ['less than', '<'],
  ['fewer than', '<'],
  ['lower than', '<'],
  ['smaller than', '<'],
  ['cheaper than', '<'],
  ['under', '<'],
  ['below', '<'],
  ['at most', '<='],
  ['up to', '<='],
  ['maximum of', '<='],
  ['exactly', '='],
  ['equal to', '='],
  ['equals', '='],
];
const comparisonPhrases = comparisonWords.map(([phrase]) => phrase);
const comparisonOps = new Map(comparisonWords);
const symbolOps: Record<string, CompareOp> = wordTable({
  '>': '>',
  '>=': '>=',
  '=>': '>=',
  '<': '<',
  '<=': '<=',
  '=': '=',
});

const comparisonAt = (tokens: readonly Token[], index: number): MentionOf<'compare'> | undefined => {
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

const superlatives: [string, 'asc' | 'desc', Hint | undefined][] = [
  ['highest number of', 'desc', undefined],
  ['largest number of', 'desc', undefined],
  ['greatest number of', 'desc', undefined],
  ['most number of', 'desc', undefined],
  ['biggest number of', 'desc', undefined],
  ['lowest number of', 'asc', undefined],
  ['smallest number of', 'asc', undefined],
  ['fewest number of', 'asc', undefined],
  ['least number of', 'asc', undefined],
  ['very first', 'asc', 'date'],
  ['very last', 'desc', 'date'],
  ['first', 'asc', 'date'],
  ['last', 'desc', 'date'],
  ['heaviest', 'desc', 'weight'],
  ['lightest', 'asc', 'weight'],
  ['tallest', 'desc', 'height'],
  ['longest', 'desc', 'length'],
  ['shortest', 'asc', 'length'],
  ['quickest', 'asc', 'length'],
  ['fastest', 'asc', 'length'],
  ['slowest', 'desc', 'length'],
  ['most common', 'desc', 'count'],
  ['most frequent', 'desc', 'count'],
  ['least common', 'asc', 'count'],
  ['least frequent', 'asc', 'count'],
  ['commonest', 'desc', 'count'],
  ['highest rated', 'desc', 'rating'],
  ['best rated', 'desc', 'rating'],
  ['top rated', 'desc', 'rating'],
  ['lowest rated', 'asc', 'rating'],
  ['worst rated', 'asc', 'rating'],
  ['most expensive', 'desc', 'money'],
  ['least expensive', 'asc', 'money'],
  ['most costly', 'desc', 'money'],
  ['least costly', 'asc', 'money'],
  ['most recent', 'desc', 'date'],
  ['most recently', 'desc', 'date'],
  ['best selling', 'desc', 'units'],
  ['top selling', 'desc', 'units'],
  ['best seller', 'desc', 'units'],
  ['bestselling', 'desc', 'units'],
  ['bestseller', 'desc', 'units'],
  ['most sold', 'desc', 'units'],
  ['most popular', 'desc', 'units'],
  ['least popular', 'asc', 'units'],
  ['least sold', 'asc', 'units'],
  ['worst selling', 'asc', 'units'],
  ['priciest', 'desc', 'money'],
  ['costliest', 'desc', 'money'],
  ['cheapest', 'asc', 'money'],
  ['newest', 'desc', 'date'],
  ['latest', 'desc', 'date'],
  ['oldest', 'asc', 'date'],
  ['earliest', 'asc', 'date'],
  ['most', 'desc', undefined],
  ['fewest', 'asc', undefined],
  ['least', 'asc', undefined],
  ['highest', 'desc', undefined],
  ['largest', 'desc', undefined],
  ['biggest', 'desc', undefined],
  ['greatest', 'desc', undefined],
  ['lowest', 'asc', undefined],
  ['smallest', 'asc', undefined],
];
const superlativePhrases = superlatives.map(([phrase]) => phrase);
const superlativeOf = new Map(superlatives.map(([phrase, dir, hint]) => [phrase, { dir, hint }]));

const rankingAt = (tokens: readonly Token[], index: number): MentionOf<'top' | 'superlative'> | undefined => {
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

const aggregates: [string, AggregateFn][] = [
  ['how many', 'count'],
  ['total number of', 'count'],
  ['total count of', 'count'],
  ['the count of', 'count'],
  ['number of', 'count'],
  ['count of', 'count'],
  ['count', 'count'],
  ['how much', 'sum'],
  ['sum of', 'sum'],
  ['sum', 'sum'],
  ['total', 'sum'],
  ['totals', 'sum'],
  ['average', 'avg'],
  ['avg', 'avg'],
  ['mean', 'avg'],
  ['maximum', 'max'],
  ['max', 'max'],
  ['minimum', 'min'],
  ['min', 'min'],
];
const aggregatePhrases = aggregates.map(([phrase]) => phrase);
const aggregateOf = new Map(aggregates);

const timeUnits: Record<string, TimeUnit> = wordTable({
  year: 'year',
  years: 'year',
  quarter: 'quarter',
  quarters: 'quarter',
  month: 'month',
  months: 'month',
  day: 'day',
  days: 'day',
  date: 'day',
  week: 'week',
  weeks: 'week',
  weekday: 'weekday',
  weekdays: 'weekday',
  hour: 'hour',
  hours: 'hour',
});
const adverbUnits: Record<string, TimeUnit> = wordTable({
  yearly: 'year',
  annually: 'year',
  quarterly: 'quarter',
  monthly: 'month',
  daily: 'day',
  weekly: 'week',
});

/** Parts of a date said in several words: "day of the week", "hour of the day". */
const unitPhrases: [string, TimeUnit][] = [
  ['day of the week', 'weekday'],
  ['day of week', 'weekday'],
  ['days of the week', 'weekday'],
  ['hour of the day', 'hour'],
  ['hour of day', 'hour'],
  ['time of day', 'hour'],
  ['time of the day', 'hour'],
];

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

/** "placed by", "made by": `by` names who did it, not a grouping. */
const agentVerbs =
  /^(placed|made|ordered|bought|purchased|created|handled|processed|managed|sold|paid|issued|served|submitted|owned|written|run)$/;

const sortPhrases = [
  'sorted by',
  'ordered by',
  'order by',
  'sort by',
  'ranked by',
  'order the results by',
  'order the result by',
  'sort the results by',
  'order them by',
  'sort them by',
  'ordered alphabetically',
  'sorted alphabetically',
];

/** Words after a sort phrase, up to the end of the clause: what to sort by, in words. */
const clauseEnd = (tokens: readonly Token[], from: number): number => {
  let end = from;
  while (end < tokens.length && tokens[end]!.kind !== 'break') end += 1;
  return end;
};

/** A past participle ("cited", "written"): a verb form the lexical database reads as a verb. */
const participle = (word: string): boolean =>
  /(ed|en|wn|ught)$/.test(word) && lexicalDatabase()?.dominantClass(word) === 'v';

const groupAt = (
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

const listPhrases = [
  'show me',
  'show',
  'list',
  'list all',
  'give me',
  'display',
  'what are',
  'which are',
  'who are',
  'name the',
  'find',
  'get',
  'select',
  'which',
  'who',
];
const negationPhrases = [
  // "out of print", "out of stock": a yes/no column negated (anything else is a clarification).
  'out of',
  // Exclusions: each negates the filter that follows it ("apart from the terminated ones").
  'other than',
  'apart from',
  'aside from',
  'leaving aside',
  'setting aside',
  'not counting',
  'not including',
  'excepting',
  'except for',
  'not',
  'non',
  'excluding',
  'except',
  // "pets without a microchip", "products with no category", "customers who never ordered",
  // "vets no longer active": an absent value, an absent related row, a yes/no column negated.
  'without any',
  'without',
  'no longer',
  'no',
  'never',
  'missing',
  'lacking',
];
const followupPhrases = [
  'what about',
  'how about',
  'and for',
  'and in',
  'and what about',
  'same for',
  'same but',
  'now for',
  'now only',
  'only',
  'just',
];
const directionPhrasesList: [string, 'asc' | 'desc'][] = [
  ['in descending order', 'desc'],
  ['in ascending order', 'asc'],
  ['in alphabetical order', 'asc'],
  ['in reverse order', 'desc'],
  ['from highest to lowest', 'desc'],
  ['from the highest to the lowest', 'desc'],
  ['from lowest to highest', 'asc'],
  ['from the lowest to the highest', 'asc'],
  ['highest first', 'desc'],
  ['lowest first', 'asc'],
];
const directionPhrases = directionPhrasesList.map(([phrase]) => phrase);
const directionOf = new Map(directionPhrasesList);
const directionWords: Record<string, 'asc' | 'desc'> = wordTable({
  alphabetically: 'asc',
  alphabetical: 'asc',
  ascending: 'asc',
  asc: 'asc',
  descending: 'desc',
  desc: 'desc',
});

// ---- the scanner -------------------------------------------------------------------------------

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

const longestSchemaAt = (
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

/** A quoted literal: the sample values it equals, whatever their column. */
const quotedEntries = (lexicon: Lexicon, text: string): Entry[] => {
  const folded = text.toLowerCase();
  const entries: Entry[] = [];
  for (const relation of lexicon.relations.values()) {
    for (const column of relation.columns) {
      for (const value of column.samples) {
        if (value.toLowerCase() === folded)
          entries.push({ kind: 'value', table: relation.key, column: column.name, value });
      }
    }
  }
  return entries;
};

const isNumericColumnMention = (lexicon: Lexicon, mention: Mention | undefined): boolean =>
  mention?.kind === 'schema' &&
  mention.entries.some(
    (entry) =>
      entry.kind === 'column' &&
      (lexicon.relations.get(entry.table)?.byName.get(entry.column)?.numeric ?? false),
  );

/**
 * "unpaid", "inactive", "nonrefundable": a yes/no column's word behind un-, in- or non-, read as
 * that column negated. Only boolean columns: "unknown" or "invalid" stay unknown otherwise.
 */
export const negatedFlag = (
  lexicon: Lexicon,
  word: string,
): { text: string; entries: Entry[] } | undefined => {
  const match = /^(?:un|in|non-?)([a-z]{3,})$/.exec(word);
  if (!match) return undefined;
  const text = match[1]!;
  const entries = (lexicon.phrases.get(phraseKey([text])) ?? []).filter(
    (entry) =>
      entry.kind === 'column' &&
      lexicon.relations.get(entry.table)?.byName.get(entry.column)?.kind === 'boolean',
  );
  if (entries.length > 0) return { text, entries };
  // "unassigned tickets": a key that may be empty, named like the participle (assignee_id).
  const stem = /^([a-z]{4,}?)(?:ed)$/.exec(text)?.[1];
  const keys = stem
    ? [...lexicon.relations.values()].flatMap((relation) =>
        relation.columns
          .filter((column) => column.key && column.nullable && (column.words[0] ?? '').startsWith(stem))
          .map((column): Entry => ({ kind: 'column', table: relation.key, column: column.name, rank: 2 })),
      )
    : [];
  return keys.length > 0 ? { text, entries: keys } : undefined;
};

/** Adverbs of time that never name a measure, even right after "how much" or "total". */
const timeAdverbs = new Set(['still', 'ever', 'already', 'yet', 'currently', 'now', 'so', 'far', 'very']);

/**
 * "never ordered", "never booked": after a negation, a verb whose base form names a relation
 * ("order" → orders) stands for that relation's rows.
 */
const verbRelation = (lexicon: Lexicon, word: string): Entry[] | undefined => {
  if (!/(ed|ing)$/.test(word)) return undefined;
  const lemmas = new Set(
    (lexicalDatabase()?.readings(word) ?? [])
      .filter((reading) => reading.wordClass === 'v')
      .map((reading) => reading.lemma),
  );
  for (const lemma of lemmas) {
    const entries = (lexicon.phrases.get(phraseKey([lemma])) ?? []).filter(
      (entry) => entry.kind === 'relation',
    );
    if (entries.length > 0) return entries;
  }
  return undefined;
};

/** Phrase knowledge: verbs that ask for a grouping the "by" after them names ("break … down by"). */
const GROUPING_REQUESTS: Record<string, readonly string[]> = wordTable({
  break: ['down', 'out'],
  split: ['up', 'out'],
  breakdown: [],
});

/**
 * The tokens without a request for a grouping ("break that down by month", "split revenue up by
 * store", "a breakdown of tickets by channel") when a grouping marker follows: the marker says it.
 */
const withoutGroupingRequests = (tokens: readonly Token[]): readonly Token[] => {
  const words = tokens.map((token) => (token.kind === 'word' ? token.text : ''));
  const drop = new Set<number>();
  words.forEach((word, index) => {
    const particles = GROUPING_REQUESTS[word];
    if (!particles || !words.slice(index + 1).some((later) => later === 'by' || later === 'per')) return;
    drop.add(index);
    if (word === 'breakdown' && words[index + 1] === 'of') drop.add(index + 1);
    const particle = words.slice(index + 1, index + 4).findIndex((later) => particles.includes(later));
    if (particle >= 0) drop.add(index + 1 + particle);
  });
  return drop.size === 0 ? tokens : tokens.filter((_, index) => !drop.has(index));
};

/** Phrase knowledge: the units of time an amount of money is quoted per ("$900 a month"). */
const RATE_UNITS = new Set(['hour', 'night', 'day', 'week', 'month', 'year', 'annum']);

/**
 * The tokens without the rate after an amount of money ("studios under $900 a month", "£20 an
 * hour"): the amount is compared with the column as it is; the rate says how it is quoted.
 */
const withoutRates = (tokens: readonly Token[]): readonly Token[] =>
  tokens.filter((token, index) => {
    const at = (offset: number) => tokens[index + offset];
    const word = (candidate: Token | undefined) => (candidate?.kind === 'word' ? candidate.text : undefined);
    const moneyBefore = (offset: number) => {
      const before = at(offset);
      return before?.kind === 'number' && before.money;
    };
    if (/^an?$/.test(word(token) ?? '')) return !(moneyBefore(-1) && RATE_UNITS.has(word(at(1)) ?? ''));
    if (RATE_UNITS.has(word(token) ?? '')) return !(moneyBefore(-2) && /^an?$/.test(word(at(-1)) ?? ''));
    return true;
  });

export const scan = (lexicon: Lexicon, given: readonly Token[], now: Date): Mention[] => {
  const tokens = withoutRates(withoutGroupingRequests(given));
  const mentions: Mention[] = [];
  let index = 0;
  const push = (mention: Mention): void => {
    mentions.push(mention);
    index = mention.end;
  };
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (token.kind === 'break') {
      index += 1;
      continue;
    }
    if (token.kind === 'quoted') {
      push({
        kind: 'quoted',
        text: token.text,
        entries: quotedEntries(lexicon, token.text),
        at: index,
        end: index + 1,
      });
      continue;
    }
    const multiword = longestSchemaAt(lexicon, tokens, index, 2);
    if (multiword) {
      push(multiword);
      continue;
    }
    // "salary between 2000 and 3000" is a comparison, not a period of years.
    const previous = mentions[mentions.length - 1];
    const numericBefore = isNumericColumnMention(lexicon, previous) || previous?.kind === 'cost';
    const comparison = comparisonAt(tokens, index);
    if (numericBefore && comparison) {
      push(comparison);
      continue;
    }
    const period = periodAt(tokens, index, now);
    if (period) {
      push({ kind: 'period', period: period.period, at: index, end: period.end });
      continue;
    }
    if (comparison) {
      push(comparison);
      continue;
    }
    const ranking = rankingAt(tokens, index);
    if (ranking) {
      push(ranking);
      continue;
    }
    const aggregate = firstPhraseAt(tokens, index, aggregatePhrases);
    if (aggregate) {
      push({
        kind: 'aggregate',
        fn: aggregateOf.get(aggregate.phrase)!,
        word: aggregate.phrase,
        at: index,
        end: aggregate.end,
      });
      continue;
    }
    const grouping = groupAt(lexicon, tokens, index);
    if (grouping) {
      push(grouping);
      continue;
    }
    const followup = firstPhraseAt(tokens, index, followupPhrases);
    if (followup && (index === 0 || followup.phrase === 'what about' || followup.phrase === 'how about')) {
      push({ kind: 'followup', at: index, end: followup.end });
      continue;
    }
    const single = longestSchemaAt(lexicon, tokens, index, 1);
    if (single) {
      push(single);
      continue;
    }
    const negation = firstPhraseAt(tokens, index, negationPhrases);
    if (negation) {
      push({ kind: 'negation', at: index, end: negation.end });
      continue;
    }
    const list = firstPhraseAt(tokens, index, listPhrases);
    if (list) {
      push({ kind: 'list', at: index, end: list.end });
      continue;
    }
    if (token.kind === 'number') {
      push({ kind: 'number', value: token.value, money: token.money, at: index, end: index + 1 });
      continue;
    }
    if (token.kind === 'date') {
      push({ kind: 'unknown', text: token.iso, at: index, end: index + 1 });
      continue;
    }
    // "in descending order", "from highest to lowest": how to sort, in words.
    const direction = firstPhraseAt(tokens, index, directionPhrases);
    if (direction) {
      push({ kind: 'direction', dir: directionOf.get(direction.phrase)!, at: index, end: direction.end });
      continue;
    }
    if (token.kind === 'symbol') {
      // "#42" reads as a number, brackets and slashes ("he/she") as punctuation; other symbols are
      // not English.
      if (!/^[#()/]$/.test(token.text))
        push({ kind: 'unknown', text: token.text, at: index, end: index + 1 });
      else index += 1;
      continue;
    }
    const word = token.text;
    const negatedVerb =
      mentions[mentions.length - 1]?.kind === 'negation' ? verbRelation(lexicon, word) : undefined;
    if (negatedVerb) {
      push({ kind: 'schema', text: word, entries: negatedVerb, at: index, end: index + 1 });
    } else if (unitWords.has(word) && tokens[index - 1]?.kind === 'number') {
      // "more than 38 kg": the unit of the number before it names the columns measured in it
      // (weight_kg), or nothing.
      const measured = [...lexicon.relations.values()].flatMap((relation) =>
        relation.columns
          .filter((column) => column.numeric && column.words[column.words.length - 1] === word)
          .map((column): Entry => ({ kind: 'column', table: relation.key, column: column.name, rank: 2 })),
      );
      if (measured.length > 0)
        push({ kind: 'schema', text: word, entries: measured, at: index, end: index + 1 });
      else index += 1;
    } else if (directionWords[word]) {
      push({ kind: 'direction', dir: directionWords[word], at: index, end: index + 1 });
    } else if (anaphora.has(word)) {
      push({ kind: 'anaphora', word, at: index, end: index + 1 });
    } else if (/^(named|called|titled)$/.test(word)) {
      push({ kind: 'named', at: index, end: index + 1 });
    } else if (/^(cost|costs|costing|priced|pricing)$/.test(word)) {
      push({ kind: 'cost', at: index, end: index + 1 });
    } else if (
      stopwords.has(word) ||
      (fillers.has(word) &&
        !(
          mentions[mentions.length - 1]?.kind === 'aggregate' &&
          (mentions[mentions.length - 1] as MentionOf<'aggregate'>).fn !== 'count'
        ))
    ) {
      index += 1;
    } else {
      const flag = negatedFlag(lexicon, word);
      const next = tokens[index + 1];
      const joined = next?.kind === 'word' ? joinedLink(lexicon, word, next.text) : undefined;
      // A capitalized word inside a sentence is a name: it is never read as a synonym of another.
      const link = joined ?? (token.cased === undefined || index === 0 ? linkWord(lexicon, word) : undefined);
      if (flag) {
        // "unpaid fines", "inactive members": not, and the yes/no column.
        mentions.push({ kind: 'negation', at: index, end: index });
        push({ kind: 'schema', text: flag.text, entries: flag.entries, at: index, end: index + 1 });
      } else if (link) {
        const end = link.source === 'joined' ? index + 2 : index + 1;
        push({
          kind: 'schema',
          text: link.source === 'joined' ? link.phrase : word,
          entries: link.entries,
          link,
          at: index,
          end,
        });
      } else if (
        (token.cased === undefined || index === 0) &&
        (roleOf(word) === 'filler' || misspelledFiller(word) || lightVerbAt(lexicon, tokens, index)) &&
        // "total spend of customers": right after a total or an average, a word names the measure
        // (an adverb does not: "how much is still owed").
        !(
          !timeAdverbs.has(word) &&
          mentions[mentions.length - 1]?.kind === 'aggregate' &&
          (mentions[mentions.length - 1] as MentionOf<'aggregate'>).fn !== 'count'
        )
      ) {
        if (lexicalDatabase()?.dominantClass(word) === 'v' || lightVerbAt(lexicon, tokens, index))
          mentions.push({ kind: 'verb', text: word, at: index, end: index + 1 });
        index += 1;
      } else {
        push({
          kind: 'unknown',
          text: word,
          ...(token.cased ? { raw: token.cased } : {}),
          at: index,
          end: index + 1,
        });
      }
    }
  }
  return properNames(lexicon, tokens, mentions);
};

/**
 * "the Central Branch", "the Harbor clinic": capitalized words the index does not know, right
 * before the name of a relation with one label column, name a row of it (`name = 'Central
 * Branch'`; the relation's word is part of the name when it is capitalized too). Such names are
 * never sampled when each tenant has its own.
 */
const properNames = (lexicon: Lexicon, tokens: readonly Token[], mentions: Mention[]): Mention[] => {
  const result: Mention[] = [];
  for (let index = 0; index < mentions.length; index += 1) {
    let end = index;
    const words: string[] = [];
    for (
      let current = mentions[end];
      current?.kind === 'unknown' && current.raw !== undefined;
      current = mentions[end]
    ) {
      words.push(current.raw);
      end += 1;
    }
    const next = mentions[end];
    // "the Riverside Hospital's pets": a possessive names whose rows, not a row by its name.
    const last = mentions[end - 1];
    const possessive =
      last !== undefined &&
      end > index &&
      tokens[last.at]?.kind === 'word' &&
      (tokens[last.at] as Extract<Token, { kind: 'word' }>).possessive === true;
    const tables =
      next?.kind === 'schema' && !possessive
        ? next.entries.flatMap((entry) =>
            entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : [],
          )
        : [];
    const relation = tables.length === 1 ? lexicon.relations.get(tables[0]!) : undefined;
    const label = relation?.labels.length === 1 ? relation.byName.get(relation.labels[0]!) : undefined;
    if (words.length === 0 || !next || !relation || label?.kind !== 'text' || words.length > 5) {
      result.push(mentions[index]!);
      continue;
    }
    // The relation's word may belong to the name or not ("the Lake branch" of 'Lake Branch'):
    // both are looked for, and a capitalized relation word is part of the name.
    const nameWord = next.end - next.at === 1 ? tokens[next.at] : undefined;
    const written = nameWord?.kind === 'word' ? nameWord.text : undefined;
    const ownWord = nameWord?.kind === 'word' ? nameWord.cased : undefined;
    const run = words.join(' ');
    const values = ownWord
      ? [`${run} ${ownWord}`]
      : [
          run,
          ...(written
            ? [`${run} ${written}`, `${run} ${written.charAt(0).toUpperCase()}${written.slice(1)}`]
            : []),
        ];
    result.push({
      kind: 'schema',
      text: run.toLowerCase(),
      entries: [...new Set(values)].map((value) => ({
        kind: 'value',
        table: relation.key,
        column: label.name,
        value,
      })),
      at: mentions[index]!.at,
      end: ownWord ? next.end : mentions[end - 1]!.end,
    });
    if (!ownWord) result.push(next);
    index = end;
  }
  return result;
};
