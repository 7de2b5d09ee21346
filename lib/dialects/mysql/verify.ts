// An independent check of the MySQL guard's output (lib/dialects/mysql/sql-guard.ts): given the tree of the
// SQL the guard printed, every relation it reads must be a CTE of the statement, a relation the
// row policy leaves open, or the only relation of a filtering derived table
// `(SELECT * FROM db.t WHERE t.c = ? [AND ...] LIMIT 18446744073709551615)`. It shares no code with the rewrite beyond the
// row policy, so a slip in the rewrite does not also slip past this check.
import type { CatalogRelation } from '#lib/core/catalog.ts';
import type { GuardRequest } from '#lib/sql/types.ts';
import { type AstNode, canonicalTree, identifierText, identifierValue, isNode } from './parser.ts';
import { relationAccess } from './policy.ts';

type Context = Pick<GuardRequest, 'catalog' | 'policy' | 'tenant' | 'scope'>;

/**
 * The terms a filtering derived table must have, in order: `t.c = ?` per filtered column, and
 * after it `CAST(t.c AS BINARY) = ?` when the column is text.
 */
const expectedTerms = (
  context: Context,
  access: ReturnType<typeof relationAccess>,
): { relation: CatalogRelation; terms: AstNode[] } | undefined => {
  if (access.kind === 'refused') return undefined;
  const columns: string[] = [];
  if (access.kind === 'filtered') columns.push(access.tenantColumn);
  if (access.scopeColumn !== undefined && context.scope !== undefined) columns.push(access.scopeColumn);
  const { relation } = access;
  const terms: AstNode[] = [];
  for (const name of columns) {
    const ref = {
      type: 'column_ref',
      table: identifierText(relation.name),
      column: identifierText(name),
      collate: null,
    };
    const placeholder = { type: 'origin', value: '?' };
    terms.push({ type: 'binary_expr', operator: '=', left: ref, right: placeholder });
    if (relation.columns.find((c) => c.name === name)?.kind === 'text') {
      const cast = {
        type: 'cast',
        keyword: 'cast',
        expr: ref,
        symbol: 'as',
        target: [{ dataType: 'BINARY' }],
      };
      terms.push({ type: 'binary_expr', operator: '=', left: cast, right: placeholder });
    }
  }
  return { relation, terms };
};

const conjuncts = (node: unknown): unknown[] =>
  isNode(node) && node.type === 'binary_expr' && node.operator === 'AND' && node.parentheses !== true
    ? [...conjuncts(node.left), ...conjuncts(node.right)]
    : [node];

const EMPTY_CLAUSES = [
  'with',
  'options',
  'distinct',
  'groupby',
  'having',
  'orderby',
  'window',
  '_next',
  '_orderby',
  '_limit',
  'locking_read',
];

/**
 * `LIMIT 18446744073709551615`, the fence that keeps the derived table unmerged and outer
 * conditions out of it (written here again, not imported from the rewrite, on purpose).
 */
const FENCE_LIMIT = '18446744073709551615';

const isFence = (limit: unknown): boolean =>
  isNode(limit) &&
  (limit.seperator === '' || limit.seperator === null || limit.seperator === undefined) &&
  Array.isArray(limit.value) &&
  limit.value.length === 1 &&
  isNode(limit.value[0]) &&
  limit.value[0].type === 'bigint' &&
  limit.value[0].value === FENCE_LIMIT;

/** Whether `select` is exactly `SELECT * FROM <item> WHERE <terms> LIMIT <fence>`. */
const isFilteringSelect = (select: AstNode, terms: AstNode[]): boolean => {
  const columns = select.columns;
  const star =
    Array.isArray(columns) &&
    columns.length === 1 &&
    isNode(columns[0]) &&
    isNode(columns[0].expr) &&
    columns[0].expr.type === 'column_ref' &&
    columns[0].expr.column === '*' &&
    columns[0].expr.table === null;
  const bare = EMPTY_CLAUSES.every((key) => {
    const value = select[key];
    return value === null || value === undefined || (Array.isArray(value) && value.every((v) => v === null));
  });
  const found = conjuncts(select.where).map((term) => JSON.stringify(canonicalTree(term)));
  const wanted = terms.map((term) => JSON.stringify(canonicalTree(term)));
  return (
    star &&
    bare &&
    isFence(select.limit) &&
    found.length === wanted.length &&
    found.every((term, i) => term === wanted[i])
  );
};

const cteNames = (node: unknown, names: Set<string>): Set<string> => {
  if (Array.isArray(node)) for (const item of node) cteNames(item, names);
  else if (isNode(node)) {
    if (Array.isArray(node.with)) {
      for (const item of node.with) {
        if (isNode(item) && isNode(item.name) && typeof item.name.value === 'string') {
          names.add(item.name.value);
        }
      }
    }
    for (const child of Object.values(node)) cteNames(child, names);
  }
  return names;
};

const countPlaceholders = (node: unknown): number => {
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + countPlaceholders(item), 0);
  if (!isNode(node)) return 0;
  if (node.type === 'origin' && node.value === '?') return 1;
  if (node.type === 'param') return 1;
  return Object.values(node).reduce((sum: number, child) => sum + countPlaceholders(child), 0);
};

/**
 * Problems found in a printed statement's tree (empty when it filters every relation it reads);
 * `parameters` is how many bound values the guard returned with it.
 */
export const filteringProblems = (tree: AstNode, context: Context, parameters: number): string[] => {
  const problems: string[] = [];
  const ctes = cteNames(tree, new Set());
  let expectedPlaceholders = 0;

  const visit = (node: unknown, wrapperOf?: AstNode): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isNode(node)) return;
    if (node.type === 'select' && Array.isArray(node.from)) {
      for (const item of node.from) {
        if (!isNode(item) || typeof item.table !== 'string') continue;
        const db = typeof item.db === 'string' ? item.db : undefined;
        if (db === undefined) {
          if (!ctes.has(item.table)) problems.push(`unqualified relation ${item.table} is not a CTE`);
          continue;
        }
        const access = relationAccess(
          context.catalog,
          context.policy,
          identifierValue(db),
          identifierValue(item.table),
        );
        const expected = expectedTerms(context, access);
        if (!expected) {
          problems.push(`relation ${db}.${item.table} is refused by the policy`);
          continue;
        }
        if (expected.terms.length === 0) continue;
        const wrapped =
          wrapperOf === node && node.from.length === 1 && isFilteringSelect(node, expected.terms);
        if (!wrapped) problems.push(`relation ${db}.${item.table} is read without its filter`);
        else expectedPlaceholders += expected.terms.length;
      }
    }
    for (const [key, child] of Object.entries(node)) {
      // A derived table in FROM: `{expr: {ast: select}, as}`; only there may a wrapper stand.
      if (key === 'expr' && isNode(child) && isNode(child.ast) && 'as' in node) {
        visit(child.ast, child.ast);
        continue;
      }
      visit(child);
    }
  };

  visit(tree);
  const placeholders = countPlaceholders(tree);
  if (placeholders !== expectedPlaceholders || placeholders !== parameters) {
    problems.push(
      `${placeholders} placeholders for ${expectedPlaceholders} filter terms and ${parameters} values`,
    );
  }
  return problems;
};
