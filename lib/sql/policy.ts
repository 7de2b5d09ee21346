// The row policy shared by both dialects' guards: for each relation a query names, whether it
// is filtered on a tenant (and scope) column, readable by everyone, or refused
// (docs/design.md "Tenant filtering and the SQL guard").
import type { Catalog, CatalogRelation } from '#lib/connectors/types.ts';
import type { DatabaseRecord, RowPolicy } from '#lib/store/databases.ts';

/** The database's settings as the guard applies them. */
export interface EffectivePolicy {
  requiresScoping: boolean;
  tenantColumn?: string;
  scopeColumn?: string;
  /**
   * `scope_required`: a request on this database without X-Scope-Id is refused (403) instead of
   * being filtered by tenant only (docs/design.md "A missing scope is not 'all scopes'").
   */
  scopeRequired: boolean;
  /**
   * Keyed by `schema.name` or bare `name` (bare names mean the default schema). Read through
   * `listedRelation` only: a plain index would follow the prototype chain (`constructor`).
   */
  tables: RowPolicy['tables'];
}

export const effectivePolicy = (
  database: Pick<
    DatabaseRecord,
    'requiresOrganizationScoping' | 'tenantFilterColumn' | 'scopeFilterColumn' | 'policy'
  >,
): EffectivePolicy => {
  const tenantColumn = database.policy.tenant_column ?? database.tenantFilterColumn;
  const scopeColumn = database.policy.scope_column ?? database.scopeFilterColumn;
  return {
    requiresScoping: database.requiresOrganizationScoping,
    ...(tenantColumn ? { tenantColumn } : {}),
    ...(scopeColumn ? { scopeColumn } : {}),
    scopeRequired: database.policy.scope_required === true,
    tables: database.policy.tables ?? {},
  };
};

type TableEntry = NonNullable<RowPolicy['tables']>[string];

/**
 * The row policy's entry for one key, own properties only: a relation named `constructor`,
 * `toString` or `__proto__` is listed only when the policy lists it, never through
 * Object.prototype.
 */
export const listedRelation = (
  policy: Pick<EffectivePolicy, 'tables'>,
  key: string,
): TableEntry | undefined =>
  policy.tables !== undefined && Object.hasOwn(policy.tables, key) ? policy.tables[key] : undefined;

export type RelationAccess =
  /** Wrap in `(SELECT * FROM r WHERE r.tenant = $t [AND r.scope = $s])`. */
  | { kind: 'filtered'; relation: CatalogRelation; tenantColumn: string; scopeColumn?: string }
  /** Readable as is: listed as shared, or the database does not require scoping. */
  | { kind: 'open'; relation: CatalogRelation; scopeColumn?: string }
  | {
      kind: 'refused';
      code: 'SYSTEM_CATALOG' | 'RELATION_NOT_ALLOWED' | 'UNKNOWN_RELATION';
      message: string;
    };

export const SYSTEM_SCHEMAS = new Set([
  'pg_catalog',
  'information_schema',
  'pg_toast',
  'mysql',
  'performance_schema',
  'sys',
]);

const hasColumn = (relation: CatalogRelation, column: string | undefined): column is string =>
  column !== undefined && relation.columns.some((c) => c.name === column);

/**
 * Decides how one relation reference may be read. `schema` is undefined for an unqualified
 * name (resolved in the catalog's default schema). Names compare as the catalog stores them:
 * the dialect's parser has already folded unquoted identifiers.
 */
export const relationAccess = (
  catalog: Catalog,
  policy: EffectivePolicy,
  schema: string | undefined,
  name: string,
): RelationAccess => {
  const resolvedSchema = schema ?? catalog.defaultSchema;
  const qualified = `${resolvedSchema}.${name}`;
  if (SYSTEM_SCHEMAS.has(resolvedSchema.toLowerCase()) || (schema === undefined && /^pg_/i.test(name))) {
    return {
      kind: 'refused',
      code: 'SYSTEM_CATALOG',
      message: `System catalog ${qualified} cannot be queried`,
    };
  }
  const relation = catalog.relations.find((r) => r.schema === resolvedSchema && r.name === name);
  if (!relation)
    return { kind: 'refused', code: 'UNKNOWN_RELATION', message: `Unknown relation ${qualified}` };
  const listed =
    listedRelation(policy, qualified) ??
    (resolvedSchema === catalog.defaultSchema ? listedRelation(policy, name) : undefined);
  const scopeColumn =
    listed?.scope_column ?? (hasColumn(relation, policy.scopeColumn) ? policy.scopeColumn : undefined);
  const scope = scopeColumn && hasColumn(relation, scopeColumn) ? { scopeColumn } : {};
  if (relation.kind !== 'table' && !listed) {
    return {
      kind: 'refused',
      code: 'RELATION_NOT_ALLOWED',
      message: `${relation.kind.replace('_', ' ')} ${qualified} is not listed in the row policy`,
    };
  }
  if (listed?.shared) return { kind: 'open', relation, ...scope };
  if (!policy.requiresScoping) return { kind: 'open', relation, ...scope };
  const tenantColumn = listed?.tenant_column ?? policy.tenantColumn;
  if (hasColumn(relation, tenantColumn)) return { kind: 'filtered', relation, tenantColumn, ...scope };
  return {
    kind: 'refused',
    code: 'RELATION_NOT_ALLOWED',
    message: `${qualified} has no tenant column and is not listed as shared`,
  };
};
