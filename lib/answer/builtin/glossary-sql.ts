// Glossary metrics and filters of any SQL over the columns of one relation, as the builtin engine
// reads them (glossary.ts keeps the simple forms it had before: SUM(t.c), SUM(t.a * t.b), `t.c`,
// `t.c = 'v'`, `t.c IN (…)`, `t.c <op> n`). A fragment is parsed with PostgreSQL's own grammar
// (libpg-query, as the guard does) and kept only when it is a pure expression: columns of one
// relation, constants, operators, CASE, casts to plain types, IS NULL, IN, BETWEEN, LIKE, AND,
// OR, NOT, a short list of scalar functions and the aggregates SUM, AVG, MIN, MAX and COUNT
// (DISTINCT), with FILTER (WHERE …) read as a CASE inside the aggregate. No subquery, other relation, parameter, window, clock, or function outside that
// list. A metric holds an aggregate around every column ("SUM(extract(epoch from (e.end_ts -
// e.start_ts)) / 3600)", "AVG(enrolments.grade_pts)"); a filter holds none
// ("shipments.delivered_at > shipments.due_at"). The engine then uses it by its term, a named
// measure or condition (glossary-use.ts), printed with the alias of the relation in the query for
// PostgreSQL or MySQL (glossary-expr.ts); a fragment a dialect cannot say the same way (`||`,
// ILIKE, an interval, the epoch of anything but the difference of two timestamps…) is not
// offered for that dialect. The final query still goes through the SQL guard like every other.
import type { Catalog, CatalogColumn, CatalogRelation } from '#lib/core/catalog.ts';
import { DIALECTS } from '#lib/dialects/index.ts';
import { loadFragmentParser, type FragmentNode as PgNode } from '#lib/dialects/machinery.ts';
import {
  type Aggregate,
  ARITHMETIC,
  COMPARISON,
  type Expr,
  type GlossaryDefinition,
  POSTGRES_OPERATORS,
  printExpr,
} from './glossary-expr.ts';
import type { Measure } from './intent.ts';

// ---- the parser --------------------------------------------------------------------------------

let parse: ((sql: string) => PgNode[]) | undefined;

/**
 * Loads PostgreSQL's parser (WASM) for glossary fragments, once per process and never at import:
 * the answering path awaits it before the builtin engine reads a glossary with metrics or filters.
 */
export const prepareGlossarySql = async (): Promise<void> => {
  if (parse) return;
  parse = await loadFragmentParser();
};

/** Whether fragments can be read now (a lexicon built before cannot have read them). */
export const glossarySqlReady = (): boolean => parse !== undefined;

// ---- reading -------------------------------------------------------------------------------------

class Rejected extends Error {}
const reject = (why: string): never => {
  throw new Rejected(why);
};

const AGGREGATES = new Set<string>(['sum', 'avg', 'min', 'max', 'count']);
/** Scalar functions of one meaning in both dialects, with their argument counts. */
const SCALARS: Record<string, [number, number]> = {
  abs: [1, 1],
  ceil: [1, 1],
  ceiling: [1, 1],
  floor: [1, 1],
  round: [1, 2],
  sign: [1, 1],
  sqrt: [1, 1],
  power: [2, 2],
  mod: [2, 2],
  lower: [1, 1],
  upper: [1, 1],
};
const TYPES = new Set([
  'numeric',
  'int2',
  'int4',
  'int8',
  'float4',
  'float8',
  'text',
  'varchar',
  'bpchar',
  'date',
  'timestamp',
  'timestamptz',
  'interval',
  'bool',
  'signed',
  'unsigned',
]);

const node = (value: unknown): [string, Record<string, unknown>] => {
  if (value === null || typeof value !== 'object') return reject('not an expression');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length !== 1) return reject('not an expression');
  const [type, body] = entries[0]!;
  if (body === null || typeof body !== 'object') return reject('not an expression');
  return [type, body as Record<string, unknown>];
};

const strings = (list: unknown): string[] =>
  (Array.isArray(list) ? list : []).map((item) => {
    const [type, body] = node(item);
    return type === 'String' && typeof body.sval === 'string' ? body.sval : reject('not a name');
  });

const list = (value: unknown): unknown[] => {
  if (Array.isArray(value)) return value;
  const [type, body] = node(value);
  return type === 'List' && Array.isArray(body.items) ? body.items : reject('not a list');
};

/** A cast target's name (`pg_catalog.numeric` → numeric) and its modifiers (numeric(10,2)). */
const typeOf = (value: unknown): { type: string; mods: number[] } => {
  const body = value as { names?: unknown; typmods?: unknown[]; arrayBounds?: unknown; setof?: unknown };
  if (body.arrayBounds !== undefined || body.setof) return reject('not a plain type');
  const names = strings(body.names);
  const type =
    names.length === 2 && names[0] === 'pg_catalog' ? names[1]! : names.length === 1 ? names[0]! : '';
  if (!TYPES.has(type)) return reject(`cast to ${names.join('.')}`);
  const mods = (body.typmods ?? []).map((mod) => {
    const [kind, constant] = node(mod);
    const ival = (constant.ival as { ival?: number } | undefined)?.ival ?? 0;
    return kind === 'A_Const' && constant.ival !== undefined ? ival : reject('a type modifier');
  });
  return { type, mods };
};

interface Reading {
  /** Names of the relation the qualified columns give (`shipments`, `public.shipments`). */
  relations: Set<string>;
  /** Every column reference: its qualifier (or '' when bare) and name. */
  refs: { qualifier: string; column: string }[];
}

/** The parse tree of an expression as an `Expr`, or a `Rejected` naming what is not allowed. */
const toExpr = (value: unknown, reading: Reading, inAggregate: boolean): Expr => {
  const [type, body] = node(value);
  const sub = (child: unknown) => toExpr(child, reading, inAggregate);
  switch (type) {
    case 'ColumnRef': {
      const fields = strings(body.fields);
      if (fields.length < 1 || fields.length > 3) return reject('a column name');
      const column = fields[fields.length - 1]!;
      const qualifier = fields.slice(0, -1).join('.');
      if (qualifier) reading.relations.add(qualifier);
      reading.refs.push({ qualifier, column });
      return { k: 'col', column: `${qualifier}\u0000${column}` };
    }
    case 'A_Const': {
      if (body.isnull) return { k: 'null' };
      if (body.ival !== undefined)
        return { k: 'num', text: String((body.ival as { ival?: number }).ival ?? 0) };
      if (body.fval !== undefined) {
        const text = String((body.fval as { fval?: string }).fval ?? '');
        return /^\d+(\.\d+)?$|^\.\d+$/.test(text) ? { k: 'num', text } : reject('a number');
      }
      if (body.sval !== undefined)
        return { k: 'str', value: String((body.sval as { sval?: string }).sval ?? '') };
      if (body.boolval !== undefined)
        return { k: 'bool', value: (body.boolval as { boolval?: boolean }).boolval === true };
      return reject('a constant');
    }
    case 'A_Expr': {
      const kind = body.kind as string;
      const name = strings(body.name);
      const op = name.length === 1 ? name[0]! : '';
      if (kind === 'AEXPR_OP') {
        if (!ARITHMETIC.has(op) && !COMPARISON.has(op) && !POSTGRES_OPERATORS.has(op))
          return reject(`the operator ${op}`);
        if (body.lexpr === undefined && op !== '-' && op !== '+') return reject(`the operator ${op}`);
        return {
          k: 'op',
          op,
          ...(body.lexpr !== undefined ? { left: sub(body.lexpr) } : {}),
          right: sub(body.rexpr),
        };
      }
      if (kind === 'AEXPR_IN') {
        const items = list(body.rexpr).map(sub);
        if (items.length === 0 || items.length > 50) return reject('an IN list');
        return { k: 'in', arg: sub(body.lexpr), list: items, negated: op === '<>' };
      }
      if (kind === 'AEXPR_BETWEEN' || kind === 'AEXPR_NOT_BETWEEN') {
        const [low, high, ...rest] = list(body.rexpr);
        if (low === undefined || high === undefined || rest.length > 0) return reject('BETWEEN');
        return {
          k: 'between',
          arg: sub(body.lexpr),
          low: sub(low),
          high: sub(high),
          negated: kind === 'AEXPR_NOT_BETWEEN',
        };
      }
      if (kind === 'AEXPR_LIKE' || kind === 'AEXPR_ILIKE') {
        return {
          k: 'like',
          arg: sub(body.lexpr),
          pattern: sub(body.rexpr),
          negated: op.startsWith('!'),
          insensitive: kind === 'AEXPR_ILIKE',
        };
      }
      if (kind === 'AEXPR_DISTINCT' || kind === 'AEXPR_NOT_DISTINCT')
        return {
          k: 'distinct',
          left: sub(body.lexpr),
          right: sub(body.rexpr),
          negated: kind === 'AEXPR_NOT_DISTINCT',
        };
      if (kind === 'AEXPR_NULLIF')
        return { k: 'call', fn: 'nullif', args: [sub(body.lexpr), sub(body.rexpr)] };
      return reject(`the expression ${kind}`);
    }
    case 'BoolExpr': {
      const args = list(body.args).map(sub);
      if (body.boolop === 'AND_EXPR') return { k: 'and', args };
      if (body.boolop === 'OR_EXPR') return { k: 'or', args };
      if (body.boolop === 'NOT_EXPR' && args.length === 1) return { k: 'not', arg: args[0]! };
      return reject('a boolean expression');
    }
    case 'NullTest':
      return { k: 'is', arg: sub(body.arg), test: 'NULL', negated: body.nulltesttype === 'IS_NOT_NULL' };
    case 'BooleanTest': {
      const test = /^IS_(NOT_)?(TRUE|FALSE|UNKNOWN)$/.exec(String(body.booltesttype));
      if (!test) return reject('a boolean test');
      return { k: 'is', arg: sub(body.arg), test: test[2] as 'TRUE', negated: test[1] !== undefined };
    }
    case 'CaseExpr': {
      const whens = list(body.args).map((when) => {
        const [kind, arm] = node(when);
        if (kind !== 'CaseWhen') return reject('CASE');
        return { when: sub(arm.expr), result: sub(arm.result) };
      });
      return {
        k: 'case',
        ...(body.arg !== undefined ? { arg: sub(body.arg) } : {}),
        whens,
        ...(body.defresult !== undefined ? { otherwise: sub(body.defresult) } : {}),
      };
    }
    case 'CoalesceExpr':
      return { k: 'call', fn: 'coalesce', args: list(body.args).map(sub) };
    case 'MinMaxExpr':
      return {
        k: 'call',
        fn: body.op === 'IS_GREATEST' ? 'greatest' : 'least',
        args: list(body.args).map(sub),
      };
    case 'TypeCast': {
      const { type: target, mods } = typeOf(body.typeName);
      return { k: 'cast', arg: sub(body.arg), type: target, mods };
    }
    case 'FuncCall': {
      const names = strings(body.funcname);
      const fn =
        names.length === 1 ? names[0]! : names.length === 2 && names[0] === 'pg_catalog' ? names[1]! : '';
      if (body.over !== undefined || body.agg_order !== undefined)
        return reject('a window or ordered aggregate');
      if (body.agg_filter !== undefined && !AGGREGATES.has(fn)) return reject('FILTER');
      if (body.agg_within_group || body.func_variadic) return reject(`the function ${names.join('.')}`);
      const args = body.args === undefined ? [] : list(body.args);
      if (AGGREGATES.has(fn)) {
        if (inAggregate) return reject('an aggregate inside an aggregate');
        if (!body.agg_star && args.length !== 1) return reject(`${fn} of ${args.length} arguments`);
        if (body.agg_star && fn !== 'count') return reject('*');
        const arg = body.agg_star ? undefined : toExpr(args[0], reading, true);
        // "SUM(x) FILTER (WHERE c)" is "SUM(CASE WHEN c THEN x END)", which both dialects say
        // ("COUNT(*) FILTER (WHERE c)": "COUNT(CASE WHEN c THEN 1 END)").
        const kept =
          body.agg_filter === undefined
            ? arg
            : {
                k: 'case' as const,
                whens: [
                  {
                    when: toExpr(body.agg_filter, reading, true),
                    result: arg ?? { k: 'num' as const, text: '1' },
                  },
                ],
              };
        return {
          k: 'agg',
          fn: fn as Aggregate,
          distinct: body.agg_distinct === true,
          ...(kept ? { arg: kept } : {}),
        };
      }
      if (body.agg_star || body.agg_distinct) return reject(`the function ${fn}`);
      if (fn === 'extract' || fn === 'date_part') {
        const [field, arg, ...rest] = args;
        const [kind, constant] = node(field);
        const name = (constant.sval as { sval?: string } | undefined)?.sval?.toLowerCase() ?? '';
        if (kind !== 'A_Const' || !/^[a-z]+$/.test(name) || arg === undefined || rest.length > 0)
          return reject(fn);
        return { k: 'extract', field: name, arg: sub(arg) };
      }
      // (Own keys only: `constructor` and `toString` are properties of every object.)
      const arity = Object.hasOwn(SCALARS, fn) ? SCALARS[fn] : undefined;
      if (!arity) return reject(`the function ${names.join('.')}`);
      if (args.length < arity[0] || args.length > arity[1])
        return reject(`${fn} of ${args.length} arguments`);
      return { k: 'call', fn, args: args.map(sub) };
    }
    default:
      return reject(type === 'SubLink' ? 'a subquery' : `the expression ${type}`);
  }
};

/** Every sub-expression of `expr`, itself first. */
const walk = function* (expr: Expr): Generator<Expr> {
  yield expr;
  const children: (Expr | undefined)[] = [];
  switch (expr.k) {
    case 'op':
      children.push(expr.left, expr.right);
      break;
    case 'and':
    case 'or':
      children.push(...expr.args);
      break;
    case 'not':
    case 'is':
    case 'cast':
    case 'extract':
      children.push(expr.arg);
      break;
    case 'in':
      children.push(expr.arg, ...expr.list);
      break;
    case 'between':
      children.push(expr.arg, expr.low, expr.high);
      break;
    case 'like':
      children.push(expr.arg, expr.pattern);
      break;
    case 'distinct':
      children.push(expr.left, expr.right);
      break;
    case 'case':
      children.push(expr.arg, ...expr.whens.flatMap((arm) => [arm.when, arm.result]), expr.otherwise);
      break;
    case 'call':
      children.push(...expr.args);
      break;
    case 'agg':
      children.push(expr.arg);
      break;
  }
  for (const child of children) if (child) yield* walk(child);
};

/** Whether a column is read outside any aggregate. */
const bareColumn = (expr: Expr): boolean => {
  if (expr.k === 'agg') return false;
  if (expr.k === 'col') return true;
  for (const child of walk(expr)) if (child !== expr && child.k !== 'agg' && bareColumn(child)) return true;
  return false;
};

const PREDICATES = new Set(['and', 'or', 'not', 'is', 'in', 'between', 'like', 'distinct']);

const findRelation = (catalog: Catalog, name: string): CatalogRelation | undefined => {
  const matches = (exact: boolean) =>
    catalog.relations.filter((relation) =>
      [relation.name, `${relation.schema}.${relation.name}`].some((candidate) =>
        exact ? candidate === name : candidate.toLowerCase() === name.toLowerCase(),
      ),
    );
  const exact = matches(true);
  if (exact.length === 1) return exact[0];
  const loose = matches(false);
  return exact.length === 0 && loose.length === 1 ? loose[0] : undefined;
};

const findColumn = (relation: CatalogRelation, name: string): CatalogColumn | undefined => {
  const exact = relation.columns.find((column) => column.name === name);
  if (exact) return exact;
  const loose = relation.columns.filter((column) => column.name.toLowerCase() === name.toLowerCase());
  return loose.length === 1 ? loose[0] : undefined;
};

const UNITS: Record<string, Extract<Measure, { kind: 'duration' }>['unit']> = {
  '60': 'minute',
  '3600': 'hour',
  '86400': 'day',
  '604800': 'week',
};

/** AVG(EXTRACT(EPOCH FROM (t.end - t.start)) / n) of two timestamps, as the engine's duration. */
const durationOf = (
  tree: Expr,
  table: string,
  kinds: ReadonlyMap<string, string>,
): Extract<Measure, { kind: 'duration' }> | undefined => {
  if (tree.k !== 'agg' || tree.distinct || tree.fn !== 'avg' || tree.arg?.k !== 'op') return undefined;
  const { op, left, right } = tree.arg;
  const unit = right.k === 'num' ? UNITS[right.text] : undefined;
  if (op !== '/' || !unit || left?.k !== 'extract' || left.field !== 'epoch') return undefined;
  const span = left.arg;
  if (span.k !== 'op' || span.op !== '-' || span.left?.k !== 'col' || span.right.k !== 'col')
    return undefined;
  const [end, start] = [span.left.column, span.right.column];
  if (kinds.get(end) !== 'timestamp' || kinds.get(start) !== 'timestamp') return undefined;
  return { kind: 'duration', left: { table, column: start }, right: { table, column: end }, unit };
};

/** Columns renamed to the catalog's spelling (the parser folds unquoted names to lower case). */
const renamed = (expr: Expr, names: Map<string, string>): Expr =>
  JSON.parse(JSON.stringify(expr), (key, value) =>
    key === 'column' && typeof value === 'string' ? (names.get(value) ?? value) : value,
  ) as Expr;

/**
 * A glossary metric or filter read as a definition over one relation of `catalog`, or the reason
 * it is not one the builtin engine can use.
 */
export const readDefinition = (
  catalog: Catalog,
  kind: 'metric' | 'filter',
  term: string,
  sql: string,
  tenantColumn?: string,
): GlossaryDefinition | { rejected: string } => {
  if (!parse) return { rejected: 'the parser is not loaded' };
  try {
    const statements = parse(`SELECT ${sql}`);
    const [statement] = statements;
    const [type, select] = statements.length === 1 ? node(statement) : ['', {}];
    if (type !== 'SelectStmt') return reject('more than one expression');
    // SELECT <expression> and nothing else: no FROM, WHERE, GROUP BY, set operation, WITH…
    for (const key of Object.keys(select))
      if (key !== 'targetList' && key !== 'limitOption' && key !== 'op') return reject('a whole query');
    if (select.op !== undefined && select.op !== 'SETOP_NONE') return reject('a whole query');
    const targets = list(select.targetList);
    const [target, targetBody] = targets.length === 1 ? node(targets[0]) : ['', {}];
    if (target !== 'ResTarget' || targetBody.name !== undefined) return reject('more than one expression');
    const reading: Reading = { relations: new Set(), refs: [] };
    const expr = toExpr(targetBody.val, reading, false);
    if (reading.relations.size !== 1)
      return reject(reading.relations.size === 0 ? 'no relation' : 'two relations');
    const relation = findRelation(catalog, [...reading.relations][0]!);
    if (!relation) return reject(`no relation ${[...reading.relations][0]}`);
    const names = new Map<string, string>();
    for (const ref of reading.refs) {
      const column = findColumn(relation, ref.column);
      if (!column || column.name === tenantColumn) return reject(`no column ${ref.column}`);
      names.set(`${ref.qualifier}\u0000${ref.column}`, column.name);
    }
    const tree = renamed(expr, names);
    const nodes = [...walk(tree)];
    const aggregated = nodes.some((child) => child.k === 'agg');
    if (kind === 'metric' && (!aggregated || bareColumn(tree))) return reject('a metric is an aggregate');
    if (kind === 'filter') {
      if (aggregated) return reject('a filter holds no aggregate');
      const flag = tree.k === 'col' && findColumn(relation, tree.column)?.kind === 'boolean';
      const comparison = tree.k === 'op' && COMPARISON.has(tree.op);
      if (!PREDICATES.has(tree.k) && !flag && !comparison) return reject('a filter is a condition');
    }
    const columns = [...new Set(nodes.flatMap((child) => (child.k === 'col' ? [child.column] : [])))];
    if (columns.length === 0) return reject('no column');
    const kinds = new Map(relation.columns.map((column) => [column.name, column.kind]));
    const definition: GlossaryDefinition = {
      kind,
      term,
      table: `${relation.schema}.${relation.name}`,
      columns,
      timeColumns: columns.filter((name) => kinds.get(name) === 'date' || kinds.get(name) === 'timestamp'),
      expr: tree,
      ...(tree.k === 'agg' && tree.fn === 'sum' && !tree.distinct && tree.arg ? { sumOf: tree.arg } : {}),
      ...(tree.k === 'agg' ? { aggregate: tree.fn } : {}),
      dialects: [],
    };
    for (const { name } of DIALECTS)
      if (printExpr(tree, name, (column) => column, kinds) !== undefined) definition.dialects.push(name);
    const duration = durationOf(tree, definition.table, kinds);
    if (duration) definition.duration = duration;
    return definition.dialects.length > 0 ? definition : reject('no dialect can print it');
  } catch (error) {
    if (error instanceof Rejected) return { rejected: error.message };
    return { rejected: 'not SQL the parser reads' };
  }
};
