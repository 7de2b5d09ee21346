// The SQL guard's steps, written once for every dialect (docs/design.md "The guard, step by
// step"): limits on the text, parse with the dialect's own grammar, exactly one statement, the
// dialect's walk (check and rewrite), bind the tenant and scope values, cap the rows, print,
// parse the printed text again and compare it with the tree that was checked. Any step may
// refuse by throwing a Refusal (lib/sql/types.ts); the skeleton turns it into the outcome.
// A dialect supplies its grammar and its walk as a GuardDialect (lib/dialects/postgres/sql-guard.ts,
// lib/dialects/mysql/sql-guard.ts); nothing here knows a node of either tree.
import { type GuardOutcome, type GuardRequest, MAX_SQL_LENGTH, Refusal, refuse } from './types.ts';

/** What the skeleton needs of a dialect. `Tree` is one statement's parse tree; `State` the walk's. */
export interface GuardDialect<Tree, State> {
  /** The skeleton's refusal texts in the dialect's words (kept as they always read). */
  readonly wording: {
    /** Before `: <the parser's message>` when the text does not parse. */
    readonly unparsable: string;
    /** Before `, got <n>` when the text holds more or fewer than one statement. */
    readonly notOneStatement: string;
    /** When the printed text does not parse again. */
    readonly unreparsable: string;
  };
  /** Limits: refusals of the text itself, after its length (bytes the parser would read otherwise). */
  checkText(sql: string): void;
  /** Parse (and parse again): every statement of the text; throws on a syntax error. */
  parse(sql: string): Tree[];
  /** The walk's state for one request. */
  startWalk(request: GuardRequest): State;
  /** Walk: checks the statement (a SELECT built from allowed parts) and rewrites it; returns the tree walked. */
  walk(statement: Tree, state: State): Tree;
  /** Bind: the tenant and scope values the walk's filters take. */
  bind(state: State): unknown[];
  /** Cap: at most rowCap + 1 rows; returns the tree to print. */
  capRows(tree: Tree, rowCap: number): Tree;
  /** Print: the text to execute, with the bound values in the order the text takes them. */
  print(tree: Tree, values: unknown[], state: State): { sql: string; params: unknown[] };
  /** Compare: whether the printed text's tree means exactly the tree that was checked. */
  sameTree(reparsed: Tree, checked: Tree, state: State): boolean;
  /** Compare, when the dialect has one: an independent check of the printed tree; a problem found, or undefined. */
  verify?(reparsed: Tree, request: GuardRequest, params: unknown[]): string | undefined;
}

const steps = <Tree, State>(dialect: GuardDialect<Tree, State>, request: GuardRequest): GuardOutcome => {
  if (!Number.isSafeInteger(request.rowCap) || request.rowCap < 0) {
    throw new RangeError('rowCap must be an integer >= 0');
  }
  // 1. Limits.
  if (request.sql.length > MAX_SQL_LENGTH) {
    refuse('UNSUPPORTED_SYNTAX', `SQL longer than ${MAX_SQL_LENGTH} characters`);
  }
  dialect.checkText(request.sql);

  // 2. Parse, 3. exactly one statement.
  let statements: Tree[];
  try {
    statements = dialect.parse(request.sql);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'syntax error';
    return refuse('PARSE_ERROR', `${dialect.wording.unparsable}: ${detail}`);
  }
  if (statements.length !== 1) {
    return refuse('NOT_ONE_STATEMENT', `${dialect.wording.notOneStatement}, got ${statements.length}`);
  }

  // 4. Walk, 5. bind, 6. cap, 7. print.
  const state = dialect.startWalk(request);
  const walked = dialect.walk(statements[0]!, state);
  const values = dialect.bind(state);
  const checked = dialect.capRows(walked, request.rowCap);
  const { sql, params } = dialect.print(checked, values, state);

  // 8. Parse the printed text again, 9. compare (fail closed): only this text is ever executed.
  let reparsed: Tree[];
  try {
    reparsed = dialect.parse(sql);
  } catch {
    return refuse('REPRINT_MISMATCH', dialect.wording.unreparsable);
  }
  if (reparsed.length !== 1 || !dialect.sameTree(reparsed[0]!, checked, state)) {
    return refuse('REPRINT_MISMATCH', 'The printed SQL does not parse back to the checked query');
  }
  const problem = dialect.verify?.(reparsed[0]!, request, params);
  if (problem !== undefined) {
    return refuse('REPRINT_MISMATCH', `The printed SQL fails the filter check: ${problem}`);
  }
  return { allowed: true, sql, params };
};

/** Runs the steps for one request; a refusal from any of them is the outcome. */
export const runGuard = <Tree, State>(
  dialect: GuardDialect<Tree, State>,
  request: GuardRequest,
): GuardOutcome => {
  try {
    return steps(dialect, request);
  } catch (error) {
    if (error instanceof Refusal) return { allowed: false, code: error.code, message: error.message };
    // A tree deep enough to exhaust the stack somewhere the walk's depth limit does not reach.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return { allowed: false, code: 'UNSUPPORTED_SYNTAX', message: 'The query nests too deeply' };
    }
    throw error;
  }
};
