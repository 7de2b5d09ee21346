// Test data made through the same store functions the admin command uses.

import { createApiKey } from '#lib/auth/api-keys.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import type { PlanName } from '#lib/store/organizations.ts';
import { createOrganization } from '#lib/store/organizations.ts';

export const makeOrganization = async (plan: PlanName = 'professional') => {
  const organization = await createOrganization({ name: `Org ${plan} ${Date.now()}`, plan });
  const databaseId = newDatabaseId();
  await addDatabase({
    id: databaseId,
    organizationId: organization.id,
    name: 'Shop',
    engine: 'postgres',
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'org_id',
    policy: { tenant_column: 'org_id', tables: {} },
    connectionRef: 'enc:v1:not-a-real-secret',
  });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  const pk = await createApiKey({ organizationId: organization.id, kind: 'pk', databaseId });
  return { organization, databaseId, sk: sk.key, skId: sk.id, pk: pk.key };
};
