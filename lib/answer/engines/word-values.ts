// Words for sampled values (docs/model-engines.md "Values"), for linking.ts: a question often names
// a value in other words than the database stores it ("northern" for `north`, "finished" for
// `completed`, "turned down" for `rejected`, "outside" for `external`). Two readings:
//   - WordNet: a word (or a two-word verb phrase, "turned down" → turn down) and a value are the
//     same when one step from each meets: the words of their commonest senses, similar
//     adjectives, pertainyms, derived forms and "see also" entries ("finished" and "completed"
//     are both similar to "complete"; "northern" pertains to north). Antonyms never count. Such a
//     hit names the value, which comes first in its column's sample in the prompt;
//   - word vectors: a word close in meaning to a column's values as a whole (the mean of its two
//     nearest values: "northern" is near north, south, east and west alike) links the column, not
//     a value, since vectors put opposites close ("finished" is as near `missed` as `completed`).
// WordNet is the builtin engine's reader (lib/answer/builtin/wordnet.ts: base forms, senses and
// their pointers). Without its files or the vectors, no links.
import type { Catalog } from '#lib/core/catalog.ts';
import { loadedVectors } from '../builtin/vectors.ts';
import { lexicalDatabase } from '../builtin/wordnet.ts';
import { foldText, perCatalog, relationKey } from './word-links.ts';

// ---- WordNet pointers ----------------------------------------------------------------------------

/** Senses of a word (per word class) whose neighbours count: the commonest ones. */
const SENSES = 3;
/**
 * Pointers followed one step: similar to (`&`), pertainym (`\\`), derivationally related (`+`),
 * see also (`^`), attribute (`=`). Broader and narrower terms and antonyms are not.
 */
const FOLLOWED = new Set(['&', '\\', '+', '^', '=']);

interface Neighbours {
  /** Base forms, the words of the commonest senses, and the adjectives they are similar to. */
  core: Set<string>;
  /** The same of the commonest sense (in each word class) only. */
  commonest: Set<string>;
  /** The core and what every followed pointer leads to. */
  all: Set<string>;
}

const neighbourCache = new Map<string, Neighbours>();

/**
 * A word's or phrase's WordNet neighbours one step away, base forms included: the words of its
 * commonest senses in every word class and what their followed pointers lead to. A phrase of
 * two words reads its first word's base forms ("turned down" → turn down). Empty without WordNet.
 */
export const lexicalNeighbours = (term: string, senses = SENSES): Neighbours => {
  const cache = senses === SENSES;
  const cached = cache ? neighbourCache.get(term) : undefined;
  if (cached) return cached;
  const core = new Set<string>();
  const commonest = new Set<string>();
  const all = new Set<string>();
  const database = lexicalDatabase();
  if (database) {
    const [head, ...rest] = term.split(' ');
    const forms =
      rest.length === 0
        ? [term]
        : [...new Set([head!, ...database.readings(head!).map((reading) => reading.lemma)])].map((base) =>
            [base, ...rest].join('_'),
          );
    for (const form of forms) {
      for (const reading of database.readings(form)) {
        const lemma = reading.lemma.replaceAll('_', ' ');
        core.add(lemma);
        commonest.add(lemma);
        reading.offsets.slice(0, senses).forEach((offset, sense) => {
          const synset = database.sense(reading.wordClass, offset);
          if (!synset) return;
          const near = (word: string) => {
            core.add(word);
            if (sense === 0) commonest.add(word);
          };
          for (const word of synset.words) near(word);
          const position = synset.words.indexOf(lemma) + 1;
          for (const pointer of synset.pointers) {
            // A pointer between two words holds for its source word only.
            if (!FOLLOWED.has(pointer.symbol)) continue;
            if (pointer.source !== 0 && pointer.source !== position) continue;
            const target = database.sense(pointer.wordClass, pointer.offset);
            if (!target) continue;
            const words = pointer.target === 0 ? target.words : [target.words[pointer.target - 1] ?? ''];
            for (const word of words) {
              if (word === '') continue;
              all.add(word);
              if (pointer.symbol === '&') near(word);
            }
          }
        });
      }
    }
  }
  for (const word of core) all.add(word);
  const found = { core, commonest, all };
  if (cache) {
    if (neighbourCache.size > 5_000) neighbourCache.clear();
    neighbourCache.set(term, found);
  }
  return found;
};

/**
 * Whether a question's term and a value mean the same in WordNet (never the same text): one is
 * one step from the other, or a sense of the term and the value's commonest sense are synonyms
 * of, or similar to, one word ("finished" and "completed": complete).
 */
export const sameMeaning = (term: string, value: string): boolean => {
  if (term === value) return false;
  const near = lexicalNeighbours(term);
  if (near.all.size === 0) return false;
  if (near.all.has(value)) return true;
  const other = lexicalNeighbours(value, VALUE_SENSES);
  if (other.all.has(term)) return true;
  for (const word of other.commonest) if (near.core.has(word)) return true;
  return false;
};

// ---- the values of a catalog -------------------------------------------------------------------

/** A value as words: letters only, up to three words, as a value a question could name in words. */
const WORDLIKE = /^[a-z]{3,}(?: [a-z]+){0,2}$/;
/** Columns with more distinct sampled values than this hold names, not a set of kinds or states. */
const MAX_SET_VALUES = 30;

interface ValueSets {
  /** Folded value → where it is sampled. */
  values: Map<string, { key: string; column: string; value: string }[]>;
  /** A column's folded values (sorted, joined) → its values and the columns holding that set. */
  sets: Map<string, { values: string[]; owners: { key: string; column: string }[] }>;
}

const valueSetsOf = perCatalog((catalog, tenantColumn): ValueSets => {
  const found: ValueSets = { values: new Map(), sets: new Map() };
  for (const relation of catalog.relations) {
    const key = relationKey(relation);
    for (const [column, samples] of Object.entries(relation.samples)) {
      if (column === tenantColumn || samples.length > MAX_SET_VALUES) continue;
      const folded = [
        ...new Map(samples.map((value) => [foldText(value), { value, folded: foldText(value) }])).values(),
      ].filter((each) => WORDLIKE.test(each.folded));
      if (folded.length === 0) continue;
      for (const each of folded) {
        const places = found.values.get(each.folded) ?? [];
        places.push({ key, column, value: each.value });
        found.values.set(each.folded, places);
      }
      if (folded.length < 2) continue;
      const names = [...new Set(folded.map((each) => each.folded))].sort();
      const setKey = names.join('\n');
      const set = found.sets.get(setKey) ?? { values: names, owners: [] };
      set.owners.push({ key, column });
      found.sets.set(setKey, set);
    }
  }
  return found;
});

/** A value a term of the question names in other words. */
export interface ValueWordHit {
  term: string;
  key: string;
  column: string;
  value: string;
}

/** The sampled values each term names through WordNet (terms no value matched as written). */
export const valuesByMeaning = (
  catalog: Catalog,
  terms: readonly string[],
  tenantColumn: string | undefined,
): ValueWordHit[] => {
  const sets = valueSetsOf(catalog, tenantColumn);
  if (sets.values.size === 0) return [];
  const hits: ValueWordHit[] = [];
  let index: MeaningIndex | undefined;
  for (const term of new Set(terms)) {
    const near = lexicalNeighbours(term);
    if (near.all.size === 0) continue;
    index ??= meaningIndexOf(sets);
    // The same three ways as sameMeaning, looked up instead of compared value by value.
    const found = new Set<string>();
    for (const word of near.all) if (sets.values.has(word)) found.add(word);
    for (const value of index.neighbours.get(term) ?? []) found.add(value);
    for (const word of near.core) for (const value of index.commonest.get(word) ?? []) found.add(value);
    found.delete(term);
    for (const value of found)
      for (const place of sets.values.get(value) ?? []) hits.push({ term, ...place });
  }
  return hits;
};

/** Values by the words one WordNet step from them, and by those of their commonest sense. */
interface MeaningIndex {
  neighbours: Map<string, Set<string>>;
  commonest: Map<string, Set<string>>;
}

/**
 * Values indexed at most (the first columns' first), each by its commonest sense in each word
 * class: the index is built once per catalog, on the first question with a word WordNet knows
 * that no value matched as written.
 */
const MAX_INDEXED_VALUES = 2_000;
const VALUE_SENSES = 1;

const meaningIndexes = new WeakMap<ValueSets, MeaningIndex>();

const meaningIndexOf = (sets: ValueSets): MeaningIndex => {
  const cached = meaningIndexes.get(sets);
  if (cached) return cached;
  const index: MeaningIndex = { neighbours: new Map(), commonest: new Map() };
  const add = (map: Map<string, Set<string>>, word: string, value: string) =>
    map.set(word, (map.get(word) ?? new Set()).add(value));
  for (const value of [...sets.values.keys()].slice(0, MAX_INDEXED_VALUES)) {
    const near = lexicalNeighbours(value, VALUE_SENSES);
    for (const word of near.all) add(index.neighbours, word, value);
    for (const word of near.commonest) add(index.commonest, word, value);
  }
  meaningIndexes.set(sets, index);
  return index;
};

/** Similarity a word needs to a column's values as a whole (the mean of its two nearest). */
const VALUE_SET_MIN = 0.65;
/** Value sets within this much of a word's nearest also count. */
const VALUE_SET_LEAD = 0.02;

/** A column whose values a word is close to in meaning, with the similarity. */
export interface ValueSetHit {
  word: string;
  key: string;
  column: string;
  similarity: number;
}

/**
 * The columns whose sampled values, as a whole, a word is closest to in word vectors: the mean
 * similarity of the two values nearest the word, at least 0.65; the nearest set, and any within
 * 0.02 of it.
 */
export const valueSetsNear = (
  catalog: Catalog,
  words: readonly string[],
  tenantColumn: string | undefined,
): ValueSetHit[] => {
  const vectors = loadedVectors();
  if (!vectors) return [];
  const { sets } = valueSetsOf(catalog, tenantColumn);
  const hits: ValueSetHit[] = [];
  for (const word of new Set(words)) {
    if (!vectors.has(word)) continue;
    const scored: { owners: { key: string; column: string }[]; similarity: number }[] = [];
    for (const set of sets.values()) {
      const similarities = set.values
        .map((value) => vectors.similarity(word, value) ?? -1)
        .sort((a, b) => b - a);
      const similarity = ((similarities[0] ?? -1) + (similarities[1] ?? -1)) / 2;
      if (similarity >= VALUE_SET_MIN) scored.push({ owners: set.owners, similarity });
    }
    const best = Math.max(...scored.map((each) => each.similarity));
    for (const each of scored) {
      if (best - each.similarity > VALUE_SET_LEAD) continue;
      for (const owner of each.owners) hits.push({ word, ...owner, similarity: each.similarity });
    }
  }
  return hits;
};
