// PostgreSQL's own catalogs, which no query reads whatever the row policy says, and the row
// policy's decision on a relation with them (lib/core/row-policy.ts) as the guard's walk asks it.
import type { Catalog } from '#lib/core/catalog.ts';
import {
  type EffectivePolicy,
  relationAccess as policyAccess,
  type RelationAccess,
  type SystemNames,
} from '#lib/core/row-policy.ts';

export const POSTGRES_SYSTEM: SystemNames = {
  systemSchemas: new Set(['pg_catalog', 'information_schema', 'pg_toast']),
  // pg_catalog is searched before the default schema: an unqualified `pg_class` is the catalog's.
  systemNamePattern: /^pg_/i,
};

/** How one relation reference may be read on PostgreSQL (see relationAccess in the core). */
export const relationAccess = (
  catalog: Catalog,
  policy: EffectivePolicy,
  schema: string | undefined,
  name: string,
): RelationAccess => policyAccess(catalog, policy, schema, name, POSTGRES_SYSTEM);
