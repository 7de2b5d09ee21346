// SQL that is saved to be used later (query patterns, docs/model-engines.md "Query patterns")
// passes the SQL guard when it is saved, against the database's schema index and row policy, so
// that nothing stored as an example can read what a generated query could not. A database that
// filters rows by tenant is checked with a placeholder tenant of the tenant column's type. The
// guard still checks every query an engine proposes at answer time.
import type { Catalog, ColumnKind } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy, relationAccess } from '#lib/core/row-policy.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { ServiceError } from '#lib/errors.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import type { Guard, GuardOutcome } from './types.ts';

/** Rows an answer shows at most (docs/design.md "Chat answers"); the guard adds LIMIT cap+1. */
export const SAVED_SQL_ROW_CAP = 100;

const placeholders: Partial<Record<ColumnKind, string | number>> = {
  integer: 1,
  decimal: '1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A tenant value the guard can bind for every tenant column of the catalog: an integer for
 * integer columns, a UUID for uuid columns, text otherwise. Undefined without scoping.
 */
export const placeholderTenant = (catalog: Catalog, policy: EffectivePolicy): string | number | undefined => {
  if (!policy.requiresScoping) return undefined;
  const kinds = new Set<ColumnKind>();
  for (const relation of catalog.relations) {
    const access = relationAccess(
      catalog,
      policy,
      relation.schema,
      relation.name,
      dialectNamed(catalog.dialect),
    );
    if (access.kind !== 'filtered') continue;
    const column = relation.columns.find((c) => c.name === access.tenantColumn);
    if (column) kinds.add(column.kind);
  }
  for (const kind of ['integer', 'uuid', 'decimal'] as const) if (kinds.has(kind)) return placeholders[kind];
  return 'placeholder-tenant';
};

/** What the guard makes of SQL to be saved, for the database's catalog and policy. */
export const checkSavedSql = async (
  sql: string,
  catalog: Catalog,
  policy: EffectivePolicy,
  guard?: Guard,
): Promise<GuardOutcome> => {
  const tenant = placeholderTenant(catalog, policy);
  const check = guard ?? (await guardOf(catalog.dialect));
  return check({
    sql,
    catalog,
    policy,
    ...(tenant !== undefined ? { tenant } : {}),
    rowCap: SAVED_SQL_ROW_CAP,
  });
};

/**
 * What is checked against a database's schema index cannot be saved before it has one: 422
 * (VALIDATION_ERROR, detail SCHEMA_NOT_INDEXED), as an answer on such a database.
 */
export const notIndexed = (databaseId: string, what: string): ServiceError => {
  const message = `Database ${databaseId} has no schema index yet, and ${what} is checked against it: wait for its indexing job, or index it (POST /api/v1/organization/databases/{id}/index, admin database index)`;
  return new ServiceError('CONNECTION_TEST_FAILED', {
    message,
    detail: 'SCHEMA_NOT_INDEXED',
    issues: [{ field: 'database_id', message, code: 'SCHEMA_NOT_INDEXED' }],
  });
};

/**
 * The SQL guard's verdict on a query pattern's SQL (the control plane's patterns and the
 * candidates an answer's feedback proposes), against the database's schema index and row policy:
 * 400 with the guard's code when it refuses.
 */
export const checkPatternSql = async (database: DatabaseRecord, sql: string): Promise<void> => {
  const catalog = await readSchemaIndex(database);
  if (!catalog) throw notIndexed(database.id, 'a query pattern');
  const outcome = await checkSavedSql(sql, catalog, effectivePolicy(database));
  if (!outcome.allowed) {
    const message = `The SQL was refused by the SQL guard: ${outcome.code}: ${outcome.message}`;
    throw new ServiceError('VALIDATION', {
      message,
      detail: outcome.code,
      issues: [{ field: 'body.sql', message: outcome.message, code: outcome.code }],
    });
  }
};
