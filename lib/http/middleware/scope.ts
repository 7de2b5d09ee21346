// X-Scope-Id names the end-user scope (docs/design.md "Scope"): a string or number, normalised to a
// string of 1..255 printable characters. Required on history endpoints (403 when absent).
// An embed session's scope is its token's (docs/design.md "Embed sessions"): an X-Scope-Id that
// differs is 403, and a token without a scope counts as a request without X-Scope-Id.
import type { MiddlewareObj, Request } from '@middy/core';
import { conversationTenantOf } from '#lib/auth/session-scope.ts';
import type { Caller } from '#lib/conversations/history.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

const MAX_SCOPE_LENGTH = 255;
// Printable: no C0/C1 control characters (covers CR/LF header injection and NUL).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

export const parseScopeId = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value.length === 0) return undefined;
  // Characters, not UTF-16 units: an emoji counts once.
  if ([...value].length > MAX_SCOPE_LENGTH) {
    throw invalidField('X-Scope-Id', `X-Scope-Id must be at most ${MAX_SCOPE_LENGTH} characters`, 'TOO_LONG');
  }
  if (controlCharacter.test(value)) {
    throw invalidField('X-Scope-Id', 'X-Scope-Id must contain printable characters only', 'INVALID_FORMAT');
  }
  return value;
};

/** X-Scope-Id, or the 403 of a route that requires it (also for routes that decide per body). */
export const requireScopeId = (scopeId: string | undefined): string => {
  if (scopeId !== undefined) return scopeId;
  throw new ServiceError('SCOPE_REQUIRED', {
    issues: [
      { field: 'X-Scope-Id', message: 'The X-Scope-Id header is required', code: 'MISSING_REQUIRED_HEADER' },
    ],
  });
};

/** The scope of a request made with an embed session: the token's; a header may only repeat it. */
const sessionScopeId = (tokenScope: string | undefined, header: string | undefined): string | undefined => {
  if (header !== undefined && header !== tokenScope) {
    const message = tokenScope
      ? "X-Scope-Id differs from the embed session's scope"
      : 'This embed session has no scope: X-Scope-Id cannot be sent with it';
    throw new ServiceError('FORBIDDEN', {
      message,
      issues: [{ field: 'X-Scope-Id', message, code: 'EMBED_SESSION_SCOPE' }],
    });
  }
  return tokenScope;
};

export const scope = (options: {
  required: boolean;
}): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const scopeBefore = (request: Request<ApiEvent, ApiResult, Error, ApiContext>): void => {
    const header = parseScopeId(request.context.headers['x-scope-id']);
    const session = request.context.principal?.session;
    const scopeId = session ? sessionScopeId(session.scope, header) : header;
    if (options.required) requireScopeId(scopeId);
    request.context.scopeId = scopeId;
    // The tenant part of the conversations' address: the session's, or X-Tenant-Id.
    request.context.conversationTenant = conversationTenantOf(
      request.context.principal ?? {},
      request.context.headers['x-tenant-id'],
    );
  };
  return { before: scopeBefore };
};

/**
 * Who reads or changes conversations on a history route: the organization, the address (scope
 * and tenant) and, for an embed session, its database (docs/design.md "Embed sessions").
 */
export const historyCaller = (
  context: Pick<ApiContext, 'principal' | 'scopeId' | 'conversationTenant'>,
): Caller => ({
  organizationId: context.principal.organizationId,
  scopeId: context.scopeId,
  tenant: context.conversationTenant,
  databaseId: context.principal.session?.databaseId,
  userId: context.principal.userId,
  visitor: context.principal.session?.limitKey,
});
