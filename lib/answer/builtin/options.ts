// Options offered with a clarification (docs/design.md "Answering on unseen databases"). When the
// engine asks back on a question that looks answerable — words that link to nothing, or a phrase it
// could not place — it rewrites the question around those words and offers the rewrites it can
// answer: each word replaced by a schema name near it (in meaning by word vectors or WordNet, in
// spelling, as an abbreviation the identifier uses, or in a column's description), or left out
// when it only modifies. Every rewrite is asked again through the whole pipeline, as the user
// would ask it after the clarification, and offered only when it is answered: so asking an option
// gives exactly its reading. Best first, at most three; a few rewrites are tried at most, since
// each is a whole pipeline run.

import { mainTables, quoted } from './clarify.ts';
import { editDistance } from './link.ts';
import { ENGINE_WORDS } from './phrases.ts';
import { describedBy, locate, partOfName, rewrite, spellingVocabulary } from './readings.ts';
import type { ColumnInfo, Lexicon, RelationInfo } from './types.ts';
import { loadedVectors } from './vectors.ts';
import { lexicalDatabase } from './wordnet.ts';
import { joinAnd, singular } from './words.ts';

/** Rewrites asked through the pipeline per clarification, at most (each is a whole run). */
export const MAX_REWRITES = 6;
/** Options offered, at most. */
export const MAX_OPTIONS = 3;
/** Words of a question rewritten at once, at most: more is another question, not a reading. */
const MAX_WORDS = 4;
/** Replacements kept per word, best first. */
const PER_WORD = 4;
/** Word-vector similarity a relation, and a column, needs to stand for a word. */
const MIN_RELATION_SIMILARITY = 0.35;
const MIN_COLUMN_SIMILARITY = 0.45;

/** What a replacement costs, by its evidence: the lower, the likelier the reading. */
const COST = {
  /** One edit from a word of the schema or of the engine ("averge" → average). */
  spelling: 0.3,
  /** A word of a relation's name ("fuel" → fuel purchases). */
  partOfName: 0.35,
  /** The identifier abbreviates the word ("level" → lvl, "severity" → sev). */
  abbreviation: 0.4,
  /** WordNet: a synonym or a broader term is a word of the name. */
  wordnet: 0.5,
  /** Word vectors: 1.2 − similarity (0.8 at 0.4, 0.4 at 0.8). */
  vectors: 1.2,
  /** A column's description uses the word. */
  description: 0.7,
  /** Left out: a word that modifies (adjective, adverb, verb), or a noun. */
  leaveModifier: 0.6,
  leaveNoun: 1,
} as const;

/** The article before a noun left out, or its preposition and article when it ends the phrase. */
const LEAD_IN_ARTICLE = /(?:^|\s)(?:a|an|the)\s+$/i;
const LEAD_IN_PHRASE =
  /(?:^|\s)(?:(?:in|on|at|for|of|to|by|with|from|per)\s+)?(?:(?:a|an|the|our|their)\s+)?$/i;

/** One way to read a word of the question: the text put in its place. */
interface Replacement {
  from: number;
  to: number;
  text: string;
  cost: number;
}

/** A rewritten question and what its replacements cost. */
export interface Option {
  question: string;
  cost: number;
}

/** The name of a relation, in the number the word was said in. */
const relationWord = (relation: RelationInfo, word: string): string =>
  singular(word) === word && !word.endsWith('s') ? relation.one : relation.other;

/** Whether `short` abbreviates `long`: same first letter, its letters in order ("lvl" of level). */
const abbreviates = (short: string, long: string): boolean => {
  if (short.length < 2 || short.length >= long.length || short[0] !== long[0]) return false;
  let index = 0;
  for (const letter of long) if (letter === short[index]) index += 1;
  return index === short.length;
};

/** Whether a word of the question is said by one of `parts` (the same word, or abbreviated). */
const saidBy = (word: string, parts: readonly string[]): boolean =>
  parts.some((part) => singular(part) === singular(word) || abbreviates(part, word));

/**
 * The span a replacement takes: the word, and the words next to it the replacement says too
 * ("claim amount" → claim amt, not "claim amt amount").
 */
const spanOf = (question: string, at: { from: number; to: number }, text: string) => {
  const parts = text.toLowerCase().split(/\s+/).filter(Boolean);
  let { from, to } = at;
  if (parts.length === 0) return { from, to };
  for (
    let next = /^\s+([\p{L}]+)/u.exec(question.slice(to));
    next && saidBy(next[1]!.toLowerCase(), parts);
  ) {
    to += next[0].length;
    next = /^\s+([\p{L}]+)/u.exec(question.slice(to));
  }
  for (let previous = /([\p{L}]+)\s+$/u.exec(question.slice(0, from)); previous; ) {
    if (!saidBy(previous[1]!.toLowerCase(), parts)) break;
    from = previous.index;
    previous = /([\p{L}]+)\s+$/u.exec(question.slice(0, from));
  }
  return { from, to };
};

const columnLists = new WeakMap<Lexicon, { relation: RelationInfo; column: ColumnInfo }[]>();

/** Columns of the schema a word may stand for, each with its relation (keys and tenant left out); once per lexicon. */
const columnsOf = (lexicon: Lexicon) => {
  let columns = columnLists.get(lexicon);
  if (!columns) {
    columns = [...lexicon.relations.values()].flatMap((relation) =>
      relation.columns
        .filter((column) => !column.key && column.name !== lexicon.tenantColumn)
        .map((column) => ({ relation, column })),
    );
    columnLists.set(lexicon, columns);
  }
  return columns;
};

/** The replacements of one word or phrase of `question` at `at`, best first. */
const replacementsOf = (
  lexicon: Lexicon,
  question: string,
  at: { from: number; to: number },
): Replacement[] => {
  const written = question.slice(at.from, at.to);
  const phrase = written.toLowerCase();
  const word = phrase.split(/\s+/).at(-1) ?? phrase;
  const found: Replacement[] = [];
  const add = (text: string, cost: number) => found.push({ ...spanOf(question, at, text), text, cost });
  const relations = [...lexicon.relations.values()];
  const columns = columnsOf(lexicon);
  const database = lexicalDatabase();
  const wordClass = database?.dominantClass(word);
  const inDictionary = (database?.readings(word).length ?? 0) > 0;

  // Near in meaning (word vectors): relations (a word for people only to a relation of people),
  // then columns.
  const vectors = loadedVectors();
  if (vectors?.has(word)) {
    const person = database?.person(word) ?? false;
    const people = (relation: RelationInfo) =>
      database?.person(singular(relation.other.split(' ').at(-1) ?? relation.other)) ?? false;
    const byName = new Map(relations.map((relation) => [relation.other, relation]));
    for (const near of vectors.nearest(
      phrase,
      relations.filter((relation) => people(relation) === person).map((relation) => relation.other),
      MIN_RELATION_SIMILARITY,
    )) {
      const relation = byName.get(near.candidate)!;
      if (near.candidate !== phrase) add(relationWord(relation, word), COST.vectors - near.similarity);
    }
    if (!person) {
      // A column by its words that say something: "at", "no", "dt" of due_at, invoice_no, paid_dt
      // only say that it is a time or a number.
      const displays = new Map<string, string>();
      for (const { column } of columns) {
        const telling = column.words.filter((part) => part.length > 2 && vectors.has(part)).join(' ');
        if (telling) displays.set(telling, column.display);
      }
      for (const near of vectors.nearest(phrase, displays.keys(), MIN_COLUMN_SIMILARITY)) {
        const display = displays.get(near.candidate)!;
        if (display !== phrase) add(display, COST.vectors + 0.05 - near.similarity);
      }
    }
  }
  // A word of a relation's name ("fuel" of fuel purchases).
  for (const name of partOfName(lexicon, word)) {
    add(name, COST.partOfName);
  }
  // Spelling: one edit (two from seven letters) from a word of the schema or of the engine.
  if (!inDictionary && /^[a-z]{4,}$/.test(word)) {
    const limit = word.length >= 7 ? 2 : 1;
    for (const candidate of spellingVocabulary(lexicon)) {
      if (candidate.length < 3 || candidate === word) continue;
      const distance = editDistance(word, candidate, limit);
      if (distance <= limit) add(candidate, COST.spelling + 0.1 * (distance - 1));
    }
  }
  // An identifier that abbreviates the word ("lvl" of level, "amt" of amount).
  for (const { column } of columns) {
    const coined = (part: string) => part.length <= 3 || !(database?.readings(part).length ?? 0);
    if (column.words.some((part) => coined(part) && abbreviates(part, word)))
      add(column.display, COST.abbreviation);
  }
  // WordNet: a synonym or broader term of the noun is a word of a relation's or column's name.
  if (database && wordClass === 'n') {
    const related = database.related(word, 'n', 2);
    const terms = new Set([...related.synonyms, ...related.broader].filter((term) => !term.includes(' ')));
    terms.delete(word);
    for (const relation of relations) {
      if (relation.other.split(' ').some((part) => terms.has(singular(part))))
        add(relationWord(relation, word), COST.wordnet);
    }
    for (const { column } of columns) {
      if (column.words.some((part) => terms.has(singular(part)))) add(column.display, COST.wordnet + 0.05);
    }
  }
  for (const name of describedBy(lexicon, word).slice(0, 2)) add(name, COST.description);
  // Left out: cheaper for a word that only modifies than for a noun, which takes its article with
  // it ("tell me a joke about" is not "tell me a about"), and its preposition when it ends the
  // phrase ("downtime in hours for 2024" → "downtime for 2024").
  if (wordClass === 'n') {
    const ends = /^\s*(?:$|[?.!,;]|(?:in|on|at|for|of|to|by|with|from|per|during|since)\b)/i.test(
      question.slice(at.to),
    );
    const before = (ends ? LEAD_IN_PHRASE : LEAD_IN_ARTICLE).exec(question.slice(0, at.from));
    found.push({ from: before ? before.index : at.from, to: at.to, text: '', cost: COST.leaveNoun });
  } else add('', COST.leaveModifier);

  const seen = new Set<string>();
  return found
    .sort((left, right) => left.cost - right.cost)
    .filter((replacement) => {
      const key = replacement.text.toLowerCase();
      if (key === phrase || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, PER_WORD);
};

/**
 * Rewrites of `question` around `words` (words that link to nothing, or phrases the engine could
 * not place), cheapest first; two neighbouring words read as one name are replaced once ("credit
 * hours" → cr hrs). A name (a capitalized word inside the sentence) is never replaced or left out.
 */
export const rewritesOf = (lexicon: Lexicon, question: string, words: readonly string[]): Option[] => {
  const spots = [...new Set(words.map((word) => word.toLowerCase()))].flatMap((word) => {
    const at = locate(question, word);
    return at && !(/^\p{Lu}/u.test(question.charAt(at.from)) && at.from > 0) ? [at] : [];
  });
  if (spots.length === 0 || spots.length > MAX_WORDS || spots.length < new Set(words).size) return [];
  spots.sort((left, right) => left.from - right.from);
  const perSpot = spots.map((at) => replacementsOf(lexicon, question, at));
  let combinations: { chosen: Replacement[]; cost: number }[] = [{ chosen: [], cost: 0 }];
  for (const [index, replacements] of perSpot.entries()) {
    const spot = spots[index]!;
    combinations = combinations.flatMap(({ chosen, cost }) => {
      const previous = chosen.at(-1);
      // The word is already taken in by the name before it ("credit hours" → cr hrs).
      if (previous && previous.to >= spot.to) return [{ chosen, cost }];
      return replacements.flatMap((replacement) => {
        // The same name for this word and the one right before it: one name for both.
        if (
          previous &&
          previous.text !== '' &&
          previous.text === replacement.text &&
          /^\s*$/.test(question.slice(previous.to, Math.max(previous.to, replacement.from)))
        ) {
          return [
            {
              chosen: [...chosen.slice(0, -1), { ...previous, to: Math.max(previous.to, replacement.to) }],
              cost: cost + Math.min(previous.cost, replacement.cost) * 0.25,
            },
          ];
        }
        // Two replacements never overlap.
        if (previous && replacement.from < previous.to) return [];
        return [{ chosen: [...chosen, replacement], cost: cost + replacement.cost }];
      });
    });
  }
  const seen = new Set<string>();
  return combinations
    .sort((left, right) => left.cost - right.cost)
    .flatMap(({ chosen, cost }) => {
      const text = rewrite(question, chosen);
      if (text.length === 0 || seen.has(text.toLowerCase())) return [];
      seen.add(text.toLowerCase());
      return [{ question: text, cost }];
    });
};

/** A question offered back, with the SQL it is answered with when asked. */
export interface Offered {
  question: string;
  sql: string;
}

/**
 * The options of a clarification: the cheapest rewrites of `question` around `words` that
 * `answer` answers (it asks a question through the whole pipeline, as after the clarification,
 * and returns the SQL it gives, if any), one per distinct answer, best first. `skip` holds
 * questions already offered or tried; at most MAX_REWRITES are asked.
 */
export const optionsFor = (
  lexicon: Lexicon,
  question: string,
  words: readonly string[],
  answer: (question: string) => string | undefined,
  skip: ReadonlySet<string> = new Set(),
  wanted = MAX_OPTIONS,
): Offered[] => {
  const options: Offered[] = [];
  let asked = 0;
  for (const rewritten of rewritesOf(lexicon, question, words)) {
    if (options.length >= wanted || asked >= MAX_REWRITES) break;
    if (skip.has(rewritten.question)) continue;
    asked += 1;
    const sql = answer(rewritten.question);
    if (sql === undefined || options.some((option) => option.sql === sql)) continue;
    options.push({ question: rewritten.question, sql });
  }
  return options;
};

/** Whether the words of `shorter` are those of `longer` with some left out, in order. */
const tidierOf = (shorter: string, longer: string): boolean => {
  const short = shorter.toLowerCase().split(/\s+/);
  const long = longer.toLowerCase().split(/\s+/);
  if (short.length >= long.length) return false;
  let index = 0;
  for (const word of long) if (word === short[index]) index += 1;
  return index === short.length;
};

/**
 * Options in order, one per answer: of two questions answered alike the first is offered, or
 * the later one when it says the same with words left out ("total claim amt in 2025" for "total
 * claim amt amount in 2025"); at most MAX_OPTIONS.
 */
export const distinctOptions = (options: readonly Offered[]): string[] => {
  const byAnswer = new Map<string, string>();
  for (const { question, sql } of options) {
    const kept = byAnswer.get(sql);
    if (kept === undefined || tidierOf(question, kept)) byAnswer.set(sql, question);
  }
  return [...byAnswer.values()].slice(0, MAX_OPTIONS);
};

/** The phrases a clarification's message quotes that the question says (“status”, “name”). */
export const quotedIn = (question: string, message: string): string[] =>
  [...message.matchAll(/“([^”]+)”/g)]
    .map((match) => match[1]!.toLowerCase())
    .filter((phrase, index, all) => all.indexOf(phrase) === index && locate(question, phrase) !== undefined);

/**
 * The message of a question asked back for words that link to nothing when no rewrite of it is
 * answered: it says why none is offered (too many such words, a name the data does not hold, or
 * no name of the schema in their place reads), and what the engine can answer.
 */
export const unknownWithoutOptions = (
  lexicon: Lexicon,
  question: string,
  words: readonly string[],
): string => {
  // Each word as written; a name's words together ("Gerald Whitcombe").
  const written: { text: string; name: boolean; from: number; to: number }[] = [];
  for (const word of new Set(words)) {
    const at = locate(question, word.toLowerCase());
    const text = at ? question.slice(at.from, at.to) : word;
    const name = at !== undefined && at.from > 0 && /^\p{Lu}/u.test(text);
    const previous = written.at(-1);
    if (at && previous?.name && name && /^\s+$/.test(question.slice(previous.to, at.from))) {
      previous.text = question.slice(previous.from, at.to);
      previous.to = at.to;
    } else written.push({ text, name, from: at?.from ?? -1, to: at?.to ?? -1 });
  }
  const named = joinAnd(written.map((word) => quoted(word.text)));
  const means = written.length === 1 ? 'means' : 'mean';
  const names = written.filter((word) => word.name).map((word) => quoted(word.text));
  const why =
    new Set(words).size > MAX_WORDS
      ? 'Too many of its words are not names I know for me to guess which question you mean.'
      : names.length > 0
        ? `${joinAnd(names)} ${names.length === 1 ? 'looks like a name' : 'look like names'} I found nowhere in the data I can search, so I have no reading to offer.`
        : `None of the names I know in ${written.length === 1 ? 'its' : 'their'} place, nor leaving ${written.length === 1 ? 'it' : 'them'} out, gives a question I can answer.`;
  return `I'm not sure what ${named} ${means} here. ${why} I can answer questions about ${mainTables(lexicon)}.`;
};

/** The relation a clarification's candidate names (by key, or by the name the engine shows). */
const relationNamed = (lexicon: Lexicon, table: string): RelationInfo | undefined =>
  [...lexicon.relations.values()].find(
    (relation) =>
      relation.key === table || relation.name === table || `${relation.schema}.${relation.name}` === table,
  );

/**
 * Which date a period dates, when the clarification asks ("Which date of invoices do you mean:
 * issued on or due on?"): the question with each candidate date named right before the period
 * ("invoices due on in 2024"), which binds the period to it.
 */
export const dateRewrites = (
  lexicon: Lexicon,
  question: string,
  candidates: readonly { table: string; column?: string }[] | undefined,
  periods: readonly string[],
): string[] => {
  const dates = (candidates ?? []).flatMap((candidate) => {
    const column =
      candidate.column === undefined
        ? undefined
        : relationNamed(lexicon, candidate.table)?.byName.get(candidate.column);
    return column?.temporal ? [column] : [];
  });
  if (dates.length === 0 || dates.length !== candidates?.length) return [];
  const at = periods.map((label) => locate(question, label.toLowerCase())).find((found) => found);
  if (!at) return [];
  return dates.map((column) =>
    rewrite(question, [{ from: at.from, to: at.from, text: `${column.display} ` }]),
  );
};

/** Words that say nothing of their own in an example: function words and the engine's words. */
const FUNCTION_WORDS = new Set([
  ...ENGINE_WORDS,
  'by',
  'of',
  'the',
  'a',
  'an',
  'in',
  'on',
  'for',
  'to',
  'and',
  'or',
]);

/**
 * The clarification's own examples applied to the question: an example that says a phrase of the
 * question with more words ("hectares" → “total hectares”) replaces that phrase. The phrase must
 * be at least half of the example and say something of its own, and an example never brings a
 * number the question does not say ("status over 10").
 */
export const exampleRewrites = (question: string, message: string): string[] => {
  const found: string[] = [];
  for (const [, example] of message.matchAll(/“([^”]+)”/g)) {
    const words = example!.toLowerCase().split(/\s+/);
    if (locate(question, example!.toLowerCase())) continue;
    if (words.some((word) => /\d/.test(word) && !question.includes(word))) continue;
    let best: { from: number; to: number } | undefined;
    for (let length = words.length - 1; length >= Math.ceil(words.length / 2) && !best; length -= 1) {
      for (let start = 0; start + length <= words.length && !best; start += 1) {
        const run = words.slice(start, start + length);
        if (run.every((word) => FUNCTION_WORDS.has(word))) continue;
        best = locate(question, run.join(' '));
      }
    }
    if (best) found.push(rewrite(question, [{ ...best, text: example! }]));
  }
  return [...new Set(found)];
};
