// Values the question names that the index does not hold (docs/design.md "Answering on unseen
// databases", "Values the question names"). A customer's, product's or place's name is a
// tenant's own: values seen under one tenant only are never sampled into the shared index, so
// "loads for meridian pharma" reaches the engine as two words that link to nothing. The engine
// stays a pure function of its input; the lookup is a second pass:
//   1. the first pass reads the question; when it stops at words that link to nothing and some of
//      them look like a name (capitalized inside the sentence, in no dictionary, a code with
//      digits, or after "for", "by", "at", "from", "named", "called", "to"), `valueProbeOf` says
//      which phrases to look up ("meridian pharma", "meridian", "pharma") and where: the name,
//      code and place columns of the relations the question names first, then of the others,
//      then the other short text columns, within a budget;
//   2. the engine's caller runs that ONE probe as the asker (lib/answer/values.ts, through the
//      SQL guard with the tenant filter) and hands the values found back;
//   3. the second pass reads the question with those values known, exactly as sampled values are
//      known (`withFoundValues`: the phrase becomes a value of its column, so it filters and
//      joins like "Berlin" → `city = 'Berlin'`), the longest phrase of a name that matched
//      first, an exact match before a prefix match, a prefix match only when it is the only one.
// A phrase found in two columns is asked back with both readings as questions that name the
// column (`shipper name 'Meridian Pharma'`), which read without a lookup. Nothing found: the
// first pass's answer stands, so a value of another tenant and a value that exists nowhere give
// the same answer, after the same one probe.
import type { FoundValue, ValueProbe } from '../engine.ts';
import { valueWords } from './columns.ts';
import { unsampledStatusWords } from './decide.ts';
import { PLACE_COLUMN_WORDS } from './phrases.ts';
import type { Entry, Lexicon, Mention, Note, RelationInfo } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { phraseKey } from './words.ts';

/** Phrases of one name looked up at most, and text columns looked in at most. */
const MAX_PHRASES = 8;
const MAX_COLUMNS = 24;
/** Words of a name at most (longer runs are not one name). */
const MAX_NAME_WORDS = 5;

/** A word of a question, where it stands. */
interface Word {
  text: string;
  from: number;
  to: number;
}

/** A run of words that may name a value, and the phrases of it worth looking up, longest first. */
export interface NameRun {
  words: Word[];
  phrases: string[];
  /** A title before the name ("Dr. " of "Dr. Whitfield"), left out when the name is found. */
  title?: { from: number; to: number };
}

/** Phrase knowledge: titles before a person's name, left out of the name ("Dr. Whitfield"). */
const HONORIFICS = new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'mx', 'prof', 'sir', 'dame']);
/** Phrase knowledge: words after which a run of unexplained words is a name ("runs for …"). */
const NAME_LEAD = /(?:^|\s)(?:for|by|at|from|named|called|to|with|of|in)\s+$/i;
/** Column words of names, codes and references: looked in first. */
const NAME_COLUMN_WORDS = new Set([
  'name',
  'title',
  'label',
  'code',
  'ref',
  'reference',
  'number',
  'no',
  'num',
  'plate',
  'registration',
  'reg',
  'sku',
  'make',
  'model',
  'brand',
]);
/** Column words of free text, never looked in. */
const FREE_TEXT_WORDS = new Set([
  'description',
  'desc',
  'notes',
  'note',
  'comment',
  'comments',
  'body',
  'text',
  'message',
  'content',
  'summary',
  'details',
  'remarks',
  'instructions',
  'address',
  'email',
  'phone',
  'url',
  'password',
  'hash',
  'token',
  'json',
]);

/** Words of a question with their places: letters and digits, with inner ' & . / - ("PH-T07"). */
const wordsOf = (question: string): Word[] =>
  [...question.matchAll(/[\p{L}\p{N}](?:[\p{L}\p{N}'&./-]*[\p{L}\p{N}])?/gu)].map((match) => ({
    text: match[0],
    from: match.index,
    to: match.index + match[0].length,
  }));

/** Whether a word looks like part of a name by itself. */
const nameLike = (word: Word, first: boolean): boolean => {
  if (/\p{N}/u.test(word.text) && /\p{L}/u.test(word.text)) return true;
  if (!first && /^\p{Lu}/u.test(word.text)) return true;
  const database = lexicalDatabase();
  return (
    database !== undefined && valueWords(word.text).every((part) => database.readings(part).length === 0)
  );
};

/**
 * The runs of words of `question` that link to nothing (`unknown`, the scanner's words) and may
 * name a value, each with its phrases to look up.
 */
export const nameRuns = (
  question: string,
  unknown: ReadonlySet<string>,
  weak: ReadonlySet<string> = new Set(),
  namesRelation: (word: string) => boolean = () => false,
  namesValue: (word: string) => boolean = () => false,
): NameRun[] => {
  const words = wordsOf(question);
  const runs: NameRun[] = [];
  let current: Word[] = [];
  const close = (): void => {
    let run = current;
    current = [];
    const titled = run[0];
    while (run.length > 0 && HONORIFICS.has(run[0]!.text.toLowerCase())) run = run.slice(1);
    const title = run.length > 0 && run[0] !== titled ? { from: titled!.from, to: run[0]!.from } : undefined;
    // A run is about a word that links to nothing; loose words at its ends only with it.
    const open = (word: Word): boolean => valueWords(word.text).some((part) => unknown.has(part));
    if (run.length === 0 || run.length > MAX_NAME_WORDS || !run.some(open)) return;
    const first = run[0]!.from === words[0]?.from;
    // Led by a preposition of names, or right before the name of a relation ("the nursing
    // department", "the dayton plant"): the words name one of its rows.
    const next = words.find((word) => word.from >= run[run.length - 1]!.to);
    // "manchester or liverpool": a name joined to a value or a name the question names is one of
    // its kind.
    const joinedTo = /([\p{L}\p{N}]+)\s*(?:,\s*|\s+)(?:or|and|nor)\s+$/iu.exec(
      question.slice(0, run[0]!.from),
    );
    const led =
      NAME_LEAD.test(question.slice(0, run[0]!.from)) ||
      (joinedTo !== null &&
        (namesValue(joinedTo[1]!) || runs.some((other) => other.words.at(-1)?.text === joinedTo[1]))) ||
      (next !== undefined &&
        /^\s+$/.test(question.slice(run[run.length - 1]!.to, next.from)) &&
        namesRelation(next.text));
    const named = run.map((word) => nameLike(word, first && word === run[0]));
    if (!led && !named.some(Boolean)) return;
    const phrases: string[] = [];
    for (let size = run.length; size >= 1 && phrases.length < MAX_PHRASES; size -= 1) {
      for (let start = 0; start + size <= run.length && phrases.length < MAX_PHRASES; start += 1) {
        // A part of a run is a name only with a word that looks like one ("meridian", not "home").
        if (size < run.length && !named.slice(start, start + size).some(Boolean)) continue;
        phrases.push(question.slice(run[start]!.from, run[start + size - 1]!.to));
      }
    }
    runs.push({ words: run, phrases, ...(title ? { title } : {}) });
  };
  for (const [index, word] of words.entries()) {
    const parts = valueWords(word.text);
    const unexplained = parts.length > 0 && parts.some((part) => unknown.has(part));
    // A word read only through a broader term or a typo ("pharma" → companies) may be part of
    // a name beside a word that links to nothing.
    const loose = parts.length > 0 && parts.every((part) => weak.has(part) || unknown.has(part));
    const previous = words[index - 1];
    const joined =
      previous !== undefined &&
      (/^\s+(?:&\s+)?$/.test(question.slice(previous.to, word.from)) ||
        (HONORIFICS.has(previous.text.toLowerCase()) &&
          /^\.\s+$/.test(question.slice(previous.to, word.from))));
    // "Calculus I", "Hartley Home Stores": a capitalized word goes on with a name begun.
    const continues = current.length > 0 && joined && /^\p{Lu}/u.test(word.text);
    if (!joined || !(unexplained || loose || continues)) close();
    if (unexplained || loose || continues) current.push(word);
  }
  close();
  return runs;
};

/** Whether a column may hold short names: text, not a key of another table, not free text. */
const probeable = (lexicon: Lexicon, relation: RelationInfo, name: string): boolean => {
  const column = relation.byName.get(name);
  if (column?.kind !== 'text' || column.name === lexicon.tenantColumn) return false;
  if (column.words.some((word) => FREE_TEXT_WORDS.has(word))) return false;
  const length = /\((\d+)\)/.exec(relation.relation.columns.find((c) => c.name === name)?.nativeType ?? '');
  return !length || Number(length[1]) <= 255;
};

/** The text columns to look in, likeliest first: names, codes and places of named relations first. */
const probeColumns = (lexicon: Lexicon, question: string): ValueProbe['columns'] => {
  const lower = ` ${question.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const relations = [...lexicon.relations.values()];
  const named = (relation: RelationInfo): boolean =>
    [relation.one, relation.other].some((name) => lower.includes(` ${name} `));
  const scored: { relation: RelationInfo; column: string; score: number }[] = [];
  for (const relation of relations) {
    for (const column of relation.columns) {
      if (!probeable(lexicon, relation, column.name)) continue;
      const label = relation.labels.includes(column.name);
      const nameish = column.words.some((word) => NAME_COLUMN_WORDS.has(word));
      const place = column.words.some((word) => PLACE_COLUMN_WORDS.has(word));
      const score =
        (named(relation) ? 0 : 4) +
        (label ? 0 : nameish ? 1 : place ? 2 : column.samples.length > 0 ? 3 : 2.5);
      scored.push({ relation, column: column.name, score });
    }
  }
  return scored
    .sort((left, right) => left.score - right.score)
    .slice(0, MAX_COLUMNS)
    .map(({ relation, column }) => ({ schema: relation.schema, relation: relation.name, column }));
};

/** The probe for a question whose `unknown` words link to nothing, if some may name a value. */
export const valueProbeOf = (
  lexicon: Lexicon,
  question: string,
  mentions: readonly Mention[],
): { probe: ValueProbe; runs: NameRun[] } | undefined => {
  const unknown = new Set(mentions.flatMap((mention) => (mention.kind === 'unknown' ? [mention.text] : [])));
  const weak = new Set(
    mentions.flatMap((mention) =>
      mention.kind === 'schema' && mention.link && mention.link.source !== 'joined'
        ? mention.text.split(' ')
        : [],
    ),
  );
  // "the pending orders" where no sample holds "pending": looked up in that status column.
  const statuses = unsampledStatusWords(lexicon, mentions);
  const statusRuns: NameRun[] = statuses.flatMap(({ text }) => {
    const word = wordsOf(question).find((candidate) => candidate.text.toLowerCase() === text);
    return word ? [{ words: [word], phrases: [word.text] }] : [];
  });
  const runs = [
    ...statusRuns,
    ...nameRuns(
      question,
      unknown,
      weak,
      (word) =>
        (lexicon.phrases.get(phraseKey(valueWords(word))) ?? []).some((entry) => entry.kind === 'relation'),
      (word) =>
        (lexicon.phrases.get(phraseKey(valueWords(word))) ?? []).some((entry) => entry.kind === 'value'),
    ).filter((run) => !statusRuns.some((status) => status.words[0]!.from === run.words[0]!.from)),
  ];
  const phrases = [...new Set(runs.flatMap((run) => run.phrases))].slice(0, MAX_PHRASES);
  if (phrases.length === 0) return undefined;
  const statusColumns = statuses.map(({ relation, column }) => ({
    schema: relation.schema,
    relation: relation.name,
    column: column.name,
  }));
  const columns = [
    ...statusColumns,
    ...probeColumns(lexicon, question).filter(
      (column) =>
        !statusColumns.some(
          (status) => status.relation === column.relation && status.column === column.column,
        ),
    ),
  ].slice(0, MAX_COLUMNS);
  return columns.length === 0 ? undefined : { probe: { phrases, columns }, runs };
};

const fold = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** One phrase of the question read as values found for it. */
export interface PhraseValues {
  /** The phrase as the question writes it. */
  phrase: string;
  from: number;
  to: number;
  values: FoundValue[];
  /** The title before it, left out of the question read again. */
  title?: { from: number; to: number };
}

/**
 * For each run, the longest phrase that found something: its exact matches, else its one prefix
 * match. Titles before a name go with it ("Dr. Whitfield").
 */
export const phraseValues = (
  question: string,
  runs: readonly NameRun[],
  found: readonly FoundValue[],
  relationsNamed: (word: string) => string[] = () => [],
): PhraseValues[] => {
  const result: PhraseValues[] = [];
  for (const run of runs) {
    // The longest phrases first; a shorter one only where no chosen one stands ("Elena Marsh":
    // first name 'Elena' and last name 'Marsh').
    const chosen: { from: number; to: number }[] = [];
    for (const phrase of run.phrases) {
      const from = question.indexOf(phrase, run.words[0]!.from);
      const to = from + phrase.length;
      if (from < 0 || chosen.some((other) => other.from < to && from < other.to)) continue;
      // "the nursing department": a relation named right after the phrase says whose value it is.
      const after = /^\s+([\p{L}\p{N}]+)/u.exec(question.slice(to))?.[1];
      const owners = after ? relationsNamed(after) : [];
      const all = found.filter((value) => value.phrase === fold(phrase));
      const owned = all.filter((value) => owners.includes(`${value.schema}.${value.relation}`));
      const matches = owned.length > 0 ? owned : all;
      const exact = matches.filter((value) => value.exact);
      const prefix = [
        ...new Map(
          matches.map((value) => [`${value.relation}.${value.column}\u0000${value.value}`, value]),
        ).values(),
      ];
      // "northwind logistics" where "logistics" read as something else: the values the question
      // goes on to spell out in full are what it names, over the span it spells.
      const spelled = exact.length > 0 ? [] : spelledOut(question, from, prefix);
      const values =
        exact.length > 0
          ? exact
          : spelled.length > 0
            ? spelled.map((match) => match.value)
            : prefix.length === 1
              ? prefix
              : [];
      if (values.length === 0) continue;
      const end = spelled.length > 0 ? Math.max(...spelled.map((match) => match.to)) : to;
      if (end !== to && chosen.some((other) => other.from < end && from < other.to)) continue;
      result.push({
        phrase: question.slice(from, end),
        from,
        to: end,
        values,
        ...(run.title && chosen.length === 0 && from === run.words[0]!.from ? { title: run.title } : {}),
      });
      chosen.push({ from, to: end });
    }
  }
  return result;
};

/**
 * Of the values a phrase starts (`prefix`), those the question spells out in full from `from` on,
 * each with where it ends there; only the longest such spelling counts ("Northwind Logistics"
 * over "Northwind" when the question says "northwind logistics").
 */
const spelledOut = (
  question: string,
  from: number,
  prefix: readonly FoundValue[],
): { value: FoundValue; to: number }[] => {
  const words = wordsOf(question).filter((word) => word.from >= from);
  const matches = prefix.flatMap((value) => {
    const wanted = fold(value.value)
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    if (wanted.length === 0 || wanted.length > words.length) return [];
    const said = words.slice(0, wanted.length);
    const same = said.every(
      (word, index) => fold(word.text).replace(/[^\p{L}\p{N}]+/gu, '') === wanted[index],
    );
    return same ? [{ value, to: said[said.length - 1]!.to, size: wanted.length }] : [];
  });
  const longest = Math.max(0, ...matches.map((match) => match.size));
  return matches.filter((match) => match.size === longest).map(({ value, to }) => ({ value, to }));
};

const relationKeyOf = (lexicon: Lexicon, value: FoundValue): string | undefined =>
  [...lexicon.relations.values()].find(
    (relation) => relation.schema === value.schema && relation.name === value.relation,
  )?.key;

/** The columns a phrase's values are in, as `table.column` keys. */
export const columnsOf = (values: readonly FoundValue[]): string[] => [
  ...new Set(values.map((value) => `${value.schema}.${value.relation}.${value.column}`)),
];

/**
 * The lexicon with the phrases' values known, as sampled values are (a per-question copy; the
 * cached lexicon is not changed), and the notes that say how each phrase was read.
 */
export const withFoundValues = (
  lexicon: Lexicon,
  phrases: readonly PhraseValues[],
): { lexicon: Lexicon; notes: Note[] } => {
  const table = new Map(lexicon.phrases);
  let maxWords = lexicon.maxWords;
  const notes: Note[] = [];
  for (const { phrase, values } of phrases) {
    const words = valueWords(phrase);
    const key = phraseKey(words);
    const entries: Entry[] = [];
    for (const value of values) {
      const relation = relationKeyOf(lexicon, value);
      if (relation)
        entries.push({ kind: 'value', table: relation, column: value.column, value: value.value });
    }
    if (entries.length === 0) continue;
    table.set(key, [...entries, ...(table.get(key) ?? []).filter((entry) => entry.kind !== 'value')]);
    maxWords = Math.max(maxWords, words.length);
    const shown = [...new Set(values.map((value) => value.value))];
    if (shown.some((value) => fold(value) !== fold(phrase)))
      notes.push({ kind: 'as', text: `“${phrase}” as ${shown.map((value) => `'${value}'`).join(' or ')}` });
  }
  return { lexicon: { ...lexicon, phrases: table, maxWords }, notes };
};

/**
 * A phrase found in several columns: the question once per column, the phrase replaced by the
 * column and the value (`shipper name 'Meridian Pharma'`), which reads without a lookup.
 */
export const columnReadings = (
  lexicon: Lexicon,
  question: string,
  phrase: PhraseValues,
): { question: string; note: Note }[] => {
  const byColumn = new Map<string, FoundValue>();
  for (const value of phrase.values) byColumn.set(`${value.schema}.${value.relation}.${value.column}`, value);
  return [...byColumn.values()].flatMap((value) => {
    const key = relationKeyOf(lexicon, value);
    const relation = key ? lexicon.relations.get(key) : undefined;
    const column = relation?.byName.get(value.column);
    if (!relation || !column || value.value.includes("'")) return [];
    const named = `${relation.one} ${column.display} '${value.value}'`;
    return [
      {
        question: `${question.slice(0, phrase.from)}${named}${question.slice(phrase.to)}`.replace(
          /\s{2,}/g,
          ' ',
        ),
        note: {
          kind: 'as' as const,
          text: `“${phrase.phrase}” as the ${relation.one} ${column.display} '${value.value}'`,
        },
      },
    ];
  });
};

/**
 * The question without the titles before the names found ("Dr. Whitfield" → "Whitfield"), and
 * the phrases where they now stand.
 */
export const withoutTitles = (
  question: string,
  phrases: readonly PhraseValues[],
): { question: string; phrases: PhraseValues[] } => {
  const titles = phrases.flatMap((phrase) => (phrase.title ? [phrase.title] : []));
  if (titles.length === 0) return { question, phrases: [...phrases] };
  let text = question;
  for (const { from, to } of [...titles].sort((left, right) => right.from - left.from))
    text = text.slice(0, from) + text.slice(to);
  return {
    question: text,
    phrases: phrases.map((phrase) => {
      const shift = titles
        .filter((title) => title.to <= phrase.from)
        .reduce((sum, t) => sum + t.to - t.from, 0);
      const { title: _title, ...rest } = phrase;
      return { ...rest, from: phrase.from - shift, to: phrase.to - shift };
    }),
  };
};

/**
 * A phrase found in several columns, one of them a property (not the name) of a relation the
 * question names: that one ("clients in manchester or liverpool": the clients' city, not the
 * candidates' or the vacancies' location). `named` are the relations the question names.
 */
export const ofNamedRelation = (
  lexicon: Lexicon,
  phrase: PhraseValues,
  named: ReadonlySet<string>,
): PhraseValues => {
  if (columnsOf(phrase.values).length < 2) return phrase;
  const kept = phrase.values.filter((value) => {
    const key = relationKeyOf(lexicon, value);
    const relation = key && named.has(key) ? lexicon.relations.get(key) : undefined;
    return relation !== undefined && !relation.labels.includes(value.column);
  });
  return columnsOf(kept).length === 1 ? { ...phrase, values: kept } : phrase;
};
