// The `tenant` middleware: loads the request's database and validates X-Tenant-Id and the scope
// for it with the pure rule of lib/auth/tenant.ts.
import type { MiddlewareObj, Request } from '@middy/core';
import { applyEmbedSession } from '#lib/auth/embed-sessions.ts';
import { rowScopeOf } from '#lib/auth/session-scope.ts';
import { resolveTenant, type TenantValues } from '#lib/auth/tenant.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

// ---- middleware --------------------------------------------------------------------------------

export interface TenantContext {
  /** The database the request queries. */
  database: DatabaseRecord;
  /** Its schema index, when loaded. */
  catalog: Catalog | undefined;
  /** The validated tenant and scope values for the guard. */
  tenantValues: TenantValues;
}

export type LoadDatabase<C extends ApiContext> = (
  request: Request<ApiEvent, ApiResult, Error, C>,
) => Promise<{ database: DatabaseRecord; catalog?: Catalog }>;

/**
 * Loads the request's database (the endpoint knows from where: body, path, conversation) and
 * validates X-Tenant-Id and the scope for it. Runs after `scope` and, for body routes, after
 * validation, so the loader can read `context.input`.
 */
export const tenant = <C extends ApiContext>(options: {
  loadDatabase: LoadDatabase<C & Partial<TenantContext>>;
}): MiddlewareObj<ApiEvent, ApiResult, Error, C & Partial<TenantContext>> => {
  const tenantBefore = async (request: Request<ApiEvent, ApiResult, Error, C & Partial<TenantContext>>) => {
    const { database, catalog } = await options.loadDatabase(request);
    const context = request.context;
    context.database = database;
    context.catalog = catalog;
    // An embed session's tenant is its token's; a header may only repeat it (403 otherwise).
    const { tenantHeader } = applyEmbedSession(context.principal ?? {}, {
      tenantHeader: context.headers['x-tenant-id'],
      personalityId: undefined,
    });
    const rowScope = rowScopeOf(context.principal ?? {}, context.scopeId);
    context.tenantValues = resolveTenant(database, catalog, tenantHeader, rowScope);
  };
  return { before: tenantBefore };
};
