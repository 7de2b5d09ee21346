// Links from the words of a question that the schema's names do not explain (docs/model-engines.md
// "Linking"), for linking.ts: WordNet senses against the relations' nouns ("trucks" → vehicles),
// other forms of a word ("invoiced" → invoice, "teaches" → teacher), and word vectors against
// the relations' and columns' names and descriptions ("laptops" → devices); the relations
// holding the values a question names, and the one among them its other words are nearest
// ("shopping baskets", among those holding north and completed → carts). Also the small helpers
// both files read a question with.
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { loadedVectors } from '../builtin/vectors.ts';
import { lexicalDatabase } from '../builtin/wordnet.ts';
import { singular, splitIdentifier, stopwords } from '../builtin/words.ts';

/** A relation's key in linking's maps: `schema.name`. */
export const relationKey = (relation: { schema: string; name: string }): string =>
  `${relation.schema}.${relation.name}`;

/** Case, accents and spacing removed: "Café  Crème" and "cafe creme" are the same. */
export const foldText = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Words that never link on their own, beyond the lexicon's stopwords. */
export const questionFillers = new Set(
  `show list give tell get find display many much number count total average sum top best worst most least
  per each every last this next previous past year years month months week weeks day days today yesterday
  how what which who when where why please me us our we my there were was is are be been being do does did
  have has had with without than more less over under between across into onto by from for of in on at to
  and or not no all any some the a an`.split(/\s+/),
);

/** The words of a question that can link on their own (no stopword, no filler). */
export const contentOf = (words: readonly string[]): string[] =>
  words.filter((word) => word.length > 1 && !stopwords.has(word) && !questionFillers.has(word));

/** Where linking adds what a word says about a relation (and a column, and a value of it). */
export interface Evidence {
  add(key: string, score: number, column?: string, value?: string): void;
}

/** Evidence at a fraction of its weight. */
export const scaled = (evidence: Evidence, factor: number): Evidence => ({
  add: (key, score, column, value) => evidence.add(key, score * factor, column, value),
});

/**
 * The stems of a verb form or derived noun: "invoiced" → invoice, "teaches" → teach, "billing"
 * → bill. Empty for a word without such an ending.
 */
export const stemsOf = (word: string): string[] => {
  const stems = new Set<string>();
  const ending = /^(.{3,}?)(ied|ies|ed|es|ing|s)$/.exec(word);
  if (!ending) return [];
  const [, stem, suffix] = ending as unknown as [string, string, string];
  if (suffix === 'ied' || suffix === 'ies') stems.add(`${stem}y`);
  else if (suffix === 'ing' || suffix === 'ed') {
    stems.add(stem);
    stems.add(`${stem}e`);
    // A doubled consonant: "shipped" → ship.
    if (/([^aeiou])\1$/.test(stem)) stems.add(stem.slice(0, -1));
  } else if (suffix === 'es') {
    stems.add(stem);
    stems.add(`${stem}e`);
  }
  return [...stems].filter((stem) => stem.length >= 4 && stem !== word);
};

// ---- word vectors -------------------------------------------------------------------------------

/** Similarity a relation's name needs to a question word, and a column's name or description. */
const VECTOR_RELATION_MIN = 0.6;
const VECTOR_COLUMN_MIN = 0.7;
/** A column name or description more relations than this have is not compared. */
const VECTOR_COLUMN_MAX_RELATIONS = 3;
/** Relations within this much of a word's nearest also count: "money" is payments and expenses. */
const VECTOR_RELATION_LEAD = 0.05;
const VECTOR_RELATIONS_PER_WORD = 2;
/**
 * Evidence per unit of similarity: at most 2.5 for a relation (a name is 5, a WordNet synonym 4)
 * and 1 for a column (a name is 2 or more), so that a word only vectors reach ranks a relation up
 * without crowding out the relations the question names.
 */
const VECTOR_RELATION_WEIGHT = 2.5;
const VECTOR_COLUMN_WEIGHT = 1;

/** What a relation's and its columns' names and descriptions read as, per catalog. */
interface VectorTexts {
  relations: Map<string, string[]>;
  /** Column texts (its split name, its description) → the relations and columns they belong to. */
  columns: Map<string, { key: string; column: string }[]>;
}

/**
 * `build` remembered per catalog and tenant column: what linking reads off a catalog is read once
 * per catalog object, and forgotten with it.
 */
export const perCatalog = <T>(
  build: (catalog: Catalog, tenantColumn: string | undefined) => T,
): ((catalog: Catalog, tenantColumn: string | undefined) => T) => {
  const built = new WeakMap<Catalog, Map<string, T>>();
  return (catalog, tenantColumn) => {
    let byTenant = built.get(catalog);
    if (!byTenant) {
      byTenant = new Map();
      built.set(catalog, byTenant);
    }
    const key = tenantColumn ?? '';
    if (!byTenant.has(key)) byTenant.set(key, build(catalog, tenantColumn));
    return byTenant.get(key)!;
  };
};

const vectorTexts = perCatalog((catalog, tenantColumn): VectorTexts => {
  const texts: VectorTexts = { relations: new Map(), columns: new Map() };
  for (const relation of catalog.relations) {
    const key = relationKey(relation);
    // The name as written ("feedback entries", and its last word "entries"): plural against the
    // question's plural reads closer than the singular forms ("initiatives" → projects).
    const words = splitIdentifier(relation.name);
    for (const noun of new Set([words.join(' '), words[words.length - 1] ?? ''])) {
      if (noun.length < 3) continue;
      const keys = texts.relations.get(noun) ?? [];
      keys.push(key);
      texts.relations.set(noun, keys);
    }
    for (const column of relation.columns) {
      if (column.name === tenantColumn) continue;
      const words = splitIdentifier(column.name);
      // Keys (`id`, `customer_id`) name other relations, not what a word of the question means.
      if (words[words.length - 1] === 'id') continue;
      const described = column.description ? contentOf(foldText(column.description).split(' ')) : [];
      for (const text of [words.join(' '), described.join(' ')]) {
        if (text === '') continue;
        const owners = texts.columns.get(text) ?? [];
        owners.push({ key, column: column.name });
        texts.columns.set(text, owners);
      }
    }
  }
  // A column most relations have (`created_at`, `status`) says nothing about which one is meant.
  for (const [text, owners] of texts.columns)
    if (new Set(owners.map((owner) => owner.key)).size > VECTOR_COLUMN_MAX_RELATIONS)
      texts.columns.delete(text);
  return texts;
});

/**
 * Question words nothing else linked, compared in meaning (word vectors) with the relations'
 * names and the columns' names and descriptions: the nearest relation (and any as near) gets
 * evidence in proportion to its similarity; so does a near column, divided among the relations
 * that have it.
 */
export const wordVectorLinks = (
  catalog: Catalog,
  words: readonly string[],
  evidence: Evidence,
  tenantColumn: string | undefined,
) => {
  const vectors = loadedVectors();
  if (!vectors) return;
  const texts = vectorTexts(catalog, tenantColumn);
  for (const word of new Set(words)) {
    if (!vectors.has(word)) continue;
    const relations = vectors
      .nearest(word, texts.relations.keys(), VECTOR_RELATION_MIN)
      .filter((near) => near.candidate !== word);
    const best = relations[0]?.similarity ?? 0;
    const scores = new Map<string, number>();
    for (const near of relations.slice(0, VECTOR_RELATIONS_PER_WORD)) {
      if (best - near.similarity > VECTOR_RELATION_LEAD) break;
      for (const key of texts.relations.get(near.candidate) ?? [])
        scores.set(key, Math.max(scores.get(key) ?? 0, VECTOR_RELATION_WEIGHT * near.similarity));
    }
    for (const [key, score] of scores) evidence.add(key, score);
    for (const near of vectors.nearest(word, texts.columns.keys(), VECTOR_COLUMN_MIN)) {
      const owners = texts.columns.get(near.candidate) ?? [];
      const share = new Set(owners.map((owner) => owner.key)).size;
      for (const owner of owners)
        evidence.add(owner.key, (VECTOR_COLUMN_WEIGHT * near.similarity) / Math.sqrt(share), owner.column);
    }
  }
};

// ---- word senses --------------------------------------------------------------------------------

/** The nouns a relation's name reads as: `feedback_entries` → "feedback entry", "entry". */
export const relationNouns = (relation: CatalogRelation): string[] => {
  const words = splitIdentifier(relation.name).map(singular);
  return [...new Set([words.join(' '), words[words.length - 1] ?? ''])].filter((noun) => noun.length > 2);
};

type Senses = { near: Set<string>; far: Set<string>; lemma: string };

/** A noun's synonyms and direct broader terms (`near`), and those two steps up (`far`). */
const sensesOf = (noun: string): Senses | undefined => {
  const database = lexicalDatabase();
  if (!database) return undefined;
  const related = database.related(noun.replaceAll(' ', '_'), 'n', 3);
  const norm = (term: string) => term.toLowerCase().replaceAll('_', ' ');
  const near = new Set([...related.synonyms, ...related.direct].map(norm));
  const far = new Set(related.broader.map(norm));
  const lemma = database
    .readings(noun.replaceAll(' ', '_'))
    .find((reading) => reading.wordClass === 'n')?.lemma;
  return { near, far, lemma: norm(lemma ?? noun) };
};

const relationSenses = new WeakMap<Catalog, Map<string, Senses[]>>();

const sensesOfRelations = (catalog: Catalog): Map<string, Senses[]> => {
  let senses = relationSenses.get(catalog);
  if (!senses) {
    senses = new Map();
    for (const relation of catalog.relations) {
      senses.set(
        relationKey(relation),
        relationNouns(relation).flatMap((noun) => sensesOf(noun) ?? []),
      );
    }
    relationSenses.set(catalog, senses);
  }
  return senses;
};

/** Generic terms two unrelated nouns share in WordNet; they say nothing. */
const GENERIC = new Set(
  'entity object whole thing artifact artefact instrumentality person individual someone somebody mortal soul group grouping act human action abstraction measure relation communication event activity attribute state matter physical entity unit'.split(
    ' ',
  ),
);

/**
 * Content words no name explained, read through WordNet against the relations' names: a word
 * whose synonym or broader term is a relation's noun ("trucks" → motor vehicle → vehicles), or
 * that shares a synonym or direct broader term with it ("depot" and "warehouse": storehouse).
 */
export const wordSenseLinks = (
  catalog: Catalog,
  words: readonly string[],
  covered: ReadonlySet<number>,
  evidence: Evidence,
): string[] => {
  const database = lexicalDatabase();
  if (!database) return [];
  const linkedWords: string[] = [];
  const relations = sensesOfRelations(catalog);
  const candidates: string[] = [];
  words.forEach((word, index) => {
    if (covered.has(index) || word.length < 3 || stopwords.has(word) || questionFillers.has(word)) return;
    candidates.push(word);
    const next = words[index + 1];
    if (next && !covered.has(index + 1) && !stopwords.has(next)) candidates.push(`${word} ${next}`);
  });
  for (const candidate of candidates) {
    const senses = sensesOf(candidate);
    if (!senses || (senses.near.size === 0 && senses.far.size === 0)) continue;
    const heads = (terms: Set<string>) => new Set([...terms].map((term) => term.split(' ').pop() ?? term));
    const nearHeads = heads(senses.near);
    const farHeads = heads(senses.far);
    for (const relation of catalog.relations) {
      const key = relationKey(relation);
      let score = 0;
      for (const noun of relationNouns(relation)) {
        if (senses.near.has(noun) || nearHeads.has(noun)) score = Math.max(score, 4);
        else if (senses.far.has(noun) || farHeads.has(noun)) score = Math.max(score, 2.5);
      }
      // The relation is a kind of what the word names ("agreements" → contract, a kind of agreement).
      const kinds = relations.get(key) ?? [];
      const headsOf = (terms: Set<string>) => [...terms].map((term) => term.split(' ').pop() ?? term);
      if (
        score === 0 &&
        kinds.some((other) => other.near.has(senses.lemma) || headsOf(other.near).includes(senses.lemma))
      )
        score = 3.5;
      else if (score === 0 && kinds.some((other) => other.far.has(senses.lemma))) score = 2.5;
      if (score === 0) {
        for (const other of relations.get(key) ?? []) {
          const shared = [...other.near].filter((term) => senses.near.has(term) && !GENERIC.has(term));
          if (shared.length > 0) score = Math.max(score, 2);
        }
      }
      if (score > 0) {
        evidence.add(key, score);
        linkedWords.push(...candidate.split(' '));
      }
    }
  }
  return linkedWords;
};

// ---- values and the relations holding them ------------------------------------------------------

/** Evidence for each further value term a relation holds besides the first. */
const VALUE_COOCCURRENCE = 3;
/** Similarity a word needs to the name of one of the relations holding the question's values. */
const VALUE_GROUP_MIN = 0.45;
/** How far the nearest of those relations must lead the next one. */
const VALUE_GROUP_LEAD = 0.04;
/** Evidence per unit of similarity for that relation. */
const VALUE_GROUP_WEIGHT = 3;
/** Relations at most holding the one value a question names for its other words to pick among. */
const VALUE_GROUP_ONE_VALUE = 4;

/**
 * The relations holding the values the question names (`terms`: which relation holds a value of
 * which of its phrases). A relation holding values of two or more phrases (its type column one,
 * its status column another) gets evidence for each beyond the first: better evidence than any
 * one shared value. Among the relations holding the most (when they are a third of the schema
 * or fewer, and the question names none of them), the question's other words (`words`: words
 * and two-word phrases no name or value explained) pick one by meaning: the relation whose name
 * is nearest in word vectors, at 0.45 or more and 0.04 ahead of the next ("shopping baskets",
 * among the relations holding north and completed, → carts). A few candidates let a weaker
 * similarity count than among all relations.
 */
export const valueGroupLinks = (
  catalog: Catalog,
  terms: readonly { key: string; term: string }[],
  words: readonly string[],
  named: ReadonlySet<string>,
  evidence: Evidence,
  tenantColumn: string | undefined,
) => {
  const byRelation = new Map<string, Set<string>>();
  for (const { key, term } of terms) byRelation.set(key, (byRelation.get(key) ?? new Set()).add(term));
  /** Distinct phrases: one within another ("closed", "closed out") counts once. */
  const distinct = (phrases: Set<string>) =>
    [...phrases].filter(
      (phrase) =>
        ![...phrases].some(
          (other) =>
            other !== phrase &&
            other.split(' ').length > phrase.split(' ').length &&
            ` ${other} `.includes(` ${phrase} `),
        ),
    ).length;
  const counts = new Map([...byRelation].map(([key, phrases]) => [key, distinct(phrases)]));
  for (const [key, count] of counts) if (count >= 2) evidence.add(key, VALUE_COOCCURRENCE * (count - 1));
  const most = Math.max(0, ...counts.values());
  const group = [...counts].filter(([, count]) => count === most).map(([key]) => key);
  if (
    most === 0 ||
    (most === 1 && group.length > VALUE_GROUP_ONE_VALUE) ||
    words.length === 0 ||
    group.length < 2 ||
    group.length > catalog.relations.length / 3 ||
    group.some((key) => named.has(key))
  )
    return;
  const vectors = loadedVectors();
  if (!vectors) return;
  const texts = vectorTexts(catalog, tenantColumn);
  const members = new Set(group);
  const nearest = new Map<string, number>();
  for (const [text, keys] of texts.relations) {
    for (const key of keys) {
      if (!members.has(key)) continue;
      for (const word of words) {
        const similarity = vectors.similarity(word, text) ?? -1;
        if (similarity > (nearest.get(key) ?? -1)) nearest.set(key, similarity);
      }
    }
  }
  const [first, second] = [...nearest].sort((a, b) => b[1] - a[1]);
  if (!first || first[1] < VALUE_GROUP_MIN || first[1] - (second?.[1] ?? -1) < VALUE_GROUP_LEAD) return;
  evidence.add(first[0], VALUE_GROUP_WEIGHT * first[1]);
};
