// The SQL guard for MySQL and MariaDB (docs/design.md "Tenant filtering and the SQL guard"): parses
// generated SQL with node-sql-parser, allows one SELECT built from allowlisted syntax and
// functions, wraps every tenant relation in a filtering derived table, caps the rows, prints the
// tree and re-parses the printed text to prove it says what was checked. Only the printed text
// is ever executed: MySQL runs version comments (`/*!` ...) and tokenizes some text differently
// from the parser, and none of that survives printing.
//
// The printed SQL assumes the session the connector pins: an sql_mode without ANSI_QUOTES,
// PIPES_AS_CONCAT or NO_BACKSLASH_ESCAPES (the parser's reading; backslashes are refused anyway),
// and server-side prepared statements for the parameters (mysql2 `execute`, never `query`, whose
// client-side substitution would also replace a `?` inside a string literal).
import { isDeepStrictEqual } from 'node:util';
import type { Guard, GuardOutcome, GuardRequest } from '#lib/sql/types.ts';
import { type AstNode, canonicalTree, isNode, parseStatements, printStatement } from './parser.ts';
import { BIND_PREFIX, Refusal, type RewriteState, refuse, statement, sweep } from './rewrite.ts';
import { filteringProblems } from './verify.ts';

/** Longer input is refused before parsing: the parser's time grows with it. */
export const MAX_SQL_LENGTH = 20_000;

// Text the guard refuses before parsing. Version comments (`/*!`, MariaDB's `/*M!`) are
// executed by the server and dropped by the parser; optimizer hints (`/*+`) can set session
// variables. A backslash escapes a quote only when sql_mode lacks NO_BACKSLASH_ESCAPES, so a
// string containing one could end in a different place for the server than for the parser.
const precheck = (sql: string): void => {
  if (sql.length > MAX_SQL_LENGTH) {
    refuse('UNSUPPORTED_SYNTAX', `SQL longer than ${MAX_SQL_LENGTH} characters`);
  }
  if (/\/\*\s*(M?!|\+)/i.test(sql)) {
    refuse('UNSUPPORTED_SYNTAX', 'Executable comments (/*!, /*M!) and optimizer hints (/*+) are not allowed');
  }
  if (sql.includes('\\')) {
    refuse('UNSUPPORTED_SYNTAX', 'Backslashes are not allowed (their meaning depends on sql_mode)');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(sql)) {
    refuse('UNSUPPORTED_SYNTAX', 'Control characters are not allowed');
  }
  if (sql.toLowerCase().includes(BIND_PREFIX)) refuse('UNSUPPORTED_SYNTAX', `Reserved name ${BIND_PREFIX}`);
};

const capLimit = (limit: unknown, max: number): AstNode => {
  if (!isNode(limit)) return { seperator: '', value: [{ type: 'number', value: max }] };
  const values = limit.value as AstNode[];
  // `LIMIT offset, count` puts the count second; `LIMIT count [OFFSET offset]` first.
  const index = limit.seperator === ',' ? 1 : 0;
  const count = values[index];
  if (!count || typeof count.value !== 'number' || count.value > max) {
    values[index] = { type: 'number', value: max };
  }
  return limit;
};

/**
 * LIMIT cap+1 on the statement's result. MySQL's LIMIT takes only constants (placeholders are
 * refused), so a limit is lowered rather than wrapped. In a set operation the limit of the
 * whole result is `_limit` when the members are parenthesized, otherwise the last member's.
 */
const capRows = (tree: AstNode, rowCap: number): void => {
  const max = rowCap + 1;
  // The parser keeps ORDER BY / LIMIT in `_orderby` / `_limit` when they follow a WINDOW
  // clause or close a set operation of parenthesized members.
  const trailing = (node: AstNode): boolean =>
    isNode(node._limit) || Array.isArray(node._orderby) || isNode(node.window);
  const capOne = (node: AstNode): void => {
    if (trailing(node)) node._limit = capLimit(node._limit, max);
    else node.limit = capLimit(node.limit, max);
  };
  let last = tree;
  while (isNode(last._next)) last = last._next;
  if (last === tree) {
    capOne(tree);
  } else if (trailing(tree) || trailing(last) || last.parentheses_symbol === true) {
    tree._limit = capLimit(tree._limit, max);
  } else {
    last.limit = capLimit(last.limit, max);
  }
};

const check = (request: GuardRequest): GuardOutcome => {
  if (!Number.isSafeInteger(request.rowCap) || request.rowCap < 0) {
    throw new RangeError('rowCap must be an integer >= 0');
  }
  precheck(request.sql);
  let statements: AstNode[];
  try {
    statements = parseStatements(request.sql);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'syntax error';
    return refuse('PARSE_ERROR', `The SQL does not parse as MySQL: ${detail}`);
  }
  if (statements.length !== 1) {
    return refuse('NOT_ONE_STATEMENT', `Expected one statement, got ${statements.length}`);
  }
  const tree = structuredClone(statements[0]!);
  const state: RewriteState = {
    request,
    values: [],
    checked: new WeakSet(),
    userFunctions: new Set(
      request.catalog.userFunctions.map((name) => name.split('.').at(-1)!.toUpperCase()),
    ),
    depth: 0,
  };
  statement(tree, [], state);
  sweep(tree, state);
  capRows(tree, request.rowCap);

  const printed = printStatement(tree);
  const params: unknown[] = [];
  const markers = new Set<string>();
  const sql = printed.replace(
    new RegExp(`:(${BIND_PREFIX}(\\d+))\\b`, 'g'),
    (_match, name: string, index: string) => {
      markers.add(name);
      params.push(state.values[Number(index)]);
      return '?';
    },
  );
  if (markers.size !== state.values.length || params.length !== state.values.length) {
    return refuse('REPRINT_MISMATCH', 'The printed SQL does not carry each bound value once');
  }
  let reparsed: AstNode[];
  try {
    reparsed = parseStatements(sql);
  } catch {
    return refuse('REPRINT_MISMATCH', 'The printed SQL does not parse');
  }
  if (reparsed.length !== 1 || !isDeepStrictEqual(canonicalTree(reparsed[0]), canonicalTree(tree, markers))) {
    return refuse('REPRINT_MISMATCH', 'The printed SQL does not parse back to the checked query');
  }
  const problems = filteringProblems(reparsed[0]!, request, params.length);
  if (problems.length > 0) {
    return refuse('REPRINT_MISMATCH', `The printed SQL fails the filter check: ${problems[0]}`);
  }
  return { allowed: true, sql, params };
};

export const guardMysql: Guard = (request) => {
  try {
    return check(request);
  } catch (error) {
    if (error instanceof Refusal) return { allowed: false, code: error.code, message: error.message };
    // A tree deep enough to exhaust the stack somewhere the depth limit does not reach.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return { allowed: false, code: 'UNSUPPORTED_SYNTAX', message: 'The query nests too deeply' };
    }
    throw error;
  }
};
