// What the data-egress rules read of libpg-query's tree (lib/answer/egress.ts): the names and
// relations a query exposes, the names it defines, whether it only aggregates numbers.
import {
  ARITHMETIC,
  EXTREMES,
  isNode,
  type Node,
  NUMERIC_AGGREGATES,
  NUMERIC_WRAPPERS,
  nodesOf,
} from '../egress.ts';
import type { EgressReading, Exposure } from '../types.ts';

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

export const POSTGRES_EGRESS: Omit<EgressReading, 'parseStatements'> = {
  exposure: pgExposure,
  definedNames: pgDefinedNames,
  onlyNumericAggregates: pgOnlyNumericAggregates,
};
