// Glossary definitions as the builtin engine keeps them (glossary-sql.ts reads them): a tree of
// the expression forms allowed, over the columns of one relation, and its printing for PostgreSQL
// or MySQL with the alias of the relation in the query. A form a dialect cannot say the same way
// is not printed for it (undefined), never printed wrong.
import type { DialectName } from '#lib/core/catalog.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import type { Measure } from './intent.ts';
import { stringLiteral } from './sql.ts';

export type Aggregate = 'sum' | 'avg' | 'min' | 'max' | 'count';
type Field = 'year' | 'quarter' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'epoch' | 'other';

/** A fragment as a tree of the forms allowed, columns by their name in the one relation. */
export type Expr =
  | { k: 'col'; column: string }
  | { k: 'num'; text: string }
  | { k: 'str'; value: string }
  | { k: 'bool'; value: boolean }
  | { k: 'null' }
  | { k: 'op'; op: string; left?: Expr; right: Expr }
  | { k: 'and' | 'or'; args: Expr[] }
  | { k: 'not'; arg: Expr }
  | { k: 'is'; arg: Expr; test: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN'; negated: boolean }
  | { k: 'in'; arg: Expr; list: Expr[]; negated: boolean }
  | { k: 'between'; arg: Expr; low: Expr; high: Expr; negated: boolean }
  | { k: 'like'; arg: Expr; pattern: Expr; negated: boolean; insensitive: boolean }
  | { k: 'distinct'; left: Expr; right: Expr; negated: boolean }
  | { k: 'case'; arg?: Expr; whens: { when: Expr; result: Expr }[]; otherwise?: Expr }
  | { k: 'cast'; arg: Expr; type: string; mods: number[] }
  | { k: 'call'; fn: string; args: Expr[] }
  | { k: 'extract'; field: string; arg: Expr }
  | { k: 'agg'; fn: Aggregate; distinct: boolean; arg?: Expr };

export interface GlossaryDefinition {
  kind: 'metric' | 'filter';
  /** The term, lower case, as the measure or condition names it. */
  term: string;
  /** The relation's key (`schema.name`). */
  table: string;
  /** Its columns the fragment reads, first one first. */
  columns: string[];
  /** Those that hold a date or a time. */
  timeColumns: string[];
  expr: Expr;
  /** A metric that is SUM(inner) as a whole: the inner, which AVG, MIN or MAX may take instead. */
  sumOf?: Expr;
  /** A metric that is one aggregate call as a whole: which. */
  aggregate?: Aggregate;
  /**
   * A metric that is AVG(EXTRACT(EPOCH FROM (t.end - t.start)) / 60, 3600, 86400 or 604800) of
   * two timestamps: the engine's own duration, averaged, which prints the same SQL and reads
   * units ("average time to close in minutes"). (A sum of it stays a glossary measure: "the plant
   * with the most downtime hours" adds them up per plant, where a duration would rank rows.)
   */
  duration?: Extract<Measure, { kind: 'duration' }>;
  /** The dialects it can be printed in. */
  dialects: DialectName[];
}

export const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
export const COMPARISON = new Set(['=', '<>', '<', '>', '<=', '>=']);
/** PostgreSQL only: `||` is OR in MySQL, `^` is XOR. */
export const POSTGRES_OPERATORS = new Set(['||', '^']);
const FIELDS = new Set(['year', 'quarter', 'month', 'day', 'hour', 'minute', 'second', 'epoch']);
/** Cast targets by PostgreSQL's name for them (`signed`/`unsigned`: MySQL's, parsed as names). */
/** A lexicon's definitions, by `metric:<term>` and `filter:<term>` (`definitionKey`). */
export type GlossaryDefinitions = ReadonlyMap<string, GlossaryDefinition>;

export const definitionKey = (kind: 'metric' | 'filter', term: string): string => `${kind}:${term}`;

// ---- printing ----------------------------------------------------------------------------------

class Unprintable extends Error {}
const unprintable = (): never => {
  throw new Unprintable();
};

const temporalTypes = new Set(['date', 'timestamp', 'timestamptz', 'interval']);

/** Whether an expression is a date, a time or an interval (its arithmetic differs by dialect). */
const temporal = (expr: Expr, kinds: ReadonlyMap<string, string>): boolean => {
  if (expr.k === 'col') return kinds.get(expr.column) === 'date' || kinds.get(expr.column) === 'timestamp';
  if (expr.k === 'cast') return temporalTypes.has(expr.type);
  if (expr.k === 'op' && (expr.op === '+' || expr.op === '-'))
    return (expr.left !== undefined && temporal(expr.left, kinds)) || temporal(expr.right, kinds);
  if (expr.k === 'call' && expr.fn === 'coalesce') return expr.args.some((arg) => temporal(arg, kinds));
  return false;
};

export const compound = new Set(['op', 'and', 'or', 'not', 'is', 'in', 'between', 'like', 'distinct']);

/** How tightly an expression binds (PostgreSQL's and MySQL's order agree on these). */
const precedence = (expr: Expr): number => {
  switch (expr.k) {
    case 'or':
      return 1;
    case 'and':
      return 2;
    case 'not':
      return 3;
    case 'is':
    case 'in':
    case 'between':
    case 'like':
    case 'distinct':
      return 4;
    case 'op':
      if (!expr.left) return 9;
      if (COMPARISON.has(expr.op)) return 4;
      if (expr.op === '||') return 5;
      if (expr.op === '+' || expr.op === '-') return 6;
      if (expr.op === '^') return 8;
      return 7;
    default:
      return 10;
  }
};

/**
 * `expr` in `dialect`, each column printed by `column` (the relation's alias and the quoted
 * name), or undefined when the dialect has no way to say it.
 */
export const printExpr = (
  expr: Expr,
  dialect: DialectName,
  column: (name: string) => string,
  kinds: ReadonlyMap<string, string>,
): string | undefined => {
  const { expressions: style, dates } = dialectNamed(dialect);
  const print = (e: Expr): string => {
    /** An operand: parenthesised unless it is a single term. */
    const operand = (child: Expr) => (compound.has(child.k) ? `(${print(child)})` : print(child));
    /** An operand of `e`, parenthesised when it binds less tightly (or as tightly, on the right). */
    const side = (child: Expr, right = false) => {
      const own = precedence(e);
      const inner = precedence(child);
      const wrap = inner < own || (inner === own && (right || own === 4));
      return wrap ? `(${print(child)})` : print(child);
    };
    switch (e.k) {
      case 'col':
        return column(e.column);
      case 'num':
        return e.text;
      case 'str':
        try {
          return stringLiteral(e.value);
        } catch {
          return unprintable();
        }
      case 'bool':
        return e.value ? 'TRUE' : 'FALSE';
      case 'null':
        return 'NULL';
      case 'op': {
        if (!style.ownOperators && POSTGRES_OPERATORS.has(e.op)) return unprintable();
        if (!e.left) {
          // A sign before a signed operand is parenthesised: `--` would start a comment.
          const operand = side(e.right);
          return /^[-+]/.test(operand) ? `${e.op}(${operand})` : `${e.op}${operand}`;
        }
        if (
          !style.temporalArithmetic &&
          ARITHMETIC.has(e.op) &&
          (temporal(e.left, kinds) || temporal(e.right, kinds))
        ) {
          // Without date arithmetic, only whole days between two dates say it right.
          const twoDates = [e.left, e.right].every(
            (side) => side.k === 'col' && kinds.get(side.column) === 'date',
          );
          return e.op === '-' && twoDates ? dates.daysBetween(print(e.right), print(e.left)) : unprintable();
        }
        return `${side(e.left)} ${e.op} ${side(e.right, true)}`;
      }
      case 'and':
      case 'or':
        // (AND inside OR is parenthesised too, for the reader.)
        return e.args
          .map((arg) =>
            (arg.k === 'and' || arg.k === 'or') && arg.k !== e.k ? `(${print(arg)})` : side(arg),
          )
          .join(e.k === 'and' ? ' AND ' : ' OR ');
      case 'not':
        return `NOT ${operand(e.arg)}`;
      case 'is':
        return `${side(e.arg)} IS ${e.negated ? 'NOT ' : ''}${e.test}`;
      case 'in':
        return `${side(e.arg)} ${e.negated ? 'NOT IN' : 'IN'} (${e.list.map(print).join(', ')})`;
      case 'between':
        return `${side(e.arg)} ${e.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${side(e.low, true)} AND ${side(e.high, true)}`;
      case 'like':
        if (!style.ownOperators && e.insensitive) return unprintable();
        return `${side(e.arg)} ${e.negated ? 'NOT ' : ''}${e.insensitive ? 'ILIKE' : 'LIKE'} ${side(e.pattern, true)}`;
      case 'distinct':
        return style.distinct(side(e.left), side(e.right, true), e.negated);
      case 'case': {
        const arms = e.whens.map((arm) => `WHEN ${print(arm.when)} THEN ${print(arm.result)}`);
        const otherwise = e.otherwise ? ` ELSE ${print(e.otherwise)}` : '';
        return `CASE ${e.arg ? `${print(e.arg)} ` : ''}${arms.join(' ')}${otherwise} END`;
      }
      case 'cast':
        if (e.type === 'interval' && (!style.intervals || e.arg.k !== 'str')) return unprintable();
        return `CAST(${print(e.arg)} AS ${style.castType(e.type, e.mods) ?? unprintable()})`;
      case 'call':
        // GREATEST and LEAST skip NULLs in PostgreSQL and return NULL in MySQL.
        if (!style.greatestSkipsNulls && (e.fn === 'greatest' || e.fn === 'least')) return unprintable();
        return `${e.fn.toUpperCase()}(${e.args.map(print).join(', ')})`;
      case 'extract': {
        const field = FIELDS.has(e.field) ? (e.field as Field) : 'other';
        if (style.temporalArithmetic) {
          if (field === 'other' && !style.moreExtractFields?.test(e.field)) return unprintable();
          return `EXTRACT(${e.field.toUpperCase()} FROM ${operand(e.arg)})`;
        }
        if (field === 'other') return unprintable();
        if (field !== 'epoch') return `EXTRACT(${field.toUpperCase()} FROM ${operand(e.arg)})`;
        // The epoch of a difference of two times of a row: seconds between them.
        const { arg } = e;
        if (arg.k !== 'op' || arg.op !== '-' || !arg.left) return unprintable();
        const kindOf = (side: Expr) => (side.k === 'col' ? kinds.get(side.column) : undefined);
        const [end, start] = [arg.left, arg.right];
        if (kindOf(end) === 'timestamp' && kindOf(start) === 'timestamp')
          return dates.secondsBetween(print(start), print(end));
        return unprintable();
      }
      case 'agg':
        return `${e.fn.toUpperCase()}(${e.distinct ? 'DISTINCT ' : ''}${e.arg ? print(e.arg) : '*'})`;
    }
  };
  try {
    return print(expr);
  } catch (error) {
    if (error instanceof Unprintable) return undefined;
    throw error;
  }
};
