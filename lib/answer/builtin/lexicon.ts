// Step 2 of the builtin pipeline: the schema index a question is matched against, built once per
// catalog (cached by its identity and its whole content). Relations and columns become phrases of
// singular words (with synonyms at a lower rank), sample values become phrases that name a
// column and value, and foreign keys become the join graph. The tenant column is left out of all
// of it: a question can never select, group by or filter on it, and no join runs through it.
import type { Catalog } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import {
  aliasOf,
  columnAliases,
  columnInfo,
  headExcluded,
  labelsOf,
  primaryDateOf,
  rankDates,
  trailingTimeWords,
  usStates,
  valueWords,
  worthColumn,
} from './columns.ts';
import { durationPairs, durationPhrases, spanNouns } from './durations.ts';
import { glossaryIndex } from './glossary.ts';
import { glossarySqlReady } from './glossary-sql.ts';
import type { ColumnRef, Measure } from './intent.ts';
import { inferKeys } from './keys.ts';
import { durationUnits, worthWords } from './phrases.ts';
import { findRevenue, resolution, revenuePhrases, spokenRevenuePhrases } from './revenue.ts';
import type { ColumnInfo, Edge, Entry, Lexicon, RelationInfo } from './types.ts';
import { unitPhrases } from './units.ts';
import { phraseKey, plural, singular, splitIdentifier, stopwords, synonyms } from './words.ts';

export const relationKey = (schema: string, name: string): string => `${schema}.${name}`;

// ---- building ----------------------------------------------------------------------------------

const entryId = (entry: Entry): string => {
  switch (entry.kind) {
    case 'relation':
      return `r:${entry.table}`;
    case 'column':
      return `c:${entry.table}:${entry.column}`;
    case 'value':
      return `v:${entry.table}:${entry.column}:${entry.value}`;
    case 'measure':
      return `m:${entry.name}`;
    case 'preset':
      return `p:${entry.name}`;
  }
};

const addEntry = (phrases: Map<string, Entry[]>, key: string, entry: Entry): void => {
  if (key.length === 0) return;
  const list = phrases.get(key);
  if (!list) {
    phrases.set(key, [entry]);
    return;
  }
  const id = entryId(entry);
  const same = list.find((other) => entryId(other) === id);
  if (!same) list.push(entry);
  else if ('rank' in same && 'rank' in entry && entry.rank > same.rank) same.rank = entry.rank;
};

export const buildLexicon = (catalog: Catalog, tenantColumn?: string, glossary?: Glossary): Lexicon => {
  const relations = new Map<string, RelationInfo>();
  const phrases = new Map<string, Entry[]>();
  const edges = new Map<string, Edge[]>();
  const inferred = inferKeys(catalog, tenantColumn);
  const stateNames: { phrase: string; table: string; column: string; value: string }[] = [];
  const relationNames = new Set(
    catalog.relations.map((relation) => phraseKey(splitIdentifier(relation.name))),
  );

  for (const relation of catalog.relations) {
    if (relation.kind === 'sequence') continue;
    const key = relationKey(relation.schema, relation.name);
    const primaryKey =
      relation.primaryKey.length > 0 ? relation.primaryKey : (inferred.primaryKeys.get(key) ?? []);
    const foreignKeys = [...relation.foreignKeys, ...(inferred.foreignKeys.get(key) ?? [])];
    const nameWords = splitIdentifier(relation.name);
    const stemWords = nameWords.map(singular);
    const one = stemWords.join(' ');
    const last = nameWords[nameWords.length - 1] ?? '';
    const other = [...stemWords.slice(0, -1), singular(last) === last ? plural(last) : last].join(' ');
    const keyColumns = new Set([...primaryKey, ...foreignKeys.flatMap((fk) => fk.columns)]);
    const columns = relation.columns
      .filter((column) => column.name !== tenantColumn)
      // Own entries only: a column may be named `constructor` or `toString`.
      .map((column) =>
        columnInfo(
          key,
          column,
          keyColumns,
          Object.hasOwn(relation.samples, column.name) ? relation.samples[column.name] : undefined,
        ),
      );
    const byName = new Map(columns.map((column) => [column.name, column]));
    const dates = rankDates(
      columns.filter((column) => column.temporal),
      stemWords,
    );
    relations.set(key, {
      key,
      schema: relation.schema,
      name: relation.name,
      relation,
      one,
      other,
      alias: aliasOf(nameWords),
      columns,
      byName,
      primaryKey: primaryKey.filter((name) => byName.has(name)),
      labels: labelsOf(relation, one, new Set(byName.keys())),
      dates,
      primaryDate: primaryDateOf(dates, stemWords),
    });

    // Relation phrases: the name (3), its head word's synonyms (2), the head word alone (1).
    addEntry(phrases, phraseKey(stemWords), { kind: 'relation', table: key, rank: 3 });
    const head = stemWords[stemWords.length - 1] ?? '';
    for (const synonym of synonyms[head] ?? []) {
      addEntry(phrases, phraseKey([...stemWords.slice(0, -1), synonym]), {
        kind: 'relation',
        table: key,
        rank: 2,
      });
    }
    if (stemWords.length > 1) addEntry(phrases, head, { kind: 'relation', table: key, rank: 1 });

    // Column phrases: the name (3), "relation column" (3), shorter forms and synonyms (2).
    for (const column of columns) {
      const entry = (rank: number, qualified = false): Entry => ({
        kind: 'column',
        table: key,
        column: column.name,
        rank,
        ...(qualified ? { qualified } : {}),
      });
      // A key column named like a common word (domain.did, a "do" of a question) is never named
      // by that word alone.
      if (!(column.key && column.words.length === 1 && stopwords.has(column.words[0]!)))
        addEntry(phrases, phraseKey(column.words), entry(3));
      const startsWithRelation = stemWords.every(
        (word, index) => singular(column.words[index] ?? '') === word,
      );
      if (!startsWithRelation) addEntry(phrases, phraseKey([...stemWords, ...column.words]), entry(3, true));
      const forms = columnAliases(column.words, one, relationNames);
      for (const form of forms) {
        addEntry(phrases, phraseKey(form), entry(2));
        addEntry(phrases, phraseKey([...stemWords, ...form]), entry(3, true));
      }
      for (const form of [column.words, ...forms]) {
        const lastWord = singular(form[form.length - 1] ?? '');
        for (const synonym of synonyms[lastWord] ?? []) {
          addEntry(phrases, phraseKey([...form.slice(0, -1), synonym]), entry(2));
        }
      }
      // A column measured in a unit (qty_t, labor_hrs, "Tonnes on the lorry.") answers to its
      // name with the unit in words ("labor hours") and, at the lowest rank, to the unit's words
      // ("tonnes", "hours", "ha"; net_kg to "tonnes" too, converted when asked).
      const measured = unitPhrases(column, columns);
      for (const form of measured.named) addEntry(phrases, phraseKey(form), entry(2));
      for (const word of measured.bare) addEntry(phrases, phraseKey([word]), entry(1));
      // A yes/no column is also known by each longer word of its name (marketing_opt_in →
      // "marketing"), at the lowest rank.
      if (column.kind === 'boolean') {
        for (const word of column.words) {
          if (word.length >= 4 && !stopwords.has(word) && !/^(flag|true|false)$/.test(word))
            addEntry(phrases, singular(word), entry(1));
        }
      }
      // Two-letter codes of US states (business.state 'CA'): the state's name means its code.
      if (column.samples.length > 0 && column.samples.every((value) => /^[A-Z]{2}$/.test(value))) {
        for (const value of column.samples) {
          const name = usStates[value];
          if (name)
            stateNames.push({ phrase: phraseKey(name.split(' ')), table: key, column: column.name, value });
        }
      }
      for (const value of column.samples) {
        const words = valueWords(value);
        if (words.length === 0 || words.length > 6) continue;
        if (words.length === 1 && stopwords.has(words[0]!)) continue;
        addEntry(phrases, phraseKey(words), { kind: 'value', table: key, column: column.name, value });
      }
    }
  }

  // A multi-word column's last word ("price" of unit_price, "rate" of hourly_rate) names it too, at
  // the lowest rank, when no relation, column or value already answers to that word. Two columns
  // sharing it stay two candidates (the question's relation, or a clarification, decides).
  const heads = new Map<string, Entry[]>();
  for (const relation of relations.values()) {
    for (const column of relation.columns) {
      if (column.key || column.words.length < 2) continue;
      const head = singular(column.words[column.words.length - 1] ?? '');
      if (head.length < 3 || headExcluded.has(head) || trailingTimeWords.has(head) || stopwords.has(head))
        continue;
      if (phrases.has(head)) continue;
      const entry: Entry = { kind: 'column', table: relation.key, column: column.name, rank: 1 };
      heads.set(head, [...(heads.get(head) ?? []), entry]);
      const stemWords = relation.one.split(' ');
      addEntry(phrases, phraseKey([...stemWords, head]), { ...entry, rank: 3, qualified: true });
    }
  }
  for (const [head, entries] of heads) for (const entry of entries) addEntry(phrases, head, entry);
  // "the value of sales", "what was it worth": the money column that says what a row is worth,
  // at the lowest rank (the relation the question names picks one of several relations').
  for (const relation of relations.values()) {
    const worth = worthColumn(relation);
    if (!worth) continue;
    for (const word of worthWords)
      addEntry(phrases, word, { kind: 'column', table: relation.key, column: worth.name, rank: 1 });
  }

  // State names mean their codes (beside a city spelled the same: the column named next to it,
  // "the state of New York", or a question back, decides).
  for (const state of stateNames) {
    addEntry(phrases, state.phrase, {
      kind: 'value',
      table: state.table,
      column: state.column,
      value: state.value,
    });
  }

  // The join graph: foreign keys between relations of the catalog, not through the tenant column.
  for (const info of relations.values()) {
    for (const foreignKey of [...info.relation.foreignKeys, ...(inferred.foreignKeys.get(info.key) ?? [])]) {
      if (tenantColumn !== undefined && foreignKey.columns.includes(tenantColumn)) continue;
      const parent = relationKey(foreignKey.references.schema, foreignKey.references.name);
      if (parent === info.key || !relations.has(parent)) continue;
      const edge: Edge = {
        child: info.key,
        parent,
        childColumns: foreignKey.columns,
        parentColumns: foreignKey.references.columns,
        ...('inferred' in foreignKey ? { inferred: true } : {}),
      };
      for (const end of [info.key, parent]) {
        const list = edges.get(end) ?? [];
        list.push(edge);
        edges.set(end, list);
      }
    }
  }

  const found = findRevenue(relations, edges);
  const { unitsSold } = found;
  let revenueTiers = found.tiers;
  // The glossary: synonyms at the rank of an own name, metrics and filters by their terms.
  const defined = glossaryIndex(catalog, glossary, tenantColumn);
  const metrics = new Map<string, Measure>();
  for (const synonym of defined.synonyms) {
    if (!relations.has(synonym.table)) continue;
    const key = phraseKey(synonym.words);
    if (synonym.column === undefined)
      addEntry(phrases, key, { kind: 'relation', table: synonym.table, rank: 3 });
    else if (relations.get(synonym.table)?.byName.has(synonym.column))
      addEntry(phrases, key, { kind: 'column', table: synonym.table, column: synonym.column, rank: 3 });
  }
  for (const metric of defined.metrics) {
    const key = phraseKey(metric.words);
    if (revenuePhrases.includes(key)) revenueTiers = [[metric.measure]];
    else {
      metrics.set(key, metric.measure);
      addEntry(phrases, key, { kind: 'measure', name: key });
    }
  }
  for (const preset of defined.filters) {
    if (!relations.has(preset.filter.ref.table)) continue;
    addEntry(phrases, phraseKey(preset.words), { kind: 'preset', name: preset.name, filter: preset.filter });
  }
  // Durations: the time between two time columns of one row, by the phrases that name it; a
  // phrase two relations' spans answer to, or a column answers to, is left to them.
  const durationOwners = new Map<string, Measure[]>();
  for (const relation of relations.values()) {
    const pairs = durationPairs(relation);
    for (const pair of pairs) {
      const unit = pair.start.kind === 'date' && pair.end.kind === 'date' ? 'day' : 'hour';
      const measure: Measure = {
        kind: 'duration',
        left: { table: relation.key, column: pair.start.name },
        right: { table: relation.key, column: pair.end.name },
        unit,
      };
      for (const phrase of durationPhrases(relation, pair, pairs.length === 1)) {
        const key = phraseKey(phrase.split(' '));
        durationOwners.set(key, [...(durationOwners.get(key) ?? []), measure]);
      }
      // "downtime", "downtime hours": a span named by a word for a length of time, in its unit.
      for (const words of spanNouns(relation, pairs)) {
        const said = durationUnits.find((candidate) => words[1] === `${candidate}s`);
        const key = phraseKey(words);
        durationOwners.set(key, [
          ...(durationOwners.get(key) ?? []),
          said ? { ...measure, unit: said } : measure,
        ]);
      }
    }
  }
  for (const [key, measures] of durationOwners) {
    if (measures.length !== 1 || metrics.has(key)) continue;
    if ((phrases.get(key) ?? []).some((entry) => entry.kind === 'column' || entry.kind === 'relation'))
      continue;
    metrics.set(key, measures[0]!);
    addEntry(phrases, key, { kind: 'measure', name: key });
  }
  const revenue = resolution(revenueTiers[0] ?? []);
  const columnAnswersTo = (phrase: string) =>
    (phrases.get(phrase) ?? []).some((entry) => entry.kind === 'column');
  for (const phrase of [...revenuePhrases, ...(columnAnswersTo('amount') ? [] : ['amount'])]) {
    addEntry(phrases, phraseKey(phrase.split(' ')), { kind: 'measure', name: 'revenue' });
  }
  for (const phrase of spokenRevenuePhrases) {
    if (!phrases.has(phrase)) addEntry(phrases, phrase, { kind: 'measure', name: 'revenue' });
  }

  let maxWords = 1;
  for (const phrase of phrases.keys()) maxWords = Math.max(maxWords, phrase.split(' ').length);
  return {
    catalog,
    tenantColumn,
    relations,
    edges,
    phrases,
    maxWords: Math.min(maxWords, 6),
    revenue,
    revenueTiers,
    unitsSold,
    metrics,
    definitions: defined.definitions,
  };
};

// ---- cache -------------------------------------------------------------------------------------

const MAX_CACHED = 64;
const byCatalog = new WeakMap<Catalog, Map<string, Lexicon>>();
const byFingerprint = new Map<string, Lexicon>();

/**
 * What a lexicon is built from, whole: the catalog (names, types, keys, samples, descriptions),
 * the tenant column and the glossary, as the cache's key (no hash, so no two ever collide). Two
 * databases never share a lexicon unless they are the same in all of it: a lexicon holds sample
 * values, and another organization's database indexed in the same millisecond with the same shape
 * must not lend it its values. At most MAX_CACHED keys are kept.
 */
const fingerprint = (catalog: Catalog, tenantColumn: string | undefined, glossary: string): string =>
  `${tenantColumn ?? ''}\u0000${glossary}\u0000${JSON.stringify(catalog)}`;

/** The lexicon of `catalog`, built on first use and then served from memory. */
export const lexiconFor = (catalog: Catalog, tenantColumn?: string, glossary?: Glossary): Lexicon => {
  // (A glossary read before PostgreSQL's parser was loaded lacks its fragments: not the same lexicon.)
  const glossaryKey = glossary ? `${glossarySqlReady() ? '' : '-'}${JSON.stringify(glossary)}` : '';
  const tenantKey = `${tenantColumn ?? ''}\u0000${glossaryKey}`;
  const cached = byCatalog.get(catalog)?.get(tenantKey);
  if (cached) return cached;
  const key = fingerprint(catalog, tenantColumn, glossaryKey);
  let lexicon = byFingerprint.get(key);
  if (!lexicon) {
    lexicon = buildLexicon(catalog, tenantColumn, glossary);
    if (byFingerprint.size >= MAX_CACHED) {
      const oldest = byFingerprint.keys().next();
      if (!oldest.done) byFingerprint.delete(oldest.value);
    }
    byFingerprint.set(key, lexicon);
  }
  const perTenant = byCatalog.get(catalog) ?? new Map<string, Lexicon>();
  perTenant.set(tenantKey, lexicon);
  byCatalog.set(catalog, perTenant);
  return lexicon;
};

// ---- lookups -----------------------------------------------------------------------------------

/**
 * The main relations, most referenced first (customers, products), then by size: what the engine
 * names when it lists what it can answer about.
 */
export const mainRelations = (lexicon: Lexicon, count = 8): RelationInfo[] => {
  const links = (relation: RelationInfo, side: 'parent' | 'child') =>
    (lexicon.edges.get(relation.key) ?? []).filter((edge) => edge[side] === relation.key).length;
  const connected = (relation: RelationInfo) =>
    links(relation, 'parent') + links(relation, 'child') > 0 ? 1 : 0;
  return [...lexicon.relations.values()]
    .filter((relation) => relation.columns.length > 0)
    .sort(
      (a, b) =>
        connected(b) - connected(a) ||
        links(b, 'parent') - links(a, 'parent') ||
        b.relation.rowEstimate - a.relation.rowEstimate ||
        a.name.localeCompare(b.name),
    )
    .slice(0, count);
};

export const columnOf = (lexicon: Lexicon, ref: ColumnRef): ColumnInfo | undefined =>
  lexicon.relations.get(ref.table)?.byName.get(ref.column);

export const relationOf = (lexicon: Lexicon, table: string): RelationInfo => {
  const relation = lexicon.relations.get(table);
  if (!relation) throw new Error(`unknown relation ${table}`);
  return relation;
};

/** The name a user knows a relation by: bare in the default schema, qualified elsewhere. */
export const tableName = (lexicon: Lexicon, table: string): string => {
  const relation = relationOf(lexicon, table);
  return relation.schema === lexicon.catalog.defaultSchema
    ? relation.name
    : `${relation.schema}.${relation.name}`;
};
