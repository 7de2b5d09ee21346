// Driver failures of connected databases as catalogue errors (docs/design.md "Errors"):
// DB_CONNECTION_FAILED with a detail such as CONNECTION_TIMEOUT / CONNECTION_REFUSED / AUTH_FAILED,
// DB_QUERY_FAILED with QUERY_TIMEOUT or the SQLSTATE-ish code of the failure.
//
// Errors carry no data (docs/design.md "Tenant filtering and the SQL guard"): the message a
// caller, a stream, a stored assistant message, a model's repair prompt or `admin sql check`
// sees is built here from fixed text only: the SQLSTATE, a fixed explanation of it (or of its
// class) and, for the statically checked class 42 (a name that does not exist, a syntax error),
// the names the driver quoted that also appear in the query text itself. Never the driver's
// message (it quotes values: `invalid value "niam" for "YYYY"`), a host, port, user, file path
// or planner cost. The driver's message, redacted of the password and any URL, goes to the
// operator's logs only (logged here, and kept as the `cause` the error middleware logs); the
// raw driver error is never kept.
// What is common to every driver lives here; each dialect names its own codes (SQLSTATEs, error
// numbers, driver messages) in its folder (lib/dialects/<name>/errors.ts, a `DriverCodes`).
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';

export type Redact = (text: string) => string;

/** Any URL (a connection URL of every dialect among them): the logs never need one. */
const urlPattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)]*/gi;
const userInfoPattern = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"`]*@/gi;

/** A redactor for one connection URL: its password (raw, decoded, encoded) and the URL itself. */
export const redactorFor = (url: string | undefined): Redact => {
  const secrets = new Set<string>();
  if (url) {
    secrets.add(url);
    try {
      const parsed = new URL(url);
      if (parsed.password) {
        secrets.add(parsed.password);
        try {
          secrets.add(decodeURIComponent(parsed.password));
        } catch {
          // a malformed escape: the raw form is already listed
        }
        secrets.add(encodeURIComponent(parsed.password));
      }
    } catch {
      // not a URL: only the whole string is redacted
    }
  }
  // Longest first, so a password inside the URL does not break the URL's replacement.
  const ordered = [...secrets].filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  return (text) => {
    let safe = text;
    for (const secret of ordered) safe = safe.split(secret).join('<redacted>');
    return safe.replace(urlPattern, '<redacted url>').replace(userInfoPattern, '$1<redacted>@');
  };
};

export interface DriverError {
  name: string;
  message: string;
  code: string | undefined;
  errno: number | undefined;
  sqlState: string | undefined;
}

const driverError = (error: unknown): DriverError => {
  const e = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    errno?: unknown;
    sqlState?: unknown;
  };
  // AggregateError (a host that resolves to several addresses) carries the useful code inside.
  const inner = (error as { errors?: unknown[] })?.errors?.[0] as { code?: unknown } | undefined;
  const code = typeof e.code === 'string' ? e.code : typeof inner?.code === 'string' ? inner.code : undefined;
  return {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(error),
    code,
    errno: typeof e.errno === 'number' ? e.errno : undefined,
    sqlState: typeof e.sqlState === 'string' ? e.sqlState : undefined,
  };
};

/** A stand-in for the driver error, safe to keep as `cause` and to log. */
const safeCause = (error: DriverError, redact: Redact): Error => {
  const cause = new Error(redact(error.message));
  cause.name = error.name;
  if (error.code) Object.assign(cause, { code: error.code });
  return cause;
};

const firstLine = (text: string): string => (text.split('\n')[0] ?? '').slice(0, 500);

/** The timeout a connector measured itself (worker start, socket that never answers). */
export class ConnectTimeout extends Error {
  override name = 'ConnectTimeout';
  readonly code = 'CONNECTION_TIMEOUT';
}

/** The statement timeout a connector enforced itself (PGlite worker, client-side backstop). */
export class QueryTimeout extends Error {
  override name = 'QueryTimeout';
  readonly code = 'QUERY_TIMEOUT';
}

/**
 * What a dialect knows of its drivers' failures: the codes its server and driver give to a
 * failed connection, a statement's timeout, a lost connection, and the explanations of its own
 * SQLSTATEs. Each dialect's folder holds its own (lib/dialects/<name>/errors.ts).
 */
export interface DriverCodes {
  /** The driver's own words for a connection attempt that timed out, and for one cut short. */
  connectTimeoutMessage?: RegExp;
  connectionResetMessage?: RegExp;
  /**
   * A failure to connect the server names by its own code (credentials refused, no such
   * database, too many connections): its detail, or undefined.
   */
  serverDetail(error: DriverError): string | undefined;
  /** A statement cut by the server's (or driver's) timeout. */
  queryTimeout(error: DriverError): boolean;
  /** The connection went away under a statement. */
  connectionLost(error: DriverError): boolean;
  /** Fixed explanations of the dialect's own SQLSTATEs, besides the standard ones. */
  states: Readonly<Record<string, string>>;
}

const connectDetail = (error: DriverError, codes: DriverCodes): string => {
  const { code, message } = error;
  if (code === 'CONNECTION_TIMEOUT' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
    return 'CONNECTION_TIMEOUT';
  }
  if (codes.connectTimeoutMessage?.test(message)) return 'CONNECTION_TIMEOUT';
  if (code === 'HOST_NOT_ALLOWED') return 'HOST_NOT_ALLOWED';
  if (code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'HOST_NOT_FOUND';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'HOST_UNREACHABLE';
  if (code === 'ECONNRESET' || code === 'EPIPE' || codes.connectionResetMessage?.test(message)) {
    return 'CONNECTION_RESET';
  }
  const server = codes.serverDetail(error);
  if (server !== undefined) return server;
  if (
    /ssl|tls|certificate|self[- ]signed/i.test(message) ||
    code?.startsWith('ERR_TLS') ||
    code?.includes('CERT')
  ) {
    return 'TLS_FAILED';
  }
  // An engine whose module is not in this bundle (an embedded engine on a deployed stage).
  if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') return 'ENGINE_UNAVAILABLE';
  return 'CONNECTION_FAILED';
};

const connectMessages: Record<string, string> = {
  CONNECTION_TIMEOUT: 'the connection attempt timed out',
  CONNECTION_REFUSED: 'the connection was refused',
  HOST_NOT_FOUND: 'the host name does not resolve',
  HOST_NOT_ALLOWED: 'the host is not an address this service may connect to',
  HOST_UNREACHABLE: 'the host is unreachable',
  CONNECTION_RESET: 'the server closed the connection',
  AUTH_FAILED: 'authentication failed',
  DATABASE_NOT_FOUND: 'the database does not exist',
  TLS_FAILED: 'the TLS handshake failed',
  TOO_MANY_CONNECTIONS: 'the server has too many connections',
  ENGINE_UNAVAILABLE: 'the database engine is not available in this deployment',
};

/**
 * A failure to open (or keep) a connection → DB_CONNECTION_FAILED with a detail code and a fixed
 * message. `where` (host:port) and the driver's message (a user name, a file path such as
 * "Cannot find module ...") go to the logs only.
 */
const connectionFailedOf = (
  codes: DriverCodes,
  error: unknown,
  redact: Redact,
  where?: string,
): ServiceError => {
  if (error instanceof ServiceError) return error;
  const driver = driverError(error);
  const detail = connectDetail(driver, codes);
  const cause = safeCause(driver, redact);
  logger.warn('database connection failed', {
    detail,
    ...(where ? { where } : {}),
    driverCode: driver.code,
    driverMessage: firstLine(cause.message),
  });
  return new ServiceError('DB_CONNECTION_FAILED', {
    message: `Could not connect to the database: ${connectMessages[detail] ?? 'the connection failed'}`,
    detail,
    cause,
  });
};

const isConnectionLoss = (driver: DriverError, codes: DriverCodes): boolean =>
  ['ECONNRESET', 'EPIPE', 'ECONNREFUSED'].includes(driver.code ?? '') || codes.connectionLost(driver);

/** A detail code a caller may see: a fixed identifier, never text from the driver. */
const CODE = /^[A-Z0-9_]{1,64}$/;

const queryDetail = (driver: DriverError, codes: DriverCodes): string => {
  const { code, sqlState } = driver;
  if (code === 'QUERY_TIMEOUT' || codes.queryTimeout(driver)) return 'QUERY_TIMEOUT';
  if (code && /^[0-9A-Z]{5}$/.test(code)) return code; // a SQLSTATE as the driver's code
  if (sqlState && /^[0-9A-Z]{5}$/.test(sqlState) && sqlState !== 'HY000') return sqlState;
  return code && CODE.test(code) ? code : 'QUERY_FAILED';
};

/** The SQLSTATE of a driver error, when it has one (as its `code`, or its `sqlState`). */
const sqlStateOf = (driver: DriverError): string | undefined => {
  if (driver.code && /^[0-9A-Z]{5}$/.test(driver.code)) return driver.code;
  if (driver.sqlState && /^[0-9A-Z]{5}$/.test(driver.sqlState)) return driver.sqlState;
  return undefined;
};

/** Fixed explanations of the standard SQLSTATEs a generated query commonly meets. */
const STATE_EXPLANATIONS: Record<string, string> = {
  '21000': 'a subquery returned more than one row where one value was expected',
  '22003': 'a number is out of the range of its type',
  '22007': 'a text value could not be read as a date or time',
  '22008': 'a date or time value is out of range',
  '22012': 'a division by zero',
  '22023': 'a function was given an invalid argument value',
  '42601': 'the query has a syntax error',
  '42702': 'a column reference is ambiguous',
  '42703': 'a column the query names does not exist',
  '42803': 'a column must appear in GROUP BY or be used in an aggregate function',
  '42804': 'an expression has the wrong data type',
};

/** Fixed explanations of SQLSTATE classes (their first two characters). */
const CLASS_EXPLANATIONS: Record<string, string> = {
  '08': 'the connection to the database failed',
  '0A': 'the query uses a feature the database does not support',
  '21': 'a subquery or row had the wrong number of values',
  '22': 'a value could not be converted or computed (a data exception)',
  '23': 'an integrity constraint was violated',
  '25': 'the statement is not allowed in a read-only transaction',
  '28': 'the database refused the credentials',
  '2F': 'a database function failed',
  '38': 'a database function failed',
  '39': 'a database function failed',
  '3F': 'a schema the query names does not exist',
  '40': 'the database rolled the transaction back',
  '42': 'the query is not valid for this database (syntax, a name that does not exist, or a type mismatch)',
  '53': 'the database ran out of resources',
  '54': 'the query exceeds a limit of the database',
  '55': 'a database object is not in a usable state',
  '57': 'the database cancelled the query',
  '58': 'the database had a system error',
  HY: 'the database rejected the query',
  P0: 'a database procedure raised an error',
  XX: 'the database reported an internal error',
};

const explain = (state: string | undefined, codes: DriverCodes): string =>
  (state &&
    (STATE_EXPLANATIONS[state] ??
      (Object.hasOwn(codes.states, state) ? codes.states[state] : undefined) ??
      CLASS_EXPLANATIONS[state.slice(0, 2)])) ||
  'the database rejected the query';

const NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}(\.[A-Za-z_][A-Za-z0-9_$]{0,62}){0,2}$/;

/**
 * The identifiers of a query's text, lower-cased: quoted (`"x"`, `` `x` ``) and bare words; string
 * literals (`'...'`, `E'...'`, `$tag$...$tag$`) and comments are left out.
 */
const queryNames = (sql: string): Set<string> => {
  const names = new Set<string>();
  const text = sql
    .replace(/\$([A-Za-z_][A-Za-z0-9_]*)?\$[\s\S]*?\$\1\$/g, ' ')
    .replace(/'(?:[^'\\]|''|\\.)*'/g, ' ')
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  for (const match of text.matchAll(/"((?:[^"]|"")+)"|`((?:[^`]|``)+)`|[A-Za-z_][A-Za-z0-9_$]*/g)) {
    const name = match[1]?.replaceAll('""', '"') ?? match[2]?.replaceAll('``', '`') ?? match[0];
    names.add(name.toLowerCase());
  }
  return names;
};

/**
 * Names the driver quoted (`column "state" does not exist`, `Unknown column 'state'`) that are
 * identifiers of the query text as well. Class 42 only: its errors are raised while the query is
 * parsed and analysed, before any row is read, so they cannot depend on data.
 */
const namesFromQuery = (state: string | undefined, message: string, sql: string | undefined): string[] => {
  if (!sql || !state?.startsWith('42')) return [];
  const inQuery = queryNames(sql);
  const found: string[] = [];
  for (const match of message.matchAll(/"([^"]{1,200})"|'([^']{1,200})'|`([^`]{1,200})`/g)) {
    const name = match[1] ?? match[2] ?? match[3] ?? '';
    if (!NAME.test(name) || found.includes(name)) continue;
    if (name.split('.').every((part) => inQuery.has(part.toLowerCase()))) found.push(name);
  }
  return found.slice(0, 5);
};

/**
 * A failure of a statement → DB_QUERY_FAILED: QUERY_TIMEOUT, or the SQLSTATE with its fixed
 * explanation (see the top of this file). `sql` is the statement that failed: names of its own
 * text may be repeated to the caller.
 */
const queryFailedOf = (codes: DriverCodes, error: unknown, redact: Redact, sql?: string): ServiceError => {
  if (error instanceof ServiceError) return error;
  const driver = driverError(error);
  if (isConnectionLoss(driver, codes)) return connectionFailedOf(codes, error, redact);
  const detail = queryDetail(driver, codes);
  const cause = safeCause(driver, redact);
  logger.warn('database query failed', {
    detail,
    driverCode: driver.code,
    driverMessage: firstLine(cause.message),
  });
  if (detail === 'QUERY_TIMEOUT') {
    return new ServiceError('DB_QUERY_FAILED', { message: 'The database query timed out', detail, cause });
  }
  const state = sqlStateOf(driver);
  const names = namesFromQuery(state, driver.message, sql);
  const message = `The database query failed${state ? ` (SQLSTATE ${state})` : ''}: ${explain(state, codes)}${
    names.length > 0 ? ` (${names.join(', ')})` : ''
  }`;
  return new ServiceError('DB_QUERY_FAILED', { message, detail, cause });
};

export interface Failures {
  connectionFailed(error: unknown, redact: Redact, where?: string): ServiceError;
  queryFailed(error: unknown, redact: Redact, sql?: string): ServiceError;
}

/** The failure mapping of one dialect's drivers (lib/dialects/<name>/errors.ts). */
export const failuresOf = (codes: DriverCodes): Failures => ({
  connectionFailed: (error, redact, where) => connectionFailedOf(codes, error, redact, where),
  queryFailed: (error, redact, sql) => queryFailedOf(codes, error, redact, sql),
});

/** The EXPLAIN cost ceiling refused the query before it ran; the figures go to the logs only. */
export const tooExpensive = (cost: number, ceiling: number): ServiceError => {
  logger.warn('query refused by the cost ceiling', { cost: Math.round(cost), ceiling });
  return new ServiceError('DB_QUERY_FAILED', {
    message: 'The query would cost the database more than this service allows',
    detail: 'QUERY_TOO_EXPENSIVE',
  });
};
