// The SQL guard for PostgreSQL (and PGlite), docs/design.md "Tenant filtering and the SQL guard":
// parse generated SQL with PostgreSQL's own grammar, allow exactly one SELECT built from
// allowlisted syntax, functions and relations, wrap every tenant relation in a filtering
// subquery, cap the rows, print the tree, and re-parse the printed text to prove it says what
// was checked. Only the printed SQL is ever executed, never the text the model wrote.
//
// The printed SQL assumes the session the connectors set up: `search_path = pg_catalog` (every
// relation is schema-qualified here, and no user-defined function or operator can stand in for
// a built-in one), a read-only transaction and a statement timeout. String literals are printed
// in standard form, with E'' where a backslash appears, so their meaning does not depend on
// standard_conforming_strings.
import { type GuardDialect, runGuard } from '#lib/sql/guard.ts';
import { type Guard, refuse } from '#lib/sql/types.ts';
import { bodyOf, integerConstant, newWalkState, typeOf, type WalkState } from './nodes.ts';
import { loadPostgresParser, type PgNode, parseStatements, printStatement, sameTree } from './parser.ts';
import { walkStatement } from './rewrite.ts';

/** Numbers the placeholders the rewrite added ($1 tenant, then scope) and returns their values. */
const bindParameters = (state: WalkState): unknown[] => {
  const values: unknown[] = [];
  const { tenant, scope } = state.params;
  if (tenant.length > 0) values.push(state.request.tenant);
  for (const param of tenant) param.number = values.length;
  if (scope.length > 0) values.push(state.request.scope);
  for (const param of scope) param.number = values.length;
  return values;
};

/** The value of `LIMIT n` for an integer constant; undefined for anything else. */
const constantLimit = (node: unknown): number | undefined => {
  if (typeof node !== 'object' || node === null || typeOf(node) !== 'A_Const') return undefined;
  const constant = bodyOf(node as PgNode, 'A_Const');
  if (Object.keys(constant).some((key) => key !== 'ival' && key !== 'location')) return undefined;
  const ival = constant.ival as { ival?: number } | undefined;
  return ival === undefined ? undefined : (ival.ival ?? 0);
};

const isNullConstant = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  typeOf(node) === 'A_Const' &&
  bodyOf(node as PgNode, 'A_Const').isnull === true;

/**
 * At most cap+1 rows (docs/design.md step 5): LIMIT cap+1 added, a larger constant lowered (LIMIT ALL
 * included), a smaller one kept; any other limit (an expression, WITH TIES) is kept inside
 * `SELECT * FROM (<query>) AS capped LIMIT cap+1`. Returns the statement node to print.
 */
const capRows = (statement: PgNode, rowCap: number): PgNode => {
  const select = bodyOf(statement, 'SelectStmt');
  const max = rowCap + 1;
  if (select.limitOption !== 'LIMIT_OPTION_WITH_TIES') {
    if (select.limitCount === undefined || isNullConstant(select.limitCount)) {
      select.limitCount = integerConstant(max);
      select.limitOption = 'LIMIT_OPTION_COUNT';
      return statement;
    }
    const count = constantLimit(select.limitCount);
    if (count !== undefined) {
      if (count > max) select.limitCount = integerConstant(max);
      return statement;
    }
  }
  return {
    SelectStmt: {
      targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }],
      fromClause: [{ RangeSubselect: { subquery: statement, alias: { aliasname: 'capped' } } }],
      limitCount: integerConstant(max),
      limitOption: 'LIMIT_OPTION_COUNT',
      op: 'SETOP_NONE',
    },
  };
};

/** PostgreSQL's grammar and walk, plugged into the guard's steps (lib/sql/guard.ts). */
export const postgresDialect: GuardDialect<PgNode, WalkState> = {
  wording: {
    unparsable: 'The SQL does not parse',
    notOneStatement: 'Expected exactly one statement',
    unreparsable: 'The rewritten query could not be printed and parsed back',
  },
  checkText: (sql) => {
    // The parser reads a C string: text after a NUL would be silently dropped.
    if (sql.includes('\u0000')) refuse('PARSE_ERROR', 'The SQL contains a NUL character');
    if (sql.trim() === '') refuse('NOT_ONE_STATEMENT', 'The SQL is empty');
  },
  parse: parseStatements,
  startWalk: newWalkState,
  walk: walkStatement,
  bind: bindParameters,
  capRows,
  print: (tree, values) => {
    try {
      return { sql: printStatement(tree), params: values };
    } catch {
      return refuse('REPRINT_MISMATCH', 'The rewritten query could not be printed and parsed back');
    }
  },
  sameTree: (reparsed, checked) => sameTree(reparsed, checked),
};

/**
 * Checks and rewrites generated SQL for one tenant (and scope). Loads the parser on first use;
 * call loadPostgresParser() at start-up to take that off the first request.
 */
export const guardPostgres: Guard = async (request) => {
  await loadPostgresParser();
  return runGuard(postgresDialect, request);
};

export { loadPostgresParser };
