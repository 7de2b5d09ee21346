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
import { type GuardDialect, runGuard } from './guard.ts';
import {
  loadPostgresParser,
  type PgNode,
  parseStatements,
  printStatement,
  sameTree,
} from './postgres-parser.ts';
import { bindParameters, capRows, newWalkState, type WalkState, walkStatement } from './postgres-rewrite.ts';
import { type Guard, refuse } from './types.ts';

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
