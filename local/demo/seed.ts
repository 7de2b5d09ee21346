// Seeds the local stack's demo organization (professional plan): the demo shop database, an
// sk_ key, a pk_ key bound to that database, and branding. The keys are kept in
// .local/demo.json so a restart prints the same ones; `npm start -- --fresh` makes new ones.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDir, root } from '../stack.ts';

export interface DemoSetup {
  organizationId: number;
  databaseId: string;
  skKey: string;
  pkKey: string;
}

const demoFile = join(localDir, 'demo.json');

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

/** Returns the demo setup, creating it when the table does not hold it yet. Lib modules are
 *  imported here, after the caller has applied the local environment. */
export const ensureDemo = async (): Promise<{ demo: DemoSetup; created: boolean }> => {
  const { findOrganization, createOrganization } = await import('#lib/store/organizations.ts');
  if (existsSync(demoFile)) {
    const saved = JSON.parse(readFileSync(demoFile, 'utf8')) as DemoSetup;
    if (await findOrganization(saved.organizationId)) return { demo: saved, created: false };
  }
  const { addDatabase, newDatabaseId } = await import('#lib/store/databases.ts');
  const { createApiKey } = await import('#lib/store/api-keys.ts');
  const { saveBranding } = await import('#lib/store/branding.ts');
  const { secretStore } = await import('#lib/connectors/secrets.ts');

  const organization = await createOrganization({ name: 'Demo Company', plan: 'professional' });
  const databaseId = newDatabaseId();
  const database = await addDatabase({
    id: databaseId,
    organizationId: organization.id,
    name: 'Demo shop',
    engine: 'pglite',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
    connectionRef: await secretStore().save(databaseId, 'memory:'),
    seedFile: join(root, 'local/demo/shop.sql'),
  });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  const pk = await createApiKey({ organizationId: organization.id, kind: 'pk', databaseId: database.id });
  await saveBranding(organization.id, demoBranding);
  const demo: DemoSetup = {
    organizationId: organization.id,
    databaseId: database.id,
    skKey: sk.key,
    pkKey: pk.key,
  };
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return { demo, created: true };
};
