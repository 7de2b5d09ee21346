// Step 6 of the builtin pipeline: an intent becomes one SELECT. Standard SQL that PostgreSQL and
// MySQL both accept: every column qualified by its table's alias, dates as literals computed from
// the reference clock (no dialect date functions in filters), EXTRACT for time groups, ORDER BY
// on every list with the key as tie-breaker, and a LIMIT on lists and rankings.
import type { DialectName } from '#lib/core/catalog.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import { worthColumn } from './columns.ts';
import {
  filterSql as glossaryFilterSql,
  metricSql as glossaryMetricSql,
  namedAsIs,
  printable,
} from './glossary-use.ts';
import {
  type ColumnRef,
  type Filter,
  type Intent,
  type Measure,
  type Metric,
  relationsOf,
  type TimeUnit,
} from './intent.ts';
import { type JoinPlan, planJoins, pointingPath } from './joins.ts';
import { columnOf, relationOf } from './lexicon.ts';
import { literal, outputName, quoteIdentifier } from './sql.ts';
import type { ColumnInfo, Lexicon, RelationInfo } from './types.ts';
import { converted, unitSuffix } from './units.ts';
import { singular } from './words.ts';

export const LIST_LIMIT = 100;

export interface RenderedSql {
  sql: string;
  plan: JoinPlan;
  /** The metric's output column, when there is a metric. */
  metricColumn?: string;
  /** Group key output columns (entity: key then label columns). */
  keyColumns: string[];
  /** Columns that name a listed row. */
  labelColumns: string[];
  /** The column a ranking of rows is ordered by. */
  orderColumn?: string;
}

export type RenderResult =
  | { kind: 'sql'; rendered: RenderedSql }
  | {
      kind: 'problem';
      /** `dialect`: a glossary term whose SQL the dialect cannot say (glossary-sql.ts). */
      reason: 'ambiguous-join' | 'unreachable' | 'fan-out' | 'no-key' | 'dialect';
      tables: string[];
    };

/** The name of a metric's output column: order_count, total_revenue, average_price. */
export const metricName = (lexicon: Lexicon, intent: Intent, metric: Metric): string => {
  if (metric.fn === 'count' && metric.distinct) return outputName(`${metric.distinct.column}_count`);
  if (metric.fn === 'count') {
    const subject = relationOf(lexicon, intent.subject);
    return outputName(`${subject.one.split(' ').pop() ?? 'row'}_count`);
  }
  if (metric.measure.kind === 'glossary' && namedAsIs(lexicon.definitions, metric.measure))
    return outputName(metric.measure.term);
  const measure =
    metric.name ??
    (metric.measure.kind === 'column' || metric.measure.kind === 'glossary'
      ? metric.measure.kind === 'column'
        ? `${metric.measure.ref.column}${unitSuffix(metric.measure, '_in_')}`
        : metric.measure.term
      : `${metric.measure.left.column}_${metric.measure.right.column}`);
  const prefix = { sum: 'total', avg: 'average', min: 'min', max: 'max' }[metric.fn];
  return outputName(`${prefix}_${measure}`);
};

/** Whole days in another unit: a factor, or a division by 7.0 for weeks. */
const inDays = (unit: 'minute' | 'hour' | 'day' | 'week'): string =>
  ({ minute: ' * 1440', hour: ' * 24', day: '', week: ' / 7.0' })[unit];

class Query {
  readonly lexicon: Lexicon;
  readonly dialect: DialectName;
  readonly aliases = new Map<string, string>();

  constructor(lexicon: Lexicon, dialect: DialectName, plan: JoinPlan) {
    this.lexicon = lexicon;
    this.dialect = dialect;
    const used = new Set<string>();
    for (const table of [plan.base, ...plan.steps.map((step) => step.to)]) {
      const preferred = relationOf(lexicon, table).alias;
      let alias = preferred;
      for (let suffix = 2; used.has(alias); suffix += 1) alias = `${preferred}${suffix}`;
      used.add(alias);
      this.aliases.set(table, alias);
    }
  }

  quote(name: string): string {
    return quoteIdentifier(name, this.dialect);
  }

  relation(table: string): string {
    return this.relationAs(table, this.aliases.get(table)!);
  }

  /** The relation's (schema-qualified) name with `alias`. */
  relationAs(table: string, alias: string): string {
    const relation = relationOf(this.lexicon, table);
    const name = this.quote(relation.name);
    const qualified =
      relation.schema === this.lexicon.catalog.defaultSchema
        ? name
        : `${this.quote(relation.schema)}.${name}`;
    return `${qualified} ${alias}`;
  }

  column(ref: ColumnRef): string {
    const alias = this.aliases.get(ref.table);
    if (!alias) throw new Error(`relation ${ref.table} is not joined`);
    return `${alias}.${this.quote(ref.column)}`;
  }

  measure(measure: Measure): string {
    if (measure.kind === 'column') return converted(this.lexicon, measure, this.column(measure.ref));
    if (measure.kind === 'product') return `${this.column(measure.left)} * ${this.column(measure.right)}`;
    if (measure.kind === 'glossary') return this.glossary((p) => glossaryMetricSql(p, 'sum', measure));
    return this.duration(measure);
  }

  /** A glossary term's SQL with this query's aliases (`renderSql` checked that it prints). */
  glossary(print: (printing: Parameters<typeof glossaryFilterSql>[0]) => string | undefined): string {
    const sql = print({
      definitions: this.lexicon.definitions,
      dialect: this.dialect,
      kinds: (table) =>
        new Map(relationOf(this.lexicon, table).columns.map((column) => [column.name, column.kind])),
      column: (ref) => this.column(ref),
    });
    if (sql === undefined) throw new Error('a glossary term that does not print');
    return sql;
  }

  /**
   * The time between two time columns of a row in the unit asked for: PostgreSQL subtracts dates
   * to whole days and timestamps to an interval read in seconds; MySQL counts with TIMESTAMPDIFF.
   */
  duration(measure: Extract<Measure, { kind: 'duration' }>): string {
    const start = this.column(measure.left);
    const end = this.column(measure.right);
    const seconds = { minute: 60, hour: 3600, day: 86400, week: 604800 }[measure.unit];
    const dates =
      columnOf(this.lexicon, measure.left)?.kind === 'date' &&
      columnOf(this.lexicon, measure.right)?.kind === 'date';
    const sql = dialectNamed(this.dialect).dates;
    return dates
      ? `${sql.daysBetween(start, end)}${inDays(measure.unit)}`
      : `${sql.secondsBetween(start, end)} / ${seconds}`;
  }
}

const filterSql = (query: Query, filter: Filter): string => {
  const column = query.column(filter.ref);
  const info = columnOf(query.lexicon, filter.ref);
  switch (filter.kind) {
    case 'in': {
      const values = filter.values.map(literal);
      const test =
        values.length === 1
          ? `${column} ${filter.negated ? '<>' : '='} ${values[0]}`
          : `${column} ${filter.negated ? 'NOT IN' : 'IN'} (${values.join(', ')})`;
      return filter.negated && info?.nullable ? `(${test} OR ${column} IS NULL)` : test;
    }
    case 'compare':
      return `${column} ${filter.op} ${literal(filter.value)}`;
    case 'between':
      return `${column} BETWEEN ${literal(filter.low)} AND ${literal(filter.high)}`;
    case 'period': {
      const parts: string[] = [];
      if (filter.from) parts.push(`${column} >= ${literal(filter.from)}`);
      if (filter.to) parts.push(`${column} < ${literal(filter.to)}`);
      return parts.join(' AND ');
    }
    case 'present':
      // A related row is required by the inner join itself; an own column may still be NULL.
      return info?.nullable ? `${column} IS NOT NULL` : '';
    case 'absent':
      return `${column} IS NULL`;
    case 'glossary':
      return query.glossary((p) => glossaryFilterSql(p, filter));
  }
};

/**
 * "customers who never ordered": no row of the related relation points at the subject's row,
 * directly or along keys that each point back towards it ("owners who never booked an
 * appointment": appointments → pets → owners). The guard fences every relation of the subquery
 * to the tenant like any other.
 */
const noRelatedSql = (query: Query, subject: string, ref: ColumnRef): string => {
  const steps = pointingPath(query.lexicon, subject, ref.table);
  if (!steps) throw new Error(`no path from ${subject} to ${ref.table}`);
  const path = { steps };
  const aliases = path.steps.map(
    (step, index) => `${relationOf(query.lexicon, step.to).alias}_none${index > 0 ? index + 1 : ''}`,
  );
  const on = (index: number, parentSql: (column: string) => string): string => {
    const { edge } = path.steps[index]!;
    return edge.childColumns
      .map(
        (column, position) =>
          `${aliases[index]}.${query.quote(column)} = ${parentSql(edge.parentColumns[position]!)}`,
      )
      .join(' AND ');
  };
  const last = path.steps.length - 1;
  const from = [`${query.relationAs(path.steps[last]!.to, aliases[last]!)}`];
  for (let index = last - 1; index >= 0; index -= 1) {
    from.push(
      `JOIN ${query.relationAs(path.steps[index]!.to, aliases[index]!)} ON ${on(index + 1, (column) => `${aliases[index]}.${query.quote(column)}`)}`,
    );
  }
  const where = on(0, (column) => query.column({ table: subject, column }));
  return `NOT EXISTS (SELECT 1 FROM ${from.join(' ')} WHERE ${where})`;
};

/** Words of columns a wide list leaves out first: bookkeeping and free text. */
const LIST_LAST_WORDS =
  /^(created|updated|modified|deleted|inserted|notes?|comments?|remarks|email|phone|hash|token|url|psp|vin)$/;

/** How much a column says of its row in a list, least first: what a wide list keeps. */
const listRank = (subject: RelationInfo, column: ColumnInfo): number => {
  if (column === worthColumn(subject) || (column.money && column.words.includes('total'))) return 0;
  if (column.words.some((word) => LIST_LAST_WORDS.test(word))) return 3;
  if (column.money || column.kind === 'text' || column === subject.primaryDate) return 1;
  return 2;
};

/**
 * The columns a list shows: key and label columns first, then those the question filters or sorts
 * on ("loads picked up on 14 Feb" shows pickup_at), then, at most 12 in all, what says most of a
 * row: its total or amount, then its other amounts, texts and date, then the others, then
 * bookkeeping and free text; in the relation's own order.
 */
const listColumns = (subject: RelationInfo, named: readonly string[] = []): ColumnInfo[] => {
  const first = new Set([
    ...subject.primaryKey,
    ...subject.labels,
    ...named.filter((name) => subject.byName.has(name)),
  ]);
  const rest = subject.columns
    .filter((column) => !first.has(column.name) && column.kind !== 'json' && column.kind !== 'other')
    .map((column, index) => ({ column, index, rank: listRank(subject, column) }))
    .sort((left, right) => left.rank - right.rank || left.index - right.index)
    .map(({ column }) => column);
  const chosen = new Set([
    ...first,
    ...rest.slice(0, Math.max(0, 12 - first.size)).map((column) => column.name),
  ]);
  return subject.columns.filter((column) => chosen.has(column.name));
};

const timeExpressions = (query: Query, ref: ColumnRef, unit: TimeUnit) => {
  const column = query.column(ref);
  const sql = dialectNamed(query.dialect).dates;
  // Parts that recur: the ISO weekday (1 Monday … 7 Sunday) and the hour; the ISO week as year × 100 + week.
  if (unit === 'weekday') return [{ sql: sql.isoWeekday(column), name: 'period_weekday' }];
  if (unit === 'hour') return [{ sql: `EXTRACT(HOUR FROM ${column})`, name: 'period_hour' }];
  if (unit === 'week')
    return [
      {
        sql: sql.isoWeek(column),
        name: 'period_week',
      },
    ];
  if (unit === 'day') return [{ sql: `CAST(${column} AS DATE)`, name: 'period_day' }];
  const parts = [{ sql: `EXTRACT(YEAR FROM ${column})`, name: 'period_year' }];
  if (unit === 'quarter') parts.push({ sql: `EXTRACT(QUARTER FROM ${column})`, name: 'period_quarter' });
  if (unit === 'month') parts.push({ sql: `EXTRACT(MONTH FROM ${column})`, name: 'period_month' });
  return parts;
};

/**
 * A count of related rows per group, ranked fewest first, where the counted rows point straight at
 * the group's relation: the step to read from the groups' side with a LEFT JOIN.
 */
const fewestRelated = (intent: Intent, plan: JoinPlan): JoinPlan['steps'][number] | undefined => {
  const { metric, group } = intent;
  if (metric?.fn !== 'count' || metric.distinct || group?.kind !== 'entity') return undefined;
  if (intent.order?.by !== 'metric' || intent.order.dir !== 'asc' || intent.having) return undefined;
  const [step] = plan.steps;
  if (plan.steps.length !== 1 || !step || step.to !== group.table || step.edge.child !== intent.subject)
    return undefined;
  // A NOT EXISTS of another relation reads the subject's own rows: not moved into a join.
  if (intent.filters.some((filter) => filter.kind === 'absent' && filter.ref.table !== intent.subject))
    return undefined;
  return step;
};

export const renderSql = (lexicon: Lexicon, intent: Intent, dialect: DialectName): RenderResult => {
  const planned = planJoins(lexicon, intent.subject, relationsOf(intent));
  if (planned.kind === 'ambiguous')
    return { kind: 'problem', reason: 'ambiguous-join', tables: [planned.target] };
  if (planned.kind === 'unreachable')
    return { kind: 'problem', reason: 'unreachable', tables: [planned.target] };
  if (!printable(lexicon.definitions, intent, dialect))
    return { kind: 'problem', reason: 'dialect', tables: [] };
  const { plan } = planned;
  const query = new Query(lexicon, dialect, plan);
  const subject = relationOf(lexicon, intent.subject);
  const subjectKey = subject.primaryKey.map((name) => ({ table: subject.key, column: name }));
  const { metric, group } = intent;

  // Sums and averages over a join that repeats rows would count a row once per repeat.
  if (plan.fansOut && metric && (metric.fn === 'sum' || metric.fn === 'avg')) {
    return {
      kind: 'problem',
      reason: 'fan-out',
      tables: plan.steps.filter((s) => s.toMany).map((s) => s.to),
    };
  }

  const select: string[] = [];
  const groupBy: string[] = [];
  const orderBy: string[] = [];
  const keyColumns: string[] = [];
  let labelColumns: string[] = [];
  let metricColumn: string | undefined;
  let metricSql: string | undefined;
  let orderColumn: string | undefined;
  let distinct = false;
  // "which tenant has the fewest leases": the groups are the related rows, those with none
  // included (a LEFT JOIN counting the keys that point at each), so the fewest can be zero.
  const outer = fewestRelated(intent, plan);

  if (metric) {
    if (metric.fn === 'count' && metric.distinct) {
      metricSql = `COUNT(DISTINCT ${query.column(metric.distinct)})`;
    } else if (metric.fn === 'count') {
      if (plan.fansOut) {
        if (subjectKey.length !== 1) return { kind: 'problem', reason: 'no-key', tables: [subject.key] };
        metricSql = `COUNT(DISTINCT ${query.column(subjectKey[0]!)})`;
      } else if (outer) {
        metricSql = `COUNT(${query.column({ table: intent.subject, column: outer.edge.childColumns[0]! })})`;
      } else metricSql = 'COUNT(*)';
    } else if (metric.measure.kind === 'glossary') {
      const measure = metric.measure;
      metricSql = query.glossary((p) => glossaryMetricSql(p, metric.fn, measure));
    } else {
      metricSql = `${metric.fn.toUpperCase()}(${query.measure(metric.measure)})`;
    }
    metricColumn = metricName(lexicon, intent, metric);
  }

  if (group) {
    if (group.kind === 'entity') {
      const entity = relationOf(lexicon, group.table);
      // A group is shown by its key, its own code (courses.course_code) and its labels.
      const code = entity.byName.get(`${entity.one.replaceAll(' ', '_')}_code`);
      const names = [...new Set([...entity.primaryKey, ...(code ? [code.name] : []), ...entity.labels])];
      if (names.length === 0) return { kind: 'problem', reason: 'no-key', tables: [entity.key] };
      for (const name of names) {
        const sql = query.column({ table: entity.key, column: name });
        select.push(sql);
        groupBy.push(sql);
        keyColumns.push(name);
      }
      labelColumns = entity.labels.length > 0 ? [...entity.labels] : [...entity.primaryKey];
    } else if (group.kind === 'column') {
      const sql = query.column(group.ref);
      select.push(sql);
      groupBy.push(sql);
      keyColumns.push(group.ref.column);
      labelColumns = [group.ref.column];
    } else {
      for (const part of timeExpressions(query, group.ref, group.unit)) {
        select.push(`${part.sql} AS ${part.name}`);
        groupBy.push(part.sql);
        keyColumns.push(part.name);
      }
      labelColumns = [...keyColumns];
    }
  }

  if (metricSql && metricColumn) select.push(`${metricSql} AS ${metricColumn}`);

  if (!metric) {
    // Rows of the subject: its columns (the tenant column is not in the lexicon).
    const named = [
      ...intent.filters.flatMap((filter) =>
        'ref' in filter && filter.ref.table === subject.key ? [filter.ref.column] : [],
      ),
      ...(intent.order?.by === 'column' && intent.order.ref.table === subject.key
        ? [intent.order.ref.column]
        : []),
    ];
    const columns = listColumns(subject, named);
    for (const column of columns) select.push(query.column({ table: subject.key, column: column.name }));
    labelColumns = subject.labels.length > 0 ? [...subject.labels] : [...subject.primaryKey];
    if (intent.order?.by === 'duration') {
      orderColumn = outputName(`duration in ${intent.order.measure.unit}s`);
      select.push(`${query.duration(intent.order.measure)} AS ${orderColumn}`);
    }
    if (intent.order?.by === 'column') {
      const { ref } = intent.order;
      orderColumn = ref.column;
      if (ref.table !== subject.key || !columns.some((column) => column.name === ref.column)) {
        orderColumn = outputName(`${singular(relationOf(lexicon, ref.table).one)} ${ref.column}`);
        select.push(`${query.column(ref)} AS ${orderColumn}`);
      }
    }
    distinct = plan.fansOut;
  }

  // FROM and joins, in plan order (or the groups first, when every group counts).
  const from = [`FROM ${query.relation(outer ? outer.to : plan.base)}`];
  for (const step of outer ? [] : plan.steps) {
    const conditions = step.edge.childColumns.map((childColumn, index) => {
      const parentColumn = step.edge.parentColumns[index] ?? childColumn;
      return `${query.column({ table: step.edge.child, column: childColumn })} = ${query.column({ table: step.edge.parent, column: parentColumn })}`;
    });
    from.push(`JOIN ${query.relation(step.to)} ON ${conditions.join(' AND ')}`);
  }

  const onSubject = (filter: Filter) => outer !== undefined && filter.ref.table === intent.subject;
  if (outer) {
    const conditions = outer.edge.childColumns.map(
      (childColumn, index) =>
        `${query.column({ table: intent.subject, column: childColumn })} = ${query.column({ table: outer.to, column: outer.edge.parentColumns[index] ?? childColumn })}`,
    );
    // Conditions on the counted rows belong to the join: a group whose rows all fail them counts 0.
    for (const filter of intent.filters.filter(onSubject)) {
      const sql = filterSql(query, filter);
      if (sql.length > 0) conditions.push(sql);
    }
    from.push(`LEFT JOIN ${query.relation(intent.subject)} ON ${conditions.join(' AND ')}`);
  }
  const where = intent.filters
    .filter((filter) => !onSubject(filter))
    .map((filter) =>
      filter.kind === 'absent' && filter.ref.table !== intent.subject
        ? noRelatedSql(query, intent.subject, filter.ref)
        : filterSql(query, filter),
    )
    .filter((sql) => sql.length > 0);

  let having: string | undefined;
  if (intent.having && metricSql) {
    const { op, value, high } = intent.having;
    having =
      op === 'between'
        ? `${metricSql} BETWEEN ${literal(value)} AND ${literal(high ?? value)}`
        : `${metricSql} ${op} ${literal(value)}`;
  }

  // Ordering: the ranking asked for, then keys so that ties come out the same way every time.
  const keyOrder = subjectKey.map((ref) => `${query.column(ref)}`);
  if (metric && group) {
    if (group.kind === 'time' && intent.order === undefined) {
      orderBy.push(...keyColumns);
    } else {
      const dir = intent.order?.dir ?? 'desc';
      orderBy.push(`${metricColumn} ${dir.toUpperCase()}`);
      orderBy.push(...groupBy.filter((sql) => !orderBy.includes(sql)));
    }
  } else if (!metric) {
    if (intent.order?.by === 'column') {
      const sql = query.column(intent.order.ref);
      orderBy.push(`${sql} ${intent.order.dir.toUpperCase()}`);
    }
    if (intent.order?.by === 'duration') orderBy.push(`${orderColumn} ${intent.order.dir.toUpperCase()}`);
    orderBy.push(...keyOrder.filter((sql) => !orderBy.some((entry) => entry.startsWith(sql))));
    if (orderBy.length === 0) {
      // No key: order by what names a row, else by the first columns, so that lists are stable.
      const names =
        labelColumns.length > 0
          ? labelColumns
          : listColumns(subject)
              .slice(0, 3)
              .map((column) => column.name);
      orderBy.push(...names.map((name) => query.column({ table: subject.key, column: name })));
    }
  }

  const lines = [`SELECT ${distinct ? 'DISTINCT ' : ''}${select.join(', ')}`, ...from];
  if (where.length > 0) lines.push(`WHERE ${where.join(' AND ')}`);
  if (groupBy.length > 0) lines.push(`GROUP BY ${groupBy.join(', ')}`);
  if (having) lines.push(`HAVING ${having}`);
  if (orderBy.length > 0) lines.push(`ORDER BY ${orderBy.join(', ')}`);
  if (!metric || group) lines.push(`LIMIT ${intent.limit ?? LIST_LIMIT}`);

  return {
    kind: 'sql',
    rendered: {
      sql: lines.join('\n'),
      plan,
      ...(metricColumn ? { metricColumn } : {}),
      keyColumns,
      labelColumns,
      ...(orderColumn ? { orderColumn } : {}),
    },
  };
};
