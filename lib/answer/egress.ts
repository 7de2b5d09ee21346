// Whether the rows of a query may reach a model provider (docs/model-engines.md "Data egress",
// docs/design.md "The model path"). Decided from the SQL the guard printed (the only SQL that
// runs), parsed again with the guard's own parser, never from the text the model wrote: the
// parser has already resolved quoting and escapes (`U&"\0065mail"` is the column `email`).
//
// The rows go to the model only when all of these hold; otherwise the service writes the answer:
//   - `model_data` is not `schema_only`;
//   - no column reference anywhere in the query names a redacted column (by column name, whatever
//     relation or alias it is read through);
//   - when a relation the query reads has a redacted column, no value of the query stands for a
//     whole row (`c`, `c::text`, `row_to_json(c)`, `c.*` inside a function or ROW(...)), no `*`
//     reaches the output (or a subquery used as a value), and no column list renames the columns
//     of a relation or subquery (`AS s(a, b, x)`): each of those carries a redacted column
//     without naming it. A `*` in a FROM subquery or a WITH query only passes columns on to the
//     query around it, which must name them (or hits one of the rules here);
//   - under `aggregates`: one SELECT (no WITH, set operation, GROUP BY, DISTINCT or window) whose
//     every output column is a numeric aggregate: count, sum, avg, stddev/variance and the like,
//     min/max only of a numeric column (by the catalog, and not a name the query gives to a
//     column of its own), arithmetic and rounding of those. min/max of text,
//     string_agg, array_agg and the JSON aggregates are not: they return raw values.
// Whatever does not parse, or any shape not listed here, fails closed (the service writes).
import type { Catalog, DialectName } from '#lib/core/catalog.ts';
import { isNode, type Node } from '#lib/dialects/egress.ts';
import { egressOf } from '#lib/dialects/machinery.ts';
import type { EgressReading } from '#lib/dialects/types.ts';
import type { ModelData } from './engine.ts';

export interface EgressRequest {
  /** The SQL the guard printed (and the database ran). */
  sql: string;
  dialect: DialectName;
  catalog: Catalog;
  modelData?: ModelData;
  /** `table.column` or `schema.table.column`. */
  redactedColumns?: readonly string[];
}

/** Redacted column names, lower-case (the relation part is ignored: any relation, any alias). */
const redactedNames = (redacted: readonly string[]): Set<string> =>
  new Set(redacted.map((name) => name.split('.').at(-1)!.toLowerCase()));

/** Relations (lower-case, unqualified) that have a redacted column. */
const redactedRelations = (redacted: readonly string[]): Set<string> =>
  new Set(redacted.map((name) => name.split('.').at(-2)?.toLowerCase() ?? ''));

/** Lower-case names of the columns whose kind is a number in every catalog relation that has one of that name. */
const numericColumns = (catalog: Catalog): Set<string> => {
  const numeric = new Set<string>();
  const other = new Set<string>();
  for (const relation of catalog.relations) {
    for (const column of relation.columns) {
      const name = column.name.toLowerCase();
      if (column.kind === 'integer' || column.kind === 'decimal') numeric.add(name);
      else other.add(name);
    }
  }
  for (const name of other) numeric.delete(name);
  return numeric;
};

// ---------------------------------------------------------------- the decision

/** The statement of the guarded SQL, or undefined when it is not exactly one. */
const parsed = (sql: string, reading: EgressReading): Node | undefined => {
  try {
    const statements = reading.parseStatements(sql);
    return statements.length === 1 && isNode(statements[0]) ? statements[0] : undefined;
  } catch {
    return undefined;
  }
};

/** Whether the rows of the guarded query may be shown to a model (see the top of this file). */
export const rowsMayReachModel = async (request: EgressRequest): Promise<boolean> => {
  const mode = request.modelData ?? 'rows';
  const redacted = request.redactedColumns ?? [];
  if (mode === 'schema_only') return false;
  if (mode === 'rows' && redacted.length === 0) return true;
  let reading: EgressReading;
  try {
    reading = await egressOf(request.dialect);
  } catch {
    return false;
  }
  const tree = parsed(request.sql, reading);
  if (!tree) return false;
  if (redacted.length > 0) {
    const exposure = reading.exposure(tree, redactedNames(redacted));
    if (exposure.namesRedacted) return false;
    const sensitive = redactedRelations(redacted);
    if (exposure.unnamedColumns && [...exposure.relations].some((name) => sensitive.has(name))) return false;
  }
  if (mode === 'rows') return true;
  const numeric = numericColumns(request.catalog);
  for (const name of reading.definedNames(tree)) numeric.delete(name);
  return reading.onlyNumericAggregates(tree, numeric);
};
