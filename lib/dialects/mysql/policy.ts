// MySQL's and MariaDB's own schemas, which no query reads whatever the row policy says, and the
// row policy's decision on a relation with them (lib/core/row-policy.ts) as the guard's walk asks it.
import type { Catalog } from '#lib/core/catalog.ts';
import {
  type EffectivePolicy,
  relationAccess as policyAccess,
  type RelationAccess,
  type SystemNames,
} from '#lib/core/row-policy.ts';

export const MYSQL_SYSTEM: SystemNames = {
  systemSchemas: new Set(['information_schema', 'mysql', 'performance_schema', 'sys']),
};

/** How one relation reference may be read on MySQL and MariaDB (see relationAccess in the core). */
export const relationAccess = (
  catalog: Catalog,
  policy: EffectivePolicy,
  schema: string | undefined,
  name: string,
): RelationAccess => policyAccess(catalog, policy, schema, name, MYSQL_SYSTEM);
