// How the control plane takes a connected database's connection (docs/control-plane.md
// "Connecting a database"): a URL, or its parts, which become the same URL. The URL is tested
// before anything is stored (422 VALIDATION_ERROR with a details entry code CONNECTION_FAILED),
// then kept in the stage's secret store (lib/connectors/secrets.ts) and never returned.
//
// Outside the local stack a connection may not name the machine the service runs on or the
// link-local range (169.254.0.0/16: the cloud's instance metadata endpoints, fe80::/10), by name
// or by what the name resolves to: the service would otherwise open connections on behalf of
// anyone with a manage credential to places only it can reach.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { settings } from '#lib/config.ts';
import { createConnector } from '#lib/connectors/index.ts';
import { testConnection } from '#lib/connectors/indexing.ts';
import { ServiceError } from '#lib/errors.ts';
import type { Engine } from '#lib/store/databases.ts';
import type { ConnectionInput } from './inputs.ts';

const schemes: Record<Engine, readonly string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
  pglite: ['memory:'],
};

const invalidConnection = (message: string) =>
  new ServiceError('VALIDATION', {
    message,
    issues: [{ field: 'body.connection', message, code: 'INVALID_VALUE' }],
  });

/** The URL of a connection for an engine; a 400 naming what is wrong, never echoing the URL. */
export const connectionUrlOf = (engine: Engine, connection: ConnectionInput): string => {
  if (engine === 'pglite') return 'memory:';
  const [scheme] = schemes[engine];
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
  if (
    !schemes[engine].includes(parsed.protocol) ||
    !connection.url.slice(parsed.protocol.length).startsWith('//')
  )
    throw invalidConnection(
      `connection.url for engine ${engine} must start with ${schemes[engine].join('// or ')}//`,
    );
  if (!parsed.hostname) throw invalidConnection('connection.url names no host');
  if (parsed.pathname.length <= 1)
    throw invalidConnection(
      `connection.url must name the database: ${scheme}//user:password@host:port/database`,
    );
  return connection.url;
};

// Where a deployed service must not connect on a caller's behalf.
const blocked = new BlockList();
blocked.addSubnet('127.0.0.0', 8, 'ipv4');
blocked.addSubnet('0.0.0.0', 8, 'ipv4');
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addAddress('::1', 'ipv6');
blocked.addAddress('::', 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addSubnet('fd00:ec2::', 32, 'ipv6');

const isBlocked = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  return family === 4
    ? blocked.check(address, 'ipv4')
    : family === 6
      ? blocked.check(address, 'ipv6')
      : false;
};

export const connectionFailed = (reason: string, message: string): ServiceError => {
  const text = `Connection test failed: ${message} (${reason})`;
  return new ServiceError('CONNECTION_TEST_FAILED', {
    message: text,
    detail: 'CONNECTION_FAILED',
    issues: [{ field: 'connection', message: text, code: 'CONNECTION_FAILED' }],
  });
};

/** Outside the local stack: the host and what it resolves to are not loopback or link-local. */
export const checkHostAllowed = async (url: string): Promise<void> => {
  if (settings().stage === 'local' || url === 'memory:') return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const refused = () => connectionFailed('HOST_NOT_ALLOWED', 'the host is a loopback or link-local address');
  if (host === 'localhost' || host.endsWith('.localhost') || isBlocked(host)) throw refused();
  if (isIP(host) !== 0) return;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  if (addresses.some(({ address }) => isBlocked(address))) throw refused();
};

/** Tests a connection within the connect timeout (422 CONNECTION_FAILED); nothing is kept open. */
export const testConnectionUrl = async (engine: Engine, url: string, seedFile?: string): Promise<void> => {
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
