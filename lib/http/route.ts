// What one endpoint is: the shape of the objects of lib/routes/, each endpoint declared once
// (anchor: Powertools event-handler's `Route`). Three readers take the same object:
//   - the function's chain, `api(route)` (./api.ts): credentials, scope, input, limits, streaming;
//   - serverless.yml's functions and http events (infra/functions.ts): method, path, function;
//   - the OpenAPI document (lib/openapi/document.ts): all of it, with the responses and errors.
// Declared here, below lib/routes/, so that the chain reads a route without importing the routes.
import type * as v from 'valibot';
import type { AccessRule } from '#lib/auth/principal.ts';
import type { ErrorKind } from '#lib/errors.ts';
import type { LimitSelector } from './middleware/rate-limit.ts';
import type { InputSchema } from './middleware/validate.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The document's tags (lib/openapi/document.ts describes each). */
export type RouteTag =
  | 'Organization'
  | 'Control plane'
  | 'Conversations'
  | 'Answers'
  | 'Embed sessions'
  | 'Service';

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON body (a response schema of lib/routes/schemas.ts); absent for a stream or a page. */
  schema?: v.GenericSchema;
  /** A `text/event-stream` body: the schema of one parsed event (StreamEvent). */
  events?: v.GenericSchema;
  /** An HTML page (the API reference). */
  page?: boolean;
}

export interface Route<S extends InputSchema = InputSchema> {
  method: Method;
  /** API Gateway's resource path, with `{name}` path parameters. */
  path: string;
  /**
   * The Lambda function that serves the route: its name in the packaged service, and its file,
   * functions/<the name in kebab case>.ts (`messageFeedback`: functions/message-feedback.ts).
   */
  functionName: string;
  operationId: string;
  tag: RouteTag;
  summary: string;
  description: string;
  /** Which credentials may call the route, and which plan feature or portal role it needs. */
  access: AccessRule;
  /** X-Scope-Id: `required` on history endpoints (403 without it); absent on a public route. */
  scope?: 'required' | 'optional';
  /** Takes X-Tenant-Id (the answering routes). */
  tenant?: boolean;
  /** One schema for `{path, query, header, body}`; its output is the handler's `context.input`. */
  input?: S;
  /**
   * The request bodies of a route whose function picks the schema by variant (one of them), and
   * so validates in its handler rather than in the chain.
   */
  bodyVariants?: readonly v.GenericSchema[];
  /**
   * Which limits count the request (docs/limits.md): `standard` (the plan's requests per minute
   * and hour and the monthly quota), `answering` (also the message limits and a concurrency
   * lease; fails closed), a choice per request from the raw event (a route with both kinds of
   * variant), or `none` (a public route, not counted).
   */
  limits: LimitSelector | 'none';
  /**
   * A response-streaming function (Lambda response streaming behind a REST API method with
   * `transferMode: STREAM`): the handler may return a Readable body, written as it is read.
   */
  stream?: boolean;
  /** The success responses. */
  responses: readonly RouteResponse[];
  /** The kinds of the error catalogue (lib/errors.ts) the route can answer with. */
  errors: readonly ErrorKind[];
}

/** `GET /api/v1/branding`: how a route table (./route-table.ts) and the tests name a route. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** Whether the route takes a JSON body: its input has a `body`, or it has body variants. */
export const takesBody = (route: Pick<Route, 'input' | 'bodyVariants'>): boolean =>
  route.bodyVariants !== undefined ||
  (route.input as { entries?: Record<string, unknown> } | undefined)?.entries?.body !== undefined;
