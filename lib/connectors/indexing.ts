// Indexing a connected database (docs/design.md "Operating it": `database add`, `database index`):
// test the connection, count the operation against the plan's indexing quota, introspect with
// the row policy (so samples never carry one tenant's values to another), and store the catalog
// as the database's schema index (lib/store/schema-index.ts).

import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { ServiceError } from '#lib/errors.ts';
import { consumeIndexingQuota } from '#lib/limits/indexing.ts';
import type { DatabaseRecord, SchemaIndexPointer } from '#lib/store/databases.ts';
import { discardSchemaIndex, publishSchemaIndex, writeSchemaIndex } from '#lib/store/schema-index.ts';
import { withDescriptions } from './descriptions.ts';
import { connectorFor } from './index.ts';
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

/** The one place an indexing operation is counted (429 INDEXING_QUOTA_EXCEEDED when used up). */
export const countIndexing = async (organizationId: number): Promise<void> => {
  await consumeIndexingQuota(organizationId);
};

type PolicySource = Pick<
  DatabaseRecord,
  'requiresOrganizationScoping' | 'tenantFilterColumn' | 'scopeFilterColumn' | 'policy'
>;

/** Test → quota → introspect: the catalog a new or existing database is indexed with. */
export const prepareIndex = async (
  connector: Connector,
  database: PolicySource & Pick<DatabaseRecord, 'organizationId'>,
): Promise<Catalog> => {
  await testConnection(connector);
  await countIndexing(database.organizationId);
  return connector.introspect({ policy: effectivePolicy(database) });
};

/** Re-indexes a stored database and publishes the new index; returns its pointer and catalog. */
export const indexDatabase = async (
  database: DatabaseRecord,
  connector?: Connector,
): Promise<{ pointer: SchemaIndexPointer; catalog: Catalog }> => {
  // The operator's column descriptions (lib/connectors/descriptions.ts) over the database's own.
  const catalog = withDescriptions(
    await prepareIndex(connector ?? (await connectorFor(database)), database),
    database.descriptions,
  );
  const pointer = await writeSchemaIndex(database.id, catalog);
  try {
    await publishSchemaIndex(database, pointer);
  } catch (error) {
    await discardSchemaIndex(database.id, pointer).catch(() => undefined);
    throw error;
  }
  return { pointer, catalog };
};
