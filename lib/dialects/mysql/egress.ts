// What the data-egress rules read of node-sql-parser's tree (lib/answer/egress.ts): the names and
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

export const MYSQL_EGRESS: Omit<EgressReading, 'parseStatements'> = {
  exposure: myExposure,
  definedNames: myDefinedNames,
  onlyNumericAggregates: myOnlyNumericAggregates,
};
