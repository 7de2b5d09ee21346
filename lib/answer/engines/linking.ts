// Schema linking for the model engines (docs/design.md "The model path"): which relations,
// columns and sample values of the indexed schema a question needs in its prompt. It shares the
// builtin engine's linker (lib/answer/builtin/: the lexicon's phrases for names, split
// identifiers, singular forms, synonyms, glossary terms and sample values; WordNet and typo
// links for words the lexicon does not know) and adds what a prompt needs on top:
//   - words of column descriptions, and of relation descriptions (table comments);
//   - the relations a glossary metric's or filter's SQL names, when the question uses its term;
//   - the value index: the question's words and phrases matched against each column's sampled
//     values (exact, case and accent insensitive, singular forms, a typo, a prefix);
//   - values named in other words (word-values.ts): WordNet reads of a sampled value
//     ("finished" → completed), and columns whose values a word is near in word vectors;
//   - WordNet senses, word forms and word vectors (word-links.ts), for the question's words
//     nothing else links;
//   - the relations holding several of the values the question names, and among the relations
//     holding them the one the question's other words are nearest in meaning (word-links.ts);
//   - the columns the lexicon's measures and the glossary's conditions read ("invoiced");
//   - capital acronyms of relation names ("POs"), money columns for a question about money (of
//     the relations recording it, for a linked relation holding none: suppliers → deliveries);
//   - the relations and columns the conversation's earlier queries read (follow-ups);
//   - the relation a linked key column refers to, and the joins between relations (declared,
//     inferred by the lexicon, or named-keys.ts's: a column named after another relation's
//     primary key, or whose description names it: "(fee_earners.id)");
//   - for a question about people ("who", "which lawyer", "Daniel Finch"), the relations of
//     people next to the relations it is about (row-columns.ts).
// Ranking and the choice within the prompt's budget are schema-details.ts's.
// The sampled values are the schema index's, which keeps only values seen under two or more
// tenants (and scopes) (lib/connectors: IntrospectOptions.policy): nothing one tenant alone has
// is ever matched or written into a prompt.
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { lexiconFor } from '../builtin/lexicon.ts';
import { editDistance, linkWord } from '../builtin/link.ts';
import type { Edge } from '../builtin/types.ts';
import { phraseKey, singular, splitIdentifier, stopwords } from '../builtin/words.ts';
import { asksMoney, linkMoneyColumns, linkMoneyRecords } from './money-links.ts';
import { keysByDescription, keysByName } from './named-keys.ts';
import { asksPeople, rowColumnsOf } from './row-columns.ts';
import {
  contentOf,
  type Evidence,
  foldText,
  perCatalog,
  questionFillers,
  relationKey,
  relationNouns,
  scaled,
  stemsOf,
  valueGroupLinks,
  wordSenseLinks,
  wordVectorLinks,
} from './word-links.ts';
import { valueSetsNear, valuesByMeaning } from './word-values.ts';

export { foldText, relationKey };

/** What linking found for one relation. */
export interface LinkedRelation {
  relation: CatalogRelation;
  score: number;
  /** Columns a word of the question named (by name, description, value or glossary). */
  columns: Set<string>;
  /** Sampled values the question named, by column, best first. */
  values: Map<string, string[]>;
}

export interface SchemaLinks {
  /** Every relation with evidence, by key. */
  byKey: Map<string, LinkedRelation>;
  /** Joins between relations, declared or inferred from names (the builtin lexicon's), as key pairs. */
  joins: [string, string][];
}

const MAX_PHRASE_WORDS = 4;
const MAX_VALUE_LENGTH = 80;
/** Evidence for a value WordNet reads a word as ("finished" → completed): a typo's. */
const WORDNET_VALUE = 2;
/**
 * Evidence per word of a relation's description the question uses (the two most telling), less
 * for a word more than two descriptions have.
 */
const RELATION_DESCRIPTION = 2;
/** Evidence per unit of similarity for a column whose values a word is near as a whole. */
const VALUE_SET = 1;

/** A sampled value a phrase (`term`) of the question names. */
interface ValueHit {
  key: string;
  column: string;
  value: string;
  score: number;
  folded: string;
  term: string;
}

/** Names of relations a glossary SQL expression mentions (`SUM(items.qty * items.price)` → items). */
const relationsNamedIn = (catalog: Catalog, sql: string): CatalogRelation[] => {
  const identifiers = new Set(
    [...sql.matchAll(/[A-Za-z_][A-Za-z0-9_$]*/g)].map((match) => match[0].toLowerCase()),
  );
  return catalog.relations.filter((relation) => identifiers.has(relation.name.toLowerCase()));
};

const columnsNamedIn = (relation: CatalogRelation, sql: string): string[] => {
  const identifiers = new Set(
    [...sql.matchAll(/[A-Za-z_][A-Za-z0-9_$]*/g)].map((match) => match[0].toLowerCase()),
  );
  return relation.columns.filter((c) => identifiers.has(c.name.toLowerCase())).map((c) => c.name);
};

/** How close a phrase of the question is to a sampled value, 0 when it is not. */
const valueMatch = (phrase: string, value: string): number => {
  if (phrase === value) return 3;
  const phraseWords = phrase.split(' ');
  const valueWords = value.split(' ');
  if (phraseKey(phraseWords) === phraseKey(valueWords)) return 3;
  // A prefix: "electr" → "electronics", "united" → "united states" (at least four letters).
  if (phrase.length >= 4 && value.startsWith(phrase) && value.length <= phrase.length + 12) return 1.5;
  // A typo: one edit from five letters, two from eight.
  const limit = phrase.length >= 8 ? 2 : phrase.length >= 5 ? 1 : 0;
  if (
    limit > 0 &&
    Math.abs(phrase.length - value.length) <= limit &&
    editDistance(phrase, value, limit) <= limit
  )
    return 2;
  return 0;
};

/**
 * The words of a catalog's column names and descriptions and of its relations' descriptions, with
 * how many relations' descriptions say each word: read once per catalog, not per question.
 */
const wordsOfCatalog = perCatalog((catalog, tenantColumn) => {
  const wordsOf = (text: string) => contentOf(foldText(text).split(' ')).map(singular);
  const columns = catalog.relations.flatMap((relation) =>
    relation.columns
      .filter((column) => column.name !== tenantColumn)
      .map((column) => ({
        key: relationKey(relation),
        column: column.name,
        nameWords: splitIdentifier(column.name).map(singular),
        described: column.description ? wordsOf(column.description) : [],
      })),
  );
  const described = catalog.relations.flatMap((relation) =>
    relation.description
      ? [{ key: relationKey(relation), words: new Set(wordsOf(relation.description)) }]
      : [],
  );
  const describing = new Map<string, number>();
  for (const { words } of described)
    for (const word of words) describing.set(word, (describing.get(word) ?? 0) + 1);
  return { columns, described, describing };
});

/**
 * Links the question (and, at half weight, its context: earlier questions, a failed query) to
 * the catalog. `tenantColumn` is never linked.
 */
export const linkSchema = (
  catalog: Catalog,
  question: string,
  options: {
    context?: readonly string[];
    tenantColumn?: string | undefined;
    glossary?: Glossary | undefined;
  } = {},
): SchemaLinks => {
  const byKey = new Map<string, LinkedRelation>();
  const relations = new Map(catalog.relations.map((relation) => [relationKey(relation), relation]));
  const { tenantColumn, glossary } = options;
  const evidence = (weight: number): Evidence => ({
    add: (key, score, column, value) => {
      const relation = relations.get(key);
      if (!relation || (column !== undefined && column === tenantColumn)) return;
      let linked = byKey.get(key);
      if (!linked) {
        linked = { relation, score: 0, columns: new Set(), values: new Map() };
        byKey.set(key, linked);
      }
      linked.score += score * weight;
      if (column !== undefined && relation.columns.some((c) => c.name === column)) {
        linked.columns.add(column);
        if (value !== undefined) {
          const values = linked.values.get(column) ?? [];
          if (!values.includes(value)) values.push(value);
          linked.values.set(column, values);
        }
      }
    },
  });
  let lexicon: ReturnType<typeof lexiconFor> | undefined;
  try {
    lexicon = lexiconFor(catalog, tenantColumn, glossary);
  } catch {
    lexicon = undefined;
  }
  const texts: [string, number][] = [
    ...(options.context ?? [])
      .filter((text) => text.trim() !== '')
      .map((text): [string, number] => [text, 0.5]),
    [question, 1],
  ];
  let people = false;
  for (const [text, weight] of texts) {
    const unexplained = linkText(catalog, text, evidence(weight), lexicon, tenantColumn, glossary);
    if (text === question) people = asksPeople(unexplained);
  }
  // What the conversation's earlier queries (and a failed one) read: a follow-up goes on from
  // them ("and in 2025?", "break that down by depot").
  for (const text of options.context ?? []) {
    for (const relation of relationsNamedIn(catalog, text)) {
      const key = relationKey(relation);
      evidence(1).add(key, CONTEXT_RELATION);
      for (const column of columnsNamedIn(relation, text)) evidence(1).add(key, 0, column);
    }
  }
  // A question about money reads the money columns of the relations it names (money-links.ts).
  const money = lexicon !== undefined && asksMoney(question);
  if (lexicon && money) linkMoneyColumns(lexicon, byKey);
  // Keys on the tenant column join everything and are left out.
  const edges: Edge[] = [...keysByName(catalog, tenantColumn), ...keysByDescription(catalog, tenantColumn)];
  for (const list of lexicon?.edges.values() ?? []) for (const edge of list) edges.push(edge);
  for (const relation of catalog.relations)
    for (const key of relation.foreignKeys)
      edges.push({
        child: relationKey(relation),
        parent: relationKey(key.references),
        childColumns: key.columns,
        parentColumns: key.references.columns,
      });
  const kept = edges.filter(
    (edge) => edge.child !== edge.parent && !edge.childColumns.includes(tenantColumn ?? ''),
  );
  linkKeys(byKey, kept, evidence(1));
  // Money asked of a relation that holds none is in the relations recording it (suppliers →
  // deliveries).
  if (lexicon && money) linkMoneyRecords(lexicon, byKey, kept, evidence(1));
  // A question about people ("who", "which lawyer", "Daniel Finch") reads the relation of people
  // next to the relations it is about: the fee earner of a matter, the staff member of a rental.
  if (people) {
    const rows = rowColumnsOf(catalog, tenantColumn, glossary);
    const best = Math.max(0, ...[...byKey.values()].map((linked) => linked.score));
    const about = (key: string) => (byKey.get(key)?.score ?? 0) >= best * 0.5;
    const people = new Set<string>();
    for (const edge of kept) {
      if (about(edge.child) && rows.get(edge.parent)?.people) people.add(edge.parent);
      if (about(edge.parent) && rows.get(edge.child)?.people) people.add(edge.child);
    }
    for (const key of people) evidence(1).add(key, PEOPLE_NEIGHBOUR);
  }
  const joins: [string, string][] = [];
  for (const edge of kept) joins.push([edge.child, edge.parent]);
  return { byKey, joins };
};

/** Evidence for a relation whose columns a measure or a glossary condition the question names reads. */
const MEASURE = 5;

/** Every column reference (`{table, column}`) inside a measure or filter of the builtin lexicon. */
const refsIn = (value: unknown, found: { table: string; column: string }[] = []) => {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.table === 'string' && typeof record.column === 'string')
      found.push({ table: record.table, column: record.column });
    for (const [field, inner] of Object.entries(record)) if (field !== 'table') refsIn(inner, found);
  }
  return found;
};

/** Evidence for a relation an earlier query of the conversation (or the failed one) reads. */
const CONTEXT_RELATION = 4;
/** Evidence for a relation of people next to one a question about people is about. */
const PEOPLE_NEIGHBOUR = 2;
/** Evidence for the relation a linked key column refers to ("who is assigned" → technicians). */
const KEY_PARENT = 2;

/**
 * The relation a linked column refers to comes along with its key: "who is assigned" links
 * `work_orders.assigned_tech_id`, whose rows are `technicians`' (declared or inferred keys).
 */
const linkKeys = (byKey: Map<string, LinkedRelation>, edges: readonly Edge[], evidence: Evidence) => {
  const additions: [string, string[]][] = [];
  for (const edge of edges) {
    const linked = byKey.get(edge.child);
    if (!linked || !edge.childColumns.every((column) => linked.columns.has(column))) continue;
    additions.push([edge.parent, edge.parentColumns]);
  }
  // Once per relation, however many linked keys refer to it: six relations' `client_id`, linked
  // by "client" in their descriptions, are not six words about clients.
  const parents = new Set<string>();
  for (const [parent, columns] of additions) {
    if (!parents.has(parent)) evidence.add(parent, KEY_PARENT);
    parents.add(parent);
    for (const column of columns) evidence.add(parent, 0, column);
  }
};

const linkText = (
  catalog: Catalog,
  text: string,
  evidence: Evidence,
  lexicon: ReturnType<typeof lexiconFor> | undefined,
  tenantColumn: string | undefined,
  glossary: Glossary | undefined,
): string[] => {
  const words = foldText(text).split(' ').filter(Boolean);
  const covered = new Set<number>();
  /** Relations the text names (the lexicon's names and synonyms of relations). */
  const named = new Set<string>();

  // 1. The lexicon's phrases, longest first: names, synonyms, glossary terms, values.
  if (lexicon) {
    for (let size = Math.min(MAX_PHRASE_WORDS, words.length); size >= 1; size--) {
      for (let start = 0; start + size <= words.length; start++) {
        const slice = words.slice(start, start + size);
        if (size === 1 && (stopwords.has(slice[0]!) || questionFillers.has(slice[0]!))) continue;
        const entries = lexicon.phrases.get(phraseKey(slice));
        if (!entries) continue;
        const refsOf = (entry: Extract<(typeof entries)[number], { kind: 'measure' | 'preset' }>) =>
          refsIn(
            entry.kind === 'preset'
              ? entry.filter
              : entry.name === 'revenue'
                ? lexicon.revenueTiers[0]
                : lexicon.metrics.get(entry.name),
          );
        // A measure this schema has no columns for ("invoiced" as revenue, with no revenue
        // column) explains nothing: the words stay for the other readings below.
        if (
          entries.every(
            (entry) => (entry.kind === 'measure' || entry.kind === 'preset') && refsOf(entry).length === 0,
          )
        )
          continue;
        for (let i = start; i < start + size; i++) covered.add(i);
        // A value many relations share ("open", "active") says little about which one is meant.
        // So does a column every relation has ("amount", "created at").
        const valueTables = new Set(entries.filter((e) => e.kind === 'value').map((e) => e.table)).size;
        const columnTables = new Set(entries.filter((e) => e.kind === 'column').map((e) => e.table)).size;
        for (const entry of entries) {
          if (entry.kind === 'relation') {
            evidence.add(entry.table, 5 + entry.rank);
            named.add(entry.table);
          } else if (entry.kind === 'column')
            evidence.add(entry.table, (2 + entry.rank / 2) / Math.sqrt(columnTables), entry.column);
          else if (entry.kind === 'value')
            evidence.add(entry.table, 4 / valueTables, entry.column, entry.value);
          else {
            // A measure ("invoiced", "revenue", a metric or duration the glossary or the names
            // define) or a condition the glossary names: the columns it reads.
            const refs = refsOf(entry);
            const tables = new Set(refs.map((ref) => ref.table)).size;
            for (const ref of refs) evidence.add(ref.table, MEASURE / tables, ref.column);
          }
        }
      }
    }
  }

  // 2. The glossary: a term's metric or filter SQL brings the relations (and columns) it names;
  // a synonym's target, the relation it names.
  if (glossary) {
    const folded = ` ${words.join(' ')} `;
    const present = new Set(words.map(singular));
    /**
     * How much the question uses a term: 1 for the term as written (or its plural), or all its
     * content words in any order ("spend on fuel" for "fuel spend"); ½ for the last content
     * word of a longer term alone ("spend" for "po spend").
     */
    const uses = (term: string): number => {
      const key = foldText(term);
      if (key === '') return 0;
      if (folded.includes(` ${key} `) || folded.includes(` ${key}s `)) return 1;
      const content = contentOf(key.split(' ')).map(singular);
      if (content.length < 2) return 0;
      if (content.every((word) => present.has(word))) return 1;
      const head = content[content.length - 1]!;
      return head.length > 3 && present.has(head) ? 0.5 : 0;
    };
    const linkSql = (sql: string, use: number) => {
      if (use === 0) return;
      for (const relation of relationsNamedIn(catalog, sql)) {
        const key = relationKey(relation);
        evidence.add(key, 6 * use);
        for (const column of columnsNamedIn(relation, sql)) evidence.add(key, 0, column);
      }
    };
    for (const [term, sql] of Object.entries(glossary.metrics)) linkSql(sql, uses(term));
    for (const [term, sql] of Object.entries(glossary.filters)) linkSql(sql, uses(term));
    for (const [term, target] of Object.entries(glossary.synonyms))
      linkSql(target.replace('.', ' '), uses(term));
  }

  const content = contentOf(words);
  // 3. Words of column descriptions, and split column names the lexicon may rank low.
  const wordSet = new Set(content.map(singular));
  const columnHits: { key: string; column: string; score: number; words: string[] }[] = [];
  const linked = new Set<string>();
  const texts = wordsOfCatalog(catalog, tenantColumn);
  for (const { key, column, nameWords, described } of texts.columns) {
    const nameHits = nameWords.filter((word) => word.length > 2 && wordSet.has(word)).length;
    const descriptionHits = new Set(described.filter((word) => word.length > 2 && wordSet.has(word))).size;
    const score =
      (nameHits > 0 ? 1 + nameHits : 0) + (descriptionHits > 0 ? 1.5 * Math.min(descriptionHits, 2) : 0);
    if (score > 0) {
      const words = [...nameWords, ...described].filter((word) => wordSet.has(word));
      columnHits.push({ key, column, score, words });
      for (const word of words) linked.add(word);
    }
  }
  // Evidence every relation shares (each has an `amount`) counts little for any one of them.
  // Within one relation a word counts fully once, at its best column, and less at each further
  // one: "cars" in the descriptions of ten columns of rentals is one word about rentals (the
  // other columns are still linked); "hours" in two columns of timesheets, a little more.
  const hitRelations = new Set(columnHits.map((hit) => hit.key)).size;
  const counted = new Map<string, Set<string>>();
  const repeats = new Map<string, number>();
  for (const hit of [...columnHits].sort((a, b) => b.score - a.score)) {
    const seen = counted.get(hit.key) ?? new Set<string>();
    counted.set(hit.key, seen);
    const fresh = hit.words.some((word) => !seen.has(word));
    for (const word of hit.words) seen.add(word);
    const repeat = fresh ? 0 : (repeats.get(hit.key) ?? 0) + 1;
    if (!fresh) repeats.set(hit.key, repeat);
    const score = hit.score / (1 + repeat);
    evidence.add(hit.key, score / Math.sqrt(Math.max(1, hitRelations / 3)), hit.column);
  }
  // Words of a relation's description (its table comment): "baskets customers fill" for `carts`.
  // A word many descriptions have ("table", "records") counts little for any one of them.
  const { described, describing } = texts;
  for (const { key, words: said } of described) {
    const weights = [...said]
      .filter((word) => word.length > 2 && wordSet.has(word))
      .map((word) => {
        linked.add(word);
        return 1 / Math.sqrt(Math.max(1, (describing.get(word) ?? 1) / 2));
      })
      .sort((a, b) => b - a)
      .slice(0, 2);
    if (weights.length > 0)
      evidence.add(key, RELATION_DESCRIPTION * weights.reduce((sum, weight) => sum + weight, 0));
  }

  // 4. The value index: phrases of the question against each column's sampled values.
  const phrases: string[] = [];
  for (let size = 1; size <= MAX_PHRASE_WORDS; size++) {
    for (let start = 0; start + size <= words.length; start++) {
      const slice = words.slice(start, start + size);
      if (contentOf([slice[0]!, slice[slice.length - 1]!]).length < 2 && size > 1) continue;
      if (size === 1 && contentOf(slice).length === 0) continue;
      phrases.push(slice.join(' '));
    }
  }
  const valueHits: ValueHit[] = [];
  for (const relation of catalog.relations) {
    const key = relationKey(relation);
    for (const [column, values] of Object.entries(relation.samples)) {
      if (column === tenantColumn) continue;
      for (const value of values) {
        if (value.length > MAX_VALUE_LENGTH) continue;
        const folded = foldText(value);
        if (folded === '') continue;
        let best = 0;
        let term = '';
        for (const phrase of phrases) {
          const match = valueMatch(phrase, folded);
          if (match > 0) for (const word of phrase.split(' ')) linked.add(singular(word));
          if (match > best) [best, term] = [match, phrase];
        }
        if (best > 0) valueHits.push({ key, column, value, score: best, folded, term });
      }
    }
  }
  // Values named in other words: a word (or a verb and its particle, "turned down") WordNet reads
  // as a sampled value ("finished" → completed, "northern" → north).
  const open = (index: number) =>
    !covered.has(index) &&
    (words[index]?.length ?? 0) >= 3 &&
    !stopwords.has(words[index]!) &&
    !questionFillers.has(words[index]!) &&
    !linked.has(singular(words[index]!));
  const terms: string[] = [];
  words.forEach((word, index) => {
    if (!open(index)) return;
    terms.push(word);
    const next = words[index + 1];
    if (next && !covered.has(index + 1)) terms.push(`${word} ${next}`);
  });
  for (const hit of valuesByMeaning(catalog, terms, tenantColumn)) {
    valueHits.push({ ...hit, score: WORDNET_VALUE, folded: foldText(hit.value) });
    for (const word of hit.term.split(' ')) linked.add(singular(word));
  }
  // A value many relations share counts for each of them in proportion (but is always shown).
  const sharing = new Map<string, Set<string>>();
  for (const hit of valueHits) sharing.set(hit.folded, (sharing.get(hit.folded) ?? new Set()).add(hit.key));
  for (const hit of valueHits)
    evidence.add(hit.key, hit.score / (sharing.get(hit.folded)?.size ?? 1), hit.column, hit.value);
  // A word close in meaning to a column's values as a whole ("northern": north, south, …) links
  // the column, without naming a value.
  const setHits = valueSetsNear(
    catalog,
    words.filter((_, index) => open(index)),
    tenantColumn,
  );
  const setSharing = new Map<string, number>();
  for (const hit of setHits) setSharing.set(hit.word, (setSharing.get(hit.word) ?? 0) + 1);
  for (const hit of setHits)
    evidence.add(
      hit.key,
      (VALUE_SET * hit.similarity) / Math.sqrt(setSharing.get(hit.word) ?? 1),
      hit.column,
    );
  const valueTerms = [
    ...valueHits.map((hit) => ({ key: hit.key, term: hit.term })),
    ...setHits.map((hit) => ({ key: hit.key, term: hit.word })),
  ];

  // 5. Acronyms written in capitals ("POs" → purchase_orders), and other forms of a word
  // ("invoiced" → invoices, "teaches" → teacher → instructors).
  for (const acronym of text.matchAll(/\b([A-Z]{2,5})s?\b/g)) {
    for (const relation of catalog.relations) {
      const parts = splitIdentifier(relation.name);
      if (parts.length >= 2 && parts.map((part) => part[0]).join('') === acronym[1]!.toLowerCase()) {
        evidence.add(relationKey(relation), 5);
        linked.add(acronym[0].toLowerCase());
        linked.add(singular(acronym[0].toLowerCase()));
      }
    }
  }
  const forms: string[] = [];
  words.forEach((word, index) => {
    if (covered.has(index) || word.length < 5 || stopwords.has(word) || questionFillers.has(word)) return;
    if (linked.has(singular(word))) return;
    const stems = stemsOf(word);
    if (stems.length === 0) return;
    let found = false;
    for (const relation of catalog.relations) {
      if (relationNouns(relation).some((noun) => stems.includes(noun))) {
        evidence.add(relationKey(relation), 4);
        found = true;
      }
    }
    if (found) linked.add(singular(word));
    else
      forms.push(
        ...stems.flatMap((stem) => [`${stem}er`, `${stem}or`, ...(stem.endsWith('e') ? [`${stem}r`] : [])]),
      );
  });
  if (forms.length > 0) wordSenseLinks(catalog, [...new Set(forms)], new Set(), scaled(evidence, 0.75));

  // 6. WordNet and typos for content words nothing above explained ("trucks" → vehicles).
  const sensed = new Set<string>();
  for (const word of wordSenseLinks(catalog, words, covered, evidence)) sensed.add(singular(word));
  if (lexicon) {
    words.forEach((word, index) => {
      if (covered.has(index) || word.length < 3 || stopwords.has(word) || questionFillers.has(word)) return;
      let link: ReturnType<typeof linkWord>;
      try {
        link = linkWord(lexicon, word);
      } catch {
        link = undefined;
      }
      for (const entry of link?.entries ?? []) {
        sensed.add(singular(word));
        if (entry.kind === 'relation') evidence.add(entry.table, 5 * link!.score);
        else if (entry.kind === 'column') evidence.add(entry.table, 2 * link!.score, entry.column);
      }
    });
  }

  // 7. Word vectors for the content words nothing above linked ("laptops" → devices).
  const unlinked = words.filter(
    (word, index) =>
      !covered.has(index) &&
      word.length >= 3 &&
      !stopwords.has(word) &&
      !questionFillers.has(word) &&
      !linked.has(singular(word)) &&
      !sensed.has(singular(word)),
  );
  if (unlinked.length > 0) wordVectorLinks(catalog, unlinked, evidence, tenantColumn);

  // 8. The relations holding the values the question names: several of them in one relation
  // count once more, and the question's other words pick among those relations by meaning.
  const valueWords = new Set(valueTerms.flatMap((each) => each.term.split(' ')));
  const free: string[] = [];
  words.forEach((word, index) => {
    const isFree = (at: number) =>
      !covered.has(at) &&
      (words[at]?.length ?? 0) >= 3 &&
      !stopwords.has(words[at]!) &&
      !questionFillers.has(words[at]!) &&
      !linked.has(singular(words[at]!)) &&
      !valueWords.has(words[at]!);
    if (!isFree(index)) return;
    free.push(word);
    if (isFree(index + 1)) free.push(`${word} ${words[index + 1]}`);
  });
  valueGroupLinks(catalog, valueTerms, free, named, evidence, tenantColumn);
  // The words nothing linked (besides "who" and other question words), for asksPeople.
  return words.filter(
    (word, index) => !covered.has(index) && !linked.has(singular(word)) && !sensed.has(singular(word)),
  );
};
