// The checking and rewriting walk of the PostgreSQL guard (lib/dialects/postgres/sql-guard.ts) over a raw
// parse tree from libpg-query (docs/design.md "The guard, step by step", step 4). Deny by
// default at every level: each node type the walk knows lists the fields it may carry
// (lib/dialects/postgres/nodes.ts), and any other node type or field (a construct this code has
// not reasoned about, or a field a newer parser adds) refuses the query as UNSUPPORTED_SYNTAX.
//
// What it enforces (docs/design.md "Tenant filtering and the SQL guard"):
// - SELECT only, at every level: no SELECT INTO, no FOR UPDATE/SHARE, no TABLESAMPLE, no
//   data-modifying CTE, no placeholders;
// - functions, operators, casts and SQL value keywords from allowlists (lib/dialects/postgres/functions.ts),
//   unqualified or `pg_catalog.` only; no function whose name a user function also has;
// - relations: each FROM reference is resolved as PostgreSQL resolves it (a CTE of an enclosing
//   WITH when unqualified and visible there, else a relation of the catalog's default schema or
//   the named one), judged by relationAccess(), and replaced by its filtered, schema-qualified
//   form. A FROM item is the only way a query reads rows, so filtering every FROM item that
//   names a relation filters the whole query, whatever the expressions around it do.
import { postgresSizeRefusal } from '#lib/sql/allocation.ts';
import { postgresRecursionRefusal } from '#lib/sql/recursion.ts';
import { refuse } from '#lib/sql/types.ts';
import { pushLeakproof, wrapRelation } from './fence.ts';
import { POSTGRES_FUNCTIONS } from './functions.ts';
import {
  BETWEEN_KINDS,
  bodyOf,
  builtinName,
  CATALOG_TYPE,
  checkShape,
  DATA_MODIFYING,
  type FromItem,
  isCte,
  list,
  NO_CTES,
  OPERATORS,
  PLAIN,
  REFUSED_NODES,
  type Scope,
  SELECT_FIELDS,
  SHAPES,
  SQL_VALUE_FUNCTIONS,
  strings,
  TYPES,
  typeOf,
  type WalkState,
} from './nodes.ts';
import type { PgNode } from './parser.ts';
import { relationAccess } from './policy.ts';

// ---- The walk -----------------------------------------------------------------------------

/** Parse trees nest; past this depth the query is refused rather than the stack exhausted. */
const MAX_DEPTH = 400;

const enter = (state: WalkState): void => {
  state.depth++;
  if (state.depth > MAX_DEPTH) refuse('UNSUPPORTED_SYNTAX', 'The query nests too deeply');
};

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
const walkSelect = (select: PgNode, outer: Scope | undefined, state: WalkState): void => {
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
  if (schema === undefined && isCte(name, level)) {
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
  const node = wrapRelation(relation, qualified, tenantColumn, scopeColumn, state);
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
