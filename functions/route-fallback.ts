// ANY on every known path and ANY /{proxy+} (added by infra/route-fallback-plugin.cjs): a
// wrong method on a known route is 405 with Allow, an unknown route 404, in the envelope.
import middy from '@middy/core';
import { ServiceError } from '#lib/http/errors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';

const routeMethods = JSON.parse(process.env.ROUTE_METHODS ?? '{}') as Record<string, string[]>;

export const handler = middy<ApiEvent, ApiResult, Error, ApiContext>()
  .use(requestId())
  .use(errorEnvelope())
  .handler(async (event) => {
    const allowed = routeMethods[event.resource];
    if (allowed) {
      const allow = allowed.join(', ');
      throw new ServiceError('METHOD_NOT_ALLOWED', {
        message: `${event.httpMethod} is not allowed on ${event.resource}; use ${allow}`,
        headers: { Allow: allow },
      });
    }
    throw new ServiceError('NOT_FOUND', { message: `No route for ${event.httpMethod} ${event.path}` });
  });
