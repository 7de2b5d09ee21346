// The guard's steps written once (lib/sql/guard.ts), driven by a toy dialect whose "tree" is the
// text itself: each step's refusal comes out as the outcome, in order, and only a printed text
// that parses back to the checked tree is allowed. The two real dialects: sql-postgres.test.ts,
// sql-mysql.test.ts.
import { describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import type { EffectivePolicy } from '#lib/core/row-policy.ts';
import { type GuardDialect, runGuard } from '#lib/sql/guard.ts';
import { type GuardRequest, MAX_SQL_LENGTH, refuse } from '#lib/sql/types.ts';

interface ToyState {
  tenant: unknown;
  walked: string[];
}

/** Statements are `;`-separated words; the walk upper-cases them; printing adds `LIMIT`. */
const toy = (overrides: Partial<GuardDialect<string, ToyState>> = {}): GuardDialect<string, ToyState> => ({
  wording: {
    unparsable: 'Toy cannot parse',
    notOneStatement: 'Expected one toy',
    unreparsable: 'Toy reprint',
  },
  checkText: (sql) => {
    if (sql.includes('#')) refuse('UNSUPPORTED_SYNTAX', 'No # here');
  },
  parse: (sql) => {
    if (sql.includes('!')) throw new SyntaxError('unexpected !\nsecond line');
    return sql
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  },
  startWalk: (request) => ({ tenant: request.tenant, walked: [] }),
  walk: (statement, state) => {
    if (statement.startsWith('drop')) refuse('NOT_SELECT', 'Only SELECT');
    state.walked.push(statement);
    return statement.toUpperCase();
  },
  bind: (state) => [state.tenant],
  capRows: (tree, rowCap) => `${tree} LIMIT ${rowCap + 1}`,
  print: (tree, values) => ({ sql: tree, params: values }),
  sameTree: (reparsed, checked) => reparsed === checked,
  ...overrides,
});

const request = (sql: string, rowCap = 100): GuardRequest => ({
  sql,
  catalog: {} as Catalog,
  policy: {} as EffectivePolicy,
  tenant: 7,
  rowCap,
});

describe('runGuard: the steps in order', () => {
  it('walks, binds, caps and prints one statement, and returns the printed text', () => {
    expect(runGuard(toy(), request('select a'))).toEqual({
      allowed: true,
      sql: 'SELECT A LIMIT 101',
      params: [7],
    });
  });

  it('refuses text over the length limit before the dialect sees it', () => {
    const outcome = runGuard(toy(), request(`select ${'#'.repeat(MAX_SQL_LENGTH)}`));
    expect(outcome).toEqual({
      allowed: false,
      code: 'UNSUPPORTED_SYNTAX',
      message: `SQL longer than ${MAX_SQL_LENGTH} characters`,
    });
  });

  it("refuses what the dialect's text check refuses", () => {
    expect(runGuard(toy(), request('select #'))).toMatchObject({ allowed: false, message: 'No # here' });
  });

  it("refuses unparsable text with the first line of the parser's message", () => {
    expect(runGuard(toy(), request('select !'))).toEqual({
      allowed: false,
      code: 'PARSE_ERROR',
      message: 'Toy cannot parse: unexpected !',
    });
  });

  it('refuses anything but exactly one statement', () => {
    expect(runGuard(toy(), request('select a; select b'))).toEqual({
      allowed: false,
      code: 'NOT_ONE_STATEMENT',
      message: 'Expected one toy, got 2',
    });
    expect(runGuard(toy(), request(' ; '))).toMatchObject({ code: 'NOT_ONE_STATEMENT' });
  });

  it("returns the walk's refusal as the outcome", () => {
    expect(runGuard(toy(), request('drop a'))).toEqual({
      allowed: false,
      code: 'NOT_SELECT',
      message: 'Only SELECT',
    });
  });

  it('refuses a printed text that does not parse again, or parses to another tree', () => {
    const unparsable = toy({ print: (tree, values) => ({ sql: `${tree}!`, params: values }) });
    expect(runGuard(unparsable, request('select a'))).toEqual({
      allowed: false,
      code: 'REPRINT_MISMATCH',
      message: 'Toy reprint',
    });
    const changed = toy({ print: (_tree, values) => ({ sql: 'SELECT B LIMIT 101', params: values }) });
    expect(runGuard(changed, request('select a'))).toMatchObject({
      allowed: false,
      code: 'REPRINT_MISMATCH',
    });
    const two = toy({ print: (tree, values) => ({ sql: `${tree}; ${tree}`, params: values }) });
    expect(runGuard(two, request('select a'))).toMatchObject({ allowed: false, code: 'REPRINT_MISMATCH' });
  });

  it("refuses what the dialect's independent check of the printed tree finds", () => {
    const verified = toy({
      verify: (reparsed) => (reparsed.includes('A') ? 'a is not filtered' : undefined),
    });
    expect(runGuard(verified, request('select a'))).toEqual({
      allowed: false,
      code: 'REPRINT_MISMATCH',
      message: 'The printed SQL fails the filter check: a is not filtered',
    });
    expect(runGuard(verified, request('select b'))).toMatchObject({ allowed: true });
  });

  it('refuses a tree that exhausts the stack, and lets any other error through', () => {
    const deep = toy({
      walk: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    expect(runGuard(deep, request('select a'))).toEqual({
      allowed: false,
      code: 'UNSUPPORTED_SYNTAX',
      message: 'The query nests too deeply',
    });
    const broken = toy({
      walk: () => {
        throw new TypeError('a bug');
      },
    });
    expect(() => runGuard(broken, request('select a'))).toThrow('a bug');
  });

  it('throws on a row cap that is not a non-negative integer', () => {
    expect(() => runGuard(toy(), request('select a', -1))).toThrow(RangeError);
    expect(() => runGuard(toy(), request('select a', 1.5))).toThrow(RangeError);
  });
});
