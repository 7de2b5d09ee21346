// Driver failures of connected databases as catalogue errors (DESIGN.md "Errors"):
// DB_CONNECTION_FAILED with a detail such as CONNECTION_TIMEOUT / CONNECTION_REFUSED / AUTH_FAILED,
// DB_QUERY_FAILED with QUERY_TIMEOUT or the SQLSTATE-ish code of the failure. Nothing secret
// survives: driver messages are rebuilt through a redactor that cuts the password and any URL
// (host and port may stay, they help an operator), and the raw driver error is never kept as
// the cause, so logs cannot print it either.
import { ServiceError } from '#lib/errors.ts';

export type Redact = (text: string) => string;

const urlPattern = /\b(?:postgres(?:ql)?|mysql|mariadb|memory):\/\/[^\s'"`)]*/gi;
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

interface DriverError {
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

const connectDetail = (error: DriverError): string => {
  const { code, message, errno } = error;
  if (code === 'CONNECTION_TIMEOUT' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
    return 'CONNECTION_TIMEOUT';
  }
  // pg: "timeout exceeded when trying to connect" (pool) / "Connection terminated due to connection timeout".
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message))
    return 'CONNECTION_TIMEOUT';
  if (code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'HOST_NOT_FOUND';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'HOST_UNREACHABLE';
  if (code === 'ECONNRESET' || code === 'EPIPE' || /connection terminated unexpectedly/i.test(message)) {
    return 'CONNECTION_RESET';
  }
  // PostgreSQL 28000/28P01, MySQL 1045 ER_ACCESS_DENIED_ERROR, 1044 ER_DBACCESS_DENIED_ERROR.
  if (code === '28P01' || code === '28000' || errno === 1045 || errno === 1044) return 'AUTH_FAILED';
  if (code === '3D000' || errno === 1049) return 'DATABASE_NOT_FOUND';
  if (
    /ssl|tls|certificate|self[- ]signed/i.test(message) ||
    code?.startsWith('ERR_TLS') ||
    code?.includes('CERT')
  ) {
    return 'TLS_FAILED';
  }
  if (code === '53300' || errno === 1040) return 'TOO_MANY_CONNECTIONS';
  return 'CONNECTION_FAILED';
};

const connectMessages: Record<string, string> = {
  CONNECTION_TIMEOUT: 'the connection attempt timed out',
  CONNECTION_REFUSED: 'the connection was refused',
  HOST_NOT_FOUND: 'the host name does not resolve',
  HOST_UNREACHABLE: 'the host is unreachable',
  CONNECTION_RESET: 'the server closed the connection',
  AUTH_FAILED: 'authentication failed',
  DATABASE_NOT_FOUND: 'the database does not exist',
  TLS_FAILED: 'the TLS handshake failed',
  TOO_MANY_CONNECTIONS: 'the server has too many connections',
};

/** A failure to open (or keep) a connection → DB_CONNECTION_FAILED with a detail code. */
export const connectionFailed = (error: unknown, redact: Redact, where?: string): ServiceError => {
  if (error instanceof ServiceError) return error;
  const driver = driverError(error);
  const detail = connectDetail(driver);
  const reason = connectMessages[detail] ?? redact(firstLine(driver.message));
  return new ServiceError('DB_CONNECTION_FAILED', {
    message: `Could not connect to the database${where ? ` at ${where}` : ''}: ${reason}`,
    detail,
    cause: safeCause(driver, redact),
  });
};

const isConnectionLoss = (driver: DriverError): boolean =>
  ['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', '57P01', '57P02', '57P03'].includes(
    driver.code ?? '',
  ) || /connection terminated|Connection lost/i.test(driver.message);

const queryDetail = (driver: DriverError): string => {
  const { code, errno, sqlState } = driver;
  // PostgreSQL 57014 query_canceled (statement_timeout); MariaDB 1969 ER_STATEMENT_TIMEOUT;
  // MySQL 3024 ER_QUERY_TIMEOUT; 1317 ER_QUERY_INTERRUPTED; mysql2's own PROTOCOL_SEQUENCE_TIMEOUT.
  if (
    code === 'QUERY_TIMEOUT' ||
    code === '57014' ||
    errno === 1969 ||
    errno === 3024 ||
    errno === 1317 ||
    code === 'PROTOCOL_SEQUENCE_TIMEOUT' ||
    /query read timeout/i.test(driver.message)
  ) {
    return 'QUERY_TIMEOUT';
  }
  if (code && /^[0-9A-Z]{5}$/.test(code)) return code; // PostgreSQL SQLSTATE
  if (sqlState && sqlState !== 'HY000') return sqlState; // MySQL SQLSTATE when it says something
  return code ?? 'QUERY_FAILED';
};

/** A failure of a statement → DB_QUERY_FAILED (QUERY_TIMEOUT or an SQLSTATE-ish detail). */
export const queryFailed = (error: unknown, redact: Redact): ServiceError => {
  if (error instanceof ServiceError) return error;
  const driver = driverError(error);
  if (isConnectionLoss(driver)) return connectionFailed(error, redact);
  const detail = queryDetail(driver);
  const message =
    detail === 'QUERY_TIMEOUT'
      ? 'The database query timed out'
      : `The database query failed: ${redact(firstLine(driver.message))}`;
  return new ServiceError('DB_QUERY_FAILED', { message, detail, cause: safeCause(driver, redact) });
};

/** The EXPLAIN cost ceiling refused the query before it ran. */
export const tooExpensive = (cost: number, ceiling: number): ServiceError =>
  new ServiceError('DB_QUERY_FAILED', {
    message: `The query's estimated cost ${Math.round(cost)} is above the ceiling ${ceiling}`,
    detail: 'QUERY_TOO_EXPENSIVE',
  });
