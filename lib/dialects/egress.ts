// What every dialect's egress reading shares (lib/dialects/types.ts EgressReading, read by
// lib/answer/egress.ts): a parse tree's nodes, and the functions and operators that keep a
// number a number.
export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every object in a tree (each once), depth first. */
export const nodesOf = function* (root: unknown): Generator<Node> {
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

export const NUMERIC_AGGREGATES = new Set([
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
export const EXTREMES = new Set(['min', 'max']);
/** Functions that keep a number a number (the first argument; the rest must be constants). */
export const NUMERIC_WRAPPERS = new Set([
  'round',
  'ceil',
  'ceiling',
  'floor',
  'abs',
  'trunc',
  'truncate',
  'coalesce',
]);
export const ARITHMETIC = new Set(['+', '-', '*', '/']);

/** Redacted column names, lower-case (the relation part is ignored: any relation, any alias). */
