// One Lambda function serving several routes of one resource (the control plane, docs/design.md
// "Decisions the code made"): each route keeps its own chain from `api(route)` (access rule, input
// schema, limits), and the function picks it by the method and resource of the API Gateway event
// (`GET /api/v1/organization/databases/{id}`), as its route object (lib/routes/) declares them. API Gateway sends a function only the routes
// serverless.yml gives it, so a miss is a configuration error: 405 in the envelope, as the route
// fallback answers.
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { errorEnvelope, ServiceError } from '#lib/errors.ts';
import { type Route, routeKey } from './route.ts';
import type { ApiEvent, ApiResult } from './types.ts';

/**
 * A route's handler as `api(route).handler(...)` makes it. Method syntax: its context is the
 * chain's (the Lambda context plus what middleware adds), which the table passes on as given.
 */
type RouteHandler = { handle(event: ApiEvent, context: Context): Promise<ApiResult> }['handle'];

/**
 * The function's handler: each route object with the handler that serves it. `routes` names what
 * it serves (`GET /api/v1/branding`; tests hold it to the function's http events).
 */
export const routeTable = (
  served: readonly (readonly [Pick<Route, 'method' | 'path'>, RouteHandler])[],
): ((event: ApiEvent, context: Context) => Promise<ApiResult>) & { routes: readonly string[] } => {
  const routes = Object.fromEntries(served.map(([route, handler]) => [routeKey(route), handler]));
  return Object.assign(dispatch(routes), { routes: Object.keys(routes) });
};

const dispatch =
  (routes: Record<string, RouteHandler>) =>
  async (event: ApiEvent, context: Context): Promise<ApiResult> => {
    const key = `${(event.httpMethod ?? '').toUpperCase()} ${event.resource}`;
    const route = Object.hasOwn(routes, key) ? routes[key] : undefined;
    if (route) return route(event, context);
    const allow = Object.keys(routes)
      .filter((name) => name.endsWith(` ${event.resource}`))
      .map((name) => name.split(' ')[0])
      .join(', ');
    const traceId = `req_${event.requestContext?.requestId ?? randomUUID()}`;
    const error = new ServiceError('METHOD_NOT_ALLOWED', {
      message: `${event.httpMethod} is not allowed on ${event.resource}`,
      headers: allow ? { Allow: allow } : {},
    });
    return {
      statusCode: error.status,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'X-Request-ID': traceId,
        ...error.headers,
      },
      body: JSON.stringify(errorEnvelope(error, traceId)),
    };
  };
