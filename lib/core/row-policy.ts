// The row policy (docs/design.md "Tenant filtering and the SQL guard"): the stored settings and
// their schema, and for each relation a query names whether it is filtered on a tenant (and
// scope) column, readable by everyone, or refused. Part of the core (docs/design.md "Databases
// as one seam"): the guard, the engines, introspection, the store and the control plane read
// it, and it imports nothing of the service.
import * as v from 'valibot';
import type { Catalog, CatalogRelation } from './catalog.ts';

const columnName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'must be a plain column name'),
);
const relationName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/, 'must be a table name'),
);

/**
 * Keys a parsed record silently drops (valibot skips them so that they cannot reach a
 * prototype): refused instead, so that an operator who lists a relation of that name is told.
 */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];
const withoutReservedKeys = v.custom<unknown>(
  (input) =>
    typeof input !== 'object' || input === null || !RESERVED_KEYS.some((key) => Object.hasOwn(input, key)),
  `the row policy cannot list a relation named ${RESERVED_KEYS.join(', ')}`,
);

/** Row policy (docs/design.md "Tenant filtering"): default columns and per-relation overrides. */
export const RowPolicy = v.strictObject({
  tenant_column: v.optional(columnName),
  scope_column: v.optional(columnName),
  /** A request without X-Scope-Id is refused (403), not filtered by tenant only. */
  scope_required: v.optional(v.boolean()),
  tables: v.optional(
    v.pipe(
      withoutReservedKeys,
      v.record(
        relationName,
        v.strictObject({
          tenant_column: v.optional(columnName),
          scope_column: v.optional(columnName),
          shared: v.optional(v.boolean()),
        }),
      ),
    ),
    {},
  ),
});
export type RowPolicy = v.InferOutput<typeof RowPolicy>;

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

/** The settings of a database record (lib/store/databases.ts) the guard reads. */
export interface PolicySettings {
  requiresOrganizationScoping: boolean;
  tenantFilterColumn?: string | undefined;
  scopeFilterColumn?: string | undefined;
  policy: RowPolicy;
}

export const effectivePolicy = (database: PolicySettings): EffectivePolicy => {
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

/**
 * The names a dialect keeps for its own catalogs (its `Dialect` object, lib/dialects/types.ts):
 * a query may never read them, whatever the row policy says.
 */
export interface SystemNames {
  /** Schemas (lower case) of the server's own catalogs and accounts. */
  readonly systemSchemas: ReadonlySet<string>;
  /** Unqualified names the server resolves to its catalog before the default schema. */
  readonly systemNamePattern?: RegExp;
}

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
  system: SystemNames,
): RelationAccess => {
  const resolvedSchema = schema ?? catalog.defaultSchema;
  const qualified = `${resolvedSchema}.${name}`;
  if (
    system.systemSchemas.has(resolvedSchema.toLowerCase()) ||
    (schema === undefined && system.systemNamePattern?.test(name) === true)
  ) {
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
