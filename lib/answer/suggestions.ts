// `data.suggestions` of an answer (docs/design.md "Answers people can check and improve"): up to
// three follow-up questions about the same database, each one the builtin engine answers with SQL
// on this catalog. Candidates come from the schema (a count, a breakdown by a short text column,
// a trend by a date column), the tables of the answer first; every candidate is put to the builtin
// engine and kept only when it proposes a query, so no suggestion leads to a refusal. The builtin
// engine reads the catalog only: nothing runs against the database, and no value of any tenant
// appears in a suggestion (column and table names only).
import type { Catalog, CatalogRelation } from '#lib/connectors/types.ts';
import { builtinEngine } from './registry.ts';

export const MAX_SUGGESTIONS = 3;
/** Candidates put to the engine at most, so a wide schema costs a bounded few milliseconds. */
const MAX_CANDIDATES = 12;

/** `order_items` → "order items". */
const words = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase();

const isKeyLike = (name: string): boolean => /(?:^id$|_id$|Id$|^uuid$|_uuid$)/.test(name);
/** Text that names or describes one row: a poor thing to count by. */
const isIdentifying = (name: string): boolean =>
  /(?:name|title|email|phone|address|description|comment|note|url|code)s?$/i.test(name);

const candidatesOf = (relation: CatalogRelation, tenantColumn: string | undefined): string[] => {
  const table = words(relation.name);
  const usable = relation.columns.filter(
    (column) =>
      column.name !== tenantColumn && !isKeyLike(column.name) && !relation.primaryKey.includes(column.name),
  );
  const category = usable.find(
    (column) =>
      column.kind === 'text' &&
      !isIdentifying(column.name) &&
      // Own entries only: a column may be named `constructor` or `toString`.
      (Object.hasOwn(relation.samples, column.name) ? relation.samples[column.name]!.length : 0) > 1,
  );
  const time = usable.find((column) => column.kind === 'date' || column.kind === 'timestamp');
  return [
    ...(category ? [`How many ${table} are there per ${words(category.name)}?`] : []),
    ...(time ? [`How many ${table} per month?`] : []),
    `How many ${table} are there?`,
  ];
};

/** The relations an answer's SQL reads, then the rest, larger ones first. */
const relationsByRelevance = (catalog: Catalog, sql: string | null): CatalogRelation[] => {
  const tables = catalog.relations
    .filter((relation) => relation.kind === 'table' || relation.kind === 'view')
    .toSorted((a, b) => b.rowEstimate - a.rowEstimate);
  if (!sql) return tables;
  const identifiers = new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_$]*/g) ?? []);
  const mentioned = (relation: CatalogRelation) => identifiers.has(relation.name.toLowerCase());
  return [...tables.filter(mentioned), ...tables.filter((relation) => !mentioned(relation))];
};

const normalised = (question: string): string =>
  question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export interface SuggestionInput {
  question: string;
  /** The SQL of the answer, to suggest about the same tables first. */
  sql: string | null;
  /** The catalog the caller may query (the answer catalog, relations the guard allows). */
  catalog: Catalog;
  tenantColumn?: string | undefined;
  now: Date;
}

/** Up to three follow-up questions the builtin engine answers with SQL on this catalog. */
export const suggestionsFor = async (input: SuggestionInput): Promise<string[]> => {
  const asked = normalised(input.question);
  const candidates = relationsByRelevance(input.catalog, input.sql)
    .flatMap((relation) => candidatesOf(relation, input.tenantColumn))
    .filter((candidate) => normalised(candidate) !== asked)
    .slice(0, MAX_CANDIDATES);
  const suggestions: string[] = [];
  const engine = await builtinEngine();
  for (const question of candidates) {
    if (suggestions.length >= MAX_SUGGESTIONS) break;
    const proposal = await engine.propose({
      question,
      catalog: input.catalog,
      dialect: input.catalog.dialect,
      history: [],
      now: input.now,
      ...(input.tenantColumn ? { tenantColumn: input.tenantColumn } : {}),
    });
    if (proposal.kind === 'sql') suggestions.push(question);
  }
  return suggestions;
};
