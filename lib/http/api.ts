// The standard middy chain of every buffered HTTP function, in docs/design.md's order of concerns:
// request id → CORS → rate-limit headers → error envelope → headers → authentication → rate limit →
// scope → JSON body → validation. The limiter counts every authenticated request before its
// scope, body or input are checked (lib/http/middleware/rate-limit.ts says why).
// A function file is `api(route).handler(...)`: the chain its route object (lib/routes/) asks for,
// plus one call into lib/.
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type * as v from 'valibot';
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
import { type Route, takesBody } from './route.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/**
 * What the chain reads of a route (lib/routes/): a route whose function runs the chain names its
 * scope rule, and its requests are counted.
 */
export type ChainedRoute<S extends InputSchema> = Pick<
  Route<S>,
  'access' | 'input' | 'bodyVariants' | 'stream'
> & {
  scope: 'required' | 'optional';
  limits: LimitSelector;
};

export const api = <S extends InputSchema = InputSchema>(route: ChainedRoute<S>) => {
  const chain = middy<ApiEvent, ApiResult, Error, ApiContext & { input: v.InferOutput<S> }>(
    route.stream ? { executionMode: executionModeStreamifyResponse } : {},
  )
    .use(requestId())
    .use(cors())
    .use(logLambdaContext())
    .use(observability())
    .use(rateLimitHeaders())
    .use(errorEnvelope())
    .use(headerNormaliser())
    .use(authenticate(route.access))
    .use(rateLimit({ limits: route.limits, enabled: () => settings().limitsEnabled }))
    .use(scope({ required: route.scope === 'required' }));
  if (takesBody(route)) chain.use(jsonBody());
  if (route.input) chain.use(validator(route.input));
  // The route rides on the handler, so that tests can hold a function to the route it serves.
  return Object.assign(chain, { route });
};
