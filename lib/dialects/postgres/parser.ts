// PostgreSQL's own grammar for the SQL guard (lib/dialects/postgres/sql-guard.ts): libpg-query parses (the
// server's parser compiled to WASM), pgsql-deparser prints, and `sameTree` is the comparison the
// fail-closed step rests on (docs/design.md "Tenant filtering and the SQL guard", steps 1 and 6).
import { loadModule, parseSync } from 'libpg-query';
import { deparseSync } from 'pgsql-deparser';

/** A raw parse tree node as libpg-query returns it (JSON of PostgreSQL's protobuf). */
export type PgNode = Record<string, unknown>;

let loading: Promise<void> | undefined;

/** Loads the parser's WASM once per process; later calls return the same promise. */
export const loadPostgresParser = (): Promise<void> => {
  loading ??= loadModule();
  return loading;
};

/** The statements of `sql` (each `{SelectStmt: ...}`, `{InsertStmt: ...}`, ...). Throws on a syntax error. */
export const parseStatements = (sql: string): PgNode[] =>
  (parseSync(sql).stmts ?? []).map((raw) => (raw.stmt ?? {}) as PgNode);

/** One statement node printed as SQL text, on one line and without a trailing semicolon. */
export const printStatement = (statement: PgNode): string =>
  deparseSync(statement as never, { pretty: false })
    .trim()
    .replace(/;+$/, '');

// Source positions, and fields that only record them, are not part of what a tree means.
const POSITION_FIELDS = new Set([
  'location',
  'stmt_location',
  'stmt_len',
  'rexpr_list_start',
  'rexpr_list_end',
  'list_start',
  'list_end',
]);

/**
 * The tree with positions removed and protobuf defaults (false, 0, '') dropped: libpg-query
 * omits a field holding its default, so `{ival: {}}` and `{ival: {ival: 0}}` are the same zero.
 * Empty objects stay (`distinctClause: [{}]` is plain DISTINCT; `{ival: {}}` is the constant 0).
 */
export const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (POSITION_FIELDS.has(key) || child === undefined || child === false || child === 0 || child === '')
      continue;
    out[key] = canonical(child);
  }
  return out;
};

/** Whether two trees mean the same statement (same shape and values, positions aside). */
export const sameTree = (a: unknown, b: unknown): boolean => {
  const stack: [unknown, unknown][] = [[canonical(a), canonical(b)]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    const xr = x as Record<string, unknown>;
    const yr = y as Record<string, unknown>;
    const keys = Object.keys(xr);
    if (keys.length !== Object.keys(yr).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(yr, key)) return false;
      stack.push([xr[key], yr[key]]);
    }
  }
  return true;
};
