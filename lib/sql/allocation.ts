// Functions that allocate memory (or rows) from an argument (docs/design.md "Tenant filtering and
// the SQL guard": "refused, or their size argument bounded by a constant the guard checks"). The
// EXPLAIN cost ceiling does not see memory, and one `lpad('x', 1000000000)` asks the server for a
// gigabyte per row before any timeout fires. Both guards call these after the name allowlist
// (each dialect's functions.ts, lib/dialects/<name>/) and refuse with SIZE_NOT_BOUNDED:
// - lpad / rpad (and MySQL SPACE): the length must be an integer constant from 0 to
//   MAX_SIZE_ARGUMENT; a length computed from anything (a column, a subquery, arithmetic) is
//   refused, since the guard cannot bound it;
// - format (PostgreSQL): the format string must be a constant whose widths are at most
//   MAX_SIZE_ARGUMENT, and not `*` (a width taken from an argument);
// - generate_series (PostgreSQL): the guard must be able to count its rows, at most
//   MAX_SERIES_ROWS: integer constants for an integer series; for a time series a constant
//   interval step and bounds that are constants (`DATE '2024-03-01'`, `'2024-03-01'::timestamp`)
//   or both relative to the statement's time (`now()`, `current_date`, `date_trunc('month',
//   now())`, each ± constant intervals or days). A bound read from the data is refused;
// - aggregates that concatenate (string_agg, array_agg, json(b)_agg, json(b)_object_agg,
//   MySQL GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG) must not aggregate the output of a
//   padding function ("string_agg of huge values"): rows × the padded length is unbounded.
// Refused outright, by being left out of the allowlists: repeat (both dialects; its result is
// the argument's length times the count), overlay (PostgreSQL) and INSERT (MySQL): text surgery
// no question needs, whose results nest into ever longer strings.
// Left to the statement timeout and the servers' own limits (1 GB per value in PostgreSQL,
// max_allowed_packet and group_concat_max_len in MySQL): strings grown by composing unbounded
// functions (replace, regexp_replace, concat of a value with itself in nested CTEs).
import type { SqlNode as PgNode } from './tree.ts';

/** The largest length lpad / rpad / SPACE / a format width may ask for. */
export const MAX_SIZE_ARGUMENT = 10_000;
/** The most rows a generate_series may produce. */
export const MAX_SERIES_ROWS = 10_000;

const CONCATENATING_AGGREGATES = new Set([
  'string_agg',
  'array_agg',
  'json_agg',
  'jsonb_agg',
  'json_object_agg',
  'jsonb_object_agg',
  'group_concat',
  'json_arrayagg',
  'json_objectagg',
]);

const DAY = 86_400_000;
const HOUR = 3_600_000;

const sizeMessage = (name: string, what: string) =>
  `${name}'s ${what} must be an integer constant from 0 to ${MAX_SIZE_ARGUMENT}`;

// ---- PostgreSQL ------------------------------------------------------------------------------

const only = (node: unknown): [string, PgNode] | undefined => {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const keys = Object.keys(node);
  if (keys.length !== 1) return undefined;
  const type = keys[0]!;
  const body = (node as PgNode)[type];
  return body !== null && typeof body === 'object' ? [type, body as PgNode] : undefined;
};

const names = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map((item) => {
        const string = only(item);
        return string?.[0] === 'String' ? String(string[1].sval ?? '') : '';
      })
    : [];

/** `name` or `pg_catalog.name` of a type or function; undefined for other schemas. */
const builtin = (value: unknown): string | undefined => {
  const parts = names(value);
  if (parts.length === 1) return parts[0];
  if (parts.length === 2 && parts[0] === 'pg_catalog') return parts[1];
  return undefined;
};

/** A numeric constant (`20`, `-5`, `1.5`, `0`; libpg-query writes 0 as `{ival: {}}`). */
const numberConstant = (node: unknown): number | undefined => {
  const constant = only(node);
  if (!constant) return undefined;
  const [type, body] = constant;
  if (type === 'TypeCast') {
    const target = body.typeName as PgNode | undefined;
    const cast = builtin(target?.names);
    return cast && /^(int[248]|integer|bigint|smallint|numeric)$/.test(cast) && target?.typmods === undefined
      ? numberConstant(body.arg)
      : undefined;
  }
  if (type !== 'A_Const') return undefined;
  if (body.ival !== undefined) {
    const ival = (body.ival as PgNode).ival;
    return ival === undefined ? 0 : typeof ival === 'number' ? ival : undefined;
  }
  if (body.fval !== undefined) {
    const text = (body.fval as PgNode).fval;
    const value = typeof text === 'string' && /^-?[0-9]+(\.[0-9]*)?$/.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
};

const stringConstant = (node: unknown): string | undefined => {
  const constant = only(node);
  if (constant?.[0] !== 'A_Const' || constant[1].sval === undefined) return undefined;
  const sval = (constant[1].sval as PgNode).sval;
  return sval === undefined ? '' : typeof sval === 'string' ? sval : undefined;
};

const sizeConstant = (node: unknown): boolean => {
  const value = numberConstant(node);
  return value !== undefined && Number.isInteger(value) && value >= 0 && value <= MAX_SIZE_ARGUMENT;
};

// Widths in a format() string: %[n$][-][width]type, width digits or * / *n$.
const FORMAT_SPEC = /%(?:[0-9]+\$)?(-)?([0-9]+|\*(?:[0-9]+\$)?)?([sIL%])?/g;

const formatRefusal = (args: readonly PgNode[]): string | undefined => {
  const text = stringConstant(args[0]);
  if (text === undefined) return 'format() needs a constant format string';
  for (const match of text.matchAll(FORMAT_SPEC)) {
    const width = match[2];
    if (width === undefined) continue;
    if (width.startsWith('*')) return 'format() widths must be constants, not *';
    if (Number(width) > MAX_SIZE_ARGUMENT) return `format() widths must be at most ${MAX_SIZE_ARGUMENT}`;
  }
  return undefined;
};

// -- time arithmetic for generate_series: ranges in milliseconds --------------------------------

interface Span {
  min: number;
  max: number;
}

/** Length of one unit as [shortest, longest] (months 28–31 days, years 365–366, days ±1 h DST). */
const UNITS: [RegExp, Span][] = [
  [/^(microseconds?|usecs?|us)$/, { min: 0.001, max: 0.001 }],
  [/^(milliseconds?|msecs?|ms)$/, { min: 1, max: 1 }],
  [/^(seconds?|secs?|s)$/, { min: 1_000, max: 1_000 }],
  [/^(minutes?|mins?|m)$/, { min: 60_000, max: 60_000 }],
  [/^(hours?|hrs?|h)$/, { min: HOUR, max: HOUR }],
  [/^(days?|d)$/, { min: DAY - HOUR, max: DAY + HOUR }],
  [/^(weeks?|w)$/, { min: 7 * DAY - HOUR, max: 7 * DAY + HOUR }],
  [/^(months?|mons?)$/, { min: 28 * DAY - HOUR, max: 31 * DAY + HOUR }],
  [/^(years?|yrs?|y)$/, { min: 365 * DAY - HOUR, max: 366 * DAY + HOUR }],
  [/^(decades?|decs?)$/, { min: 3652 * DAY, max: 3653 * DAY }],
  [/^(centuries|century|c)$/, { min: 36_524 * DAY, max: 36_525 * DAY }],
  [/^(millenniums?|millennia|mils?)$/, { min: 365_242 * DAY, max: 365_243 * DAY }],
];

const unitSpan = (unit: string): Span | undefined => UNITS.find(([pattern]) => pattern.test(unit))?.[1];

const scaled = (span: Span, factor: number): Span =>
  factor >= 0
    ? { min: span.min * factor, max: span.max * factor }
    : { min: span.max * factor, max: span.min * factor };

const plus = (a: Span, b: Span): Span => ({ min: a.min + b.min, max: a.max + b.max });

/** PostgreSQL's interval text (`1 day`, `2 hours 30 mins`, `@ 1 mon ago`, `01:30:00`). */
const intervalText = (raw: string): Span | undefined => {
  let text = raw.trim().toLowerCase();
  let sign = 1;
  if (text.startsWith('@')) text = text.slice(1).trim();
  if (/\bago$/.test(text)) {
    sign = -1;
    text = text.replace(/\s*ago$/, '');
  }
  const clock = /(?:^|\s)([-+]?)(\d{1,9}):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(text);
  let total: Span = { min: 0, max: 0 };
  const signs = new Set<number>();
  if (clock) {
    const ms = ((Number(clock[2]) * 60 + Number(clock[3])) * 60 + Number(clock[4] ?? 0)) * 1_000;
    const clockSign = clock[1] === '-' ? -1 : 1;
    if (ms > 0) signs.add(clockSign);
    total = plus(total, { min: clockSign * ms, max: clockSign * ms });
    text = text.slice(0, clock.index).trim();
  }
  if (text !== '') {
    const parts = text.split(/\s+/);
    if (parts.length % 2 !== 0) return undefined;
    for (let i = 0; i < parts.length; i += 2) {
      const amount = parts[i]!;
      const span = unitSpan(parts[i + 1]!.replace(/,$/, ''));
      if (!/^[-+]?[0-9]+(\.[0-9]+)?$/.test(amount) || !span) return undefined;
      const value = Number(amount);
      if (value !== 0) signs.add(Math.sign(value));
      total = plus(total, scaled(span, value));
    }
  }
  // Mixed signs (`1 mon -30 days`) can come to zero or next to it: not counted, refused.
  if (signs.size !== 1) return undefined;
  return scaled(total, sign);
};

// Interval typmod masks of a single field (INTERVAL '1' DAY): PostgreSQL's INTERVAL_MASK bits.
const FIELD_MASKS: Record<number, string> = {
  2: 'month',
  4: 'year',
  8: 'day',
  1024: 'hour',
  2048: 'minute',
  4096: 'second',
};

/** A constant interval: `INTERVAL '1 day'`, `'1 day'::interval`, `INTERVAL '1' DAY`. */
const intervalConstant = (node: unknown): Span | undefined => {
  const cast = only(node);
  if (cast?.[0] !== 'TypeCast') return undefined;
  const typeName = cast[1].typeName as PgNode | undefined;
  if (builtin(typeName?.names) !== 'interval') return undefined;
  const text = stringConstant(cast[1].arg);
  if (text === undefined) return undefined;
  const typmods = Array.isArray(typeName?.typmods) ? typeName.typmods : [];
  if (typmods.length === 0) return intervalText(text);
  const mask = typmods.length === 1 ? numberConstant(typmods[0]) : undefined;
  const field = mask === undefined ? undefined : FIELD_MASKS[mask];
  return field && /^[-+]?[0-9]+$/.test(text.trim()) ? intervalText(`${text.trim()} ${field}`) : undefined;
};

type Instant = { base: 'fixed' | 'now'; span: Span };

// A date or timestamp literal; a zone suffix is allowed (every constant is widened by a day).
const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?(?:\s*(?:[+-]\d{1,2}(?::?\d{2})?|z|utc))?$/i;

const TIME_TYPES = /^(date|timestamp|timestamptz)$/;
const TRUNC_UNITS: Record<string, number> = {
  microseconds: 0,
  milliseconds: 1,
  second: 1_000,
  minute: 60_000,
  hour: HOUR,
  day: DAY + HOUR,
  week: 7 * DAY + HOUR,
  month: 31 * DAY + HOUR,
  quarter: 92 * DAY + HOUR,
  year: 366 * DAY + HOUR,
  decade: 3653 * DAY,
  century: 36_525 * DAY,
  millennium: 365_243 * DAY,
};

/** Widened by a day both ways: a time zone (or a cast between date and timestamptz) moves it. */
const zoned = (instant: Instant): Instant => ({
  base: instant.base,
  span: { min: instant.span.min - DAY, max: instant.span.max + DAY },
});

/** A bound of a time series as a range of instants, fixed or relative to the statement's time. */
const instantOf = (node: unknown, depth = 0): Instant | undefined => {
  if (depth > 16) return undefined;
  const typed = only(node);
  if (!typed) return undefined;
  const [type, body] = typed;
  switch (type) {
    case 'A_Const': {
      const match = DATE_TEXT.exec(stringConstant(node)?.trim() ?? '');
      if (!match) return undefined;
      const [, y, mo, d, h, mi, s] = match;
      const ms = Date.UTC(
        Number(y),
        Number(mo) - 1,
        Number(d),
        Number(h ?? 0),
        Number(mi ?? 0),
        Number(s ?? 0),
      );
      return Number.isFinite(ms) ? zoned({ base: 'fixed', span: { min: ms, max: ms } }) : undefined;
    }
    case 'TypeCast': {
      const target = builtin((body.typeName as PgNode | undefined)?.names);
      const inner = target && TIME_TYPES.test(target) ? instantOf(body.arg, depth + 1) : undefined;
      return inner && zoned(inner);
    }
    case 'SQLValueFunction':
      return /^SVFOP_(CURRENT_DATE|CURRENT_TIMESTAMP|LOCALTIMESTAMP)/.test(String(body.op))
        ? zoned({ base: 'now', span: { min: 0, max: 0 } })
        : undefined;
    case 'FuncCall': {
      const name = builtin(body.funcname);
      const args = Array.isArray(body.args) ? (body.args as PgNode[]) : [];
      if (name && /^(now|statement_timestamp|transaction_timestamp)$/.test(name) && args.length === 0)
        return { base: 'now', span: { min: 0, max: 0 } };
      if (name === 'clock_timestamp' && args.length === 0)
        return { base: 'now', span: { min: 0, max: HOUR } };
      if (name === 'date_trunc' && (args.length === 2 || args.length === 3)) {
        const unit = stringConstant(args[0])?.trim().toLowerCase();
        const width = unit === undefined || !Object.hasOwn(TRUNC_UNITS, unit) ? undefined : TRUNC_UNITS[unit];
        const inner = width === undefined ? undefined : instantOf(args[1], depth + 1);
        if (!inner || width === undefined) return undefined;
        const truncated = { base: inner.base, span: { min: inner.span.min - width, max: inner.span.max } };
        return args.length === 3 ? zoned(truncated) : truncated;
      }
      return undefined;
    }
    case 'A_Expr': {
      const operator = names(body.name);
      if (body.kind !== 'AEXPR_OP' || operator.length !== 1) return undefined;
      const sign = operator[0] === '+' ? 1 : operator[0] === '-' ? -1 : 0;
      if (sign === 0) return undefined;
      // time ± interval, time ± days (date arithmetic), interval + time
      const shift = (instant: Instant | undefined, by: unknown, factor: number) => {
        const interval = intervalConstant(by);
        const days = interval ? undefined : numberConstant(by);
        const span =
          interval ??
          (days !== undefined && Number.isInteger(days) ? scaled({ min: DAY, max: DAY }, days) : undefined);
        return instant && span
          ? { base: instant.base, span: plus(instant.span, scaled(span, factor)) }
          : undefined;
      };
      return (
        shift(instantOf(body.lexpr, depth + 1), body.rexpr, sign) ??
        (sign === 1 ? shift(instantOf(body.rexpr, depth + 1), body.lexpr, 1) : undefined)
      );
    }
    default:
      return undefined;
  }
};

const seriesRefusal = (args: readonly PgNode[]): string | undefined => {
  const tooMany = `generate_series may produce at most ${MAX_SERIES_ROWS} rows`;
  if (args.length < 2 || args.length > 3) return 'generate_series takes a start, a stop and a step';
  const numbers = args.map(numberConstant);
  if (numbers.every((value) => value !== undefined)) {
    const [start, stop, step = 1] = numbers as number[];
    if (step === 0) return 'generate_series needs a step other than 0';
    const rows = Math.floor((stop! - start!) / step) + 1;
    return rows > MAX_SERIES_ROWS ? tooMany : undefined;
  }
  const step = args.length === 3 ? intervalConstant(args[2]) : undefined;
  const start = instantOf(args[0]);
  const stop = instantOf(args[1]);
  if (!step || !start || !stop || start.base !== stop.base) {
    return (
      'generate_series needs bounds the guard can count: integer constants, or a constant interval step ' +
      'between constant dates or times relative to now()'
    );
  }
  const distance = Math.max(
    Math.abs(stop.span.max - start.span.min),
    Math.abs(start.span.max - stop.span.min),
  );
  const stride = Math.min(Math.abs(step.min), Math.abs(step.max));
  if (stride === 0) return 'generate_series needs a step other than 0';
  return distance / stride + 1 > MAX_SERIES_ROWS ? tooMany : undefined;
};

/** Whether any node of a subtree (the value a concatenating aggregate collects) pads. */
const containsPadding = (tree: unknown, pads: (node: PgNode) => boolean): boolean => {
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) stack.push(...value);
    else {
      if (pads(value as PgNode)) return true;
      stack.push(...Object.values(value));
    }
  }
  return false;
};

/** PostgreSQL: a call of lpad or rpad, or of format with a width. */
const postgresPads = (node: PgNode): boolean => {
  const call = node.FuncCall as PgNode | undefined;
  if (!call || typeof call !== 'object') return false;
  const name = builtin(call.funcname);
  if (name === 'lpad' || name === 'rpad') return true;
  if (name !== 'format') return false;
  const args = Array.isArray(call.args) ? (call.args as PgNode[]) : [];
  const text = stringConstant(args[0]);
  return text === undefined || [...text.matchAll(FORMAT_SPEC)].some((match) => match[2] !== undefined);
};

const aggregateMessage = (name: string) =>
  `${name} cannot aggregate padded values (lpad, rpad, SPACE, format widths): their total size would be unbounded`;

/**
 * Why a call of an allowlisted PostgreSQL function may allocate without a bound the guard can
 * check; undefined when it is bounded. `name` is the folded builtin name, `args` the call's.
 */
export const postgresSizeRefusal = (name: string, args: readonly PgNode[]): string | undefined => {
  switch (name) {
    case 'lpad':
    case 'rpad':
      return sizeConstant(args[1]) ? undefined : sizeMessage(name, 'length');
    case 'format':
      return formatRefusal(args);
    case 'generate_series':
      return seriesRefusal(args);
    default:
      return CONCATENATING_AGGREGATES.has(name) && containsPadding(args, postgresPads)
        ? aggregateMessage(name)
        : undefined;
  }
};

// ---- MySQL / MariaDB ---------------------------------------------------------------------------

const mysqlSizeConstant = (node: unknown): boolean => {
  if (node === null || typeof node !== 'object') return false;
  const { type, value } = node as Record<string, unknown>;
  return (
    type === 'number' &&
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= MAX_SIZE_ARGUMENT
  );
};

const mysqlArguments = (args: unknown): unknown[] => {
  if (args === null || typeof args !== 'object') return [];
  const value = (args as Record<string, unknown>).value;
  return Array.isArray(value) ? value : [];
};

/** MySQL: a call of LPAD, RPAD or SPACE (node-sql-parser: {type: 'function', name: {name: [{value}]}}). */
const mysqlPads = (node: PgNode): boolean => {
  if (node.type !== 'function' || node.name === null || typeof node.name !== 'object') return false;
  const parts = (node.name as PgNode).name;
  const first = Array.isArray(parts) ? (parts[0] as PgNode | undefined) : undefined;
  return typeof first?.value === 'string' && /^(lpad|rpad|space)$/i.test(first.value);
};

/**
 * The MySQL guard's counterpart of postgresSizeRefusal: `name` upper-cased, `args` the call's
 * node (an expr_list for functions, the aggregate's args for GROUP_CONCAT and friends).
 */
export const mysqlSizeRefusal = (name: string, args: unknown): string | undefined => {
  const upper = name.toUpperCase();
  if (upper === 'LPAD' || upper === 'RPAD')
    return mysqlSizeConstant(mysqlArguments(args)[1]) ? undefined : sizeMessage(upper, 'length');
  if (upper === 'SPACE')
    return mysqlSizeConstant(mysqlArguments(args)[0]) ? undefined : sizeMessage(upper, 'count');
  if (CONCATENATING_AGGREGATES.has(upper.toLowerCase()) && containsPadding(args, mysqlPads))
    return aggregateMessage(upper);
  return undefined;
};
