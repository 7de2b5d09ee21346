// The builtin engine's structured intent: what a question asks for, in terms of the catalog,
// before any SQL. It is also the state saved with an answer (so a follow-up can change one part
// of it), which is why it is a valibot schema: state comes back from storage and is checked.
import * as v from 'valibot';

const Name = v.pipe(v.string(), v.minLength(1), v.maxLength(256));
const IsoDate = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));
const Count = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000));

/** A column of a relation; `table` is the relation's key in the lexicon (`schema.name`). */
export const ColumnRefSchema = v.object({ table: Name, column: Name });

/**
 * The time from `left` to `right`, two time columns of one row (opened_at → closed_at,
 * check_in → check_out), in `unit`s.
 */
export const DurationSchema = v.object({
  kind: v.literal('duration'),
  left: ColumnRefSchema,
  right: ColumnRefSchema,
  unit: v.picklist(['minute', 'hour', 'day', 'week']),
});

export const MeasureSchema = v.variant('kind', [
  /** A column, in `unit` (a `MEASURE_UNITS` name) when the question asks another than its own. */
  v.object({ kind: v.literal('column'), ref: ColumnRefSchema, unit: v.exactOptional(Name) }),
  /** quantity × unit price: revenue when no column holds it. */
  v.object({ kind: v.literal('product'), left: ColumnRefSchema, right: ColumnRefSchema }),
  DurationSchema,
  /** A glossary metric of any other SQL over one relation (glossary-sql.ts), by its term. */
  v.object({ kind: v.literal('glossary'), ref: ColumnRefSchema, term: Name }),
]);

export const MetricSchema = v.variant('fn', [
  /** Rows of the subject (distinct when a join fans out), or the different values of `distinct`. */
  v.object({ fn: v.literal('count'), distinct: v.exactOptional(ColumnRefSchema) }),
  v.object({
    fn: v.picklist(['sum', 'avg', 'min', 'max']),
    measure: MeasureSchema,
    /** What the user called it ("revenue"), for descriptions and column names. */
    name: v.exactOptional(Name),
  }),
]);

const Scalar = v.union([v.pipe(v.string(), v.maxLength(200)), v.number(), v.boolean()]);

export const FilterSchema = v.variant('kind', [
  v.object({
    kind: v.literal('in'),
    ref: ColumnRefSchema,
    values: v.pipe(v.array(Scalar), v.minLength(1), v.maxLength(20)),
    negated: v.boolean(),
  }),
  v.object({
    kind: v.literal('compare'),
    ref: ColumnRefSchema,
    op: v.picklist(['>', '>=', '<', '<=', '=']),
    value: v.number(),
  }),
  v.object({ kind: v.literal('between'), ref: ColumnRefSchema, low: v.number(), high: v.number() }),
  /** A half-open range of days; `label` says it as the user did ("last month"). */
  v.object({
    kind: v.literal('period'),
    ref: ColumnRefSchema,
    from: v.exactOptional(IsoDate),
    to: v.exactOptional(IsoDate),
    label: v.pipe(v.string(), v.maxLength(200)),
  }),
  /** Rows whose value is known (a superlative never ranks NULLs). */
  v.object({ kind: v.literal('present'), ref: ColumnRefSchema }),
  /**
   * Rows with nothing there: an own column that is NULL ("pets with no microchip"), or, when `ref`
   * is a related relation's key column that points at the subject, no such row ("customers who
   * never ordered": NOT EXISTS).
   */
  v.object({ kind: v.literal('absent'), ref: ColumnRefSchema }),
  /** A glossary condition of any other SQL over one relation (glossary-sql.ts), by its term. */
  v.object({ kind: v.literal('glossary'), ref: ColumnRefSchema, term: Name, negated: v.boolean() }),
]);

/** Periods (year, quarter, month, day, week) and parts of a date that recur (weekday, hour). */
export const TimeUnitSchema = v.picklist(['year', 'quarter', 'month', 'day', 'week', 'weekday', 'hour']);

export const GroupSchema = v.variant('kind', [
  v.object({ kind: v.literal('column'), ref: ColumnRefSchema }),
  /** One group per row of a related relation (its key and label columns). */
  v.object({ kind: v.literal('entity'), table: Name }),
  v.object({ kind: v.literal('time'), ref: ColumnRefSchema, unit: TimeUnitSchema }),
]);

export const DirectionSchema = v.picklist(['asc', 'desc']);

export const OrderSchema = v.variant('by', [
  v.object({ by: v.literal('metric'), dir: DirectionSchema }),
  v.object({ by: v.literal('column'), ref: ColumnRefSchema, dir: DirectionSchema }),
  /** Rows by how long each took ("the longest stay"). */
  v.object({ by: v.literal('duration'), measure: DurationSchema, dir: DirectionSchema }),
]);

export const HavingSchema = v.object({
  op: v.picklist(['>', '>=', '<', '<=', '=', 'between']),
  value: v.number(),
  high: v.exactOptional(v.number()),
});

/**
 * - no metric: list rows of `subject` (ordered; top-N with `order` + `limit`)
 * - metric, no group: one value (a count, a sum…)
 * - metric and group: one value per group (ranked with `order` + `limit`, filtered by `having`)
 */
export const IntentSchema = v.object({
  subject: Name,
  metric: v.exactOptional(MetricSchema),
  filters: v.pipe(v.array(FilterSchema), v.maxLength(20)),
  group: v.exactOptional(GroupSchema),
  having: v.exactOptional(HavingSchema),
  order: v.exactOptional(OrderSchema),
  limit: v.exactOptional(Count),
  /** How a ranking reads ("most expensive"), for descriptions and answers. */
  ranking: v.exactOptional(v.pipe(v.string(), v.maxLength(100))),
});

export const BUILTIN_ENGINE = 'builtin';
export const STATE_VERSION = 1;

/** What the builtin saves with an answer (`SqlProposal.state`). */
export const StateSchema = v.object({
  engine: v.literal(BUILTIN_ENGINE),
  version: v.literal(STATE_VERSION),
  intent: IntentSchema,
});

export type ColumnRef = v.InferOutput<typeof ColumnRefSchema>;
export type Measure = v.InferOutput<typeof MeasureSchema>;
export type Duration = v.InferOutput<typeof DurationSchema>;
export type DurationUnit = Duration['unit'];
export type Metric = v.InferOutput<typeof MetricSchema>;
export type Filter = v.InferOutput<typeof FilterSchema>;
export type Group = v.InferOutput<typeof GroupSchema>;
export type TimeUnit = v.InferOutput<typeof TimeUnitSchema>;
export type Direction = v.InferOutput<typeof DirectionSchema>;
export type Order = v.InferOutput<typeof OrderSchema>;
export type Having = v.InferOutput<typeof HavingSchema>;
export type Intent = v.InferOutput<typeof IntentSchema>;
export type BuiltinState = v.InferOutput<typeof StateSchema>;

export const sameRef = (a: ColumnRef, b: ColumnRef): boolean => a.table === b.table && a.column === b.column;

/** The state to save with an answer. */
export const stateOf = (intent: Intent): BuiltinState => ({
  engine: BUILTIN_ENGINE,
  version: STATE_VERSION,
  intent,
});

/** A saved state read back, or undefined when it is not one this version wrote. */
export const readState = (state: unknown): BuiltinState | undefined => {
  const parsed = v.safeParse(StateSchema, state);
  return parsed.success ? parsed.output : undefined;
};

/** Relations an intent reads, besides its subject. */
export const relationsOf = (intent: Intent): Set<string> => {
  const tables = new Set<string>();
  const addMeasure = (measure: Measure) => {
    if (measure.kind === 'column' || measure.kind === 'glossary') tables.add(measure.ref.table);
    else tables.add(measure.left.table).add(measure.right.table);
  };
  // An absent related row is a NOT EXISTS of its own, not a join.
  for (const filter of intent.filters) if (filter.kind !== 'absent') tables.add(filter.ref.table);
  if (intent.metric && intent.metric.fn !== 'count') addMeasure(intent.metric.measure);
  if (intent.metric?.fn === 'count' && intent.metric.distinct) tables.add(intent.metric.distinct.table);
  if (intent.group) tables.add(intent.group.kind === 'entity' ? intent.group.table : intent.group.ref.table);
  if (intent.order?.by === 'column') tables.add(intent.order.ref.table);
  if (intent.order?.by === 'duration') tables.add(intent.order.measure.left.table);
  tables.delete(intent.subject);
  return tables;
};
