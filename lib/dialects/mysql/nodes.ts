// What the MySQL/MariaDB guard's walk (lib/dialects/mysql/rewrite.ts) knows of node-sql-parser's
// tree: the keys each node may carry, the operators and literal kinds allowed, the function
// check, the walk's state and scopes, and how an unqualified name resolves to a CTE. Deny by
// default: a key or kind not listed here refuses the query as UNSUPPORTED_SYNTAX.
import { mysqlSizeRefusal } from '#lib/sql/allocation.ts';
import { type GuardRequest, refuse } from '#lib/sql/types.ts';
import { MYSQL_FUNCTIONS } from './functions.ts';
import { type AstNode, isNode } from './parser.ts';

// ---- The walk's state and scopes ---------------------------------------------------------

/**
 * One step of name resolution: a WITH clause's CTEs, seen from its body or a CTE's. Lookups go
 * outward through `parent`.
 */
export interface Scope {
  parent: Scope | undefined;
  ctes: readonly string[];
  /** Later CTEs of a RECURSIVE WITH: MariaDB resolves them, MySQL does not. */
  laterCtes: readonly string[];
  /** A CTE body: MariaDB does not see CTEs of enclosing WITH clauses from here (tested on 10.11). */
  barrier: boolean;
}

export interface WalkState {
  request: GuardRequest;
  /** Bound values, indexed by the number in their marker. */
  values: unknown[];
  /** Every SELECT and FROM item the walk checked; the sweep refuses any other. */
  checked: WeakSet<object>;
  userFunctions: ReadonlySet<string>;
  /** Nesting of expressions and statements under walk; deeper than MAX_DEPTH is refused. */
  depth: number;
  /** Marker names found in the printed text, which its reparsed tree shows as `?`. */
  markers: Set<string>;
}

export const newWalkState = (request: GuardRequest): WalkState => ({
  request,
  values: [],
  checked: new WeakSet(),
  // Introspection may list names bare or schema-qualified; the guard compares the bare name.
  userFunctions: new Set(request.catalog.userFunctions.map((name) => name.split('.').at(-1)!.toUpperCase())),
  depth: 0,
  markers: new Set(),
});

/**
 * Whether an unqualified name is a CTE, as every engine resolves it. A schema-qualified name is
 * never a CTE, so a name taken for a table is always safe (the rewrite qualifies it); a name
 * taken for a CTE must be one on MySQL and on MariaDB alike, or the query is refused.
 */
export const isCte = (name: string, scope: Scope | undefined): boolean => {
  const folded = name.toLowerCase();
  let crossedBarrier = false;
  for (let s = scope; s; s = s.parent) {
    if (s.laterCtes.some((n) => n.toLowerCase() === folded)) {
      refuse('UNSUPPORTED_SYNTAX', `CTE ${name} is referenced before its definition`);
    }
    const exact = s.ctes.includes(name);
    if (!exact && s.ctes.some((n) => n.toLowerCase() === folded)) {
      refuse('UNSUPPORTED_SYNTAX', `${name} differs from a CTE name only in letter case`);
    }
    if (exact) {
      if (crossedBarrier) {
        refuse(
          'UNSUPPORTED_SYNTAX',
          `CTE ${name} of an enclosing WITH is referenced from a nested WITH's CTE`,
        );
      }
      return true;
    }
    if (s.barrier) crossedBarrier = true;
  }
  return false;
};

// ---- Node shapes and allowlists ------------------------------------------------------------

export const present = (value: unknown): boolean => value !== null && value !== undefined;

export const checkShape = (node: AstNode, allowed: ReadonlySet<string>, what: string): void => {
  for (const [key, value] of Object.entries(node)) {
    if (!allowed.has(key) && present(value) && !(Array.isArray(value) && value.length === 0)) {
      refuse('UNSUPPORTED_SYNTAX', `Unsupported ${what} syntax (${key})`);
    }
  }
};

export const keySet = (...keys: string[]): ReadonlySet<string> => new Set([...keys, 'loc']);

export const SELECT_KEYS = keySet(
  'with',
  'type',
  'options',
  'distinct',
  'columns',
  'into',
  'from',
  'where',
  'groupby',
  'having',
  'orderby',
  'limit',
  'locking_read',
  'window',
  'collate',
  '_next',
  'set_op',
  '_orderby',
  '_limit',
  'parentheses_symbol',
);
export const SET_OPERATIONS = new Set(['union', 'union all', 'union distinct', 'intersect', 'except']);
export const JOINS = new Set(['INNER JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'CROSS JOIN', 'STRAIGHT_JOIN']);

export const BINARY_OPERATORS = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  'DIV',
  'MOD',
  'AND',
  'OR',
  'XOR',
  '&&',
  '||',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  'IS',
  'IS NOT',
  'IN',
  'NOT IN',
  'LIKE',
  'NOT LIKE',
  'REGEXP',
  'NOT REGEXP',
  'RLIKE',
  'NOT RLIKE',
  'BETWEEN',
  'NOT BETWEEN',
  'ESCAPE',
  '->',
  '->>',
]);
export const UNARY_OPERATORS = new Set(['NOT', '!', '-', '+', '~', 'EXISTS', 'NOT EXISTS']);

export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const KEYWORDS = /^[A-Za-z_][A-Za-z_ ]*$/;
export const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?( (PRECEDING|FOLLOWING))?$/i;
export const DATA_TYPE = /^[A-Za-z][A-Za-z0-9_ ]*(\(\d+(, ?\d+)?\))?$/;

export const nameOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (isNode(value) && typeof value.value === 'string') return value.value;
  return undefined;
};

export const checkCollate = (node: unknown): void => {
  if (!present(node)) return;
  if (!isNode(node)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported COLLATE clause');
  const inner = isNode(node.collate) && isNode(node.collate.collate) ? node.collate.collate : node.collate;
  if (!isNode(inner) || typeof inner.name !== 'string' || !IDENTIFIER.test(inner.name)) {
    refuse('UNSUPPORTED_SYNTAX', 'Unsupported COLLATE clause');
  }
};

/** `CONVERT(x USING cs)` hangs `USING cs` on its argument; `'a' COLLATE c` a collate object. */
export const checkSuffix = (node: AstNode): void => {
  const value = node.suffix;
  if (!present(value)) return;
  if (typeof value === 'string') {
    if (!/^USING [A-Za-z0-9_]+$/i.test(value)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported suffix');
    return;
  }
  if (isNode(value) && Object.keys(value).every((key) => key === 'collate')) {
    checkCollate(value.collate);
    return;
  }
  refuse('UNSUPPORTED_SYNTAX', 'Unsupported suffix');
};

export const LITERALS = new Set([
  'single_quote_string',
  'natural_string',
  'hex_string',
  'full_hex_string',
  'bit_string',
  'date',
  'time',
  'timestamp',
  'datetime',
  'bool',
  'null',
  'star',
]);
export const LITERAL_KEYS = keySet('type', 'value', 'prefix', 'suffix', 'escape', 'parentheses');

export const checkFunction = (node: AstNode, state: WalkState): string => {
  const name = node.name;
  if (!isNode(name) || !Array.isArray(name.name)) {
    return refuse('UNSUPPORTED_SYNTAX', 'Unsupported function call');
  }
  if (present(name.schema) || name.name.length !== 1) {
    return refuse('FUNCTION_NOT_ALLOWED', 'Schema-qualified functions are not allowed');
  }
  const part = name.name[0];
  if (!isNode(part) || typeof part.value !== 'string') {
    return refuse('UNSUPPORTED_SYNTAX', 'Unsupported function call');
  }
  if (part.type !== 'default' && part.type !== 'origin') {
    return refuse('FUNCTION_NOT_ALLOWED', `Quoted function names are not allowed (${part.value})`);
  }
  const upper = part.value.toUpperCase();
  if (state.userFunctions.has(upper)) {
    return refuse('FUNCTION_NOT_ALLOWED', `User-defined function ${part.value} is not allowed`);
  }
  if (!MYSQL_FUNCTIONS.has(upper)) {
    return refuse('FUNCTION_NOT_ALLOWED', `Function ${part.value} is not allowed`);
  }
  return upper;
};

/** Functions that allocate from an argument: bounded by a constant, or refused (lib/sql/allocation.ts). */
export const sizeBounded = (name: string, args: unknown): void => {
  const unbounded = mysqlSizeRefusal(name, args);
  if (unbounded !== undefined) refuse('SIZE_NOT_BOUNDED', unbounded);
};

export const checkLimit = (limit: unknown): void => {
  if (!present(limit)) return;
  if (!isNode(limit) || !Array.isArray(limit.value)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported LIMIT');
  checkShape(limit, keySet('seperator', 'value'), 'LIMIT');
  for (const value of limit.value) {
    if (isNode(value) && (value.type === 'param' || value.value === '?')) {
      refuse('PLACEHOLDER', 'Placeholders are not allowed in generated SQL');
    }
    if (!isNode(value) || value.type !== 'number' || !Number.isSafeInteger(value.value)) {
      refuse('UNSUPPORTED_SYNTAX', 'LIMIT takes integer constants only');
    }
  }
};
