// Readings with evidence (docs/design.md "Answering on unseen databases"). When words of a question
// link to nothing, the first parse stops; here each such word gets candidate links — left out as
// filler, a misspelling of a word the engine reads, a name of the schema close in meaning (word
// vectors) or named in a relation's or a column's description — and every combination is read
// again as a whole question. Each complete reading is scored by what it leaves unexplained (an
// empty phrase such as "in the company" costs little; a noun that would be the subject costs
// much) and by how weak its links are. The best reading is the answer when it is clear (cheap,
// and ahead of the next by a margin); otherwise the few best are offered back as complete
// questions, each of which reads exactly as its reading when asked (the alternatives are found by
// reading those very texts).

import { relationsDescribedWith } from './described.ts';
import type { Intent } from './intent.ts';
import { editDistance } from './link.ts';
import { EMPTY_PHRASE, ENGINE_WORDS, PLACE_COLUMN_WORDS } from './phrases.ts';
import type { Lexicon, Note, Reading, RelationInfo } from './types.ts';
import { loadedVectors } from './vectors.ts';
import { lexicalDatabase } from './wordnet.ts';
import { singular } from './words.ts';

/** What leaving a word unexplained costs, by the part it plays in the question. */
export const ROLE_COST = {
  /** A noun in an empty phrase at the end: "in the company", "on the books", "in our database". */
  empty: 0.1,
  /** A misspelled word one edit from exactly one word the engine reads ("totl", "revnue"). */
  misspelled: 0.25,
  /** Any other word: a modifier, a verb, a noun that may be the subject. */
  other: 1,
} as const;

/** A reading is answered without asking when it costs at most this and leads the next by MARGIN. */
const CLEAR = 0.3;
const MARGIN = 0.3;
/** Candidate links kept per word, and combinations read at most (each is a whole pipeline run). */
const LINKS_PER_WORD = 3;
const MAX_COMBINATIONS = 8;
/** A question with more unexplained words than this is not otherwise clear: it is asked back. */
const MAX_UNEXPLAINED = 3;
/** Word-vector similarity a schema name needs to be offered for a word. */
const MIN_SIMILARITY = 0.5;
/** A relation name read for a word without asking: this similar, and this far ahead of the next. */
const CLEAR_SIMILARITY = 0.7;
const CLEAR_LEAD = 0.15;

/** One way to read an unexplained word. */
interface WordLink {
  /** The text put in its place; '' leaves it (and its empty phrase) out. */
  replace: { from: number; to: number; text: string };
  cost: number;
  /** How the interpretation says it: `as` "“homes” as properties", `out` "“in the company”". */
  note: Note;
  /** Words before it the replacement takes in ("in" of "in Bristol" → "with city 'Bristol'"). */
  prefix?: RegExp;
  /** It also replaces the unexplained word after it ("maintenance jobs"). */
  covers?: true;
  /** It reads a name as a value no sample holds. */
  guessed?: true;
}

export type ReadQuestion = (question: string) => Intent | undefined;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const wordChar = /[\p{L}\p{N}_]/u;

/** Where `word` stands in `question` (case-insensitive, whole word), if it does. */
export const locate = (question: string, word: string): { from: number; to: number } | undefined => {
  const lower = question.toLowerCase();
  // Offsets are the question's own only when lower-casing kept every length.
  if (lower.length !== question.length || word.length === 0) return undefined;
  for (let from = lower.indexOf(word); from >= 0; from = lower.indexOf(word, from + 1)) {
    const to = from + word.length;
    if (!wordChar.test(question.charAt(from - 1)) && !wordChar.test(question.charAt(to))) return { from, to };
  }
  return undefined;
};

/** The empty phrase around the word at `at` ("in the company" at the end), if it is one. */
const emptyPhrase = (
  question: string,
  at: { from: number; to: number },
): { from: number; to: number } | undefined => {
  if (/[A-Z]/.test(question.charAt(at.from))) return undefined;
  const after = question.slice(at.to);
  if (!/^\s*(?:[?.!,;]|$)/.test(after)) return undefined;
  const before = question.slice(0, at.from);
  const shape = new RegExp(
    `(?:^|\\s)(${EMPTY_PHRASE.prepositions.join('|')})\\s+(?:${EMPTY_PHRASE.determiners.join('|')})\\s+$`,
    'i',
  ).exec(before);
  if (!shape) return undefined;
  return { from: shape.index + (shape[0].startsWith(' ') ? 1 : 0), to: at.to };
};

const PLACE_PREPOSITIONS = /(?:^|\s)(?:[Ii]n|[Aa]t|[Ff]rom|[Nn]ear|[Aa]round)\s+(?:\p{Lu}[\p{L}'-]*\s+)*$/u;
/** WordNet's count of a noun's uses in its tagged texts above which it is an ordinary word ("homes"). */
const ORDINARY_NOUN_TAGS = 1;

/** Relation names, and column names beside them: what a word may be read as. */
export const schemaNames = (lexicon: Lexicon): { relations: string[]; columns: string[] } => {
  const relations: string[] = [];
  const columns = new Set<string>();
  for (const relation of lexicon.relations.values()) {
    relations.push(relation.other);
    for (const column of relation.columns) {
      if (!column.key && column.name !== lexicon.tenantColumn) columns.add(column.display);
    }
  }
  return { relations, columns: [...columns] };
};

/**
 * Schema names a noun is close to in meaning (word vectors), best first: relation names first
 * (a noun is more often a thing than a property of one), then columns by a stricter bar.
 */
const nearNames = (
  lexicon: Lexicon,
  word: string,
): { name: string; similarity: number; clear: boolean }[] => {
  const vectors = loadedVectors();
  if (!vectors?.has(word)) return [];
  const names = schemaNames(lexicon);
  // A word for people ("patrons", "borrowers") stands only for a relation of people (members,
  // not loans), and for no column; a word for things never for a relation of people
  // ("apartments" is close to tenants in use, but is not tenants).
  const database = lexicalDatabase();
  const person = database?.person(word) ?? false;
  const relations = vectors.nearest(
    word,
    names.relations.filter(
      (name) => (database?.person(singular(name.split(' ').at(-1) ?? name)) ?? false) === person,
    ),
    MIN_SIMILARITY,
  );
  const columns = person ? [] : vectors.nearest(word, names.columns, MIN_SIMILARITY + 0.1);
  const [best, next] = relations;
  return [...relations, ...columns]
    .filter((near) => near.candidate !== word)
    .map((near) => ({
      name: near.candidate,
      similarity: near.similarity,
      // A relation name clearly closest: close enough, and well ahead of the next relation.
      clear:
        near === best &&
        best.similarity >= CLEAR_SIMILARITY &&
        (next === undefined || best.similarity - next.similarity >= CLEAR_LEAD),
    }));
};

/** Relations whose name has the word as one of its words ("maintenance" of maintenance requests). */
export const partOfName = (lexicon: Lexicon, word: string): string[] => {
  const base = singular(word);
  return [...lexicon.relations.values()]
    .filter((relation) => {
      const words = relation.other.split(' ');
      return words.length > 1 && words.some((part) => singular(part) === base);
    })
    .map((relation) => relation.other);
};

/**
 * Relations `question` names by their name, singular or plural ("client invoices"), or, with
 * `byLastWord`, by its last word too ("invoices").
 */
const relationsNamedIn = (lexicon: Lexicon, question: string, byLastWord = false): RelationInfo[] => {
  const lower = question.toLowerCase();
  const said = byLastWord
    ? new Set(
        lower
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean)
          .map(singular),
      )
    : undefined;
  return [...lexicon.relations.values()].filter(
    (relation) =>
      [relation.other, relation.one].some((name) => new RegExp(`\\b${escapeRegExp(name)}\\b`).test(lower)) ||
      (said?.has(singular(relation.one.split(' ').at(-1) ?? relation.one)) ?? false),
  );
};

/**
 * Columns whose name has the word as one of its words but not as its last ("vat" of vat_amt,
 * "net" of net_amt, "notice" of notice_wks): of the relations the question names when any of
 * theirs has it, else of all. One display per column name, so a word both relations share reads once.
 */
export const partOfColumn = (lexicon: Lexicon, question: string, word: string): string[] => {
  const base = singular(word);
  if (base.length < 3) return [];
  const matching = (relation: RelationInfo): string[] =>
    relation.columns
      .filter(
        (column) =>
          !column.key &&
          column.name !== lexicon.tenantColumn &&
          column.words.length > 1 &&
          column.words.slice(0, -1).some((part) => singular(part) === base),
      )
      .map((column) => column.display);
  // Named: by its name or the last word of it ("invoices" of client invoices).
  const named = relationsNamedIn(lexicon, question, true);
  const inNamed = [...new Set(named.flatMap(matching))];
  return inNamed.length > 0 ? inNamed : [...new Set([...lexicon.relations.values()].flatMap(matching))];
};

/** Columns whose description uses the word. */
export const describedBy = (lexicon: Lexicon, word: string): string[] => {
  const base = singular(word);
  const found: string[] = [];
  for (const relation of lexicon.relations.values()) {
    for (const column of relation.relation.columns) {
      const description = column.description?.toLowerCase() ?? '';
      // A description that lists values ("open, in_progress or resolved") describes values.
      if (!description || /,/.test(description.split(/[.;]/)[0] ?? '')) continue;
      if (description.split(/[^a-z]+/).some((described) => singular(described) === base)) {
        const info = relation.byName.get(column.name);
        if (info && !info.key) found.push(info.display);
      }
    }
  }
  return found;
};

const vocabularies = new WeakMap<Lexicon, string[]>();

/**
 * The words a misspelt word may be read as: the engine's own and those of the schema's relation
 * and column names. Built once per lexicon.
 */
export const spellingVocabulary = (lexicon: Lexicon): string[] => {
  let vocabulary = vocabularies.get(lexicon);
  if (!vocabulary) {
    const words = new Set(ENGINE_WORDS);
    for (const relation of lexicon.relations.values()) {
      for (const part of relation.other.split(' ')) words.add(part);
      for (const column of relation.columns) for (const part of column.words) words.add(part);
    }
    vocabulary = [...words];
    vocabularies.set(lexicon, vocabulary);
  }
  return vocabulary;
};

/** The one word of the engine's or the schema's vocabulary a misspelling is one edit from. */
const correction = (lexicon: Lexicon, word: string): string | undefined => {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return undefined;
  const database = lexicalDatabase();
  if (database && database.readings(word).length > 0) return undefined;
  const limit = word.length >= 7 ? 2 : 1;
  const found = spellingVocabulary(lexicon).filter(
    (candidate) =>
      candidate.length >= 3 &&
      Math.abs(candidate.length - word.length) <= limit &&
      editDistance(word, candidate, limit) <= limit,
  );
  return found.length === 1 ? found[0] : undefined;
};

/** Place columns of the relations the question names (or of every relation when it names none). */
const placeColumns = (lexicon: Lexicon, question: string): string[] => {
  const named = relationsNamedIn(lexicon, question);
  return (named.length > 0 ? named : [...lexicon.relations.values()]).flatMap((relation) =>
    relation.columns
      .filter(
        (column) => !column.key && !column.numeric && column.words.some((w) => PLACE_COLUMN_WORDS.has(w)),
      )
      .map((column) => column.display),
  );
};

/** The candidate links of one unexplained word of `question`. */
const linksOf = (lexicon: Lexicon, question: string, word: string): WordLink[] => {
  const at = locate(question, word);
  if (!at) return [];
  const written = question.slice(at.from, at.to);
  const links: WordLink[] = [];
  const before = question.slice(0, at.from);
  // A name (capitalized, or after "in"/"at"/"from") is a value the question names: it is a filter
  // of the reading or the reading is rejected, never left out.
  const database = lexicalDatabase();
  const capitalized = /^\p{Lu}/u.test(written) && at.from > 0;
  const ordinary = (database?.readings(word) ?? []).some(
    (reading) => reading.wordClass !== 'n' || reading.tagged > ORDINARY_NOUN_TAGS,
  );
  const place = PLACE_PREPOSITIONS.test(before) && (capitalized || !ordinary);
  if (capitalized || place) {
    // The whole name: this word and the capitalized words after it ("New Forest").
    const name = /^[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]*)*/u.exec(question.slice(at.from))?.[0] ?? written;
    const value = capitalized ? name : name.replace(/^\p{Ll}/u, (first) => first.toUpperCase());
    if (place) {
      const columns = [...new Set(placeColumns(lexicon, question))];
      for (const column of columns) {
        links.push({
          replace: {
            from: at.from,
            to: at.from + name.length,
            text: `with ${column} '${value.replace(/'/g, '')}'`,
          },
          cost: columns.length === 1 ? ROLE_COST.misspelled : ROLE_COST.other,
          note: { kind: 'as', text: `“${name}” as a ${column}` },
          prefix: /\s*(?:in|at|from|near|around)\s+$/i,
          guessed: true,
        });
      }
    }
    return links;
  }
  const wordClass = database?.dominantClass(word);
  const empty = emptyPhrase(question, at);
  if (empty) {
    const phrase = question.slice(empty.from, empty.to);
    links.push({
      replace: { ...empty, text: '' },
      cost: ROLE_COST.empty,
      note: { kind: 'out', text: `“${phrase}”` },
    });
  }
  const corrected = correction(lexicon, word);
  if (corrected) {
    links.push({
      replace: { ...at, text: corrected },
      cost: ROLE_COST.misspelled,
      note: { kind: 'as', text: `“${written}” as ${corrected} (a typo?)` },
    });
  }
  // "how much vat", "total net": a word of one column's name, before its last ("vat" of vat amt),
  // whatever its word class ("net" is an adjective too).
  const columns = partOfColumn(lexicon, question, word);
  for (const name of columns.slice(0, 2)) {
    links.push({
      replace: { ...at, text: name },
      // (Said as the name says it, "vat"; "claims" beside a claim amt more likely names rows.)
      cost: columns.length === 1 && word === singular(word) ? ROLE_COST.misspelled : ROLE_COST.other + 0.2,
      note: { kind: 'as', text: `“${written}” as ${name}` },
    });
  }
  // Only a noun may stand for a relation or column (a word in no dictionary is a misspelling, or
  // a function word WordNet does not list: "since").
  if (wordClass === 'n') {
    // "maintenance jobs": a word of a relation's name, with the unknown noun after it.
    const next = /^\s+([\p{L}]+)/u.exec(question.slice(at.to));
    for (const name of partOfName(lexicon, word)) {
      const to = next ? at.to + next[0].length : at.to;
      links.push({
        replace: { from: at.from, to, text: name },
        cost: ROLE_COST.misspelled,
        note: { kind: 'as', text: `“${question.slice(at.from, to)}” as ${name}` },
        covers: true,
      });
    }
    for (const near of nearNames(lexicon, word).slice(0, LINKS_PER_WORD)) {
      links.push({
        replace: { ...at, text: near.name },
        cost: near.clear ? ROLE_COST.misspelled : ROLE_COST.other + (1 - near.similarity),
        note: { kind: 'as', text: `“${written}” as ${near.name}` },
      });
    }
    for (const name of describedBy(lexicon, word).slice(0, 2)) {
      links.push({
        replace: { ...at, text: name },
        cost: ROLE_COST.other + 0.4,
        note: { kind: 'as', text: `“${written}” as ${name}` },
      });
    }
  }
  // A noun a relation's description uses other than as the one name of its rows ("gigs" of
  // "Shows (gigs, club nights)", "agrochemicals", "loads" of two descriptions): offered, never
  // answered alone; a word three or more descriptions use, not at all.
  const described = wordClass === 'n' || wordClass === undefined ? relationsDescribedWith(lexicon, word) : [];
  const after = /^\s+(\p{L}+)/u.exec(question.slice(at.to));
  for (const table of described.length <= 2 ? described : []) {
    const name = lexicon.relations.get(table)?.other;
    if (!name) continue;
    // "fertiliser purchases" → input purchases: the word of the name after it is taken in.
    const to =
      after && name.split(' ').some((part) => singular(part) === singular(after[1]!.toLowerCase()))
        ? at.to + after[0].length
        : at.to;
    links.push({
      replace: { from: at.from, to, text: name },
      cost: ROLE_COST.other + 0.3,
      note: { kind: 'as', text: `“${question.slice(at.from, to)}” as ${name} (by its description)` },
    });
  }
  // Leaving a word out: only an adjective, adverb or verb (a noun names what is asked about).
  if (!empty && wordClass !== undefined && wordClass !== 'n') {
    links.push({
      replace: { ...at, text: '' },
      cost: ROLE_COST.other + 0.5,
      note: { kind: 'out', text: `“${written}”` },
    });
  }
  return links.sort((left, right) => left.cost - right.cost).slice(0, LINKS_PER_WORD + 1);
};

/** A link's replacement, taking in the words before it that it stands for. */
const widened = (question: string, link: WordLink): WordLink['replace'] => {
  if (!link.prefix) return link.replace;
  const before = link.prefix.exec(question.slice(0, link.replace.from));
  return before ? { ...link.replace, from: before.index, text: ` ${link.replace.text}` } : link.replace;
};

/** `question` with the replacements made (they do not overlap), spaces tidied. */
export const rewrite = (
  question: string,
  replacements: readonly { from: number; to: number; text: string }[],
): string => {
  let text = question;
  for (const { from, to, text: by } of [...replacements].sort((left, right) => right.from - left.from)) {
    text = text.slice(0, from) + by + text.slice(to);
  }
  return text
    .replace(/\s+([?.!,;])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
};

const sameIntent = (left: Intent, right: Intent): boolean => JSON.stringify(left) === JSON.stringify(right);

/**
 * The complete readings of a question whose `words` link to nothing, cheapest first, one per
 * distinct intent. `read` runs the whole pipeline on a question and returns its intent, if any.
 */
export const alternativesOf = (
  lexicon: Lexicon,
  question: string,
  words: readonly string[],
  read: ReadQuestion,
): Reading[] => {
  if (new Set(words).size > MAX_UNEXPLAINED) return [];
  const perWord = [...new Set(words)].flatMap((word) => {
    const at = locate(question, word);
    return at ? [{ at, links: linksOf(lexicon, question, word) }] : [];
  });
  if (perWord.length === 0 || perWord.length < new Set(words).size) return [];
  const overlaps = (left: WordLink['replace'], right: WordLink['replace']): boolean =>
    left.from < right.to && right.from < left.to;
  // Each word: one of its links, or none when a link of another word takes it in.
  let combinations: (WordLink | undefined)[][] = [[]];
  for (const { links } of perWord) {
    combinations = combinations.flatMap((chosen) => [
      ...links
        .filter((link) =>
          chosen.every((other) => other === undefined || !overlaps(link.replace, other.replace)),
        )
        .map((link) => [...chosen, link]),
      [...chosen, undefined],
    ]);
  }
  const complete = combinations
    .filter((chosen) =>
      chosen.every(
        (link, index) =>
          link !== undefined ||
          chosen.some(
            (other) =>
              other !== undefined &&
              other.replace.from <= perWord[index]!.at.from &&
              other.replace.to >= perWord[index]!.at.to,
          ),
      ),
    )
    .map((chosen) => chosen.filter((link): link is WordLink => link !== undefined))
    .map((chosen) => ({ chosen, cost: chosen.reduce((sum, link) => sum + link.cost, 0) }))
    .sort((left, right) => left.cost - right.cost)
    .slice(0, MAX_COMBINATIONS)
    .map(({ chosen }) => chosen);
  const found: Reading[] = [];
  for (const chosen of complete) {
    const text = rewrite(
      question,
      chosen.map((link) => widened(question, link)),
    );
    if (text.length === 0 || found.some((alternative) => alternative.question === text)) continue;
    const intent = read(text);
    if (!intent || found.some((alternative) => sameIntent(alternative.intent, intent))) continue;
    found.push({
      question: text,
      intent,
      cost: chosen.reduce((sum, link) => sum + link.cost, 0),
      notes: chosen.map((link) => link.note),
      ...(chosen.some((link) => link.guessed) ? { guessed: true as const } : {}),
    });
  }
  return found.sort((left, right) => left.cost - right.cost);
};

/** Whether the best of `alternatives` is clear enough to answer without asking. */
export const clearBest = (alternatives: readonly Reading[]): Reading | undefined => {
  const [best, next] = alternatives;
  if (!best || best.cost > CLEAR) return undefined;
  return next === undefined || next.cost - best.cost >= MARGIN ? best : undefined;
};

/**
 * A precision rule: "or" between conditions on different columns ("Italian or in New York") is a
 * union the intent cannot hold; a reading that would join them with AND is rejected. Values of one
 * column ("Spain or France") are OR-ed and pass; a period is not counted as a condition here.
 */
export const orAcrossColumns = (question: string, intent: Intent): boolean => {
  if (!/(?<![\p{L}])or(?![\p{L}])/iu.test(question)) return false;
  const columns = new Set(
    intent.filters.flatMap((filter) =>
      filter.kind === 'period' || filter.kind === 'present'
        ? []
        : [`${filter.ref.table}.${filter.ref.column}`],
    ),
  );
  return columns.size + (intent.having ? 1 : 0) > 1;
};

/**
 * The readings of a question asked back because a phrase could mean two or more relations or
 * columns (“rent” could be leases.monthly_rent or properties.monthly_rent): the question with the
 * phrase replaced by each candidate's own name ("monthly rent of leases"), kept when it reads.
 */
export const candidateReadings = (
  lexicon: Lexicon,
  question: string,
  clarification: { message: string; candidates?: readonly { table: string; column?: string }[] },
  read: ReadQuestion,
): Reading[] => {
  const phrase = /“([^”]+)”/.exec(clarification.message)?.[1];
  const at = phrase ? locate(question, phrase.toLowerCase()) : undefined;
  if (!at || !clarification.candidates?.length) return [];
  const found: Reading[] = [];
  for (const candidate of clarification.candidates) {
    const relation = [...lexicon.relations.values()].find(
      (info) => info.key === candidate.table || info.name === candidate.table,
    );
    if (!relation) continue;
    const column = candidate.column === undefined ? undefined : relation.byName.get(candidate.column);
    if (candidate.column !== undefined && !column) continue;
    const name = column ? `${column.display} of ${relation.other}` : relation.other;
    const text = rewrite(question, [{ ...at, text: name }]);
    const intent = read(text);
    if (!intent || found.some((reading) => sameIntent(reading.intent, intent))) continue;
    found.push({
      question: text,
      intent,
      cost: ROLE_COST.other,
      notes: [{ kind: 'as', text: `“${question.slice(at.from, at.to)}” as ${name}` }],
    });
  }
  return found;
};

/** Phrase knowledge: superlatives and their direction, aggregates said before a measure. */
const SUPERLATIVES: Record<string, 'asc' | 'desc'> = {
  highest: 'desc',
  largest: 'desc',
  biggest: 'desc',
  greatest: 'desc',
  lowest: 'asc',
  smallest: 'asc',
};
const superlativeOfAggregate = new RegExp(
  `^\\s*(?:which|what)\\s+(.+?)\\s+(?:has|had|have|gets?|got|shows?|sees?|is|was)\\s+(?:got\\s+)?the\\s+(${Object.keys(SUPERLATIVES).join('|')})\\s+(average|mean|total|overall)\\s+(.+?)\\s*[?.!]*$`,
  'i',
);

/**
 * "Which city has the highest average rent?": the superlative of an aggregate over groups is the
 * aggregate per group ("average rent per city"), ranked, the first one. Read through that
 * question; undefined when the question is not of that shape or the aggregate per group does not
 * read.
 */
export const rankedAggregate = (question: string, read: ReadQuestion): Intent | undefined => {
  const match = superlativeOfAggregate.exec(question);
  if (!match) return undefined;
  const [, groups, superlative, aggregate, measure] = match;
  const intent = read(`${aggregate} ${measure} per ${groups}`);
  if (!intent?.group || !intent.metric || intent.metric.fn === 'count' || intent.limit !== undefined)
    return undefined;
  return {
    ...intent,
    order: { by: 'metric', dir: SUPERLATIVES[superlative!.toLowerCase()]! },
    limit: 1,
  };
};
