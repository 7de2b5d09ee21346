// Testing a connection to a connected database, before it is added or indexed (docs/design.md
// "Operating it": `database add`, `database index`; the indexing itself: lib/manage/job-runner.ts).
import { ServiceError } from '#lib/errors.ts';
import type { Connector } from './types.ts';

/**
 * The reasons a connection test tells apart: a server that answered (authentication, an unknown
 * database, too many connections), a host the stage refuses, an engine this deployment lacks, a
 * seed that does not load. Every network failure — refused, reset, timed out, unreachable, a name
 * that does not resolve, a TLS handshake that failed — is one COULD_NOT_CONNECT: otherwise the
 * test tells a closed port from an HTTP service from a database server, a port scanner for
 * anyone with a manage credential (docs/design.md "Isolation against an attacker: second
 * round"). The precise reason goes to the logs (lib/connectors/errors.ts).
 */
const TOLD_APART = new Set([
  'AUTH_FAILED',
  'DATABASE_NOT_FOUND',
  'TOO_MANY_CONNECTIONS',
  'HOST_NOT_ALLOWED',
  'ENGINE_UNAVAILABLE',
  'SEED_FAILED',
]);

/**
 * Opens a connection within the connect timeout. A failure is the 422 of a connection test
 * (CONNECTION_TEST_FAILED: VALIDATION_ERROR with a CONNECTION_FAILED detail entry), with its
 * reason (AUTH_FAILED, DATABASE_NOT_FOUND, HOST_NOT_ALLOWED, … or COULD_NOT_CONNECT) in its message.
 */
export const testConnection = async (connector: Connector): Promise<void> => {
  try {
    await connector.test();
  } catch (error) {
    const reason = error instanceof ServiceError ? error : undefined;
    const told = reason?.detail !== undefined && TOLD_APART.has(reason.detail);
    const detail = told ? (reason?.detail as string) : 'COULD_NOT_CONNECT';
    const message = `Connection test failed: ${told ? reason?.message : 'could not connect to the database'} (${detail})`;
    throw new ServiceError('CONNECTION_TEST_FAILED', {
      message,
      detail: 'CONNECTION_FAILED',
      issues: [{ field: 'connection', message, code: 'CONNECTION_FAILED' }],
      ...(reason ? { cause: reason } : {}),
    });
  }
};
