// Seeds the local stack's demo organization (professional plan): the demo shop database
// (PGlite from local/demo/shop.sql, connected, tested and indexed as `admin database add` does),
// an sk_ key, an sk_ key created with manage (for the control plane), a pk_ key bound to that
// database, and branding. The keys are kept in
// .local/demo.json so a restart prints the same ones; `npm start -- --fresh` makes new ones.
// A restart re-indexes the demo database only when shop.sql is newer than its index, and
// replaces the demo organization when its database was registered with another row policy.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { closeConnectors, createConnector } from '#lib/connectors/index.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { prepareIndex, reindexDatabase } from '#lib/manage/job-runner.ts';
import { saveBranding } from '#lib/store/branding.ts';
import { addDatabase, type DatabaseRecord, findDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization, findOrganization } from '#lib/store/organizations.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { localDir, root } from '../stack.ts';

export interface DemoSetup {
  organizationId: number;
  databaseId: string;
  skKey: string;
  /** An sk_ key created with manage: it may change the organization (docs/control-plane.md). */
  manageKey: string;
  pkKey: string;
}

const demoFile = join(localDir, 'demo.json');
export const demoSeedFile = join(root, 'local/demo/shop.sql');

/**
 * The demo's row policy: every tenant table is filtered on org_id, organizations on its id;
 * countries and categories are shared reference data; the monthly_sales view is filtered on its
 * own org_id column (views are refused unless listed).
 */
export const demoPolicy = {
  tenant_column: 'org_id',
  tables: {
    organizations: { tenant_column: 'id' },
    countries: { shared: true },
    categories: { shared: true },
    monthly_sales: { tenant_column: 'org_id' },
  },
};

export const demoBranding = {
  colors: {
    primary: '#0f766e',
    secondary: '#134e4a',
    accent: '#f59e0b',
    text_primary: '#0f172a',
    text_secondary: '#475569',
  },
  widget_theme: {
    position: 'bottom-right',
    greeting_message: 'Hi! Ask me about customers, products and orders.',
    placeholder_text: 'e.g. How many orders were delivered last year?',
    header_color: '#0f766e',
  },
  hide_dialektai_branding: false,
} as const;

/**
 * Registers the demo shop (PGlite from shop.sql, the demo row policy) for an organization and
 * indexes it: as `admin database add` does (connection tested, the indexing quota counted) when
 * `asAdmin`, otherwise introspected directly. Lib modules are imported here, after the caller
 * has applied the local environment.
 */
export const addDemoShop = async (
  organizationId: number,
  options: { asAdmin?: boolean } = {},
): Promise<DatabaseRecord> => {
  const settings = {
    organizationId,
    requiresOrganizationScoping: true,
    tenantFilterColumn: demoPolicy.tenant_column,
    policy: demoPolicy,
  };
  const connector = await createConnector({ engine: 'pglite', url: 'memory:', seedFile: demoSeedFile });
  let catalog: Catalog;
  try {
    catalog = options.asAdmin
      ? await prepareIndex(connector, settings)
      : await connector.introspect({ policy: effectivePolicy(settings) });
  } finally {
    await connector.close();
  }
  const databaseId = newDatabaseId();
  return addDatabase({
    id: databaseId,
    name: 'Demo shop',
    engine: 'pglite',
    ...settings,
    connectionRef: await secretStore().save(databaseId, 'memory:'),
    seedFile: demoSeedFile,
    schemaIndex: await writeSchemaIndex(databaseId, catalog),
  });
};

const saveDemo = (demo: DemoSetup): void =>
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });

/** A setup kept from before the demo had a manage key gets one (and keeps its other keys). */
const withManageKey = async (saved: DemoSetup): Promise<DemoSetup> => {
  if (saved.manageKey) return saved;
  const manage = await createApiKey({
    organizationId: saved.organizationId,
    kind: 'sk',
    name: 'Local control plane',
    manage: true,
  });
  const demo = { ...saved, manageKey: manage.key };
  saveDemo(demo);
  return demo;
};

/** Returns the demo setup, creating it when the table does not hold it yet. Lib modules are
 *  imported here, after the caller has applied the local environment. */
export const ensureDemo = async (): Promise<{ demo: DemoSetup; created: boolean; indexed: boolean }> => {
  if (existsSync(demoFile)) {
    const saved = JSON.parse(readFileSync(demoFile, 'utf8')) as DemoSetup;
    const database =
      (await findOrganization(saved.organizationId)) &&
      (await findDatabase(saved.organizationId, saved.databaseId));
    if (database && isDeepStrictEqual(database.policy, demoPolicy) && database.seedFile === demoSeedFile) {
      const indexedAt = database.schemaIndex ? Date.parse(database.schemaIndex.indexedAt) : 0;
      const demo = await withManageKey(saved);
      if (indexedAt >= statSync(demoSeedFile).mtimeMs) return { demo, created: false, indexed: false };
      try {
        await reindexDatabase(database);
      } finally {
        await closeConnectors();
      }
      return { demo, created: false, indexed: true };
    }
  }

  const organization = await createOrganization({ name: 'Demo Company', plan: 'professional' });
  const database = await addDemoShop(organization.id, { asAdmin: true });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  const manage = await createApiKey({
    organizationId: organization.id,
    kind: 'sk',
    name: 'Local control plane',
    manage: true,
  });
  const pk = await createApiKey({ organizationId: organization.id, kind: 'pk', databaseId: database.id });
  await saveBranding(organization.id, demoBranding);
  const demo: DemoSetup = {
    organizationId: organization.id,
    databaseId: database.id,
    skKey: sk.key,
    manageKey: manage.key,
    pkKey: pk.key,
  };
  saveDemo(demo);
  return { demo, created: true, indexed: true };
};
