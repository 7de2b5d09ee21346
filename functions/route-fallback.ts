// ANY on every known path and ANY /{proxy+} (added by infra/route-fallback-plugin.cjs): a CORS
// preflight (OPTIONS) on a known route is 204 with the CORS headers (lib/http/middleware/cors.ts),
// a wrong method on a known route is 405 with Allow, an unknown route 404, in the envelope.
import middy from '@middy/core';
import { settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { corsHeaders, preflightHeaders } from '#lib/http/middleware/cors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { normaliseHeaders } from '#lib/http/middleware/headers.ts';
import { observability } from '#lib/http/middleware/observability.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';

const originOf = (event: ApiEvent): string | undefined => normaliseHeaders(event).origin;

/** The 404 and 405 envelopes are readable by a page too (no key here: any origin is echoed). */
const corsOnError = (): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => ({
  onError: (request) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, ...corsHeaders(originOf(request.event)) };
  },
});

export const handler = middy<ApiEvent, ApiResult, Error, ApiContext>()
  .use(requestId())
  .use(observability())
  .use(corsOnError())
  .use(errorEnvelope())
  .handler(async (event) => {
    const { routeMethods } = settings();
    const allowed = Object.hasOwn(routeMethods, event.resource) ? routeMethods[event.resource] : undefined;
    if (allowed && event.httpMethod.toUpperCase() === 'OPTIONS') {
      return { statusCode: 204, headers: preflightHeaders(originOf(event), allowed), body: '' };
    }
    if (allowed) {
      const allow = allowed.join(', ');
      throw new ServiceError('METHOD_NOT_ALLOWED', {
        message: `${event.httpMethod} is not allowed on ${event.resource}; use ${allow}`,
        headers: { Allow: allow },
      });
    }
    throw new ServiceError('NOT_FOUND', { message: `No route for ${event.httpMethod} ${event.path}` });
  });
