// Factories for unit tests of HTTP functions: an API Gateway REST (v1) proxy event shaped like
// the ones API Gateway sends (headers in both maps, query string in both maps, a request
// context with a request id), a Lambda context, and `invoke`, which runs a handler with them
// and parses the JSON response. Generic on purpose: any function under functions/ can use it.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

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

const first = (value: string | string[]): string => (Array.isArray(value) ? (value.at(-1) ?? '') : value);
const many = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

const singleAndMulti = (values: Record<string, string | string[]> | undefined) => {
  if (!values || Object.keys(values).length === 0) return { single: null, multi: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(values)) {
    single[name] = first(value);
    multi[name] = many(value);
  }
  return { single, multi };
};

export const apiEvent = (init: ApiEventInit = {}): APIGatewayProxyEvent => {
  const method = (init.method ?? 'GET').toUpperCase();
  const path = init.path ?? '/';
  const stage = init.stage ?? 'test';
  const headerInput: Record<string, string | string[]> = { ...init.headers };
  let body: string | null = null;
  if (typeof init.body === 'string') {
    body = init.body;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    const hasContentType = Object.keys(headerInput).some((name) => name.toLowerCase() === 'content-type');
    if (!hasContentType) headerInput['Content-Type'] = 'application/json';
  }
  const headers = singleAndMulti(headerInput);
  const query = singleAndMulti(init.query);
  const requestId = init.requestId ?? randomUUID();
  const sourceIp = init.sourceIp ?? '203.0.113.10';
  const userAgent = headers.single?.['User-Agent'] ?? headers.single?.['user-agent'] ?? null;
  const now = Date.now();
  return {
    resource: init.resource ?? path,
    path,
    httpMethod: method,
    headers: headers.single ?? {},
    multiValueHeaders: headers.multi ?? {},
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: init.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: init.isBase64Encoded ?? false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'testapi',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent,
        userArn: null,
      },
      path: `/${stage}${path}`,
      stage,
      requestId,
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      resourceId: 'abc123',
      resourcePath: init.resource ?? path,
    },
  };
};

export const lambdaContext = (overrides: Partial<Context> = {}): Context => {
  const awsRequestId = randomUUID();
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'tabletalk-test-function',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:tabletalk-test-function',
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: '/aws/lambda/tabletalk-test-function',
    logStreamName: '2026/01/01/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
    ...overrides,
  };
};

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
