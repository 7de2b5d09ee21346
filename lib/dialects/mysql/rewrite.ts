// The MySQL/MariaDB guard's walk over node-sql-parser's tree (lib/dialects/mysql/sql-guard.ts): checks every
// node against an allowlist of shapes (lib/dialects/mysql/nodes.ts), and rewrites every relation
// reference in place (docs/design.md "The guard, step by step", step 4). Anything the walk does
// not know is refused: a shape it has not seen may hide a relation it would not wrap.

import { mysqlRecursionRefusal } from '#lib/sql/recursion.ts';
import { Refusal, refuse } from '#lib/sql/types.ts';
import { conditionsFor, wrapRelation } from './fence.ts';
import { MYSQL_AGGREGATES } from './functions.ts';
import {
  BINARY_OPERATORS,
  checkCollate,
  checkFunction,
  checkLimit,
  checkShape,
  checkSuffix,
  DATA_TYPE,
  IDENTIFIER,
  isCte,
  JOINS,
  KEYWORDS,
  keySet,
  LITERAL_KEYS,
  LITERALS,
  NUMBER,
  nameOf,
  present,
  type Scope,
  SELECT_KEYS,
  SET_OPERATIONS,
  sizeBounded,
  UNARY_OPERATORS,
  type WalkState,
} from './nodes.ts';
import { type AstNode, identifierText, identifierValue, isNode } from './parser.ts';
import { relationAccess } from './policy.ts';

/** Deeper trees are refused: walking, printing and re-parsing them would exhaust the stack. */
const MAX_DEPTH = 200;

const nest = <T>(state: WalkState, walk: () => T): T => {
  state.depth += 1;
  try {
    if (state.depth > MAX_DEPTH) {
      refuse('UNSUPPORTED_SYNTAX', `The query nests deeper than ${MAX_DEPTH} levels`);
    }
    return walk();
  } finally {
    state.depth -= 1;
  }
};

// ---- expressions -------------------------------------------------------------------------

/** `LIKE 'x!%' ESCAPE '!'` hangs the escape on the pattern. */
const walkEscape = (node: AstNode, scope: Scope | undefined, state: WalkState): void => {
  if (!present(node.escape)) return;
  const clause = node.escape;
  if (!isNode(clause) || clause.type !== 'ESCAPE') refuse('UNSUPPORTED_SYNTAX', 'Unsupported ESCAPE');
  checkShape(clause, keySet('type', 'value'), 'ESCAPE');
  walkExpr(clause.value, scope, state);
};

const walkColumnRef = (node: AstNode, state: WalkState): void => {
  checkShape(node, keySet('type', 'db', 'table', 'column', 'collate', 'suffix', 'parentheses'), 'column');
  if (typeof node.column !== 'string') refuse('UNSUPPORTED_SYNTAX', 'Unsupported column reference');
  if (present(node.table) && nameOf(node.table) === undefined) {
    refuse('UNSUPPORTED_SYNTAX', 'Unsupported column qualifier');
  }
  // `db.t.c`: the rewrite names a wrapped table by its bare name, so the column does too. A
  // column can only resolve to a FROM item of the query, all of which are checked.
  if (present(node.db)) {
    if (typeof node.db !== 'string') refuse('UNSUPPORTED_SYNTAX', 'Unsupported column qualifier');
    if (identifierValue(node.db) === state.request.catalog.defaultSchema) delete node.db;
  }
  checkCollate(node.collate);
  checkSuffix(node);
};

const walkOrderBy = (list: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (!present(list)) return;
  if (!Array.isArray(list)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported ORDER BY');
  for (const item of list) {
    if (!isNode(item)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported ORDER BY');
    checkShape(item, keySet('expr', 'type', 'nulls'), 'ORDER BY');
    if (present(item.type) && item.type !== 'ASC' && item.type !== 'DESC') {
      refuse('UNSUPPORTED_SYNTAX', 'Unsupported ORDER BY direction');
    }
    if (present(item.nulls)) refuse('UNSUPPORTED_SYNTAX', 'NULLS FIRST/LAST is not MySQL syntax');
    walkExpr(item.expr, scope, state);
  }
};

const walkWindow = (node: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (typeof node === 'string') {
    if (!IDENTIFIER.test(node)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported window name');
    return;
  }
  if (!isNode(node)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported window');
  checkShape(node, keySet('window_specification', 'parentheses'), 'window');
  const spec = node.window_specification;
  if (!isNode(spec)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported window');
  checkShape(spec, keySet('name', 'partitionby', 'orderby', 'window_frame_clause'), 'window');
  if (present(spec.name) && (typeof spec.name !== 'string' || !IDENTIFIER.test(spec.name))) {
    refuse('UNSUPPORTED_SYNTAX', 'Unsupported window name');
  }
  if (present(spec.partitionby)) {
    if (!Array.isArray(spec.partitionby)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported PARTITION BY');
    for (const item of spec.partitionby) {
      if (!isNode(item)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported PARTITION BY');
      checkShape(item, keySet('expr', 'as'), 'PARTITION BY');
      walkExpr(item.expr, scope, state);
    }
  }
  walkOrderBy(spec.orderby, scope, state);
  walkExpr(spec.window_frame_clause, scope, state);
};

const walkOver = (node: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (!present(node)) return;
  if (!isNode(node) || node.type !== 'window') refuse('UNSUPPORTED_SYNTAX', 'Unsupported OVER clause');
  checkShape(node, keySet('type', 'as_window_specification'), 'OVER');
  walkWindow(node.as_window_specification, scope, state);
};

const walkSubquery = (node: AstNode, scope: Scope | undefined, state: WalkState): void => {
  checkShape(node, keySet('ast', 'tableList', 'columnList', 'parentheses'), 'subquery');
  walkSelect(node.ast, scope, state);
};

const walkExpr = (node: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (present(node)) nest(state, () => walkExprBody(node, scope, state));
};

const walkExprBody = (node: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (!isNode(node)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported expression');
  if (node.type === undefined && 'ast' in node) {
    walkSubquery(node, scope, state);
    return;
  }
  const type = node.type;
  switch (type) {
    case 'column_ref':
      walkColumnRef(node, state);
      return;
    case 'number':
    case 'bigint':
      checkShape(node, LITERAL_KEYS, 'number');
      if (typeof node.value !== 'number' && !(typeof node.value === 'string' && NUMBER.test(node.value))) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported number');
      }
      return;
    case 'double_quote_string':
      // A string under the default sql_mode, an identifier under ANSI_QUOTES: printed with
      // single quotes so that it means the same whatever the session's mode.
      checkShape(node, LITERAL_KEYS, 'string');
      if (typeof node.value !== 'string') refuse('UNSUPPORTED_SYNTAX', 'Unsupported string');
      node.type = 'single_quote_string';
      node.value = node.value.replaceAll('""', '"').replaceAll("'", "''");
      walkEscape(node, scope, state);
      checkSuffix(node);
      return;
    case 'origin':
      if (node.value === '?') refuse('PLACEHOLDER', 'Placeholders are not allowed in generated SQL');
      if (typeof node.value !== 'string' || !KEYWORDS.test(node.value)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported keyword');
      }
      return;
    case 'param':
      throw new Refusal('PLACEHOLDER', 'Placeholders are not allowed in generated SQL');
    case 'var':
      throw new Refusal('FUNCTION_NOT_ALLOWED', 'User and system variables are not allowed');
    case 'assign':
      throw new Refusal('FUNCTION_NOT_ALLOWED', 'Variable assignment is not allowed');
    case 'binary_expr':
      checkShape(node, keySet('type', 'operator', 'left', 'right', 'parentheses'), 'operator');
      if (typeof node.operator !== 'string' || !BINARY_OPERATORS.has(node.operator.toUpperCase())) {
        refuse('UNSUPPORTED_SYNTAX', `Unsupported operator ${String(node.operator)}`);
      }
      walkExpr(node.left, scope, state);
      walkExpr(node.right, scope, state);
      return;
    case 'unary_expr':
      checkShape(node, keySet('type', 'operator', 'expr', 'parentheses'), 'operator');
      if (typeof node.operator !== 'string' || !UNARY_OPERATORS.has(node.operator.toUpperCase())) {
        refuse('UNSUPPORTED_SYNTAX', `Unsupported operator ${String(node.operator)}`);
      }
      walkExpr(node.expr, scope, state);
      return;
    case 'expr_list':
      checkShape(node, keySet('type', 'value', 'parentheses', 'separator'), 'list');
      if (present(node.separator) && node.separator !== ',') refuse('UNSUPPORTED_SYNTAX', 'Unsupported list');
      if (!Array.isArray(node.value)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported list');
      for (const item of node.value) walkExpr(item, scope, state);
      return;
    case 'function':
      checkShape(node, keySet('type', 'name', 'args', 'over', 'parentheses'), 'function');
      sizeBounded(checkFunction(node, state), node.args);
      walkExpr(node.args, scope, state);
      walkOver(node.over, scope, state);
      return;
    case 'aggr_func': {
      checkShape(node, keySet('type', 'name', 'args', 'over', 'parentheses'), 'aggregate');
      const name = typeof node.name === 'string' ? node.name.toUpperCase() : '';
      if (!MYSQL_AGGREGATES.has(name) || state.userFunctions.has(name)) {
        refuse('FUNCTION_NOT_ALLOWED', `Function ${String(node.name)} is not allowed`);
      }
      sizeBounded(name, node.args);
      const args = node.args;
      if (!isNode(args)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported aggregate');
      checkShape(args, keySet('expr', 'distinct', 'orderby', 'separator', 'parentheses'), 'aggregate');
      if (present(args.distinct) && args.distinct !== 'DISTINCT') {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported aggregate');
      }
      walkExpr(args.expr, scope, state);
      walkOrderBy(args.orderby, scope, state);
      if (present(args.separator)) {
        const separator = args.separator;
        if (!isNode(separator)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported SEPARATOR');
        checkShape(separator, keySet('keyword', 'value'), 'SEPARATOR');
        walkExpr(separator.value, scope, state);
      }
      walkOver(node.over, scope, state);
      return;
    }
    case 'cast': {
      checkShape(node, keySet('type', 'keyword', 'expr', 'symbol', 'target', 'parentheses'), 'CAST');
      if (node.keyword !== 'cast' || node.symbol !== 'as' || !Array.isArray(node.target)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported CAST');
      }
      for (const target of node.target as unknown[]) {
        if (!isNode(target)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported CAST');
        checkShape(target, keySet('dataType', 'length', 'scale', 'parentheses', 'suffix'), 'CAST');
        if (typeof target.dataType !== 'string' || !DATA_TYPE.test(target.dataType)) {
          refuse('UNSUPPORTED_SYNTAX', 'Unsupported CAST type');
        }
        for (const part of Array.isArray(target.suffix) ? target.suffix : []) {
          if (!isNode(part) || typeof part.value !== 'string' || !KEYWORDS.test(part.value)) {
            refuse('UNSUPPORTED_SYNTAX', 'Unsupported CAST type');
          }
        }
      }
      walkExpr(node.expr, scope, state);
      return;
    }
    case 'datatype':
      checkShape(node, keySet('type', 'dataType', 'length', 'scale', 'parentheses', 'suffix'), 'type');
      if (typeof node.dataType !== 'string' || !DATA_TYPE.test(node.dataType) || present(node.suffix)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported type');
      }
      return;
    case 'extract': {
      checkShape(node, keySet('type', 'args'), 'EXTRACT');
      const args = node.args;
      if (!isNode(args) || typeof args.field !== 'string' || !IDENTIFIER.test(args.field)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported EXTRACT');
      }
      checkShape(args, keySet('field', 'source', 'cast_type'), 'EXTRACT');
      if (present(args.cast_type)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported EXTRACT');
      walkExpr(args.source, scope, state);
      return;
    }
    case 'interval':
      checkShape(node, keySet('type', 'expr', 'unit'), 'INTERVAL');
      if (typeof node.unit !== 'string' || !IDENTIFIER.test(node.unit)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported INTERVAL');
      }
      walkExpr(node.expr, scope, state);
      return;
    case 'case':
      checkShape(node, keySet('type', 'expr', 'args', 'parentheses'), 'CASE');
      walkExpr(node.expr, scope, state);
      if (!Array.isArray(node.args)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported CASE');
      for (const branch of node.args) {
        if (!isNode(branch) || (branch.type !== 'when' && branch.type !== 'else')) {
          refuse('UNSUPPORTED_SYNTAX', 'Unsupported CASE');
        }
        checkShape(branch, keySet('type', 'cond', 'result'), 'CASE');
        walkExpr(branch.cond, scope, state);
        walkExpr(branch.result, scope, state);
      }
      return;
    case 'fulltext_search':
      throw new Refusal('UNSUPPORTED_SYNTAX', 'MATCH ... AGAINST is not supported');
    default:
      if (typeof type === 'string' && LITERALS.has(type)) {
        checkShape(node, LITERAL_KEYS, 'literal');
        if (present(node.prefix)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported literal prefix');
        walkEscape(node, scope, state);
        checkSuffix(node);
        return;
      }
      refuse('UNSUPPORTED_SYNTAX', `Unsupported expression (${String(type)})`);
  }
};

// ---- relations ---------------------------------------------------------------------------

const JOIN_KEYS = ['join', 'on', 'using'] as const;

const walkJoin = (item: AstNode, scope: Scope | undefined, state: WalkState): AstNode => {
  const parts: AstNode = {};
  if (!('join' in item)) return parts;
  if (typeof item.join !== 'string' || !JOINS.has(item.join)) {
    refuse('UNSUPPORTED_SYNTAX', `Unsupported join (${String(item.join)})`);
  }
  for (const key of JOIN_KEYS) if (key in item) parts[key] = item[key];
  walkExpr(item.on, scope, state);
  if (present(item.using)) {
    if (!Array.isArray(item.using)) return refuse('UNSUPPORTED_SYNTAX', 'Unsupported USING');
    for (const column of item.using) {
      const name = nameOf(column);
      if (name === undefined) refuse('UNSUPPORTED_SYNTAX', 'Unsupported USING');
    }
  }
  return parts;
};

const walkRelation = (item: AstNode, scope: Scope | undefined, state: WalkState): AstNode => {
  checkShape(item, keySet('db', 'table', 'as', 'join', 'on', 'using'), 'table reference');
  const table = item.table as string;
  const db = item.db;
  if (present(db) && typeof db !== 'string') {
    return refuse('UNSUPPORTED_SYNTAX', 'Unsupported table reference');
  }
  if (present(item.as) && typeof item.as !== 'string') {
    return refuse('UNSUPPORTED_SYNTAX', 'Unsupported alias');
  }
  const join = walkJoin(item, scope, state);
  if (!present(db) && isCte(table, scope)) {
    state.checked.add(item);
    return item;
  }
  const { request } = state;
  const access = relationAccess(
    request.catalog,
    request.policy,
    present(db) ? identifierValue(db as string) : undefined,
    identifierValue(table),
  );
  if (access.kind === 'refused') return refuse(access.code, access.message);
  const { relation } = access;
  const terms: AstNode[] = [];
  if (access.kind === 'filtered') {
    if (request.tenant === undefined) {
      return refuse('TENANT_REQUIRED', `${relation.name} is filtered by tenant and no tenant was given`);
    }
    terms.push(...conditionsFor(relation, access.tenantColumn, request.tenant, 'tenant', state));
  }
  if (access.scopeColumn !== undefined && request.scope !== undefined) {
    terms.push(...conditionsFor(relation, access.scopeColumn, request.scope, 'scope', state));
  }
  const alias = (item.as as string | null | undefined) ?? null;
  if (terms.length === 0) {
    const qualified: AstNode = {
      db: identifierText(relation.schema),
      table: identifierText(relation.name),
      as: alias,
      ...join,
    };
    state.checked.add(qualified);
    return qualified;
  }
  const derived: AstNode = {
    expr: { ast: wrapRelation(relation, terms, state), parentheses: true },
    as: alias ?? identifierText(relation.name),
    ...join,
  };
  state.checked.add(derived);
  return derived;
};

const walkFromItem = (item: unknown, scope: Scope | undefined, state: WalkState): AstNode => {
  if (!isNode(item)) return refuse('UNSUPPORTED_SYNTAX', 'Unsupported FROM item');
  if (item.type === 'dual') {
    checkShape(item, keySet('type'), 'DUAL');
    state.checked.add(item);
    return item;
  }
  if (typeof item.table === 'string') return walkRelation(item, scope, state);
  // `a JOIN (b JOIN c ON ...) ON ...`: node-sql-parser cannot read back a derived table inside
  // a parenthesized join, which is what the rewrite would print.
  if (Array.isArray(item.expr)) return refuse('UNSUPPORTED_SYNTAX', 'Parenthesized joins are not supported');
  const derived = item.expr;
  if (isNode(derived) && 'ast' in derived) {
    checkShape(item, keySet('expr', 'as', 'prefix', 'join', 'on', 'using'), 'derived table');
    if (present(item.prefix) && item.prefix !== 'LATERAL') {
      refuse('UNSUPPORTED_SYNTAX', 'Unsupported derived table');
    }
    if (present(item.as) && typeof item.as !== 'string') refuse('UNSUPPORTED_SYNTAX', 'Unsupported alias');
    checkShape(derived, keySet('ast', 'tableList', 'columnList', 'parentheses'), 'derived table');
    walkSelect(derived.ast, scope, state);
    walkJoin(item, scope, state);
    state.checked.add(item);
    return item;
  }
  return refuse('UNSUPPORTED_SYNTAX', 'Unsupported FROM item');
};

// ---- statements --------------------------------------------------------------------------

const walkWith = (clause: unknown, scope: Scope | undefined, state: WalkState): Scope | undefined => {
  if (!present(clause)) return scope;
  if (!Array.isArray(clause) || clause.length === 0) return refuse('UNSUPPORTED_SYNTAX', 'Unsupported WITH');
  const names = clause.map((item) => {
    const name = isNode(item) ? nameOf(item.name) : undefined;
    return name ?? refuse('UNSUPPORTED_SYNTAX', 'Unsupported WITH');
  });
  if (new Set(names.map((n) => n.toLowerCase())).size !== names.length) {
    refuse('UNSUPPORTED_SYNTAX', 'Two CTEs of one WITH share a name');
  }
  const recursive = clause.some((item) => isNode(item) && item.recursive === true);
  clause.forEach((item: AstNode, index) => {
    checkShape(item, keySet('name', 'stmt', 'columns', 'recursive'), 'WITH');
    const visible = recursive ? names.slice(0, index + 1) : names.slice(0, index);
    const laterCtes = recursive ? names.slice(index + 1) : [];
    const body = isNode(item.stmt) && 'ast' in item.stmt ? item.stmt.ast : item.stmt;
    if (isNode(item.stmt) && 'ast' in item.stmt) {
      checkShape(item.stmt, keySet('ast', 'tableList', 'columnList', 'parentheses'), 'WITH');
    }
    // Read before the walk rewrites the step's tables into filtered subqueries.
    const growing = recursive ? mysqlRecursionRefusal(item) : undefined;
    if (growing !== undefined) refuse('SIZE_NOT_BOUNDED', growing);
    walkSelect(body, { parent: scope, ctes: visible, laterCtes, barrier: true }, state);
    if (present(item.columns)) {
      if (!Array.isArray(item.columns)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported CTE columns');
      for (const column of item.columns) {
        if (!isNode(column) || column.type !== 'column_ref' || present(column.table)) {
          refuse('UNSUPPORTED_SYNTAX', 'Unsupported CTE columns');
        }
        walkColumnRef(column as AstNode, state);
      }
    }
  });
  return { parent: scope, ctes: names, laterCtes: [], barrier: false };
};

/**
 * The walk of the guard's step 4 on a copy of the statement: a SELECT, checked and rewritten; then
 * the sweep.
 */
export const walkStatement = (statement: AstNode, state: WalkState): AstNode => {
  const tree = structuredClone(statement);
  walkSelect(tree, undefined, state);
  sweep(tree, state);
  return tree;
};

const walkSelect = (node: unknown, scope: Scope | undefined, state: WalkState): void =>
  nest(state, () => walkSelectBody(node, scope, state));

const walkSelectBody = (node: unknown, scope: Scope | undefined, state: WalkState): void => {
  if (!isNode(node)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported statement');
  if (node.type !== 'select') {
    refuse('NOT_SELECT', `Only SELECT statements are allowed (got ${String(node.type).toUpperCase()})`);
  }
  checkShape(node, SELECT_KEYS, 'SELECT');
  state.checked.add(node);
  if (present(node.locking_read)) {
    refuse('LOCKING_CLAUSE', 'Locking reads (FOR UPDATE, FOR SHARE) are not allowed');
  }
  if (present(node.into) && (!isNode(node.into) || Object.values(node.into).some(present))) {
    refuse('SELECT_INTO', 'SELECT ... INTO is not allowed');
  }
  if (Array.isArray(node.options) ? node.options.length > 0 : present(node.options)) {
    refuse('UNSUPPORTED_SYNTAX', 'SELECT modifiers (SQL_CALC_FOUND_ROWS, ...) are not supported');
  }
  if (present(node.distinct) && node.distinct !== 'DISTINCT') {
    refuse('UNSUPPORTED_SYNTAX', 'Unsupported DISTINCT');
  }
  if (present(node.collate)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported COLLATE');
  const inner = walkWith(node.with, scope, state);
  const outer = node.parentheses_symbol === true ? scope : inner;
  if (present(node.from)) {
    if (!Array.isArray(node.from)) refuse('UNSUPPORTED_SYNTAX', 'Parenthesized joins are not supported');
    node.from = node.from.map((item) => walkFromItem(item, inner, state));
  }
  if (!Array.isArray(node.columns)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported select list');
  for (const column of node.columns) {
    if (!isNode(column)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported select list');
    checkShape(column, keySet('expr', 'as'), 'select list');
    if (present(column.as) && typeof column.as !== 'string') {
      refuse('UNSUPPORTED_SYNTAX', 'Unsupported alias');
    }
    walkExpr(column.expr, inner, state);
  }
  walkExpr(node.where, inner, state);
  if (present(node.groupby)) {
    const group = node.groupby;
    if (!isNode(group)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported GROUP BY');
    checkShape(group, keySet('columns', 'modifiers'), 'GROUP BY');
    for (const item of Array.isArray(group.columns) ? group.columns : []) walkExpr(item, inner, state);
    for (const modifier of Array.isArray(group.modifiers) ? group.modifiers : []) {
      if (modifier === null) continue;
      if (
        !isNode(modifier) ||
        modifier.type !== 'origin' ||
        String(modifier.value).toLowerCase() !== 'with rollup'
      ) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported GROUP BY modifier');
      }
    }
  }
  walkExpr(node.having, inner, state);
  walkOrderBy(node.orderby, inner, state);
  if (present(node.window)) {
    const clause = node.window;
    if (!isNode(clause) || !Array.isArray(clause.expr)) refuse('UNSUPPORTED_SYNTAX', 'Unsupported WINDOW');
    checkShape(clause, keySet('keyword', 'type', 'expr'), 'WINDOW');
    for (const named of clause.expr) {
      if (!isNode(named) || typeof named.name !== 'string' || !IDENTIFIER.test(named.name)) {
        refuse('UNSUPPORTED_SYNTAX', 'Unsupported WINDOW');
      }
      checkShape(named, keySet('name', 'as_window_specification'), 'WINDOW');
      walkWindow(named.as_window_specification, inner, state);
    }
  }
  checkLimit(node.limit);
  if (present(node._next)) {
    if (typeof node.set_op !== 'string' || !SET_OPERATIONS.has(node.set_op.toLowerCase())) {
      refuse('UNSUPPORTED_SYNTAX', `Unsupported set operation ${String(node.set_op)}`);
    }
    // `(WITH x AS (...) SELECT ...) UNION SELECT ... FROM x`: a WITH inside a parenthesized
    // member is that member's alone (MySQL 8; MariaDB 10.11 rejects the syntax), so the other
    // members and the trailing ORDER BY must take `x` for a table.
    walkSelect(node._next, outer, state);
  } else if (present(node.set_op)) {
    refuse('UNSUPPORTED_SYNTAX', 'Unsupported set operation');
  }
  walkOrderBy(node._orderby, outer, state);
  checkLimit(node._limit);
};

/**
 * After the walk: any SELECT or FROM item the walk did not check sits somewhere the walk does
 * not look, and may read a relation nobody wrapped.
 */
const sweep = (node: unknown, state: WalkState): void => {
  if (Array.isArray(node)) {
    for (const item of node) sweep(item, state);
    return;
  }
  if (!isNode(node)) return;
  const looksLikeSelect = node.type === 'select';
  const looksLikeTable = typeof node.table === 'string' && 'db' in node && node.type !== 'column_ref';
  if ((looksLikeSelect || looksLikeTable) && !state.checked.has(node)) {
    refuse('UNSUPPORTED_SYNTAX', 'A statement or relation appears where the guard does not check');
  }
  for (const child of Object.values(node)) sweep(child, state);
};
