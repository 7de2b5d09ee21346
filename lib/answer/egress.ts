// Whether the rows of a query may reach a model provider (docs/model-engines.md "Data egress",
// docs/design.md "The model path"). Decided from the SQL the guard printed (the only SQL that
// runs), parsed again with the guard's own parser, never from the text the model wrote: the
// parser has already resolved quoting and escapes (`U&"\0065mail"` is the column `email`).
//
// The rows go to the model only when all of these hold; otherwise the service writes the answer:
//   - `model_data` is not `schema_only`;
//   - no column reference anywhere in the query names a redacted column (by column name, whatever
//     relation or alias it is read through);
//   - when a relation the query reads has a redacted column, no value of the query stands for a
//     whole row (`c`, `c::text`, `row_to_json(c)`, `c.*` inside a function or ROW(...)), no `*`
//     reaches the output (or a subquery used as a value), and no column list renames the columns
//     of a relation or subquery (`AS s(a, b, x)`): each of those carries a redacted column
//     without naming it. A `*` in a FROM subquery or a WITH query only passes columns on to the
//     query around it, which must name them (or hits one of the rules here);
//   - under `aggregates`: one SELECT (no WITH, set operation, GROUP BY, DISTINCT or window) whose
//     every output column is a numeric aggregate: count, sum, avg, stddev/variance and the like,
//     min/max only of a numeric column (by the catalog, and not a name the query gives to a
//     column of its own), arithmetic and rounding of those. min/max of text,
//     string_agg, array_agg and the JSON aggregates are not: they return raw values.
// Whatever does not parse, or any shape not listed here, fails closed (the service writes).
import type { Catalog, Dialect } from '#lib/connectors/types.ts';
import type { ModelData } from './engine.ts';

export interface EgressRequest {
  /** The SQL the guard printed (and the database ran). */
  sql: string;
  dialect: Dialect;
  catalog: Catalog;
  modelData?: ModelData;
  /** `table.column` or `schema.table.column`. */
  redactedColumns?: readonly string[];
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every object in a tree (each once), depth first. */
const nodesOf = function* (root: unknown): Generator<Node> {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (isNode(value)) {
      yield value;
      stack.push(...Object.values(value));
    }
  }
};

/** What a query exposes, found by walking its parse tree. */
interface Exposure {
  /** Some column reference names a redacted column. */
  namesRedacted: boolean;
  /** A whole-row value, a `*` outside a pass-through select list, or a renaming column list. */
  unnamedColumns: boolean;
  /** Base relations read anywhere (lower-case names, unqualified). */
  relations: Set<string>;
}

const NUMERIC_AGGREGATES = new Set([
  'count',
  'sum',
  'avg',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'std',
  'variance',
  'var_pop',
  'var_samp',
]);
const EXTREMES = new Set(['min', 'max']);
/** Functions that keep a number a number (the first argument; the rest must be constants). */
const NUMERIC_WRAPPERS = new Set([
  'round',
  'ceil',
  'ceiling',
  'floor',
  'abs',
  'trunc',
  'truncate',
  'coalesce',
]);
const ARITHMETIC = new Set(['+', '-', '*', '/']);

/** Redacted column names, lower-case (the relation part is ignored: any relation, any alias). */
const redactedNames = (redacted: readonly string[]): Set<string> =>
  new Set(redacted.map((name) => name.split('.').at(-1)!.toLowerCase()));

/** Relations (lower-case, unqualified) that have a redacted column. */
const redactedRelations = (redacted: readonly string[]): Set<string> =>
  new Set(redacted.map((name) => name.split('.').at(-2)?.toLowerCase() ?? ''));

/** Lower-case names of the columns whose kind is a number in every catalog relation that has one of that name. */
const numericColumns = (catalog: Catalog): Set<string> => {
  const numeric = new Set<string>();
  const other = new Set<string>();
  for (const relation of catalog.relations) {
    for (const column of relation.columns) {
      const name = column.name.toLowerCase();
      if (column.kind === 'integer' || column.kind === 'decimal') numeric.add(name);
      else other.add(name);
    }
  }
  for (const name of other) numeric.delete(name);
  return numeric;
};

// ---------------------------------------------------------------- PostgreSQL (libpg-query tree)

const pgName = (node: unknown): string | undefined => {
  const value = isNode(node) && isNode(node.String) ? node.String.sval : undefined;
  return typeof value === 'string' ? value.toLowerCase() : undefined;
};

/** SelectStmt bodies whose select list only passes columns on (FROM subqueries, WITH queries), with their set-operation arms. */
const pgPassThrough = (tree: unknown): Set<Node> => {
  const bodies = new Set<Node>();
  const add = (body: unknown) => {
    if (!isNode(body)) return;
    bodies.add(body);
    add(body.larg);
    add(body.rarg);
  };
  for (const node of nodesOf(tree)) {
    const subquery = isNode(node.RangeSubselect) ? node.RangeSubselect.subquery : undefined;
    const cte = isNode(node.CommonTableExpr) ? node.CommonTableExpr.ctequery : undefined;
    for (const query of [subquery, cte]) if (isNode(query)) add(query.SelectStmt);
  }
  return bodies;
};

const pgExposure = (tree: Node, names: Set<string>): Exposure => {
  const relations = new Set<string>();
  const rowNames = new Set<string>();
  let unnamedColumns = false;
  let namesRedacted = false;
  for (const node of nodesOf(tree)) {
    if (isNode(node.RangeVar) && typeof node.RangeVar.relname === 'string') {
      relations.add(node.RangeVar.relname.toLowerCase());
      rowNames.add(node.RangeVar.relname.toLowerCase());
    }
    if (isNode(node.CommonTableExpr)) {
      const cte = node.CommonTableExpr;
      if (typeof cte.ctename === 'string') rowNames.add(cte.ctename.toLowerCase());
      if (Array.isArray(cte.aliascolnames) && cte.aliascolnames.length > 0) unnamedColumns = true;
    }
    if (isNode(node.JoinExpr)) {
      // USING (email) compares a column it never references; NATURAL compares unnamed ones.
      for (const name of (node.JoinExpr.usingClause as unknown[] | undefined) ?? []) {
        if (names.has(pgName(name) ?? '')) namesRedacted = true;
      }
      if (node.JoinExpr.isNatural === true) unnamedColumns = true;
    }
    if (typeof node.aliasname === 'string') {
      rowNames.add(node.aliasname.toLowerCase());
      if (Array.isArray(node.colnames) && node.colnames.length > 0) unnamedColumns = true;
    }
  }
  // A `*` passed on by a FROM subquery or WITH query: the ResTarget values of their select lists.
  const passed = new Set<unknown>();
  for (const body of pgPassThrough(tree)) {
    for (const target of (body.targetList as unknown[] | undefined) ?? []) {
      if (isNode(target) && isNode(target.ResTarget)) passed.add(target.ResTarget.val);
    }
  }
  for (const node of nodesOf(tree)) {
    const ref = node.ColumnRef;
    if (!isNode(ref) || !Array.isArray(ref.fields)) continue;
    const last = ref.fields.at(-1);
    if (isNode(last) && 'A_Star' in last) {
      if (!passed.has(node)) unnamedColumns = true;
      continue;
    }
    const name = pgName(last);
    if (name === undefined) {
      unnamedColumns = true;
      continue;
    }
    if (names.has(name)) namesRedacted = true;
    // PostgreSQL reads a name that is no column as the whole row of the relation it names.
    if (rowNames.has(name)) unnamedColumns = true;
  }
  return { namesRedacted, unnamedColumns, relations };
};

/**
 * Names the query itself gives to columns (output names of inner selects, aliases, column lists,
 * WITH names): a column of one of these names may hold anything, whatever the catalog says.
 */
const pgDefinedNames = (tree: Node): Set<string> => {
  const top = isNode(tree.SelectStmt) ? ((tree.SelectStmt.targetList as unknown[] | undefined) ?? []) : [];
  const outputs = new Set(top.map((target) => (isNode(target) ? target.ResTarget : undefined)));
  const defined = new Set<string>();
  const add = (name: unknown) => {
    if (typeof name === 'string') defined.add(name.toLowerCase());
    else if (pgName(name) !== undefined) defined.add(pgName(name)!);
  };
  for (const node of nodesOf(tree)) {
    if (isNode(node.ResTarget) && !outputs.has(node.ResTarget)) add(node.ResTarget.name);
    if (isNode(node.ColumnDef)) add(node.ColumnDef.colname);
    if (isNode(node.CommonTableExpr)) add(node.CommonTableExpr.ctename);
    if (typeof node.aliasname === 'string') add(node.aliasname);
    for (const list of [node.colnames, node.aliascolnames]) {
      if (Array.isArray(list)) for (const name of list) add(name);
    }
  }
  return defined;
};

const pgNumericExpression = (value: unknown, numeric: Set<string>): boolean => {
  if (!isNode(value)) return false;
  if (isNode(value.A_Const)) return 'ival' in value.A_Const || 'fval' in value.A_Const;
  if (isNode(value.TypeCast)) return pgNumericExpression(value.TypeCast.arg, numeric);
  if (isNode(value.A_Expr)) {
    const expr = value.A_Expr;
    const operator = Array.isArray(expr.name) ? pgName(expr.name.at(-1)) : undefined;
    return (
      expr.kind === 'AEXPR_OP' &&
      operator !== undefined &&
      ARITHMETIC.has(operator) &&
      (expr.lexpr === undefined || pgNumericExpression(expr.lexpr, numeric)) &&
      pgNumericExpression(expr.rexpr, numeric)
    );
  }
  const call = value.FuncCall;
  if (!isNode(call) || call.over !== undefined || !Array.isArray(call.funcname)) return false;
  const name = pgName(call.funcname.at(-1));
  const args = (call.args as unknown[] | undefined) ?? [];
  if (name === undefined) return false;
  if (NUMERIC_AGGREGATES.has(name)) return true;
  if (EXTREMES.has(name)) {
    const arg = args[0];
    const ref = isNode(arg) && isNode(arg.ColumnRef) ? arg.ColumnRef : undefined;
    const column = ref && Array.isArray(ref.fields) ? pgName(ref.fields.at(-1)) : undefined;
    return args.length === 1 && column !== undefined && numeric.has(column);
  }
  if (NUMERIC_WRAPPERS.has(name)) {
    return (
      args.length > 0 &&
      pgNumericExpression(args[0], numeric) &&
      args.slice(1).every((arg) => isNode(arg) && isNode(arg.A_Const))
    );
  }
  return false;
};

const pgOnlyNumericAggregates = (tree: Node, numeric: Set<string>): boolean => {
  const select = tree.SelectStmt;
  if (!isNode(select)) return false;
  if (
    (select.op !== undefined && select.op !== 'SETOP_NONE') ||
    select.withClause !== undefined ||
    select.groupClause !== undefined ||
    select.distinctClause !== undefined ||
    select.windowClause !== undefined ||
    !Array.isArray(select.targetList)
  ) {
    return false;
  }
  return select.targetList.every(
    (target) =>
      isNode(target) && isNode(target.ResTarget) && pgNumericExpression(target.ResTarget.val, numeric),
  );
};

// ---------------------------------------------------------------- MySQL (node-sql-parser tree)

const myName = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value.toLowerCase();
  if (isNode(value) && isNode(value.expr)) return myName(value.expr.value);
  if (isNode(value) && typeof value.value === 'string') return value.value.toLowerCase();
  return undefined;
};

const mySelectChain = (select: unknown, into: Set<Node>) => {
  for (let body = select; isNode(body); body = body._next) into.add(body);
};

const myExposure = (tree: Node, names: Set<string>): Exposure => {
  const relations = new Set<string>();
  const rowNames = new Set<string>();
  const passThrough = new Set<Node>();
  let unnamedColumns = false;
  let namesRedacted = false;
  for (const node of nodesOf(tree)) {
    if (Array.isArray(node.from)) {
      for (const item of node.from) {
        if (!isNode(item)) continue;
        if (typeof item.table === 'string') {
          relations.add(item.table.toLowerCase());
          rowNames.add(item.table.toLowerCase());
        }
        const alias = myName(item.as);
        if (alias !== undefined) rowNames.add(alias);
        if (isNode(item.expr) && isNode(item.expr.ast)) mySelectChain(item.expr.ast, passThrough);
        if (Array.isArray(item.columns) && item.columns.length > 0) unnamedColumns = true;
        for (const name of Array.isArray(item.using) ? item.using : []) {
          if (names.has(myName(name) ?? '')) namesRedacted = true;
        }
        if (typeof item.join === 'string' && /natural/i.test(item.join)) unnamedColumns = true;
      }
    }
    if (Array.isArray(node.with)) {
      for (const cte of node.with) {
        if (!isNode(cte)) continue;
        const name = myName(cte.name);
        if (name !== undefined) rowNames.add(name);
        if (Array.isArray(cte.columns) && cte.columns.length > 0) unnamedColumns = true;
        if (isNode(cte.stmt)) mySelectChain(cte.stmt.ast, passThrough);
      }
    }
  }
  const passed = new Set<unknown>();
  for (const body of passThrough) {
    if (body.columns === '*') continue;
    for (const column of (body.columns as unknown[] | undefined) ?? []) {
      if (isNode(column)) passed.add(column.expr);
    }
  }
  for (const node of nodesOf(tree)) {
    if (node.type === 'select' && node.columns === '*' && !passThrough.has(node)) unnamedColumns = true;
    // COUNT(*) (a `star` node) counts rows; a `*` column outside a pass-through select list carries columns.
    if (node.type === 'column_ref' && node.column === '*') {
      if (!passed.has(node)) unnamedColumns = true;
      continue;
    }
    if (node.type !== 'column_ref') continue;
    const name = myName(node.column);
    if (name === undefined) {
      unnamedColumns = true;
      continue;
    }
    if (names.has(name)) namesRedacted = true;
    if (rowNames.has(name) && node.table === null) unnamedColumns = true;
  }
  return { namesRedacted, unnamedColumns, relations };
};

/** As pgDefinedNames, for MySQL's tree. */
const myDefinedNames = (tree: Node): Set<string> => {
  const outputs = new Set(Array.isArray(tree.columns) ? tree.columns : []);
  const defined = new Set<string>();
  const add = (name: unknown) => {
    const value = myName(name);
    if (value !== undefined) defined.add(value);
  };
  for (const node of nodesOf(tree)) {
    if (node.type === 'select' && Array.isArray(node.columns)) {
      for (const column of node.columns) if (isNode(column) && !outputs.has(column)) add(column.as);
    }
    if (Array.isArray(node.from)) for (const item of node.from) if (isNode(item)) add(item.as);
    if (Array.isArray(node.with)) {
      for (const cte of node.with) {
        if (!isNode(cte)) continue;
        add(cte.name);
        if (Array.isArray(cte.columns)) for (const name of cte.columns) add(name);
      }
    }
  }
  return defined;
};

const myFunctionName = (node: Node): string | undefined => {
  if (typeof node.name === 'string') return node.name.toLowerCase();
  const parts = isNode(node.name) && Array.isArray(node.name.name) ? node.name.name : undefined;
  return parts ? myName(parts.at(-1)) : undefined;
};

const myArguments = (node: Node): unknown[] => {
  const args = node.args;
  if (isNode(args) && Array.isArray(args.value)) return args.value;
  if (isNode(args) && 'expr' in args) return [args.expr];
  return [];
};

const myNumericExpression = (value: unknown, numeric: Set<string>): boolean => {
  if (!isNode(value)) return false;
  if (value.type === 'number') return true;
  if (value.type === 'cast') return myNumericExpression(value.expr, numeric);
  if (value.type === 'binary_expr') {
    return (
      typeof value.operator === 'string' &&
      ARITHMETIC.has(value.operator) &&
      myNumericExpression(value.left, numeric) &&
      myNumericExpression(value.right, numeric)
    );
  }
  if (value.over !== undefined && value.over !== null) return false;
  const name = myFunctionName(value);
  if (name === undefined) return false;
  if (value.type === 'aggr_func') {
    if (NUMERIC_AGGREGATES.has(name)) return true;
    if (!EXTREMES.has(name)) return false;
    const arg = isNode(value.args) ? value.args.expr : undefined;
    return isNode(arg) && arg.type === 'column_ref' && numeric.has(myName(arg.column) ?? '');
  }
  if (value.type === 'function' && NUMERIC_WRAPPERS.has(name)) {
    const args = myArguments(value);
    return (
      args.length > 0 &&
      myNumericExpression(args[0], numeric) &&
      args.slice(1).every((arg) => isNode(arg) && arg.type === 'number')
    );
  }
  return false;
};

const myOnlyNumericAggregates = (tree: Node, numeric: Set<string>): boolean => {
  const empty = (value: unknown) =>
    value === null ||
    value === undefined ||
    (isNode(value) && (value.columns === null || value.columns === undefined));
  if (
    tree.type !== 'select' ||
    !empty(tree._next) ||
    !empty(tree.with) ||
    !empty(tree.groupby) ||
    !(tree.distinct === null || tree.distinct === undefined) ||
    !empty(tree.window) ||
    !Array.isArray(tree.columns)
  ) {
    return false;
  }
  return tree.columns.every((column) => isNode(column) && myNumericExpression(column.expr, numeric));
};

// ---------------------------------------------------------------- the decision

/** The statement of the guarded SQL, or undefined when it is not exactly one. */
const parsed = async (sql: string, dialect: Dialect): Promise<Node | undefined> => {
  try {
    const statements =
      dialect === 'mysql'
        ? (await import('#lib/sql/mysql-parser.ts')).parseStatements(sql)
        : await (async () => {
            const parser = await import('#lib/sql/postgres-parser.ts');
            await parser.loadPostgresParser();
            return parser.parseStatements(sql);
          })();
    return statements.length === 1 && isNode(statements[0]) ? statements[0] : undefined;
  } catch {
    return undefined;
  }
};

/** Whether the rows of the guarded query may be shown to a model (see the top of this file). */
export const rowsMayReachModel = async (request: EgressRequest): Promise<boolean> => {
  const mode = request.modelData ?? 'rows';
  const redacted = request.redactedColumns ?? [];
  if (mode === 'schema_only') return false;
  if (mode === 'rows' && redacted.length === 0) return true;
  const tree = await parsed(request.sql, request.dialect);
  if (!tree) return false;
  const mysql = request.dialect === 'mysql';
  if (redacted.length > 0) {
    const exposure = (mysql ? myExposure : pgExposure)(tree, redactedNames(redacted));
    if (exposure.namesRedacted) return false;
    const sensitive = redactedRelations(redacted);
    if (exposure.unnamedColumns && [...exposure.relations].some((name) => sensitive.has(name))) return false;
  }
  if (mode === 'rows') return true;
  const numeric = numericColumns(request.catalog);
  for (const name of (mysql ? myDefinedNames : pgDefinedNames)(tree)) numeric.delete(name);
  return mysql ? myOnlyNumericAggregates(tree, numeric) : pgOnlyNumericAggregates(tree, numeric);
};
