// Resolves the caller's credential (X-API-Key, or Authorization: Bearer with a portal JWT or a
// key) into a principal and applies the route's access rule (docs/design.md "Credentials").
import type { MiddlewareObj, Request } from '@middy/core';
import { type AccessRule, authorise, resolvePrincipal } from '#lib/auth/principal.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

export const authenticate = (rule: AccessRule): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const authenticateBefore = async (
    request: Request<ApiEvent, ApiResult, Error, ApiContext>,
  ): Promise<void> => {
    const { headers } = request.context;
    const principal = await resolvePrincipal({
      apiKey: headers['x-api-key'],
      authorization: headers.authorization,
    });
    // Stored before the rule is applied: a refusal's response still knows whose credential it
    // was (the CORS middleware reads the key's allowed origins from it).
    request.context.principal = principal;
    authorise(principal, rule, headers.origin);
  };
  return { before: authenticateBefore };
};
