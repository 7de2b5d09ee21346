// CORS for browsers (the chat widget; docs/design.md "Credentials"). A response to a request with an
// `Origin` carries Access-Control-Allow-Origin (that origin), `Vary: Origin` and the headers a
// page may read (rate limits, Retry-After, X-Request-ID) when the origin is allowed: for a `pk_`
// key or an embed session (`et_`) that lists origins, only those; never for an organization
// (`sk_`) key; otherwise any origin is echoed. That covers every
// response of the chain, error envelopes and 429s included, and the stream's headers.
// A preflight (`OPTIONS`) carries no credentials, so it cannot know the key's origins: it is
// answered for any origin by the gateway (local/gateway.ts) or the fallback function
// (functions/route-fallback.ts), and the key's list is enforced on the request itself
// (lib/auth/principal.ts refuses an unlisted Origin with 403, without Allow-Origin).
// Placed right after the request id, so that its `after`/`onError` see the final response.
import type { MiddlewareObj, Request } from '@middy/core';
import { originListed, type Principal } from '#lib/auth/principal.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';
import { normaliseHeaders } from './headers.ts';

/** Request headers a page may send (what the widget and integrators' pages use). */
export const CORS_ALLOWED_HEADERS = [
  'X-API-Key',
  'X-Scope-Id',
  'X-Tenant-Id',
  'Content-Type',
  'Authorization',
  'X-Request-ID',
] as const;

/** Response headers a page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-ID',
  'Server-Timing',
] as const;

/** How long a browser may reuse a preflight answer (seconds; browsers cap it at 2 h or less). */
export const CORS_MAX_AGE_SECONDS = 7200;

/** A page origin, `scheme://host[:port]`, as sent in `Origin` (`null` and paths are not origins). */
const ORIGIN = /^https?:\/\/[^/\s]+\/?$/i;

/**
 * Whether `origin` may read responses made with `principal`'s credential: never for an
 * organization (sk_) key, which belongs on servers, not in pages; a pk_ key as it lists origins.
 */
export const originAllowed = (
  origin: string,
  principal?: Pick<Principal, 'allowedOrigins' | 'credential'>,
): boolean => {
  if (!ORIGIN.test(origin.trim())) return false;
  if (!principal) return true;
  return principal.credential !== 'sk' && originListed(principal, origin);
};

/** The CORS headers of an ordinary response; empty when there is no Origin or it is not allowed. */
export const corsHeaders = (
  origin: string | undefined,
  principal?: Pick<Principal, 'allowedOrigins' | 'credential'>,
): Record<string, string> => {
  if (!origin) return {};
  if (!originAllowed(origin, principal)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': origin.trim(),
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
};

/** The headers of a 204 preflight answer on a route with `methods`. */
export const preflightHeaders = (
  origin: string | undefined,
  methods: readonly string[],
): Record<string, string> => {
  const allowMethods = [...new Set([...methods.map((method) => method.toUpperCase()), 'OPTIONS'])].join(', ');
  const base = { Allow: allowMethods, Vary: 'Origin' };
  if (!origin || !originAllowed(origin)) return base;
  return {
    ...base,
    'Access-Control-Allow-Origin': origin.trim(),
    'Access-Control-Allow-Methods': allowMethods,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
};

type ApiRequest = Request<ApiEvent, ApiResult, Error, ApiContext>;

export const cors = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const addCorsHeaders = (request: ApiRequest): void => {
    if (!request.response) return;
    const requestHeaders = request.context.headers ?? normaliseHeaders(request.event);
    const origin = requestHeaders.origin;
    if (!origin) return;
    // Set by authentication, also when the credential was refused for its origin or route;
    // undefined when there was none or it was invalid (nothing restricts the origin then, and
    // the page may read the 401 envelope).
    const headers = corsHeaders(origin, request.context.principal as Principal | undefined);
    if (Object.keys(headers).length > 0) {
      request.response.headers = { ...request.response.headers, ...headers };
    }
  };
  return { after: addCorsHeaders, onError: addCorsHeaders };
};
