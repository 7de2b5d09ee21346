// `data.suggestions` of an answer (docs/design.md "Answers people can check and improve"): up to
// three follow-up questions that continue the answer, each one the builtin engine answers with SQL
// on this catalog. From the answer's reading (lib/answer/reading.ts: its measure, grouping and
// period) come, in order: the same measure over time ("revenue per month"), broken down by a
// related dimension ("revenue per country"), its top N ("top 5 customers by revenue") and the
// previous period ("revenue per category in 2024"). Every candidate is put to the builtin engine
// and kept only when it reads it as SQL with the same measure, so no suggestion leads to a
// refusal or wanders off to another table's count. An answer without a measure (a list of rows)
// gets the schema's questions about the tables it read only; an answer without SQL (a greeting)
// gets them about the largest tables. The builtin engine reads the catalog only: nothing runs
// against the database, and no value of any tenant appears in a suggestion (names only).
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import { readState } from './builtin/intent.ts';
import { plural } from './builtin/words.ts';
import { type Reading, readingOf, readingOfIntent, relationNoun, wordsOf } from './reading.ts';
import { builtinEngine } from './registry.ts';

export const MAX_SUGGESTIONS = 3;
/** Candidates put to the engine at most, so a wide schema costs a bounded few milliseconds. */
const MAX_CANDIDATES = 16;
/** The N of a suggested top N. */
const TOP = 5;

const words = wordsOf;

const isKeyLike = (name: string): boolean => /(?:^id$|_id$|Id$|^uuid$|_uuid$)/.test(name);
/** Text that names or describes one row: a poor thing to count by. */
const isIdentifying = (name: string): boolean =>
  /(?:name|title|email|phone|address|description|comment|note|url|code)s?$/i.test(name);

/** A short text column with a few values, to break a measure down by. */
const categoryColumns = (relation: CatalogRelation, tenantColumn: string | undefined) =>
  relation.columns.filter(
    (column) =>
      column.name !== tenantColumn &&
      !isKeyLike(column.name) &&
      !relation.primaryKey.includes(column.name) &&
      column.kind === 'text' &&
      !isIdentifying(column.name) &&
      // Own entries only: a column may be named `constructor` or `toString`.
      (Object.hasOwn(relation.samples, column.name) ? relation.samples[column.name]!.length : 0) > 1,
  );

const candidatesOf = (relation: CatalogRelation, tenantColumn: string | undefined): string[] => {
  const table = words(relation.name);
  const category = categoryColumns(relation, tenantColumn)[0];
  const time = relation.columns.find(
    (column) => (column.kind === 'date' || column.kind === 'timestamp') && column.name !== tenantColumn,
  );
  return [
    ...(category ? [`How many ${table} are there per ${words(category.name)}?`] : []),
    ...(time ? [`How many ${table} per month?`] : []),
    `How many ${table} are there?`,
  ];
};

const keyOf = (relation: CatalogRelation) => `${relation.schema}.${relation.name}`;

/** The relations an answer's SQL reads, then (without SQL) the rest, larger ones first. */
const relationsByRelevance = (catalog: Catalog, sql: string | null): CatalogRelation[] => {
  const tables = catalog.relations
    .filter((relation) => relation.kind === 'table' || relation.kind === 'view')
    .toSorted((a, b) => b.rowEstimate - a.rowEstimate);
  if (!sql) return tables;
  const identifiers = new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? []);
  return tables.filter((relation) => identifiers.has(relation.name.toLowerCase()));
};

/** The subject and the relations it reaches by foreign keys (two steps), nearest first. */
const relatedRelations = (catalog: Catalog, subject: string): CatalogRelation[] => {
  const byKey = new Map(catalog.relations.map((relation) => [keyOf(relation), relation]));
  const seen = new Set<string>([subject]);
  let frontier = [subject];
  const found: CatalogRelation[] = [];
  const start = byKey.get(subject);
  if (start) found.push(start);
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const key of frontier) {
      for (const foreignKey of byKey.get(key)?.foreignKeys ?? []) {
        const target = `${foreignKey.references.schema}.${foreignKey.references.name}`;
        const relation = byKey.get(target);
        if (seen.has(target) || !relation) continue;
        seen.add(target);
        next.push(target);
        found.push(relation);
      }
    }
    frontier = next;
  }
  return found;
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The period before the reading's, in words: a year, a quarter or a month; else none. */
const previousPeriod = (period: NonNullable<Reading['period']>): string | undefined => {
  const { from, to } = period;
  if (!from || !to) return undefined;
  const [fromYear, fromMonth, fromDay] = from.split('-').map(Number) as [number, number, number];
  const [toYear, toMonth, toDay] = to.split('-').map(Number) as [number, number, number];
  if (fromDay !== 1 || toDay !== 1) return undefined;
  const months = (toYear - fromYear) * 12 + (toMonth - fromMonth);
  if (months === 12 && fromMonth === 1) return `in ${fromYear - 1}`;
  if (months === 3 && fromMonth % 3 === 1) {
    const quarter = (fromMonth - 1) / 3;
    return quarter === 0 ? `in Q4 ${fromYear - 1}` : `in Q${quarter} ${fromYear}`;
  }
  if (months === 1) {
    const month = fromMonth === 1 ? 12 : fromMonth - 1;
    return `in ${MONTHS[month - 1]} ${fromMonth === 1 ? fromYear - 1 : fromYear}`;
  }
  return undefined;
};

const question = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A question about the reading's measure: "How many orders per month?", "Revenue per month in 2025". */
const about = (reading: Reading, per: string | undefined, during: string): string => {
  const grouping = per ? ` per ${per}` : '';
  return reading.count
    ? `How many ${reading.measure}${grouping}${during}?`
    : question(`${reading.measure}${grouping}${during}`);
};

/** "Top 5 customers by revenue", "Top 5 stores by number of orders". */
const topOf = (reading: Reading, what: string, during: string): string =>
  `Top ${TOP} ${plural(what)} by ${reading.count ? `number of ${reading.measure}` : reading.measure}${during}`;

/** Follow-ups of a reading, by kind, in the order they are offered. */
const continuations = (reading: Reading, catalog: Catalog, tenantColumn: string | undefined): string[][] => {
  const { dimension, groupedBy, period } = reading;
  const during = period ? ` ${period.label}` : '';

  // The same measure over time.
  const overTime =
    groupedBy?.kind === 'time' ? [] : [about(reading, 'month', during), about(reading, 'year', during)];

  // Broken down by a related dimension: a short text column, or a related relation's rows.
  const related = relatedRelations(catalog, reading.subject);
  // Related rows people know by a name (customers, products, stores), not by a number (orders).
  const entities = related
    .slice(1)
    .filter((relation) => relation.columns.some((column) => /^(?:name|title|label)$/i.test(column.name)))
    .map((relation) => relationNoun(keyOf(relation), 'one'));
  const dimensions = [
    ...related.flatMap((relation) =>
      categoryColumns(relation, tenantColumn).map((column) => words(column.name)),
    ),
    ...entities,
  ].filter((word, index, all) => word !== dimension && all.indexOf(word) === index);
  const breakdown = dimensions.map((what) => about(reading, what, during));

  // Its top N: of what it is grouped by, else of a related relation's rows.
  const ranked =
    reading.limit !== undefined
      ? []
      : [...(dimension && groupedBy?.kind !== 'time' ? [dimension] : []), ...entities].filter(
          (what, index, all) => all.indexOf(what) === index,
        );
  const top = ranked.map((what) => topOf(reading, what, during));

  // The previous period, with the same grouping.
  const before = period ? previousPeriod(period) : undefined;
  const previous = before ? [about(reading, dimension, ` ${before}`)] : [];

  return period ? [previous, overTime, breakdown, top] : [overTime, breakdown, top, previous];
};

const normalised = (question: string): string =>
  question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export interface SuggestionInput {
  question: string;
  /** The SQL of the answer: without a reading, suggestions stay on the tables it read. */
  sql: string | null;
  /** The answer's reading (lib/answer/reading.ts); read from the question when not given. */
  reading?: Reading | undefined;
  /** The catalog the caller may query (the answer catalog, relations the guard allows). */
  catalog: Catalog;
  tenantColumn?: string | undefined;
  now: Date;
}

/** Whether the builtin engine answers `question` with SQL (and, with `measure`, reads that measure). */
const answerable = async (input: SuggestionInput, question: string, measure?: string): Promise<boolean> => {
  const proposal = await (await builtinEngine()).propose({
    question,
    catalog: input.catalog,
    dialect: input.catalog.dialect,
    history: [],
    now: input.now,
    ...(input.tenantColumn ? { tenantColumn: input.tenantColumn } : {}),
  });
  if (proposal.kind !== 'sql') return false;
  if (measure === undefined) return true;
  const state = readState(proposal.state);
  return state !== undefined && readingOfIntent(state.intent)?.measure === measure;
};

/** Up to three follow-up questions the builtin engine answers with SQL on this catalog. */
export const suggestionsFor = async (input: SuggestionInput): Promise<string[]> => {
  const asked = normalised(input.question);
  const fresh = (candidate: string, taken: readonly string[]) =>
    normalised(candidate) !== asked && !taken.some((other) => normalised(other) === normalised(candidate));
  const suggestions: string[] = [];
  let tried = 0;
  const reading =
    input.reading ??
    (await readingOf({
      question: input.question,
      catalog: input.catalog,
      tenantColumn: input.tenantColumn,
      now: input.now,
      builtin: await builtinEngine(),
    }));
  if (reading) {
    // One of each kind, the first the engine reads with the same measure.
    for (const kind of continuations(reading, input.catalog, input.tenantColumn)) {
      for (const candidate of kind) {
        if (suggestions.length >= MAX_SUGGESTIONS || tried >= MAX_CANDIDATES) return suggestions;
        if (!fresh(candidate, suggestions)) continue;
        tried += 1;
        if (await answerable(input, candidate, reading.measure)) {
          suggestions.push(candidate);
          break;
        }
      }
    }
    return suggestions;
  }
  const candidates = relationsByRelevance(input.catalog, input.sql)
    .flatMap((relation) => candidatesOf(relation, input.tenantColumn))
    .filter((candidate) => fresh(candidate, []))
    .slice(0, MAX_CANDIDATES);
  for (const candidate of candidates) {
    if (suggestions.length >= MAX_SUGGESTIONS) break;
    if (await answerable(input, candidate)) suggestions.push(candidate);
  }
  return suggestions;
};
