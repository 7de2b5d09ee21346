// The checking and rewriting walk of the PostgreSQL guard (lib/sql/postgres.ts) over a raw
// parse tree from libpg-query. Deny by default at every level: each node type the walk knows
// lists the fields it may carry, and any other node type or field (a construct this code has
// not reasoned about, or a field a newer parser adds) refuses the query as UNSUPPORTED_SYNTAX.
//
// What it enforces (docs/design.md "Tenant filtering and the SQL guard"):
// - SELECT only, at every level: no SELECT INTO, no FOR UPDATE/SHARE, no TABLESAMPLE, no
//   data-modifying CTE, no placeholders;
// - functions, operators, casts and SQL value keywords from allowlists (lib/sql/functions.ts),
//   unqualified or `pg_catalog.` only; no function whose name a user function also has;
// - relations: each FROM reference is resolved as PostgreSQL resolves it (a CTE of an enclosing
//   WITH when unqualified and visible there, else a relation of the catalog's default schema or
//   the named one), judged by relationAccess(), and replaced by its filtered, schema-qualified
//   form. A FROM item is the only way a query reads rows, so filtering every FROM item that
//   names a relation filters the whole query, whatever the expressions around it do.
import type { Catalog, CatalogColumn } from '#lib/connectors/types.ts';
import { postgresSizeRefusal } from './allocation.ts';
import { POSTGRES_FUNCTIONS } from './functions.ts';
import { relationAccess } from './policy.ts';
import type { PgNode } from './postgres-parser.ts';
import { postgresRecursionRefusal } from './recursion.ts';
import { type GuardRequest, type RefusalCode, refuse } from './types.ts';

// ---- Allowlists beside the functions ------------------------------------------------------

/**
 * Operators by name. With search_path pinned to pg_catalog only built-in operators resolve
 * anyway; the list keeps the surface to what analytic SQL uses.
 */
const OPERATORS = new Set([
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
const TYPES = new Set([
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
const CATALOG_TYPE = /^reg[a-z]*$/;

/** The SQL value keywords allowed: the date/time ones, not current_user/current_schema/... */
const SQL_VALUE_FUNCTIONS = new Set([
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
const BETWEEN_KINDS = new Set([
  'AEXPR_BETWEEN',
  'AEXPR_NOT_BETWEEN',
  'AEXPR_BETWEEN_SYM',
  'AEXPR_NOT_BETWEEN_SYM',
]);

const DATA_MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

// ---- Node shapes ------------------------------------------------------------------------

type FieldKind = 'value' | 'node' | 'nodes';

/** Node types with nothing to check but their children: each field and how to walk it. */
const PLAIN: Record<string, Record<string, FieldKind>> = {
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

const SELECT_FIELDS = new Set([
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

const fields = (...names: string[]): ReadonlySet<string> => new Set([...names, 'location']);

const SHAPES: Record<string, ReadonlySet<string>> = {
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
const REFUSED_NODES: Record<string, [RefusalCode, string]> = {
  ParamRef: ['PLACEHOLDER', 'Placeholders ($1, ...) are not allowed in generated SQL'],
  RangeTableSample: ['TABLESAMPLE', 'TABLESAMPLE is not allowed'],
  IntoClause: ['SELECT_INTO', 'SELECT INTO is not allowed'],
  LockingClause: ['LOCKING_CLAUSE', 'FOR UPDATE / FOR SHARE is not allowed'],
};

/** The one key of a node (`{SelectStmt: {...}}` → 'SelectStmt'); '' for the empty node `{}`. */
const typeOf = (node: unknown): string => {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    return refuse('UNSUPPORTED_SYNTAX', 'Unexpected parse tree value');
  }
  const keys = Object.keys(node);
  if (keys.length > 1) return refuse('UNSUPPORTED_SYNTAX', 'Unexpected parse tree node');
  return keys[0] ?? '';
};

const bodyOf = (node: PgNode, type: string): PgNode => node[type] as PgNode;

const checkShape = (type: string, body: PgNode, allowed: ReadonlySet<string>): void => {
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) refuse('UNSUPPORTED_SYNTAX', `${type}.${key} is not supported`);
  }
};

const list = (value: unknown): PgNode[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return refuse('UNSUPPORTED_SYNTAX', 'Expected a list in the parse tree');
  return value as PgNode[];
};

/** The names of a qualified name list (`[{String: {sval: 'pg_catalog'}}, ...]`). */
const strings = (value: unknown): string[] =>
  list(value).map((item) => {
    const sval = typeOf(item) === 'String' ? (bodyOf(item, 'String').sval ?? '') : undefined;
    return typeof sval === 'string' ? sval : refuse('UNSUPPORTED_SYNTAX', 'Expected a name');
  });

/** `[name]` or `['pg_catalog', name]` → name; anything else (another schema) → undefined. */
const builtinName = (names: string[]): string | undefined => {
  if (names.length === 1) return names[0];
  if (names.length === 2 && names[0] === 'pg_catalog') return names[1];
  return undefined;
};

// ---- Scopes -------------------------------------------------------------------------------

/** A relation a FROM item named, remembered for three-part column references. */
interface FromItem {
  relation?: { schema: string; name: string };
  aliased: boolean;
  /** The filtering wrapper that replaced it, for the leakproof push-down (pushLeakproof). */
  wrapper?: Wrapper;
}

/** A wrapper's inner SELECT, the name its columns are qualified with inside, and its columns. */
interface Wrapper {
  select: PgNode;
  name: string;
  columns: readonly CatalogColumn[];
}

/**
 * One step of name resolution. A WITH list adds a step holding its CTE names; a query level
 * (one SELECT's FROM) adds a step holding its FROM items. Lookups go outward through `parent`.
 */
interface Scope {
  parent: Scope | undefined;
  ctes: ReadonlySet<string>;
  items?: Map<string, FromItem[]>;
}

const cteVisible = (name: string, scope: Scope | undefined): boolean => {
  for (let s = scope; s; s = s.parent) if (s.ctes.has(name)) return true;
  return false;
};

const NO_CTES: ReadonlySet<string> = new Set();

// ---- The walk -----------------------------------------------------------------------------

interface RelationUse {
  /** ParamRef bodies numbered once the whole tree is known: $1 tenant, then scope. */
  tenant: PgNode[];
  scope: PgNode[];
}

export interface WalkState {
  request: GuardRequest;
  catalog: Catalog;
  userFunctions: ReadonlySet<string>;
  params: RelationUse;
  depth: number;
}

/** Parse trees nest; past this depth the query is refused rather than the stack exhausted. */
const MAX_DEPTH = 400;

const enter = (state: WalkState): void => {
  state.depth++;
  if (state.depth > MAX_DEPTH) refuse('UNSUPPORTED_SYNTAX', 'The query nests too deeply');
};

export const newWalkState = (request: GuardRequest): WalkState => ({
  request,
  catalog: request.catalog,
  // Introspection may list names bare or schema-qualified; the guard compares the bare name.
  userFunctions: new Set(request.catalog.userFunctions.map((name) => name.split('.').at(-1) ?? name)),
  params: { tenant: [], scope: [] },
  depth: 0,
});

/** The walk of the guard's step 4: the statement must be a SELECT; checks and rewrites it in place. */
export const walkStatement = (statement: PgNode, state: WalkState): PgNode => {
  const type = Object.keys(statement)[0] ?? '';
  if (type !== 'SelectStmt') {
    return refuse(
      'NOT_SELECT',
      DATA_MODIFYING.has(type)
        ? `${type.replace('Stmt', '').toUpperCase()} is not allowed: only SELECT`
        : `Only SELECT is allowed (got ${type.replace(/Stmt$/, '') || 'an empty statement'})`,
    );
  }
  walkSelect(statement.SelectStmt as PgNode, undefined, state);
  return statement;
};

/** Checks and rewrites one SELECT (its body, `{targetList, fromClause, ...}`), in place. */
export const walkSelect = (select: PgNode, outer: Scope | undefined, state: WalkState): void => {
  enter(state);
  checkShape('SelectStmt', select, SELECT_FIELDS);
  if (select.intoClause !== undefined) refuse('SELECT_INTO', 'SELECT INTO is not allowed');
  if (list(select.lockingClause).length > 0)
    refuse('LOCKING_CLAUSE', 'FOR UPDATE / FOR SHARE is not allowed');
  const scope = select.withClause !== undefined ? walkWith(select.withClause as PgNode, outer, state) : outer;

  if (select.op !== undefined && select.op !== 'SETOP_NONE') {
    // A set operation: its members, then ORDER BY / LIMIT of the whole (output columns only).
    for (const key of [
      'targetList',
      'fromClause',
      'whereClause',
      'groupClause',
      'havingClause',
      'windowClause',
    ]) {
      if (select[key] !== undefined) refuse('UNSUPPORTED_SYNTAX', `Set operation with ${key}`);
    }
    for (const member of [select.larg, select.rarg]) {
      if (typeof member !== 'object' || member === null)
        refuse('UNSUPPORTED_SYNTAX', 'Malformed set operation');
      walkSelect(member as PgNode, scope, state);
    }
    const level: Scope = { parent: scope, ctes: NO_CTES, items: new Map() };
    for (const node of list(select.sortClause)) walkExpr(node, level, state);
    walkOptional(select.limitOffset, level, state);
    walkOptional(select.limitCount, level, state);
    state.depth--;
    return;
  }
  if (select.larg !== undefined || select.rarg !== undefined)
    refuse('UNSUPPORTED_SYNTAX', 'Malformed SELECT');

  const level: Scope = { parent: scope, ctes: NO_CTES, items: new Map() };
  if (select.fromClause !== undefined) {
    select.fromClause = list(select.fromClause).map((item) => walkFromItem(item, level, state));
  }
  for (const node of list(select.distinctClause)) {
    // Plain DISTINCT is a list holding one empty node; DISTINCT ON lists expressions.
    if (typeOf(node) !== '') walkExpr(node, level, state);
  }
  for (const key of ['targetList', 'groupClause', 'windowClause', 'valuesLists', 'sortClause']) {
    for (const node of list(select[key])) walkExpr(node, level, state);
  }
  walkOptional(select.whereClause, level, state);
  walkOptional(select.havingClause, level, state);
  walkOptional(select.limitOffset, level, state);
  walkOptional(select.limitCount, level, state);
  if (state.request.pushDown !== false) pushLeakproof(select, level);
  state.depth--;
};

/**
 * A WITH list, resolved as PostgreSQL does: without RECURSIVE a CTE sees only the CTEs before it
 * (a same-named table otherwise); with RECURSIVE every CTE of the list sees all of them,
 * itself included. The query under the WITH sees all of them. Returns that query's scope.
 */
const walkWith = (withClause: PgNode, outer: Scope | undefined, state: WalkState): Scope => {
  checkShape('WithClause', withClause, SHAPES.WithClause!);
  const ctes = list(withClause.ctes).map((node) => {
    if (typeOf(node) !== 'CommonTableExpr') refuse('UNSUPPORTED_SYNTAX', 'Unexpected WITH item');
    return bodyOf(node, 'CommonTableExpr');
  });
  const names = ctes.map((cte) => String(cte.ctename ?? ''));
  const all: Scope = { parent: outer, ctes: new Set(names) };
  ctes.forEach((cte, index) => {
    const scope =
      withClause.recursive === true ? all : { parent: outer, ctes: new Set(names.slice(0, index)) };
    // Read before the walk rewrites the step's tables into filtered subqueries.
    const growing = withClause.recursive === true ? postgresRecursionRefusal(cte) : undefined;
    if (growing !== undefined) refuse('SIZE_NOT_BOUNDED', growing);
    walkCte(cte, scope, state);
  });
  return all;
};

const walkCte = (cte: PgNode, scope: Scope, state: WalkState): void => {
  checkShape('CommonTableExpr', cte, SHAPES.CommonTableExpr!);
  strings(cte.aliascolnames);
  const query = cte.ctequery as PgNode;
  const type = typeOf(query);
  if (DATA_MODIFYING.has(type)) {
    refuse(
      'DATA_MODIFYING_CTE',
      `WITH ${String(cte.ctename)} AS (${type.replace('Stmt', '').toUpperCase()} ...) is not allowed`,
    );
  }
  if (type !== 'SelectStmt') refuse('NOT_SELECT', `WITH ${String(cte.ctename)} is not a SELECT`);
  walkSelect(bodyOf(query, 'SelectStmt'), scope, state);
  if (cte.search_clause !== undefined) {
    const search = cte.search_clause as PgNode;
    checkShape('CTESearchClause', search, SHAPES.CTESearchClause!);
    strings(search.search_col_list);
  }
  if (cte.cycle_clause !== undefined) {
    const cycle = cte.cycle_clause as PgNode;
    checkShape('CTECycleClause', cycle, SHAPES.CTECycleClause!);
    strings(cycle.cycle_col_list);
    const level: Scope = { parent: scope, ctes: NO_CTES, items: new Map() };
    walkOptional(cycle.cycle_mark_value, level, state);
    walkOptional(cycle.cycle_mark_default, level, state);
  }
};

const walkOptional = (node: unknown, level: Scope, state: WalkState): void => {
  if (node !== undefined) walkExpr(node as PgNode, level, state);
};

const register = (level: Scope, refname: string, item: FromItem): void => {
  const items = level.items!;
  const existing = items.get(refname);
  if (existing) existing.push(item);
  else items.set(refname, [item]);
};

const walkAlias = (alias: unknown): PgNode | undefined => {
  if (alias === undefined) return undefined;
  const body = alias as PgNode;
  checkShape('Alias', body, SHAPES.Alias!);
  strings(body.colnames);
  return body;
};

/** One FROM item, checked; returns what replaces it (a filtered subquery for a tenant table). */
const walkFromItem = (node: PgNode, level: Scope, state: WalkState): PgNode => {
  enter(state);
  const type = typeOf(node);
  const body = bodyOf(node, type);
  let result: PgNode = node;
  switch (type) {
    case 'RangeVar':
      result = walkRelation(body, level, state);
      break;
    case 'RangeSubselect': {
      checkShape(type, body, SHAPES.RangeSubselect!);
      const alias = walkAlias(body.alias);
      const subquery = body.subquery as PgNode;
      if (typeOf(subquery) !== 'SelectStmt') refuse('UNSUPPORTED_SYNTAX', 'Unexpected subquery');
      walkSelect(bodyOf(subquery, 'SelectStmt'), level, state);
      if (alias) register(level, String(alias.aliasname), { aliased: true });
      break;
    }
    case 'RangeFunction': {
      checkShape(type, body, SHAPES.RangeFunction!);
      const alias = walkAlias(body.alias);
      for (const entry of list(body.functions)) {
        // Each entry is a List of [call, column definitions or the empty node].
        if (typeOf(entry) !== 'List') refuse('UNSUPPORTED_SYNTAX', 'Unexpected function in FROM');
        const [call, definitions, ...rest] = list(bodyOf(entry, 'List').items);
        if (call === undefined || rest.length > 0)
          refuse('UNSUPPORTED_SYNTAX', 'Unexpected function in FROM');
        walkExpr(call!, level, state);
        if (definitions !== undefined && typeOf(definitions) !== '') {
          if (typeOf(definitions) !== 'List') refuse('UNSUPPORTED_SYNTAX', 'Unexpected column definitions');
          walkColumnDefinitions(list(bodyOf(definitions, 'List').items), level, state);
        }
      }
      walkColumnDefinitions(list(body.coldeflist), level, state);
      if (alias) register(level, String(alias.aliasname), { aliased: true });
      break;
    }
    case 'JoinExpr': {
      checkShape(type, body, SHAPES.JoinExpr!);
      body.larg = walkFromItem(body.larg as PgNode, level, state);
      body.rarg = walkFromItem(body.rarg as PgNode, level, state);
      strings(body.usingClause);
      walkAlias(body.join_using_alias);
      const alias = walkAlias(body.alias);
      walkOptional(body.quals, level, state);
      if (alias) register(level, String(alias.aliasname), { aliased: true });
      break;
    }
    default: {
      const refused = REFUSED_NODES[type];
      if (refused) refuse(refused[0], refused[1]);
      refuse('UNSUPPORTED_SYNTAX', `${type || 'This'} is not supported in FROM`);
    }
  }
  state.depth--;
  return result;
};

const walkColumnDefinitions = (definitions: PgNode[], level: Scope, state: WalkState): void => {
  for (const definition of definitions) {
    if (typeOf(definition) !== 'ColumnDef') refuse('UNSUPPORTED_SYNTAX', 'Unexpected column definition');
    const body = bodyOf(definition, 'ColumnDef');
    checkShape('ColumnDef', body, SHAPES.ColumnDef!);
    walkTypeName(body.typeName as PgNode, level, state);
    if (body.collClause !== undefined) walkCollation(body.collClause as PgNode, level, state);
  }
};

/**
 * A relation named in FROM: a CTE when unqualified and one is visible (left as is), otherwise
 * a catalog relation, judged by relationAccess() and replaced by its filtered, qualified form.
 */
const walkRelation = (relation: PgNode, level: Scope, state: WalkState): PgNode => {
  checkShape('RangeVar', relation, SHAPES.RangeVar!);
  const alias = walkAlias(relation.alias);
  const name = String(relation.relname ?? '');
  const schema = relation.schemaname as string | undefined;
  if (relation.catalogname !== undefined) {
    refuse(
      'UNSUPPORTED_SYNTAX',
      `Database-qualified names (${String(relation.catalogname)}.…) are not supported`,
    );
  }
  const refname = alias ? String(alias.aliasname) : name;
  if (schema === undefined && cteVisible(name, level)) {
    register(level, refname, { aliased: alias !== undefined });
    return { RangeVar: relation };
  }
  const access = relationAccess(state.catalog, state.request.policy, schema, name);
  if (access.kind === 'refused') return refuse(access.code, access.message);
  const qualified = { schema: access.relation.schema, name: access.relation.name };
  const scopeColumn = state.request.scope !== undefined ? access.scopeColumn : undefined;
  if (access.kind === 'filtered' && state.request.tenant === undefined) {
    refuse(
      'TENANT_REQUIRED',
      `${qualified.schema}.${qualified.name} is filtered by tenant and no tenant was given`,
    );
  }
  const tenantColumn = access.kind === 'filtered' ? access.tenantColumn : undefined;
  if (tenantColumn === undefined && scopeColumn === undefined) {
    register(level, refname, { relation: qualified, aliased: alias !== undefined });
    return { RangeVar: { ...relation, schemaname: qualified.schema } };
  }
  const node = filtered(relation, qualified, tenantColumn, scopeColumn, state);
  // A column list in the alias renames the columns: the push-down does not follow renames.
  const renamed = list(alias?.colnames).length > 0;
  const select = bodyOf(bodyOf(node, 'RangeSubselect').subquery as PgNode, 'SelectStmt');
  register(level, refname, {
    relation: qualified,
    aliased: alias !== undefined,
    ...(renamed ? {} : { wrapper: { select, name: qualified.name, columns: access.relation.columns } }),
  });
  return node;
};

const columnRef = (...names: string[]): PgNode => ({
  ColumnRef: { fields: names.map((sval) => ({ String: { sval } })) },
});

const equalsParam = (table: string, column: string, param: PgNode): PgNode => ({
  A_Expr: {
    kind: 'AEXPR_OP',
    name: [{ String: { sval: '=' } }],
    lexpr: columnRef(table, column),
    rexpr: { ParamRef: param },
  },
});

/**
 * `(SELECT * FROM schema.t WHERE t.tenant = $1 [AND t.scope = $2]) AS alias`, the alias being
 * the reference's own (with its column list) or the table name, so that column references
 * written against the table still resolve. ONLY is kept.
 */
const filtered = (
  relation: PgNode,
  qualified: { schema: string; name: string },
  tenantColumn: string | undefined,
  scopeColumn: string | undefined,
  state: WalkState,
): PgNode => {
  const conditions: PgNode[] = [];
  if (tenantColumn !== undefined) {
    const param: PgNode = {};
    state.params.tenant.push(param);
    conditions.push(equalsParam(qualified.name, tenantColumn, param));
  }
  if (scopeColumn !== undefined) {
    const param: PgNode = {};
    state.params.scope.push(param);
    conditions.push(equalsParam(qualified.name, scopeColumn, param));
  }
  const where =
    conditions.length === 1 ? conditions[0] : { BoolExpr: { boolop: 'AND_EXPR', args: conditions } };
  const inner: PgNode = {
    RangeVar: {
      schemaname: qualified.schema,
      relname: qualified.name,
      inh: relation.inh,
      relpersistence: relation.relpersistence ?? 'p',
    },
  };
  return {
    RangeSubselect: {
      subquery: {
        SelectStmt: {
          targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }],
          fromClause: [inner],
          whereClause: where,
          // The fence (docs/design.md "Each wrapped relation is an optimisation fence"): PostgreSQL
          // neither pulls up a subquery with OFFSET (is_simple_subquery) nor pushes a qual into
          // one (subquery_is_pushdown_safe), so every outer condition sees only filtered rows.
          limitOffset: integerConstant(0),
          limitOption: 'LIMIT_OPTION_COUNT',
          op: 'SETOP_NONE',
        },
      },
      alias: (relation.alias as PgNode | undefined) ?? { aliasname: qualified.name },
    },
  };
};

// ---- The leakproof push-down -------------------------------------------------------------

/**
 * Column types whose comparison operators with a constant of `constantKind` are all leakproof
 * (pg_proc.proleakproof: int2/4/8 and their cross-type forms, texteq / text_lt, bpchareq, date_eq,
 * timestamp(tz)_eq, booleq, uuid_eq, ...). A string constant is read by the type's input function
 * once, while the query is planned, never per row. numeric is not leakproof, nor is any function.
 */
const LEAKPROOF_TYPES: { constantKind: string; nativeType: RegExp }[] = [
  { constantKind: 'ival', nativeType: /^(smallint|integer|bigint)$/ },
  {
    constantKind: 'sval',
    nativeType:
      /^(text|character varying(\(\d+\))?|character(\(\d+\))?|date|timestamp(\(\d\))? with(out)? time zone|uuid)$/,
  },
  { constantKind: 'boolval', nativeType: /^boolean$/ },
];

const COMPARISONS = new Set(['=', '<>', '<', '>', '<=', '>=']);

/** The kind of a plain constant (`ival`, `sval`, `boolval`), or undefined for anything else. */
const constantKind = (node: unknown): string | undefined => {
  if (typeof node !== 'object' || node === null || typeOf(node) !== 'A_Const') return undefined;
  const keys = Object.keys(bodyOf(node as PgNode, 'A_Const')).filter((key) => key !== 'location');
  return keys.length === 1 && keys[0] !== 'isnull' ? keys[0] : undefined;
};

/** The wrapper and column a column reference names at this query level, when it is that simple. */
const wrappedColumn = (
  node: unknown,
  level: Scope,
  sole: Wrapper | undefined,
): { wrapper: Wrapper; column: CatalogColumn } | undefined => {
  if (typeof node !== 'object' || node === null || typeOf(node) !== 'ColumnRef') return undefined;
  const parts = list(bodyOf(node as PgNode, 'ColumnRef').fields);
  if (parts.some((part) => typeOf(part) !== 'String')) return undefined;
  const names = parts.map((part) => String(bodyOf(part, 'String').sval));
  let wrapper: Wrapper | undefined;
  if (names.length === 1) wrapper = sole;
  else if (names.length === 2) {
    // Only this level's own FROM items: a name of an enclosing level is a correlated reference.
    const items = level.items?.get(names[0]!);
    if (items?.length === 1) wrapper = items[0]!.wrapper;
  }
  const column = wrapper?.columns.find((c) => c.name === names.at(-1));
  return wrapper && column ? { wrapper, column } : undefined;
};

const constantsFit = (constants: unknown[], column: CatalogColumn): boolean =>
  constants.length > 0 &&
  constants.every((constant) => {
    const kind = constantKind(constant);
    return LEAKPROOF_TYPES.some(
      (type) => type.constantKind === kind && type.nativeType.test(column.nativeType),
    );
  });

/**
 * Where a WHERE conjunct may be copied: `col op constant` (either side), `col [NOT] IN (constants)`,
 * `col [NOT] BETWEEN constant AND constant` or `col IS NOT NULL`, with `col` a column of a
 * wrapped relation of this level and every operator leakproof for the column's type.
 */
const leakproofTarget = (
  conjunct: PgNode,
  level: Scope,
  sole: Wrapper | undefined,
): { wrapper: Wrapper; column: CatalogColumn; ref: 'lexpr' | 'rexpr' | 'arg' } | undefined => {
  const type = typeOf(conjunct);
  const body = bodyOf(conjunct, type);
  if (type === 'NullTest') {
    // IS NULL is not strict: copied into the nullable side of an outer join it would turn
    // `LEFT JOIN b ... WHERE b.id IS NULL` (no match) into "every row".
    if (body.argisrow === true || body.nulltesttype !== 'IS_NOT_NULL') return undefined;
    const target = wrappedColumn(body.arg, level, sole);
    return target && { ...target, ref: 'arg' };
  }
  if (type !== 'A_Expr') return undefined;
  const name = strings(body.name);
  if (body.kind === 'AEXPR_OP') {
    if (name.length !== 1 || !COMPARISONS.has(name[0]!)) return undefined;
    for (const [ref, other] of [
      ['lexpr', 'rexpr'],
      ['rexpr', 'lexpr'],
    ] as const) {
      const target = wrappedColumn(body[ref], level, sole);
      if (target && constantsFit([body[other]], target.column)) return { ...target, ref };
    }
    return undefined;
  }
  const listed =
    typeof body.rexpr === 'object' && body.rexpr !== null && typeOf(body.rexpr) === 'List'
      ? list(bodyOf(body.rexpr as PgNode, 'List').items)
      : [];
  const inList = body.kind === 'AEXPR_IN' && name.length === 1 && (name[0] === '=' || name[0] === '<>');
  const between = (body.kind === 'AEXPR_BETWEEN' || body.kind === 'AEXPR_NOT_BETWEEN') && listed.length === 2;
  if (!inList && !between) return undefined;
  const target = wrappedColumn(body.lexpr, level, sole);
  return target && constantsFit(listed, target.column) ? { ...target, ref: 'lexpr' } : undefined;
};

/**
 * The one optimisation the fence allows (docs/design.md "Each wrapped relation is an optimisation
 * fence"): a top-level WHERE conjunct made only of a column of a wrapped relation, leakproof
 * operators and constants is copied into that wrapper, next to the tenant filter, so that an
 * index on the column serves again. It is copied, not moved: the outer query still applies it,
 * and each such condition is strict (false or null on a null column), so an outer join's
 * null-extended rows are treated as before.
 * Nothing else crosses the fence.
 */
const pushLeakproof = (select: PgNode, level: Scope): void => {
  if (select.whereClause === undefined) return;
  const where = select.whereClause as PgNode;
  const conjuncts =
    typeOf(where) === 'BoolExpr' && bodyOf(where, 'BoolExpr').boolop === 'AND_EXPR'
      ? list(bodyOf(where, 'BoolExpr').args)
      : [where];
  // An unqualified column is this level's only FROM item's, when that item is a wrapper.
  const from = list(select.fromClause);
  const only = level.items?.size === 1 ? [...level.items.values()][0] : undefined;
  const sole =
    from.length === 1 && typeOf(from[0]) === 'RangeSubselect' && only?.length === 1
      ? only[0]!.wrapper
      : undefined;
  for (const conjunct of conjuncts) {
    const target = leakproofTarget(conjunct, level, sole);
    if (!target) continue;
    const type = typeOf(conjunct);
    const copy = structuredClone(conjunct);
    bodyOf(copy, type)[target.ref] = columnRef(target.wrapper.name, target.column.name);
    const inner = target.wrapper.select;
    const current = inner.whereClause as PgNode;
    if (typeOf(current) === 'BoolExpr') list(bodyOf(current, 'BoolExpr').args).push(copy);
    else inner.whereClause = { BoolExpr: { boolop: 'AND_EXPR', args: [current, copy] } };
  }
};

/** An expression anywhere in a SELECT (target list, WHERE, ON, ORDER BY, function arguments...). */
const walkExpr = (node: PgNode, level: Scope, state: WalkState): void => {
  enter(state);
  const type = typeOf(node);
  const body = bodyOf(node, type);
  switch (type) {
    case 'ColumnRef':
      walkColumnRef(body, level);
      break;
    case 'FuncCall':
      walkFuncCall(body, level, state);
      break;
    case 'TypeCast':
      checkShape(type, body, SHAPES.TypeCast!);
      walkExpr(body.arg as PgNode, level, state);
      walkTypeName(body.typeName as PgNode, level, state);
      break;
    case 'SubLink': {
      checkShape(type, body, SHAPES.SubLink!);
      if (body.operName !== undefined) checkOperator(strings(body.operName));
      walkOptional(body.testexpr, level, state);
      const subselect = body.subselect as PgNode;
      if (typeOf(subselect) !== 'SelectStmt') refuse('UNSUPPORTED_SYNTAX', 'Unexpected subquery');
      walkSelect(bodyOf(subselect, 'SelectStmt'), level, state);
      break;
    }
    case 'A_Expr':
      checkShape(type, body, SHAPES.A_Expr!);
      if (!BETWEEN_KINDS.has(String(body.kind))) checkOperator(strings(body.name));
      walkOptional(body.lexpr, level, state);
      walkOptional(body.rexpr, level, state);
      break;
    case 'SQLValueFunction':
      checkShape(type, body, SHAPES.SQLValueFunction!);
      if (!SQL_VALUE_FUNCTIONS.has(String(body.op))) {
        refuse('FUNCTION_NOT_ALLOWED', `${String(body.op).replace('SVFOP_', '')} is not allowed`);
      }
      break;
    case 'CollateClause':
      walkCollation(body, level, state);
      break;
    case 'SortBy':
      checkShape(type, body, SHAPES.SortBy!);
      if (body.useOp !== undefined) checkOperator(strings(body.useOp));
      walkExpr(body.node as PgNode, level, state);
      break;
    case 'WindowDef':
      walkWindow(body, level, state);
      break;
    default: {
      const refused = REFUSED_NODES[type];
      if (refused) refuse(refused[0], refused[1]);
      const shape = PLAIN[type];
      if (!shape) refuse('UNSUPPORTED_SYNTAX', `${type || 'An empty node'} is not supported`);
      for (const [key, value] of Object.entries(body)) {
        const kind = key === 'location' ? 'value' : shape![key];
        if (kind === undefined) refuse('UNSUPPORTED_SYNTAX', `${type}.${key} is not supported`);
        else if (kind === 'node') walkExpr(value as PgNode, level, state);
        else if (kind === 'nodes') for (const child of list(value)) walkExpr(child, level, state);
      }
    }
  }
  state.depth--;
};

/**
 * Column references read only FROM items, which are all filtered, so they need no check.
 * (PostgreSQL also reads `t.f` as the call `f(t)` when t has no column f; with search_path
 * pinned to pg_catalog that reaches only built-ins taking one row or "any" argument, such as
 * to_json or pg_column_size, none of which reads anything but its argument.) A three-part
 * `schema.table.column` is rewritten to `table.column` when it names a table referenced without
 * an alias (the rewrite turned that table into a subquery aliased by its name, which a
 * schema-qualified reference no longer matches).
 */
const walkColumnRef = (ref: PgNode, level: Scope): void => {
  checkShape('ColumnRef', ref, SHAPES.ColumnRef!);
  const parts = list(ref.fields);
  for (const part of parts) {
    const type = typeOf(part);
    if (type !== 'String' && type !== 'A_Star') refuse('UNSUPPORTED_SYNTAX', 'Unexpected column reference');
  }
  if (parts.length !== 3 || typeOf(parts[0]) !== 'String' || typeOf(parts[1]) !== 'String') return;
  const schema = bodyOf(parts[0]!, 'String').sval;
  const table = String(bodyOf(parts[1]!, 'String').sval);
  for (let scope: Scope | undefined = level; scope; scope = scope.parent) {
    const items = scope.items?.get(table);
    if (!items) continue;
    const [item] = items;
    if (items.length === 1 && item?.relation && !item.aliased && item.relation.schema === schema) {
      ref.fields = parts.slice(1);
    }
    return;
  }
};

const walkFuncCall = (call: PgNode, level: Scope, state: WalkState): void => {
  checkShape('FuncCall', call, SHAPES.FuncCall!);
  const names = strings(call.funcname);
  const name = builtinName(names);
  if (name === undefined || !POSTGRES_FUNCTIONS.has(name)) {
    refuse('FUNCTION_NOT_ALLOWED', `Function ${names.join('.')} is not allowed`);
  }
  if (state.userFunctions.has(name!)) {
    refuse(
      'FUNCTION_NOT_ALLOWED',
      `Function ${names.join('.')} is not allowed: the database defines a function of that name`,
    );
  }
  const unbounded = postgresSizeRefusal(name!, list(call.args));
  if (unbounded !== undefined) refuse('SIZE_NOT_BOUNDED', unbounded);
  for (const key of ['args', 'agg_order']) for (const node of list(call[key])) walkExpr(node, level, state);
  walkOptional(call.agg_filter, level, state);
  if (call.over !== undefined) walkWindow(call.over as PgNode, level, state);
};

const walkWindow = (window: PgNode, level: Scope, state: WalkState): void => {
  checkShape('WindowDef', window, SHAPES.WindowDef!);
  for (const key of ['partitionClause', 'orderClause'])
    for (const node of list(window[key])) walkExpr(node, level, state);
  walkOptional(window.startOffset, level, state);
  walkOptional(window.endOffset, level, state);
};

const walkTypeName = (typeName: PgNode | undefined, level: Scope, state: WalkState): void => {
  if (typeName === undefined) refuse('UNSUPPORTED_SYNTAX', 'Missing type name');
  checkShape('TypeName', typeName!, SHAPES.TypeName!);
  if (typeName!.setof === true || typeName!.pct_type === true) refuse('UNSUPPORTED_SYNTAX', 'SETOF / %TYPE');
  const names = strings(typeName!.names);
  const name = builtinName(names);
  if (name !== undefined && CATALOG_TYPE.test(name)) {
    refuse('SYSTEM_CATALOG', `Casts to ${name} read the system catalogs`);
  }
  if (name === undefined || !TYPES.has(name))
    refuse('FUNCTION_NOT_ALLOWED', `Type ${names.join('.')} is not allowed`);
  for (const node of list(typeName!.typmods)) walkExpr(node, level, state);
  for (const node of list(typeName!.arrayBounds)) walkExpr(node, level, state);
};

const walkCollation = (collate: PgNode, level: Scope, state: WalkState): void => {
  checkShape('CollateClause', collate, SHAPES.CollateClause!);
  if (builtinName(strings(collate.collname)) === undefined) {
    refuse('UNSUPPORTED_SYNTAX', 'Only built-in collations are allowed');
  }
  walkOptional(collate.arg, level, state);
};

const checkOperator = (names: string[]): void => {
  const name = builtinName(names);
  if (name === undefined || !OPERATORS.has(name))
    refuse('FUNCTION_NOT_ALLOWED', `Operator ${names.join('.')} is not allowed`);
};

// ---- Parameters and the row cap ------------------------------------------------------------

/** Numbers the placeholders the rewrite added ($1 tenant, then scope) and returns their values. */
export const bindParameters = (state: WalkState): unknown[] => {
  const values: unknown[] = [];
  const { tenant, scope } = state.params;
  if (tenant.length > 0) values.push(state.request.tenant);
  for (const param of tenant) param.number = values.length;
  if (scope.length > 0) values.push(state.request.scope);
  for (const param of scope) param.number = values.length;
  return values;
};

const integerConstant = (value: number): PgNode => ({
  A_Const: { ival: value === 0 ? {} : { ival: value } },
});

/** The value of `LIMIT n` for an integer constant; undefined for anything else. */
const constantLimit = (node: unknown): number | undefined => {
  if (typeof node !== 'object' || node === null || typeOf(node) !== 'A_Const') return undefined;
  const constant = bodyOf(node as PgNode, 'A_Const');
  if (Object.keys(constant).some((key) => key !== 'ival' && key !== 'location')) return undefined;
  const ival = constant.ival as { ival?: number } | undefined;
  return ival === undefined ? undefined : (ival.ival ?? 0);
};

const isNullConstant = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  typeOf(node) === 'A_Const' &&
  bodyOf(node as PgNode, 'A_Const').isnull === true;

/**
 * At most cap+1 rows (docs/design.md step 5): LIMIT cap+1 added, a larger constant lowered (LIMIT ALL
 * included), a smaller one kept; any other limit (an expression, WITH TIES) is kept inside
 * `SELECT * FROM (<query>) AS capped LIMIT cap+1`. Returns the statement node to print.
 */
export const capRows = (statement: PgNode, rowCap: number): PgNode => {
  const select = bodyOf(statement, 'SelectStmt');
  const max = rowCap + 1;
  if (select.limitOption !== 'LIMIT_OPTION_WITH_TIES') {
    if (select.limitCount === undefined || isNullConstant(select.limitCount)) {
      select.limitCount = integerConstant(max);
      select.limitOption = 'LIMIT_OPTION_COUNT';
      return statement;
    }
    const count = constantLimit(select.limitCount);
    if (count !== undefined) {
      if (count > max) select.limitCount = integerConstant(max);
      return statement;
    }
  }
  return {
    SelectStmt: {
      targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }],
      fromClause: [{ RangeSubselect: { subquery: statement, alias: { aliasname: 'capped' } } }],
      limitCount: integerConstant(max),
      limitOption: 'LIMIT_OPTION_COUNT',
      op: 'SETOP_NONE',
    },
  };
};
