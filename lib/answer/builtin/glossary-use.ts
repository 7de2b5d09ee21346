// The glossary's definitions in the builtin engine's intents (glossary-sql.ts reads them): a
// measure or condition of kind `glossary` names its term, and is printed from the lexicon's
// definition into the query (`render.ts`), described by its term (`describe.ts`), and checked for
// what the question asks of it (`interpret.ts`).
import type { DialectName } from '#lib/core/catalog.ts';
import {
  type Expr,
  type GlossaryDefinition,
  type GlossaryDefinitions,
  definitionKey as keyOf,
  printExpr,
} from './glossary-expr.ts';
import type { ColumnRef, Filter, Intent, Measure, Metric } from './intent.ts';

/** The measure and condition that name a definition in an intent. */
export const definedMeasure = (definition: GlossaryDefinition): Measure => ({
  kind: 'glossary',
  ref: { table: definition.table, column: definition.columns[0]! },
  term: definition.term,
});
export const definedFilter = (definition: GlossaryDefinition): Filter => ({
  kind: 'glossary',
  ref: { table: definition.table, column: definition.columns[0]! },
  term: definition.term,
  negated: false,
});

type GlossaryMeasure = Extract<Measure, { kind: 'glossary' }>;
type GlossaryFilter = Extract<Filter, { kind: 'glossary' }>;

interface Printing {
  definitions: GlossaryDefinitions;
  dialect: DialectName;
  kinds: (table: string) => ReadonlyMap<string, string>;
  column: (ref: ColumnRef) => string;
}

const printDefined = (p: Printing, table: string, expr: Expr): string | undefined =>
  printExpr(expr, p.dialect, (column) => p.column({ table, column }), p.kinds(table));

/** Whether the metric's aggregate word fits the definition (see `metricSql`). */
const fnFits = (definition: GlossaryDefinition, fn: Metric['fn']): boolean =>
  fn === 'sum' || fn === definition.aggregate || definition.sumOf !== undefined;

/**
 * The metric's SQL: the definition as written; or, for a definition that is SUM(inner) as a whole,
 * the aggregate the question asks of the inner ("average downtime hours": AVG(inner)).
 */
export const metricSql = (p: Printing, fn: Metric['fn'], measure: GlossaryMeasure): string | undefined => {
  const definition = p.definitions.get(keyOf('metric', measure.term));
  if (!definition || !fnFits(definition, fn)) return undefined;
  if (definition.sumOf && fn !== 'sum' && fn !== 'count') {
    const inner = printDefined(p, definition.table, definition.sumOf);
    return inner === undefined ? undefined : `${fn.toUpperCase()}(${inner})`;
  }
  return printDefined(p, definition.table, definition.expr);
};

/** The condition's SQL; turned around, the rows where it does not hold (NULL included). */
export const filterSql = (p: Printing, filter: GlossaryFilter): string | undefined => {
  const definition = p.definitions.get(keyOf('filter', filter.term));
  if (!definition) return undefined;
  const sql = printDefined(p, definition.table, definition.expr);
  if (sql === undefined) return undefined;
  return filter.negated
    ? `(${sql}) IS NOT TRUE`
    : definition.expr.k === 'or' || definition.expr.k === 'and'
      ? `(${sql})`
      : sql;
};

const glossaryParts = (intent: Intent): { measures: GlossaryMeasure[]; filters: GlossaryFilter[] } => ({
  measures:
    intent.metric && intent.metric.fn !== 'count' && intent.metric.measure.kind === 'glossary'
      ? [intent.metric.measure]
      : [],
  filters: intent.filters.filter((filter): filter is GlossaryFilter => filter.kind === 'glossary'),
});

/** Whether every glossary term an intent uses can be printed in `dialect` (a saved intent: still defined). */
export const printable = (
  definitions: GlossaryDefinitions,
  intent: Intent,
  dialect: DialectName,
): boolean => {
  const { measures, filters } = glossaryParts(intent);
  const fn = intent.metric?.fn ?? 'sum';
  return (
    measures.every((measure) => {
      const definition = definitions.get(keyOf('metric', measure.term));
      return definition?.dialects.includes(dialect) && fnFits(definition, fn);
    }) && filters.every((filter) => definitions.get(keyOf('filter', filter.term))?.dialects.includes(dialect))
  );
};

/**
 * Why an intent's glossary metric cannot be answered as asked: "the highest csat" where csat is
 * an average (the highest of an average is not a value the definition gives).
 */
export const metricProblem = (definitions: GlossaryDefinitions, intent: Intent): string | undefined => {
  const { metric } = intent;
  if (!metric || metric.fn === 'count' || metric.measure.kind !== 'glossary') return undefined;
  const definition = definitions.get(keyOf('metric', metric.measure.term));
  if (!definition) return `The glossary no longer defines “${metric.measure.term}”. Could you ask again?`;
  if (fnFits(definition, metric.fn)) return undefined;
  const word = { sum: 'total', avg: 'average', min: 'lowest', max: 'highest' }[metric.fn];
  return `“${definition.term}” is defined as one value over the rows it covers, so I can't take its ${word}. Could you ask for “${definition.term}” per group instead, for example per month?`;
};

/**
 * A period the question does not tie to a column, on rows a glossary condition picks by times of
 * their own ("late" = delivered_at > due_at): the relation's usual date (booked) or the
 * condition's (delivered) could date them, so the question is asked back with both.
 */
export const periodClash = (
  definitions: GlossaryDefinitions,
  filters: readonly Filter[],
  date: ColumnRef,
  display: (ref: ColumnRef) => string,
): { message: string; candidates: ColumnRef[] } | undefined => {
  for (const filter of filters) {
    if (filter.kind !== 'glossary' || filter.ref.table !== date.table) continue;
    const times = definitions.get(keyOf('filter', filter.term))?.timeColumns ?? [];
    if (times.length === 0 || times.includes(date.column)) continue;
    const candidates = [date, ...times.map((column) => ({ table: date.table, column }))];
    return {
      message: `“${filter.term}” is about ${times.map((column) => display({ table: date.table, column })).join(' and ')}. Which date should the period apply to: ${candidates.map(display).join(' or ')}?`,
      candidates,
    };
  }
  return undefined;
};

/** Whether a definition's own aggregate names it (AVG, COUNT…): then no "total" before its term. */
export const namedAsIs = (definitions: GlossaryDefinitions, measure: GlossaryMeasure): boolean =>
  definitions.get(keyOf('metric', measure.term))?.sumOf === undefined;

/** A definition in words for descriptions: its SQL with columns by their display names. */
export const definitionText = (
  definitions: GlossaryDefinitions,
  kind: 'metric' | 'filter',
  term: string,
  display: (ref: ColumnRef) => string,
): string | undefined => {
  const definition = definitions.get(keyOf(kind, term));
  if (!definition) return undefined;
  const expr = kind === 'metric' && definition.sumOf ? definition.sumOf : definition.expr;
  const [dialect] = definition.dialects;
  return dialect
    ? printExpr(expr, dialect, (column) => display({ table: definition.table, column }), new Map())
    : undefined;
};

/**
 * The intent with a glossary duration taken as its definition says: "time to close" defined as
 * an average is averaged where the question names it alone ("time to close per priority").
 */
export const withDefinedAggregate = (definitions: GlossaryDefinitions, intent: Intent): Intent => {
  const { metric } = intent;
  if (metric?.fn !== 'sum' || metric.measure.kind !== 'duration' || !metric.name) return intent;
  const definition = definitions.get(keyOf('metric', metric.name.toLowerCase()));
  return definition?.duration ? { ...intent, metric: { ...metric, fn: 'avg' } } : intent;
};
