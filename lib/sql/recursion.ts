// Recursive queries are bounded (docs/design.md "Isolation against an attacker: second round").
// A recursive CTE whose step builds a value from two or more of its own previous values —
// `s || s`, concat(s, s), replace(s, 'x', s), array_cat(a, a), `s || t` over two of its columns —
// doubles it every step: from 16 characters, 26 steps ask the server for a gigabyte per row,
// which neither the statement timeout nor the cost ceiling sees (a PostgreSQL 15 backend held
// 1.6 GB until the timeout). Such a step is refused with SIZE_NOT_BOUNDED, as `repeat` is. A step
// that uses its own value once (`p.route || ' > ' || c.name`, `n + 1`) grows by at most what the
// step adds, so its length is bounded by the statement timeout: the quadratic cost of copying
// reaches the timeout long before memory. Both guards call these on every CTE of a WITH RECURSIVE:
// the checks read the CTE's own tree only (its name, columns and the arms that read it).
import type { PgNode } from './postgres-parser.ts';

/** Functions whose result holds their arguments (strings, arrays, JSON, rows) at full length. */
const GROWING_FUNCTIONS = new Set([
  'concat',
  'concat_ws',
  'format',
  'replace',
  'regexp_replace',
  'textcat',
  'array_cat',
  'array_append',
  'array_prepend',
  'json_build_array',
  'jsonb_build_array',
  'json_build_object',
  'jsonb_build_object',
  'json_array',
  'json_object',
  'json_merge',
  'json_merge_preserve',
  'json_merge_patch',
  'jsonb_set',
  'jsonb_insert',
  'to_json',
  'to_jsonb',
  'row_to_json',
  'insert',
  'lpad',
  'rpad',
]);

const recursionMessage = (cte: string) =>
  `The recursive query ${cte} builds a value from more than one of its own previous values in one step, ` +
  'which doubles its size every step: use each of its columns at most once in a concatenation';

const isObject = (value: unknown): value is PgNode =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// ---- PostgreSQL (libpg-query's tree) --------------------------------------------------------------

const pgStrings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap((item) => {
        const text = isObject(item) && isObject(item.String) ? item.String.sval : undefined;
        return typeof text === 'string' ? [text] : [];
      })
    : [];

/** The arms of a set operation (UNION / INTERSECT / EXCEPT), each a plain SELECT body. */
const pgArms = (select: PgNode): PgNode[] =>
  select.op !== undefined && select.op !== 'SETOP_NONE'
    ? [...pgArms((select.larg ?? {}) as PgNode), ...pgArms((select.rarg ?? {}) as PgNode)]
    : [select];

/** Every node below `value` (itself included) for which `visit` returns true, not looking inside them. */
const collect = (value: unknown, visit: (node: PgNode) => boolean, found: PgNode[] = []): PgNode[] => {
  if (Array.isArray(value)) for (const item of value) collect(item, visit, found);
  else if (isObject(value)) {
    if (visit(value)) found.push(value);
    else for (const child of Object.values(value)) collect(child, visit, found);
  }
  return found;
};

/** The names the arm reads the CTE under (its own name, or the alias it is given). */
const pgAliases = (arm: PgNode, cte: string): Set<string> => {
  const aliases = new Set<string>();
  for (const node of collect(arm.fromClause, (n) => isObject(n.RangeVar))) {
    const range = node.RangeVar as PgNode;
    if (range.schemaname === undefined && range.relname === cte) {
      const alias = isObject(range.alias) ? range.alias.aliasname : undefined;
      aliases.add(typeof alias === 'string' ? alias : cte);
    }
  }
  return aliases;
};

const pgOutputNames = (arm: PgNode): string[] =>
  (Array.isArray(arm.targetList) ? arm.targetList : []).flatMap((item) => {
    const target = isObject(item) && isObject(item.ResTarget) ? item.ResTarget : undefined;
    if (!target) return [];
    if (typeof target.name === 'string') return [target.name];
    const ref = isObject(target.val) && isObject(target.val.ColumnRef) ? target.val.ColumnRef : undefined;
    const last = ref ? pgStrings(ref.fields).at(-1) : undefined;
    return last === undefined ? [] : [last];
  });

const pgGrowing = (node: PgNode): boolean => {
  if (isObject(node.A_Expr)) return pgStrings(node.A_Expr.name).includes('||');
  if (isObject(node.FuncCall)) {
    const name = pgStrings(node.FuncCall.funcname).at(-1);
    return name !== undefined && GROWING_FUNCTIONS.has(name.toLowerCase());
  }
  return isObject(node.A_ArrayExpr) || isObject(node.RowExpr);
};

/** SIZE_NOT_BOUNDED's message for a CommonTableExpr of a WITH RECURSIVE whose step doubles a value. */
export const postgresRecursionRefusal = (cte: PgNode): string | undefined => {
  const name = typeof cte.ctename === 'string' ? cte.ctename : '';
  const query =
    isObject(cte.ctequery) && isObject(cte.ctequery.SelectStmt) ? cte.ctequery.SelectStmt : undefined;
  if (!query) return undefined;
  const arms = pgArms(query);
  const declared = pgStrings(cte.aliascolnames);
  const columns = new Set(declared.length > 0 ? declared : pgOutputNames(arms[0] ?? {}));
  for (const arm of arms) {
    const aliases = pgAliases(arm, name);
    if (aliases.size === 0) continue;
    const ownReferences = (node: PgNode): number =>
      collect(node, (n) => isObject(n.ColumnRef)).reduce((count, found) => {
        const fields = (found.ColumnRef as PgNode).fields;
        const parts = pgStrings(fields);
        const star = Array.isArray(fields) && fields.some((field) => isObject(field) && 'A_Star' in field);
        if (parts.length === 1 && !star) return count + (columns.has(parts[0]!) ? 1 : 0);
        // `r.*` is every column of the previous row at once.
        if (parts.length >= 1 && aliases.has(parts[0]!)) return count + (star ? 2 : 1);
        return count;
      }, 0);
    for (const growing of collect(arm.targetList, pgGrowing)) {
      if (ownReferences(growing) > 1) return recursionMessage(name);
    }
  }
  return undefined;
};

// ---- MySQL / MariaDB (node-sql-parser's tree) --------------------------------------------------

const myName = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (isObject(value)) {
    if (typeof value.value === 'string') return value.value;
    if (isObject(value.expr)) return myName(value.expr);
  }
  return undefined;
};

const myArms = (ast: PgNode): PgNode[] => {
  const arms: PgNode[] = [];
  for (let arm: unknown = ast; isObject(arm); arm = arm._next) arms.push(arm);
  return arms;
};

const myGrowing = (node: PgNode): boolean => {
  if (node.type !== 'function') return false;
  const parts = isObject(node.name) ? node.name.name : undefined;
  const name = Array.isArray(parts) ? myName(parts.at(-1)) : myName(node.name);
  return name !== undefined && GROWING_FUNCTIONS.has(name.toLowerCase());
};

/** The MySQL guard's counterpart of postgresRecursionRefusal, on one item of a WITH RECURSIVE. */
export const mysqlRecursionRefusal = (cte: PgNode): string | undefined => {
  const name = myName(cte.name) ?? '';
  const ast = isObject(cte.stmt) && isObject(cte.stmt.ast) ? cte.stmt.ast : undefined;
  if (!ast) return undefined;
  const arms = myArms(ast);
  const lower = (text: string | undefined) => text?.toLowerCase();
  const declared = (Array.isArray(cte.columns) ? cte.columns : []).flatMap((column) => {
    const text = isObject(column) ? myName(column.column) : undefined;
    return text === undefined ? [] : [text.toLowerCase()];
  });
  const firstColumns = (Array.isArray(arms[0]?.columns) ? arms[0].columns : []).flatMap((column) => {
    const text = isObject(column)
      ? (myName(column.as) ?? (isObject(column.expr) ? myName(column.expr.column) : undefined))
      : undefined;
    return text === undefined ? [] : [text.toLowerCase()];
  });
  const columns = new Set(declared.length > 0 ? declared : firstColumns);
  for (const arm of arms) {
    const aliases = new Set<string>();
    for (const item of collect(
      arm.from,
      (n) => typeof n.table === 'string' && !('type' in n && n.type === 'column_ref'),
    ))
      if (lower(item.table as string) === lower(name) && !item.db)
        aliases.add(lower(myName(item.as) ?? name)!);
    if (aliases.size === 0) continue;
    const ownReferences = (node: PgNode): number =>
      collect(node, (n) => n.type === 'column_ref').reduce((count, ref) => {
        const column = lower(myName(ref.column));
        const table = lower(myName(ref.table));
        if (table === undefined) return count + (column !== undefined && columns.has(column) ? 1 : 0);
        if (aliases.has(table)) return count + (column === '*' ? 2 : 1);
        return count;
      }, 0);
    for (const growing of collect(arm.columns, myGrowing)) {
      if (ownReferences(growing) > 1) return recursionMessage(name);
    }
  }
  return undefined;
};
