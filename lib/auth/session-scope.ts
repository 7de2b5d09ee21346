// The scopes of a request made with an embed session (docs/design.md "Embed sessions"): the
// scope middleware of every chain uses them.
import { ServiceError } from '#lib/errors.ts';

const MAX_TENANT_LENGTH = 255;

/**
 * The tenant part of a caller's conversations' address (lib/store/scopes.ts): an embed session's
 * tenant (present only on a database that filters by tenant), or X-Tenant-Id as sent, trimmed
 * (the chat routes refuse it on databases without tenant filtering, lib/auth/tenant.ts). So an
 * integrator's server reads its visitor's conversations with the visitor's own scope id and
 * tenant, and no scope id, whatever it holds, names another tenant's conversations.
 */
export const conversationTenantOf = (
  principal: { session?: { tenant?: string | undefined } | undefined },
  header: string | undefined,
): string | undefined => {
  if (principal.session) return principal.session.tenant;
  const tenant = header?.trim();
  if (!tenant) return undefined;
  if ([...tenant].length > MAX_TENANT_LENGTH) {
    const message = `X-Tenant-Id must be at most ${MAX_TENANT_LENGTH} characters`;
    throw new ServiceError('INVALID_TENANT', {
      message,
      detail: 'INVALID_FORMAT',
      issues: [{ field: 'X-Tenant-Id', message, code: 'INVALID_FORMAT' }],
    });
  }
  return tenant;
};

/** The value the scope filter of the row policy compares with: the token's scope, or X-Scope-Id. */
export const rowScopeOf = (
  principal: { session?: { scope?: string | undefined } | undefined },
  scopeId: string | undefined,
): string | undefined => (principal.session ? principal.session.scope : scopeId);
