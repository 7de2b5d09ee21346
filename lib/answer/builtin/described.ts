// Relations by the words of their descriptions (docs/design.md "Answering on unseen databases"):
// what a database's comment says a relation holds ("Machinery owned by the co-op and hired out to
// members" on `equipment`), read into two kinds of words:
//   - names: what the description calls one of its rows, the head noun of its opening noun phrase
//     and the names given beside it with a slash or alone in brackets ("Fields / plots",
//     "Ticket buyers (customers / fans)", "Brokerage firms (tenants)", "One row per farm
//     business"). A question word that is such a name stands for the relation (link.ts);
//   - words: every other content noun, such as kinds listed ("Shows (gigs, club nights)",
//     "Rooms, clubs, theatres and outdoor sites": a gig is one kind of show, so "gigs" is not all
//     shows) and the nouns of its clauses ("Money given back to buyers"). These are only offered
//     back as readings (readings.ts), never answered on their own.
// Function words and nouns any relation's rows may be called by ("row", "one", "record", "money",
// "people") are neither. Built once per lexicon, on the first word that needs it.
import type { Lexicon } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { fillers, singular, stopwords } from './words.ts';

export interface DescribedWords {
  /** What the description calls a row, as singular words ("machinery", "plot", "fan"). */
  names: Set<string>;
  /** The description's other content nouns, as singular words ("gig", "buyer"). */
  words: Set<string>;
}

/** Nouns that say what any relation holds, not which: never a name nor a word of a description. */
const GENERIC_NOUNS = new Set(
  `row record entry item thing data information detail kind type sort way part list table database
  system file result money amount value sum total quantity number count person people someone
  individual everyone`.split(/\s+/),
);

/** Words that join phrases and clauses without being part of a noun phrase. */
const CONNECTIVES = new Set(
  `not no but if because after before against inside outside through between during without upon
  behind beyond toward towards around near while until since like etc including e.g i.e`.split(/\s+/),
);

/** Words that open a description without naming anything ("A", "Every", "All the"). */
const DETERMINERS = new Set(['a', 'an', 'the', 'one', 'every', 'each', 'all', 'any', 'our', 'their', 'its']);

/** The prepositions after a generic head that introduce the row's name ("one row per farm business"). */
const ROW_OF = new Set(['per', 'of', 'for']);

const TOKENS = /[\p{L}][\p{L}\p{N}'’-]*|[(),/]|\.\.\.|…/gu;

const functionWord = (word: string): boolean => stopwords.has(word) || CONNECTIVES.has(word);

const generic = (word: string): boolean => GENERIC_NOUNS.has(singular(word)) || fillers.has(word);

/**
 * Whether a word can be part of a noun phrase: a noun or adjective, or a word in no dictionary
 * (names of the trade: "payouts", "barcode"). A verb form ends it ("owned", "put", "made"); so
 * does a bare verb that is seldom a noun ("put"), while a plural whose singular is a noun in use
 * is a noun ("loads", "shows", "fields").
 */
const nominal = (word: string): boolean => {
  if (functionWord(word) || !/^\p{L}/u.test(word)) return false;
  const database = lexicalDatabase();
  if (!database) return true;
  const readings = database.readings(word);
  if (readings.length === 0) return true;
  if (database.dominantClass(word) !== 'v')
    return readings.some((r) => r.wordClass === 'n' || r.wordClass === 'a');
  const used = (form: string) =>
    database.readings(form).some((reading) => reading.wordClass === 'n' && reading.tagged > 0);
  const verb = readings.find((reading) => reading.wordClass === 'v');
  if (word.endsWith('s') && singular(word) !== word) return used(singular(word));
  return verb?.lemma === word && used(word);
};

/** A word used mostly as a noun, or in no dictionary. */
const noun = (word: string): boolean => {
  const database = lexicalDatabase();
  if (!database || database.readings(word).length === 0) return true;
  return database.dominantClass(word) === 'n' || database.dominantClass(singular(word)) === 'n';
};

/** A plural noun ends its phrase: the words of a compound before its head are singular ("ticket buyers"). */
const pluralNoun = (word: string): boolean => singular(word) !== word;

interface Phrase {
  head: string | undefined;
  end: number;
}

/** The noun phrase from `from`: its head (its last word) and where it ends. */
const nounPhrase = (tokens: readonly string[], from: number): Phrase => {
  let start = from;
  while (start < tokens.length && DETERMINERS.has(tokens[start]!)) start++;
  let head: string | undefined;
  let at = start;
  // The first word is the phrase's own even when it could be a verb ("Loads weighed in …").
  for (; at < tokens.length; at++) {
    const token = tokens[at]!;
    if (at > start && !nominal(token)) break;
    if (at === start && (functionWord(token) || !/^\p{L}/u.test(token))) break;
    head = token;
    if (pluralNoun(token)) {
      at++;
      break;
    }
  }
  return { head, end: at };
};

/** The first sentence's tokens, lower-case. */
const firstSentence = (description: string): string[] =>
  (description.split(/(?<=[\p{L}\p{N})])\.(?:\s|$)|[;:]/u)[0] ?? '').toLowerCase().match(TOKENS) ?? [];

/** The names and the other content nouns of one relation's description. */
export const describedWords = (description: string): DescribedWords => {
  const names = new Set<string>();
  const kinds: string[] = [];
  const tokens = firstSentence(description);
  let phrase = nounPhrase(tokens, 0);
  // "One row per farm business", "List of all customers": the row is named after the preposition.
  if (phrase.head && generic(phrase.head) && ROW_OF.has(tokens[phrase.end] ?? '')) {
    phrase = nounPhrase(tokens, phrase.end + 1);
  }
  const heads = phrase.head ? [phrase.head] : [];
  let at = phrase.end;
  let listed = false;
  while (at < tokens.length) {
    const token = tokens[at];
    if (token === '/') {
      // "Fields / plots": another name of the same rows.
      const next = nounPhrase(tokens, at + 1);
      if (!next.head) break;
      heads.push(next.head);
      at = next.end;
    } else if (token === '(') {
      const close = tokens.indexOf(')', at);
      const inside = tokens.slice(at + 1, close < 0 ? tokens.length : close);
      // "(customers / fans)", "(tenants)": names; "(gigs, club nights)", "(people or businesses)": kinds.
      const list = inside.some((word) => [',', 'or', 'and', '...', '…', 'etc', 'e.g'].includes(word));
      for (const part of splitAt(inside, '/')) {
        const inner = nounPhrase(part, 0);
        if (!list && inner.head && inner.end === part.length) heads.push(inner.head);
      }
      if (list) kinds.push(...inside);
      at = close < 0 ? tokens.length : close + 1;
    } else if ((token === ',' || token === 'and' || token === 'or') && at === phrase.end) {
      // "Seed, fertiliser, agrochemicals and fuel", "Rooms, clubs, theatres and outdoor sites":
      // a list of the kinds of rows, none of which is every row.
      listed = true;
      break;
    } else break;
  }
  if (listed) kinds.push(...heads);
  else for (const head of heads) if (!generic(head)) names.add(singular(head));
  const words = new Set<string>();
  for (const token of [...kinds, ...(description.toLowerCase().match(TOKENS) ?? [])]) {
    const word = token.replace(/['’]s?$/, '');
    if (!/^\p{L}/u.test(word) || functionWord(word) || generic(word) || word.length < 3) continue;
    const base = singular(word);
    if (!names.has(base) && noun(word)) words.add(base);
  }
  return { names, words };
};

const splitAt = (tokens: readonly string[], separator: string): string[][] => {
  const parts: string[][] = [[]];
  for (const token of tokens) {
    if (token === separator) parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts.filter((part) => part.length > 0);
};

/** Per relation key, the words of its description (relations without one left out). */
const describedOf = new WeakMap<Lexicon, Map<string, DescribedWords>>();
export const describedRelations = (lexicon: Lexicon): Map<string, DescribedWords> => {
  let described = describedOf.get(lexicon);
  if (!described) {
    described = new Map();
    for (const relation of lexicon.relations.values()) {
      const text = relation.relation.description;
      if (text) described.set(relation.key, describedWords(text));
    }
    describedOf.set(lexicon, described);
  }
  return described;
};

/** Relation keys by each name their descriptions give their rows. */
const namesOf = new WeakMap<Lexicon, Map<string, Set<string>>>();
export const relationsByDescribedName = (lexicon: Lexicon): Map<string, Set<string>> => {
  let byName = namesOf.get(lexicon);
  if (!byName) {
    byName = new Map();
    for (const [table, described] of describedRelations(lexicon)) {
      for (const name of described.names) byName.set(name, (byName.get(name) ?? new Set()).add(table));
    }
    namesOf.set(lexicon, byName);
  }
  return byName;
};

/**
 * Relation keys whose description uses the noun: other than as a name of its rows, or as a name
 * other descriptions give too (a name of one relation is linked before the readings).
 */
export const relationsDescribedWith = (lexicon: Lexicon, word: string): string[] => {
  const base = singular(word);
  if (generic(word) || functionWord(word)) return [];
  return [...describedRelations(lexicon)].flatMap(([table, described]) =>
    described.words.has(base) || described.names.has(base) ? [table] : [],
  );
};
