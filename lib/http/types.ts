// The event, result and context types shared by every HTTP function. Middleware fills the
// context in chain order (lib/http/api.ts); the handler receives it complete.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal } from '#lib/auth/principal.ts';
import type { Lease, RateLimitHeaders } from '#lib/limits/limiter.ts';

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult & { headers?: Record<string, string> };

export interface ApiContext extends Context {
  /** `req_<API Gateway request id>`: the envelope's `trace_id` and the `X-Request-ID` header. */
  traceId: string;
  /** Request headers with lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  principal: Principal;
  /** The end-user scope from `X-Scope-Id`, normalised to a string; undefined when not sent. */
  scopeId: string | undefined;
  /**
   * The tenant part of the conversations' address (lib/store/scopes.ts): an embed session's
   * tenant, or X-Tenant-Id as sent (trimmed); undefined without one.
   */
  conversationTenant: string | undefined;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
  /**
   * Set by the rate limiter once it has counted the request: the X-RateLimit-* headers of the
   * response, and the concurrency lease an answering request holds until it ends. Undefined when
   * the request was not counted (refused before, limits off, or the limiter failed open).
   */
  rateLimit?: { headers: RateLimitHeaders; lease?: Lease };
  /**
   * A streamed response that ended with `event: error` after its 200 went out: the envelope's
   * status and code, so that metrics count it as the error it was.
   */
  streamFailure?: { status: number; code: string };
}
