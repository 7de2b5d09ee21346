// One connector per connected database per warm container: `connectorFor(record)` reads the
// connection secret through the stage's secret store (Secrets Manager / local encryption) and
// keeps the connector, with its pool or worker, for the next invocation; once the secret is older
// than SECRETS_MAX_AGE_SECONDS it is read again, and a rotated one reopens the connector. `createConnector`
// opens one from a plain URL (the admin command tests a database before anything is stored).
//
// Settings: DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_MAX_COST, DB_POOL_SIZE (lib/config.ts).
import { settings } from '#lib/config.ts';
import { connectEngine } from '#lib/dialects/machinery.ts';
import { ServiceError } from '#lib/errors.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { secretStore } from './secrets.ts';
import type { Connector, ExecuteLimits } from './types.ts';

/** The connected-database settings of this container (lib/config.ts). */
export const connectorSettings = () => settings().database;

/** The limits of an answering query under the container's settings. */
export const defaultLimits = (overrides: Partial<ExecuteLimits> = {}): ExecuteLimits => ({
  timeoutMs: overrides.timeoutMs ?? connectorSettings().statementTimeoutMs,
  ...(overrides.maxCost !== undefined
    ? { maxCost: overrides.maxCost }
    : connectorSettings().maxCost > 0
      ? { maxCost: connectorSettings().maxCost }
      : {}),
});

export interface ConnectionSpec {
  /** One of the registry's engines (lib/dialects/index.ts). */
  engine: string;
  /** The connection URL (`memory:` for an embedded engine). Never logged or shown. */
  url: string;
  seedFile?: string;
  connectTimeoutMs?: number;
  poolSize?: number;
}

/** Opens a connector (lazily: nothing connects before the first call). */
export const createConnector = async (spec: ConnectionSpec): Promise<Connector> => {
  const connectTimeoutMs = spec.connectTimeoutMs ?? connectorSettings().connectTimeoutMs;
  const poolSize = spec.poolSize ?? connectorSettings().poolSize;
  try {
    return await connectEngine(spec.engine, {
      url: spec.url,
      ...(spec.seedFile !== undefined ? { seedFile: spec.seedFile } : {}),
      connectTimeoutMs,
      poolSize,
    });
  } catch (error) {
    // A URL the driver options cannot be built from (bad sslmode, bad escape). Never echo it.
    throw new ServiceError('DB_CONNECTION_FAILED', {
      message: `The connection settings are invalid: ${error instanceof Error && /^unsupported /.test(error.message) ? error.message : 'the URL cannot be read'}`,
      detail: 'INVALID_URL',
    });
  }
};

/**
 * Open connectors per container, least recently used first. Each holds a pool (up to DB_POOL_SIZE
 * connections) or an embedded database's worker, so a container serving many databases keeps the
 * most recent MAX_OPEN_CONNECTORS and closes the one used longest ago.
 */
export const MAX_OPEN_CONNECTORS = 32;

interface OpenConnector {
  ref: string;
  /** The connection secret the connector was opened with. */
  url: Promise<string>;
  connector: Promise<Connector>;
  /** When the secret was last read (ms): after SECRETS_MAX_AGE_SECONDS it is read again. */
  readAt: number;
}
const cache = new Map<string, OpenConnector>();

const closeLater = (connector: Promise<Connector>): void => {
  void connector.then((old) => old.close()).catch(() => undefined);
};

/** Opens a connector on `url` (the secret read now unless given) and keeps it as the most recent. */
const open = (database: DatabaseRecord, known?: string): Promise<Connector> => {
  const [leastRecent] = cache.size >= MAX_OPEN_CONNECTORS ? cache : [];
  if (leastRecent) {
    cache.delete(leastRecent[0]);
    closeLater(leastRecent[1].connector);
  }
  const url = known !== undefined ? Promise.resolve(known) : secretStore().read(database.connectionRef);
  const connector = url.then((value) =>
    createConnector({
      engine: database.engine,
      url: value,
      ...(database.seedFile !== undefined ? { seedFile: database.seedFile } : {}),
    }),
  );
  cache.set(database.id, { ref: database.connectionRef, url, connector, readAt: Date.now() });
  connector.catch(() => {
    if (cache.get(database.id)?.connector === connector) cache.delete(database.id);
  });
  return connector;
};

/**
 * A connector whose secret is older than SECRETS_MAX_AGE_SECONDS: the secret is read again (through
 * the store's cache) and, when it was rotated, a connector on the new value replaces the old one.
 * A read that fails keeps the connector as it is.
 */
const recheck = async (database: DatabaseRecord, entry: OpenConnector): Promise<Connector> => {
  entry.readAt = Date.now();
  let current: string;
  try {
    current = await secretStore().read(database.connectionRef);
  } catch {
    return entry.connector;
  }
  if (current === (await entry.url.catch(() => undefined)) || cache.get(database.id) !== entry)
    return entry.connector;
  cache.delete(database.id);
  closeLater(entry.connector);
  return open(database, current);
};

/** The container's connector of a database, opened on first use. */
export const connectorFor = (database: DatabaseRecord): Promise<Connector> => {
  const cached = cache.get(database.id);
  if (cached) cache.delete(database.id);
  if (cached && cached.ref === database.connectionRef) {
    cache.set(database.id, cached); // now the most recently used
    const maxAgeMs = settings().secretsMaxAgeSeconds * 1000;
    return Date.now() - cached.readAt < maxAgeMs ? cached.connector : recheck(database, cached);
  }
  if (cached) closeLater(cached.connector);
  return open(database);
};

/** How many connectors are open (tests). */
export const openConnectorCount = (): number => cache.size;

/** Closes every cached connector (tests, the admin command before it exits). */
export const closeConnectors = async (): Promise<void> => {
  const all = [...cache.values()];
  cache.clear();
  await Promise.all(all.map(async ({ connector }) => (await connector.catch(() => undefined))?.close()));
};
