// The filtering derived table the MySQL/MariaDB guard puts in place of every tenant relation
// (docs/design.md "Each wrapped relation is an optimisation fence"), and the markers that carry
// its bound values through the printer. Used by the walk (lib/dialects/mysql/rewrite.ts).
import type { CatalogColumn, CatalogRelation } from '#lib/core/catalog.ts';
import { refuse } from '#lib/sql/types.ts';
import type { WalkState } from './nodes.ts';
import { type AstNode, identifierText } from './parser.ts';

/**
 * Bound values travel through the printer as named parameters `:tabletalk_bind_<n>`; the guard
 * then turns each into `?` and lists its value, so `params` follows the printed text's order
 * whatever order the printer visits the tree in. Input that mentions the prefix is refused.
 */
export const BIND_PREFIX = 'tabletalk_bind_';

const columnOf = (relation: CatalogRelation, name: string): CatalogColumn =>
  relation.columns.find((c) => c.name === name) ??
  refuse('UNKNOWN_RELATION', `Unknown column ${relation.name}.${name}`);

/** The tenant or scope value as its column compares it: MySQL compares '1abc' = 1 as true. */
const bindValue = (value: string | number, column: CatalogColumn, what: string): unknown => {
  if (column.kind === 'integer') {
    const number =
      typeof value === 'number' ? value : /^-?\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number)) {
      refuse('TENANT_REQUIRED', `The ${what} value is not an integer, as column ${column.name} requires`);
    }
    return number;
  }
  if (column.kind === 'text' || column.kind === 'uuid') return String(value);
  return value;
};

const marker = (state: WalkState, value: unknown): AstNode => {
  state.values.push(value);
  return { type: 'param', value: `${BIND_PREFIX}${state.values.length - 1}` };
};

const equals = (left: AstNode, right: AstNode): AstNode => ({
  type: 'binary_expr',
  operator: '=',
  left,
  right,
});

/**
 * `t.c = ?`; on a text column also `CAST(t.c AS BINARY) = ?`, because MySQL's usual collations
 * ignore case and trailing spaces ('Acme ' = 'acme'): the first term keeps the index usable,
 * the second makes the match exact.
 */
export const conditionsFor = (
  relation: CatalogRelation,
  name: string,
  value: string | number,
  what: string,
  state: WalkState,
): AstNode[] => {
  const column = columnOf(relation, name);
  const bound = bindValue(value, column, what);
  const ref = (): AstNode => ({
    type: 'column_ref',
    table: identifierText(relation.name),
    column: identifierText(name),
    collate: null,
  });
  const terms = [equals(ref(), marker(state, bound))];
  if (column.kind === 'text') {
    terms.push(
      equals(
        { type: 'cast', keyword: 'cast', expr: ref(), symbol: 'as', target: [{ dataType: 'BINARY' }] },
        marker(state, bound),
      ),
    );
  }
  return terms;
};

/**
 * The fence (docs/design.md "Each wrapped relation is an optimisation fence"): MySQL and MariaDB
 * neither merge a derived table that has a LIMIT into the outer query (derived_merge) nor push
 * an outer condition into it (MariaDB condition_pushdown_for_derived, MySQL 8.0.22
 * derived_condition_pushdown), so every outer condition sees only the filtered rows. The value
 * is MySQL's own "all rows" LIMIT (2^64 - 1): no table holds more.
 */
const FENCE_LIMIT = '18446744073709551615';

const fenceLimit = (): AstNode => ({
  seperator: '',
  value: [{ type: 'bigint', value: FENCE_LIMIT }],
});

export const wrapRelation = (relation: CatalogRelation, terms: AstNode[], state: WalkState): AstNode => {
  const inner: AstNode = {
    db: identifierText(relation.schema),
    table: identifierText(relation.name),
    as: null,
  };
  state.checked.add(inner);
  const where = terms.reduce((left, right) => ({ type: 'binary_expr', operator: 'AND', left, right }));
  const select: AstNode = {
    with: null,
    type: 'select',
    options: null,
    distinct: null,
    columns: [{ expr: { type: 'column_ref', table: null, column: '*' }, as: null }],
    into: { position: null },
    from: [inner],
    where,
    groupby: null,
    having: null,
    orderby: null,
    limit: fenceLimit(),
    locking_read: null,
    window: null,
    collate: null,
  };
  state.checked.add(select);
  return select;
};
