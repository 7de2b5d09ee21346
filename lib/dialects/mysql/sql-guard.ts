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
import { type GuardDialect, runGuard } from '#lib/sql/guard.ts';
import { type Guard, refuse } from '#lib/sql/types.ts';
import { BIND_PREFIX } from './fence.ts';
import { newWalkState, type WalkState } from './nodes.ts';
import { type AstNode, isNode, parseStatements, printStatement, sameTree } from './parser.ts';
import { walkStatement } from './rewrite.ts';
import { filteringProblems } from './verify.ts';

// Text the guard refuses before parsing. Version comments (`/*!`, MariaDB's `/*M!`) are
// executed by the server and dropped by the parser; optimizer hints (`/*+`) can set session
// variables. A backslash escapes a quote only when sql_mode lacks NO_BACKSLASH_ESCAPES, so a
// string containing one could end in a different place for the server than for the parser.
const checkText = (sql: string): void => {
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
const capRows = (tree: AstNode, rowCap: number): AstNode => {
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
  return tree;
};

/**
 * Print: bound values travel through the printer as named markers, each then turned into `?` and
 * its value listed, so `params` follows the printed text's order whatever order the printer
 * visits the tree in.
 */
const print = (tree: AstNode, values: unknown[], state: WalkState): { sql: string; params: unknown[] } => {
  const printed = printStatement(tree);
  const params: unknown[] = [];
  const sql = printed.replace(
    new RegExp(`:(${BIND_PREFIX}(\\d+))\\b`, 'g'),
    (_match, name: string, index: string) => {
      state.markers.add(name);
      params.push(values[Number(index)]);
      return '?';
    },
  );
  if (state.markers.size !== values.length || params.length !== values.length) {
    refuse('REPRINT_MISMATCH', 'The printed SQL does not carry each bound value once');
  }
  return { sql, params };
};

/** MySQL's grammar and walk, plugged into the guard's steps (lib/sql/guard.ts). */
export const mysqlDialect: GuardDialect<AstNode, WalkState> = {
  wording: {
    unparsable: 'The SQL does not parse as MySQL',
    notOneStatement: 'Expected one statement',
    unreparsable: 'The printed SQL does not parse',
  },
  checkText,
  parse: parseStatements,
  startWalk: newWalkState,
  walk: walkStatement,
  bind: (state) => state.values,
  capRows,
  print,
  sameTree: (reparsed, checked, state) => sameTree(reparsed, checked, state.markers),
  verify: (reparsed, request, params) => filteringProblems(reparsed, request, params.length)[0],
};

export const guardMysql: Guard = (request) => runGuard(mysqlDialect, request);
