// The filtering wrapper the PostgreSQL guard puts in place of every tenant relation, and the one
// optimisation allowed through it (docs/design.md "Each wrapped relation is an optimisation
// fence"). Used by the walk (lib/dialects/postgres/rewrite.ts).
import type { CatalogColumn } from '#lib/core/catalog.ts';
import {
  bodyOf,
  columnRef,
  integerConstant,
  list,
  type Scope,
  strings,
  typeOf,
  type WalkState,
  type Wrapper,
} from './nodes.ts';
import type { PgNode } from './parser.ts';

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
export const wrapRelation = (
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
export const pushLeakproof = (select: PgNode, level: Scope): void => {
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
