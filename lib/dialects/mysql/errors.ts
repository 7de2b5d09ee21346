// MySQL's and MariaDB's failures as the service reports them (lib/connectors/errors.ts): the
// servers' error numbers and SQLSTATEs, and mysql2's own codes and messages.
import { type DriverCodes, failuresOf } from '#lib/connectors/errors.ts';

export const MYSQL_CODES: DriverCodes = {
  serverDetail: ({ errno }) => {
    // 1045 ER_ACCESS_DENIED_ERROR, 1044 ER_DBACCESS_DENIED_ERROR.
    if (errno === 1045 || errno === 1044) return 'AUTH_FAILED';
    if (errno === 1049) return 'DATABASE_NOT_FOUND';
    if (errno === 1040) return 'TOO_MANY_CONNECTIONS';
    return undefined;
  },
  // MariaDB 1969 ER_STATEMENT_TIMEOUT; MySQL 3024 ER_QUERY_TIMEOUT; 1317 ER_QUERY_INTERRUPTED;
  // mysql2's own PROTOCOL_SEQUENCE_TIMEOUT and read timeout.
  queryTimeout: ({ code, errno, message }) =>
    errno === 1969 ||
    errno === 3024 ||
    errno === 1317 ||
    code === 'PROTOCOL_SEQUENCE_TIMEOUT' ||
    /query read timeout/i.test(message),
  connectionLost: ({ code, message }) =>
    code === 'PROTOCOL_CONNECTION_LOST' || /Connection lost/i.test(message),
  states: {
    '42S02': 'a table the query names does not exist',
    '42S22': 'a column the query names does not exist',
  },
};

export const { connectionFailed, queryFailed } = failuresOf(MYSQL_CODES);
