// Errors carry no data (docs/design.md "Tenant filtering and the SQL guard"): the message of a
// failed query or connection is fixed text (the SQLSTATE, its explanation, names of the query
// text for class 42), whatever the driver said; the driver's words reach the logs only.
import { describe, expect, it } from 'vitest';
import { redactorFor, tooExpensive } from '#lib/connectors/errors.ts';
import { queryFailed as mysqlQueryFailed } from '#lib/dialects/mysql/errors.ts';
import { connectionFailed, queryFailed } from '#lib/dialects/postgres/errors.ts';

const redact = redactorFor('postgres://reporter:s3cret@db.internal:6543/shop');
const driver = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(message), fields);

describe('query errors', () => {
  it.each([
    ['invalid value "niam" for "YYYY"', '22007', 'niam'],
    ['invalid input syntax for type integer: "c2@org2.example"', '22P02', 'c2@org2.example'],
    ['unit "slow export #2" not recognized for type timestamp', '22023', 'slow export'],
    ['invalid hexadecimal digit: "@"', '22023', '"@"'],
    ['division by zero', '22012', undefined],
    ['more than one row returned by a subquery used as an expression', '21000', undefined],
  ])('%s → only the SQLSTATE and its explanation', (message, code, value) => {
    const failure = queryFailed(
      driver(message, { code }),
      redact,
      "SELECT to_date(email, 'YYYY') FROM customers",
    );
    expect(failure).toMatchObject({ kind: 'DB_QUERY_FAILED', detail: code });
    expect(failure.message).toMatch(new RegExp(`^The database query failed \\(SQLSTATE ${code}\\): [a-z]`));
    if (value) {
      expect(failure.message).not.toContain(value);
      expect(failure.message).not.toContain(message);
    }
    // The driver's words stay with the cause, for the logs.
    expect((failure.cause as Error).message).toBe(message);
  });

  it('keeps the names of a class 42 error that the query itself wrote, and nothing else', () => {
    const sql = 'SELECT count(*) AS n FROM public.orders WHERE state = $1';
    const failure = queryFailed(driver('column "state" does not exist', { code: '42703' }), redact, sql);
    expect(failure.message).toBe(
      'The database query failed (SQLSTATE 42703): a column the query names does not exist (state)',
    );
    // A quoted word that is not a name of the query text, or sits in one of its string literals, is dropped.
    const literal = queryFailed(
      driver('column "secret_col" does not exist', { code: '42703' }),
      redact,
      "SELECT 'secret_col' FROM orders",
    );
    expect(literal.message).not.toContain('secret_col');
    // MySQL quotes with single quotes and backticks.
    const mysql = mysqlQueryFailed(
      driver("Unknown column 'stauts' in 'where clause'", { code: 'ER_BAD_FIELD_ERROR', sqlState: '42S22' }),
      redact,
      'SELECT id FROM `shop`.`orders` WHERE `stauts` = 1',
    );
    expect(mysql.message).toBe(
      'The database query failed (SQLSTATE 42S22): a column the query names does not exist (stauts)',
    );
  });

  it('names nothing for data exceptions, even a word the query also wrote', () => {
    const failure = queryFailed(
      driver('invalid input syntax for type integer: "Acme"', { code: '22P02' }),
      redact,
      "SELECT id FROM organizations WHERE name = 'x' AND Acme = 1",
    );
    expect(failure.message).not.toContain('Acme');
  });

  it('reports timeouts and the cost ceiling without figures', () => {
    const timeout = queryFailed(
      driver('canceling statement due to statement timeout', { code: '57014' }),
      redact,
    );
    expect(timeout.message).toBe('The database query timed out');
    // node-postgres's client-side query_timeout, when the server does not answer at all.
    const unanswered = queryFailed(driver('Query read timeout', {}), redact);
    expect(unanswered).toMatchObject({ kind: 'DB_QUERY_FAILED', detail: 'QUERY_TIMEOUT' });
    const costly = tooExpensive(123_456_789.5, 10_000_000);
    expect(costly).toMatchObject({ kind: 'DB_QUERY_FAILED', detail: 'QUERY_TOO_EXPENSIVE' });
    expect(costly.message).not.toMatch(/\d/);
  });

  it('keeps a driver code only when it is an identifier', () => {
    const odd = queryFailed(driver('boom', { code: 'weird code "c2@org2.example"' }), redact);
    expect(odd.detail).toBe('QUERY_FAILED');
    expect(odd.message).toBe('The database query failed: the database rejected the query');
  });
});

describe('connection errors', () => {
  it.each([
    [driver('connect ECONNREFUSED 10.1.2.3:6543', { code: 'ECONNREFUSED' }), 'CONNECTION_REFUSED'],
    [driver('password authentication failed for user "reporter"', { code: '28P01' }), 'AUTH_FAILED'],
    [
      driver(
        "Cannot find module '/var/task/lib/dialects/postgres/pglite-worker.ts' imported from /var/task/index.mjs",
        { code: 'ERR_MODULE_NOT_FOUND' },
      ),
      'ENGINE_UNAVAILABLE',
    ],
    [
      driver("Cannot find module '/opt/app/pglite-worker.ts'", { code: 'MODULE_NOT_FOUND' }),
      'ENGINE_UNAVAILABLE',
    ],
    [driver('something odd at /srv/db.sock', {}), 'CONNECTION_FAILED'],
  ])('%s → a fixed message, no host, port, user or path', (error, detail) => {
    const failure = connectionFailed(error, redact, 'db.internal:6543');
    expect(failure).toMatchObject({ kind: 'DB_CONNECTION_FAILED', detail });
    expect(failure.message).toMatch(/^Could not connect to the database: [a-z]/);
    expect(failure.message).not.toMatch(
      /db\.internal|6543|10\.1\.2\.3|reporter|\/var\/task|\/opt|\/srv|Cannot find/,
    );
  });
});
