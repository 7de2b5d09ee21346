// What the PostgreSQL guard's walk (lib/dialects/postgres/rewrite.ts) knows of libpg-query's tree:
// the allowlists beside the functions (operators, cast types, SQL value keywords), the fields
// each node type may carry, small readers of nodes, and the walk's state and scopes. Deny by
// default: a node type or field not listed here refuses the query as UNSUPPORTED_SYNTAX.
import type { Catalog, CatalogColumn } from '#lib/core/catalog.ts';
import { type GuardRequest, type RefusalCode, refuse } from '#lib/sql/types.ts';
import type { PgNode } from './parser.ts';

// ---- Allowlists beside the functions ------------------------------------------------------

/**
 * Operators by name. With search_path pinned to pg_catalog only built-in operators resolve
 * anyway; the list keeps the surface to what analytic SQL uses.
 */
export const OPERATORS = new Set([
  // comparison and arithmetic
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
  '^',
  '|/',
  '||/',
  '@',
  // bits
  '&',
  '|',
  '#',
  '~',
  '<<',
  '>>',
  // strings: concatenation, LIKE / ILIKE (as operators), regular expressions, starts-with
  '||',
  '~~',
  '!~~',
  '~~*',
  '!~~*',
  '!~',
  '~*',
  '!~*',
  '^@',
  // JSON, arrays, ranges, text search
  '->',
  '->>',
  '#>',
  '#>>',
  '@>',
  '<@',
  '?',
  '?|',
  '?&',
  '@?',
  '@@',
  '&&',
]);

/**
 * Types a cast may name (after the parser's mapping: `integer` is `pg_catalog.int4`). Casting
 * runs the type's input or cast function, so this is an allowlist like the functions'.
 */
export const TYPES = new Set([
  'bool',
  'boolean',
  'int2',
  'int4',
  'int8',
  'smallint',
  'integer',
  'int',
  'bigint',
  'numeric',
  'decimal',
  'float4',
  'float8',
  'real',
  'float',
  'money',
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'json',
  'jsonb',
  'jsonpath',
  'uuid',
  'bytea',
  'bit',
  'varbit',
  'inet',
  'cidr',
  'macaddr',
  'tsvector',
  'tsquery',
]);

/** Object-identifier types: casting text to them looks names up in the system catalogs. */
export const CATALOG_TYPE = /^reg[a-z]*$/;

/** The SQL value keywords allowed: the date/time ones, not current_user/current_schema/... */
export const SQL_VALUE_FUNCTIONS = new Set([
  'SVFOP_CURRENT_DATE',
  'SVFOP_CURRENT_TIME',
  'SVFOP_CURRENT_TIME_N',
  'SVFOP_CURRENT_TIMESTAMP',
  'SVFOP_CURRENT_TIMESTAMP_N',
  'SVFOP_LOCALTIME',
  'SVFOP_LOCALTIME_N',
  'SVFOP_LOCALTIMESTAMP',
  'SVFOP_LOCALTIMESTAMP_N',
]);

/** A_Expr kinds whose `name` is an operator (the BETWEEN kinds carry a keyword instead). */
export const BETWEEN_KINDS = new Set([
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
]);

export const DATA_MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

// ---- Node shapes ------------------------------------------------------------------------

export type FieldKind = 'value' | 'node' | 'nodes';

/** Node types with nothing to check but their children: each field and how to walk it. */
export const PLAIN: Record<string, Record<string, FieldKind>> = {
  A_Const: { ival: 'value', fval: 'value', boolval: 'value', sval: 'value', bsval: 'value', isnull: 'value' },
  String: { sval: 'value' },
  Integer: { ival: 'value' },
  Float: { fval: 'value' },
  Boolean: { boolval: 'value' },
  BitString: { bsval: 'value' },
  A_Star: {},
  List: { items: 'nodes' },
  BoolExpr: { boolop: 'value', args: 'nodes' },
  NullTest: { arg: 'node', nulltesttype: 'value', argisrow: 'value' },
  BooleanTest: { arg: 'node', booltesttype: 'value' },
  CaseExpr: { arg: 'node', args: 'nodes', defresult: 'node' },
  CaseWhen: { expr: 'node', result: 'node' },
  CoalesceExpr: { args: 'nodes' },
  MinMaxExpr: { op: 'value', args: 'nodes' },
  A_ArrayExpr: { elements: 'nodes', list_start: 'value', list_end: 'value' },
  A_Indirection: { arg: 'node', indirection: 'nodes' },
  A_Indices: { is_slice: 'value', lidx: 'node', uidx: 'node' },
  RowExpr: { args: 'nodes', row_format: 'value', colnames: 'nodes' },
  GroupingSet: { kind: 'value', content: 'nodes' },
  GroupingFunc: { args: 'nodes' },
  NamedArgExpr: { arg: 'node', name: 'value', argnumber: 'value' },
  ResTarget: { name: 'value', val: 'node' },
};

export const SELECT_FIELDS = new Set([
  'distinctClause',
  'intoClause',
  'targetList',
  'fromClause',
  'whereClause',
  'groupClause',
  'groupDistinct',
  'havingClause',
  'windowClause',
  'valuesLists',
  'sortClause',
  'limitOffset',
  'limitCount',
  'limitOption',
  'lockingClause',
  'withClause',
  'op',
  'all',
  'larg',
  'rarg',
]);

export const fields = (...names: string[]): ReadonlySet<string> => new Set([...names, 'location']);

export const SHAPES: Record<string, ReadonlySet<string>> = {
  RangeVar: fields('catalogname', 'schemaname', 'relname', 'inh', 'relpersistence', 'alias'),
  Alias: fields('aliasname', 'colnames'),
  JoinExpr: fields(
    'jointype',
    'isNatural',
    'larg',
    'rarg',
    'usingClause',
    'join_using_alias',
    'quals',
    'alias',
    'rtindex',
  ),
  RangeSubselect: fields('lateral', 'subquery', 'alias'),
  RangeFunction: fields('lateral', 'ordinality', 'is_rowsfrom', 'functions', 'alias', 'coldeflist'),
  ColumnDef: fields('colname', 'typeName', 'is_local', 'collClause'),
  FuncCall: fields(
    'funcname',
    'args',
    'agg_order',
    'agg_filter',
    'over',
    'agg_within_group',
    'agg_star',
    'agg_distinct',
    'func_variadic',
    'funcformat',
  ),
  WindowDef: fields(
    'name',
    'refname',
    'partitionClause',
    'orderClause',
    'frameOptions',
    'startOffset',
    'endOffset',
  ),
  TypeCast: fields('arg', 'typeName'),
  TypeName: fields('names', 'typeOid', 'setof', 'pct_type', 'typmods', 'typemod', 'arrayBounds'),
  SubLink: fields('subLinkType', 'subLinkId', 'testexpr', 'operName', 'subselect'),
  A_Expr: fields('kind', 'name', 'lexpr', 'rexpr', 'rexpr_list_start', 'rexpr_list_end'),
  SQLValueFunction: fields('op', 'typmod'),
  CollateClause: fields('arg', 'collname'),
  SortBy: fields('node', 'sortby_dir', 'sortby_nulls', 'useOp'),
  WithClause: fields('ctes', 'recursive'),
  CommonTableExpr: fields(
    'ctename',
    'aliascolnames',
    'ctematerialized',
    'ctequery',
    'search_clause',
    'cycle_clause',
  ),
  CTESearchClause: fields('search_col_list', 'search_breadth_first', 'search_seq_column'),
  CTECycleClause: fields(
    'cycle_col_list',
    'cycle_mark_column',
    'cycle_mark_value',
    'cycle_mark_default',
    'cycle_path_column',
  ),
  ColumnRef: fields('fields'),
};

// Node types that mean a refusal with its own code wherever they appear.
export const REFUSED_NODES: Record<string, [RefusalCode, string]> = {
  ParamRef: ['PLACEHOLDER', 'Placeholders ($1, ...) are not allowed in generated SQL'],
  RangeTableSample: ['TABLESAMPLE', 'TABLESAMPLE is not allowed'],
  IntoClause: ['SELECT_INTO', 'SELECT INTO is not allowed'],
  LockingClause: ['LOCKING_CLAUSE', 'FOR UPDATE / FOR SHARE is not allowed'],
};

/** The one key of a node (`{SelectStmt: {...}}` → 'SelectStmt'); '' for the empty node `{}`. */
export const typeOf = (node: unknown): string => {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    return refuse('UNSUPPORTED_SYNTAX', 'Unexpected parse tree value');
  }
  const keys = Object.keys(node);
  if (keys.length > 1) return refuse('UNSUPPORTED_SYNTAX', 'Unexpected parse tree node');
  return keys[0] ?? '';
};

export const bodyOf = (node: PgNode, type: string): PgNode => node[type] as PgNode;

export const checkShape = (type: string, body: PgNode, allowed: ReadonlySet<string>): void => {
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) refuse('UNSUPPORTED_SYNTAX', `${type}.${key} is not supported`);
  }
};

export const list = (value: unknown): PgNode[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return refuse('UNSUPPORTED_SYNTAX', 'Expected a list in the parse tree');
  return value as PgNode[];
};

/** The names of a qualified name list (`[{String: {sval: 'pg_catalog'}}, ...]`). */
export const strings = (value: unknown): string[] =>
  list(value).map((item) => {
    const sval = typeOf(item) === 'String' ? (bodyOf(item, 'String').sval ?? '') : undefined;
    return typeof sval === 'string' ? sval : refuse('UNSUPPORTED_SYNTAX', 'Expected a name');
  });

/** `[name]` or `['pg_catalog', name]` → name; anything else (another schema) → undefined. */
export const builtinName = (names: string[]): string | undefined => {
  if (names.length === 1) return names[0];
  if (names.length === 2 && names[0] === 'pg_catalog') return names[1];
  return undefined;
};

// ---- Scopes -------------------------------------------------------------------------------

/** A relation a FROM item named, remembered for three-part column references. */
export interface FromItem {
  relation?: { schema: string; name: string };
  aliased: boolean;
  /** The filtering wrapper that replaced it, for the leakproof push-down (pushLeakproof). */
  wrapper?: Wrapper;
}

/** A wrapper's inner SELECT, the name its columns are qualified with inside, and its columns. */
export interface Wrapper {
  select: PgNode;
  name: string;
  columns: readonly CatalogColumn[];
}

/**
 * One step of name resolution. A WITH list adds a step holding its CTE names; a query level
 * (one SELECT's FROM) adds a step holding its FROM items. Lookups go outward through `parent`.
 */
export interface Scope {
  parent: Scope | undefined;
  ctes: ReadonlySet<string>;
  items?: Map<string, FromItem[]>;
}

export const isCte = (name: string, scope: Scope | undefined): boolean => {
  for (let s = scope; s; s = s.parent) if (s.ctes.has(name)) return true;
  return false;
};

export const NO_CTES: ReadonlySet<string> = new Set();

// ---- The walk's state -----------------------------------------------------------------------

export interface FilterParams {
  /** ParamRef bodies numbered once the whole tree is known: $1 tenant, then scope. */
  tenant: PgNode[];
  scope: PgNode[];
}

export interface WalkState {
  request: GuardRequest;
  catalog: Catalog;
  userFunctions: ReadonlySet<string>;
  params: FilterParams;
  depth: number;
}

export const newWalkState = (request: GuardRequest): WalkState => ({
  request,
  catalog: request.catalog,
  // Introspection may list names bare or schema-qualified; the guard compares the bare name.
  userFunctions: new Set(request.catalog.userFunctions.map((name) => name.split('.').at(-1) ?? name)),
  params: { tenant: [], scope: [] },
  depth: 0,
});

// ---- Nodes the rewrite adds ----------------------------------------------------------------

export const columnRef = (...names: string[]): PgNode => ({
  ColumnRef: { fields: names.map((sval) => ({ String: { sval } })) },
});

export const integerConstant = (value: number): PgNode => ({
  A_Const: { ival: value === 0 ? {} : { ival: value } },
});
