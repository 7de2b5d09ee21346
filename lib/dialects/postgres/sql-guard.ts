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

import type { Guard, GuardOutcome, GuardRequest } from '#lib/sql/types.ts';
import { loadPostgresParser, type PgNode, parseStatements, printStatement, sameTree } from './parser.ts';
import { bindParameters, capRows, newWalkState, Refusal, refuse, walkSelect } from './rewrite.ts';

/** Longer input is refused before parsing. */
export const MAX_SQL_LENGTH = 20_000;

const MODIFYING_STATEMENTS = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

const check = (request: GuardRequest): GuardOutcome => {
  if (!Number.isSafeInteger(request.rowCap) || request.rowCap < 0) {
    throw new RangeError('rowCap must be an integer >= 0');
  }
  if (request.sql.length > MAX_SQL_LENGTH) {
    refuse('UNSUPPORTED_SYNTAX', `SQL longer than ${MAX_SQL_LENGTH} characters`);
  }
  // The parser reads a C string: text after a NUL would be silently dropped.
  if (request.sql.includes('\u0000')) refuse('PARSE_ERROR', 'The SQL contains a NUL character');
  if (request.sql.trim() === '') refuse('NOT_ONE_STATEMENT', 'The SQL is empty');

  let statements: PgNode[];
  try {
    statements = parseStatements(request.sql);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'syntax error';
    return refuse('PARSE_ERROR', `The SQL does not parse: ${detail}`);
  }
  if (statements.length !== 1) {
    return refuse('NOT_ONE_STATEMENT', `Expected exactly one statement, got ${statements.length}`);
  }
  const statement = statements[0]!;
  const type = Object.keys(statement)[0] ?? '';
  if (type !== 'SelectStmt') {
    return refuse(
      'NOT_SELECT',
      MODIFYING_STATEMENTS.has(type)
        ? `${type.replace('Stmt', '').toUpperCase()} is not allowed: only SELECT`
        : `Only SELECT is allowed (got ${type.replace(/Stmt$/, '') || 'an empty statement'})`,
    );
  }

  const state = newWalkState(request);
  walkSelect(statement.SelectStmt as PgNode, undefined, state);
  const params = bindParameters(state);
  const capped = capRows(statement, request.rowCap);

  // Fail closed (step 6): the printed text must parse back to exactly the tree checked above.
  let sql: string;
  let reparsed: PgNode[];
  try {
    sql = printStatement(capped);
    reparsed = parseStatements(sql);
  } catch {
    return refuse('REPRINT_MISMATCH', 'The rewritten query could not be printed and parsed back');
  }
  if (reparsed.length !== 1 || !sameTree(reparsed[0], capped)) {
    return refuse('REPRINT_MISMATCH', 'The printed SQL does not parse back to the checked query');
  }
  return { allowed: true, sql, params };
};

/**
 * Checks and rewrites generated SQL for one tenant (and scope). Loads the parser on first use;
 * call loadPostgresParser() at start-up to take that off the first request.
 */
export const guardPostgres: Guard = async (request) => {
  await loadPostgresParser();
  try {
    return check(request);
  } catch (error) {
    if (error instanceof Refusal) return { allowed: false, code: error.code, message: error.message };
    throw error;
  }
};

export { loadPostgresParser };
