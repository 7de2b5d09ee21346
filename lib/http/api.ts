// The standard middy chain of every buffered HTTP function, in docs/design.md's order of concerns:
// request id → CORS → rate-limit headers → error envelope → headers → authentication → rate limit →
// scope → JSON body → validation. The limiter counts every authenticated request before its
// scope, body or input are checked (lib/http/middleware/rate-limit.ts says why).
// A function file is `api({...}).handler(...)`: the chain plus one call into lib/.
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type * as v from 'valibot';
import type { AccessRule } from '#lib/auth/principal.ts';
import { settings } from '#lib/config.ts';
import { logLambdaContext } from '#lib/log.ts';
import { authenticate } from './middleware/authenticate.ts';
import { cors } from './middleware/cors.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { headerNormaliser } from './middleware/headers.ts';
import { jsonBody } from './middleware/json-body.ts';
import { observability } from './middleware/observability.ts';
import { type LimitSelector, rateLimit, rateLimitHeaders } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { scope } from './middleware/scope.ts';
import { type InputSchema, validator } from './middleware/validate.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

export interface RouteOptions<S extends InputSchema> {
  /** Which credentials may call the route, and which plan feature it needs. */
  access: AccessRule;
  /** `required` on history endpoints (403 without X-Scope-Id); `optional` elsewhere. */
  scope: 'required' | 'optional';
  /** One schema for `{path, query, header, body}`; its output is `context.input`. */
  input?: S;
  /** Whether the route takes a JSON body. */
  body?: boolean;
  /**
   * Which limits count the request (docs/limits.md): `standard` (the default: the plan's
   * requests per minute and hour and the monthly quota) or `answering` (the three endpoints that
   * answer a message: also the message limits, 30 per minute and 200 per hour, and a concurrency
   * lease; fails closed). A function chooses per request, for a route with both kinds of variant.
   */
  limits?: LimitSelector;
  /**
   * A response-streaming function (Lambda response streaming behind a REST API method with
   * `transferMode: STREAM`): the handler may return a Readable body, written as it is read.
   * Errors the chain turns into envelopes still go out as ordinary responses with their status.
   */
  stream?: boolean;
}

export const api = <S extends InputSchema = InputSchema>(options: RouteOptions<S>) => {
  const chain = middy<ApiEvent, ApiResult, Error, ApiContext & { input: v.InferOutput<S> }>(
    options.stream ? { executionMode: executionModeStreamifyResponse } : {},
  )
    .use(requestId())
    .use(cors())
    .use(logLambdaContext())
    .use(observability())
    .use(rateLimitHeaders())
    .use(errorEnvelope())
    .use(headerNormaliser())
    .use(authenticate(options.access))
    .use(rateLimit({ limits: options.limits ?? 'standard', enabled: () => settings().limitsEnabled }))
    .use(scope({ required: options.scope === 'required' }));
  if (options.body) chain.use(jsonBody());
  if (options.input) chain.use(validator(options.input));
  return chain;
};
