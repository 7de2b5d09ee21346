// Connected databases for tests of the answering flow, registered the way `admin database add`
// does (secret saved, schema introspected with the row policy, index written, record added) but
// without counting the indexing quota: the demo shop of local/demo/shop.sql on PGlite, or the
// same data loaded into a real PostgreSQL server.
import { closeConnectors, createConnector } from '#lib/connectors/index.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { addDatabase, type DatabaseRecord, newDatabaseId } from '#lib/store/databases.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { demoPolicy, demoSeedFile } from '../../local/demo/seed.ts';

export { closeConnectors, demoPolicy, demoSeedFile };

export interface DatabaseSpec {
  organizationId: number;
  engine?: string;
  /** postgres:// or mysql:// URL; pglite uses the demo seed in memory. */
  url?: string;
  seedFile?: string;
  /** The seed file the record names, when not `seedFile` (a checkout path a deployed stage lacks). */
  recordedSeedFile?: string;
  policy?: DatabaseRecord['policy'];
  requiresOrganizationScoping?: boolean;
  tenantFilterColumn?: string;
  name?: string;
}

/** Registers and indexes a database (the demo shop on PGlite by default). */
export const registerDatabase = async (spec: DatabaseSpec): Promise<DatabaseRecord> => {
  const engine = spec.engine ?? 'pglite';
  const url = spec.url ?? 'memory:';
  const seedFile = engine === 'pglite' ? (spec.seedFile ?? demoSeedFile) : undefined;
  const settings = {
    organizationId: spec.organizationId,
    requiresOrganizationScoping: spec.requiresOrganizationScoping ?? true,
    tenantFilterColumn: spec.tenantFilterColumn ?? 'org_id',
    policy: spec.policy ?? demoPolicy,
  };
  const connector = await createConnector({ engine, url, ...(seedFile ? { seedFile } : {}) });
  let catalog: Awaited<ReturnType<typeof connector.introspect>>;
  try {
    catalog = await connector.introspect({ policy: effectivePolicy(settings) });
  } finally {
    await connector.close();
  }
  const id = newDatabaseId();
  return addDatabase({
    id,
    name: spec.name ?? 'Demo shop',
    engine,
    ...settings,
    connectionRef: await secretStore().save(id, url),
    ...(seedFile ? { seedFile: spec.recordedSeedFile ?? seedFile } : {}),
    schemaIndex: await writeSchemaIndex(id, catalog),
  });
};
