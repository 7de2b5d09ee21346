// How the control plane takes a connected database's connection (docs/control-plane.md
// "Connecting a database"): a URL, or its parts, which become the same URL. The URL is tested
// before anything is stored (422 VALIDATION_ERROR with a details entry code CONNECTION_FAILED),
// then kept in the stage's secret store (lib/connectors/secrets.ts) and never returned.
//
// Outside the local stack a connection may not name the machine the service runs on, the
// link-local range (the cloud's instance metadata endpoints) or, unless the stage allows them,
// private, shared, unique-local and translated addresses, by name or by what the name resolves
// to (lib/connectors/target.ts): the service would otherwise open connections on behalf of
// anyone with a manage credential to places only it can reach.
import { isIP } from 'node:net';
import { testConnection } from '#lib/connectors/connection-test.ts';
import { createConnector } from '#lib/connectors/index.ts';
import { TargetRefused, targetRules, targetSockets } from '#lib/connectors/target.ts';
import { engineNamed } from '#lib/dialects/index.ts';
import { ServiceError } from '#lib/errors.ts';
import type { ConnectionInput } from './inputs.ts';

const invalidConnection = (message: string) =>
  new ServiceError('VALIDATION', {
    message,
    issues: [{ field: 'body.connection', message, code: 'INVALID_VALUE' }],
  });

/**
 * The URL of a connection for an engine (its URL schemes: lib/dialects/<name>/index.ts); a 400
 * naming what is wrong, never echoing the URL. An embedded engine's is `memory:`.
 */
export const connectionUrlOf = (engine: string, connection: ConnectionInput): string => {
  const { urlSchemes, embedded } = engineNamed(engine).engine;
  if (embedded) return 'memory:';
  const [scheme] = urlSchemes;
  if (connection.url === undefined) {
    const host = connection.host ?? '';
    const url = new URL(`${scheme}//${isIP(host) === 6 ? `[${host}]` : host}`);
    url.username = encodeURIComponent(connection.user ?? '');
    if (connection.password) url.password = encodeURIComponent(connection.password);
    if (connection.port !== undefined) url.port = String(connection.port);
    url.pathname = `/${encodeURIComponent(connection.database ?? '')}`;
    if (connection.sslmode) url.searchParams.set('sslmode', connection.sslmode);
    return url.toString();
  }
  let parsed: URL;
  try {
    parsed = new URL(connection.url);
  } catch {
    throw invalidConnection(
      `connection.url is not a URL (expected ${scheme}//user:password@host:port/database)`,
    );
  }
  if (!urlSchemes.includes(parsed.protocol) || !connection.url.slice(parsed.protocol.length).startsWith('//'))
    throw invalidConnection(
      `connection.url for engine ${engine} must start with ${urlSchemes.join('// or ')}//`,
    );
  if (!parsed.hostname) throw invalidConnection('connection.url names no host');
  if (parsed.pathname.length <= 1)
    throw invalidConnection(
      `connection.url must name the database: ${scheme}//user:password@host:port/database`,
    );
  return connection.url;
};

export const connectionFailed = (reason: string, message: string): ServiceError => {
  const text = `Connection test failed: ${message} (${reason})`;
  return new ServiceError('CONNECTION_TEST_FAILED', {
    message: text,
    detail: 'CONNECTION_FAILED',
    issues: [{ field: 'connection', message: text, code: 'CONNECTION_FAILED' }],
  });
};

/**
 * Outside the local stack: the host, or every address its name resolves to, is one the stage
 * may connect to (lib/connectors/target.ts); a name that does not resolve is refused. Checked
 * before the connection test for a clear refusal; the connector checks again, on the address it
 * actually connects to, on every connection.
 */
export const checkHostAllowed = async (url: string): Promise<void> => {
  if (url === 'memory:' || targetRules().anywhere) return;
  try {
    await targetSockets(new URL(url).hostname).resolve();
  } catch (error) {
    if (error instanceof TargetRefused) throw connectionFailed('HOST_NOT_ALLOWED', error.message);
    throw connectionFailed('COULD_NOT_CONNECT', 'could not connect to the database');
  }
};

/** Tests a connection within the connect timeout (422 CONNECTION_FAILED); nothing is kept open. */
export const testConnectionUrl = async (engine: string, url: string, seedFile?: string): Promise<void> => {
  await checkHostAllowed(url);
  let connector: Awaited<ReturnType<typeof createConnector>>;
  try {
    connector = await createConnector({ engine, url, ...(seedFile !== undefined ? { seedFile } : {}) });
  } catch (error) {
    const reason = error instanceof ServiceError ? error : undefined;
    throw connectionFailed(
      reason?.detail ?? 'INVALID_URL',
      reason?.message ?? 'the connection settings are invalid',
    );
  }
  try {
    await testConnection(connector);
  } finally {
    await connector.close().catch(() => undefined);
  }
};
