// PostgreSQL's failures as the service reports them (lib/connectors/errors.ts): SQLSTATEs of the
// server (and of PGlite, the same server compiled to WASM) and node-postgres's own messages.
import { type DriverCodes, failuresOf } from '#lib/connectors/errors.ts';

export const POSTGRES_CODES: DriverCodes = {
  // pg: "timeout exceeded when trying to connect" (pool) / "Connection terminated due to connection timeout".
  connectTimeoutMessage: /timeout exceeded when trying to connect|connection timeout/i,
  connectionResetMessage: /connection terminated unexpectedly/i,
  serverDetail: ({ code }) => {
    // 28000 invalid_authorization_specification, 28P01 invalid_password.
    if (code === '28P01' || code === '28000') return 'AUTH_FAILED';
    if (code === '3D000') return 'DATABASE_NOT_FOUND';
    if (code === '53300') return 'TOO_MANY_CONNECTIONS';
    return undefined;
  },
  // 57014 query_canceled: the statement_timeout; pg's own "Query read timeout": its client-side
  // query_timeout, when the server does not answer in time.
  queryTimeout: ({ code, message }) => code === '57014' || /query read timeout/i.test(message),
  // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
  connectionLost: ({ code, message }) =>
    ['57P01', '57P02', '57P03'].includes(code ?? '') || /connection terminated/i.test(message),
  states: {
    '2201B': 'a regular expression is invalid',
    '22P02': 'a text value could not be read as the type it was cast to',
    '42883': 'a function or operator the query uses does not exist for these argument types',
    '42P01': 'a table the query names does not exist',
    '42P10': 'an ORDER BY or DISTINCT expression is not valid here',
    '54001': 'the query is too complex for the database',
  },
};

export const { connectionFailed, queryFailed } = failuresOf(POSTGRES_CODES);
