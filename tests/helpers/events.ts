// Factories for unit tests of HTTP functions: an API Gateway REST (v1) proxy event shaped like
// the ones API Gateway sends (headers in both maps, query string in both maps, a request
// context with a request id), a Lambda context, and `invoke`, which runs a handler with them
// and parses the JSON response. Generic on purpose: any function under functions/ can use it.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { lambdaContext as localLambdaContext, restEvent } from '../../local/lambda.ts';

export interface ApiEventInit {
  method?: string;
  /** The request path as sent, e.g. `/api/v1/branding`. */
  path?: string;
  /** The route template, e.g. `/api/v1/chat/{conversation_id}`; defaults to `path`. */
  resource?: string;
  /** Header names are kept exactly as given (API Gateway passes them as the client sent them). */
  headers?: Record<string, string | string[]>;
  query?: Record<string, string | string[]>;
  pathParameters?: Record<string, string>;
  /** A string is sent as is; anything else is JSON-encoded (and gets a JSON Content-Type). */
  body?: unknown;
  isBase64Encoded?: boolean;
  /** API Gateway's request id; random when not given. */
  requestId?: string;
  sourceIp?: string;
  stage?: string;
}

/** The project's one REST event factory (local/lambda.ts), with test-friendly inputs. */
export const apiEvent = (init: ApiEventInit = {}): APIGatewayProxyEvent => {
  const path = init.path ?? '/';
  const headers: Record<string, string | string[]> = { ...init.headers };
  let body: string | null = null;
  if (typeof init.body === 'string') {
    body = init.body;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (!hasContentType) headers['Content-Type'] = 'application/json';
  }
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(init.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, item);
  }
  const event = restEvent({
    method: (init.method ?? 'GET').toUpperCase(),
    path,
    resource: init.resource ?? path,
    headers,
    query,
    pathParameters: init.pathParameters ?? null,
    body,
    sourceIp: init.sourceIp ?? '203.0.113.10',
    stage: init.stage ?? 'test',
  });
  event.isBase64Encoded = init.isBase64Encoded ?? false;
  if (init.requestId) event.requestContext.requestId = init.requestId;
  return event;
};

export const lambdaContext = (overrides: Partial<Context> = {}): Context => ({
  ...localLambdaContext('tabletalk-test-function'),
  ...overrides,
});

/** A handler as functions/*.ts export it; the context type varies with the middleware used. */
// biome-ignore lint/suspicious/noExplicitAny: handlers type their context with what middleware adds.
export type HttpHandler = (event: APIGatewayProxyEvent, context: any) => unknown;

export interface ApiResponse<T = unknown> {
  statusCode: number;
  /** Response headers with lower-case names. */
  headers: Record<string, string>;
  /** The body exactly as sent. */
  raw: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: T;
}

/** Runs a handler with an event built from `init` (or given whole) and a fresh Lambda context. */
export const invoke = async <T = Record<string, unknown>>(
  handler: HttpHandler,
  init: ApiEventInit | APIGatewayProxyEvent = {},
): Promise<ApiResponse<T>> => {
  const event = 'requestContext' in init ? init : apiEvent(init);
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyResult;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {}))
    headers[name.toLowerCase()] = String(value);
  let body: unknown;
  try {
    body = JSON.parse(result.body);
  } catch {
    body = undefined;
  }
  return { statusCode: result.statusCode, headers, raw: result.body, body: body as T };
};
