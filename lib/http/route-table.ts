// One Lambda function serving several routes of one resource (the control plane, docs/design.md
// "Decisions the code made"): each route keeps its own chain from `api()` (access rule, input
// schema, limits), and the function picks it by the method and resource of the API Gateway event
// (`GET /api/v1/organization/databases/{id}`). API Gateway sends a function only the routes
// serverless.yml gives it, so a miss is a configuration error: 405 in the envelope, as the route
// fallback answers.
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { errorEnvelope, ServiceError } from '#lib/errors.ts';
import type { ApiEvent, ApiResult } from './types.ts';

/**
 * A route's handler as `api({...}).handler(...)` makes it. Method syntax: its context is the
 * chain's (the Lambda context plus what middleware adds), which the table passes on as given.
 */
type RouteHandler = { handle(event: ApiEvent, context: Context): Promise<ApiResult> }['handle'];

/** The function's handler; `routes` names what it serves (tests hold it to serverless.yml). */
export const routeTable = (
  routes: Record<string, RouteHandler>,
): ((event: ApiEvent, context: Context) => Promise<ApiResult>) & { routes: readonly string[] } =>
  Object.assign(dispatch(routes), { routes: Object.keys(routes) });

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
