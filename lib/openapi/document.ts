// Builds the OpenAPI 3.1 document from the route objects (lib/routes/: each endpoint declared once,
// with its input, response and error schemas) and the error catalogue, converting valibot schemas with @valibot/to-json-schema.
// Inputs are converted in `typeMode: 'input'`: what a client sends, before the schema's
// transforms. Valibot actions JSON Schema cannot express are mapped here: the case-insensitive
// UUID pattern becomes `format: uuid`, a `check` adds its message to the description, and a
// query integer's `metadata({openapi})` (lib/params.ts) replaces the string it arrives as.
import {
  type ConversionConfig,
  type JsonSchema,
  toJsonSchema,
  toJsonSchemaDefs,
} from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ChatMessageInput, ConversationMessageInput } from '#lib/answer/inputs.ts';
import { EmbedSessionInput } from '#lib/auth/embed-session-input.ts';
import { AppendInput } from '#lib/conversations/inputs.ts';
import { type ErrorKind, errorCatalogue } from '#lib/errors.ts';
import type { Route, RouteResponse } from '#lib/http/route.ts';
import { uuidPattern } from '#lib/ids.ts';
import { routes } from '#lib/routes/index.ts';
import * as manage from '#lib/routes/manage-schemas.ts';
import * as schemas from '#lib/routes/schemas.ts';

export const OPENAPI_VERSION = '3.1.1';
export const API_VERSION = '1.0.0';

type Json = Record<string, unknown>;
type Schema = v.GenericSchema;

/**
 * Named schemas: `#/components/schemas/<name>`; a schema used inside another becomes a $ref. The
 * list sets their order and names the request bodies; a route's response schema it leaves out is
 * added under its export name (`namedByRoutes`), so that a new endpoint needs no line here.
 */
const listedSchemas: Record<string, Schema> = {
  ErrorEnvelope: schemas.ErrorEnvelope,
  Branding: schemas.Branding,
  BrandingResponse: schemas.BrandingResponse,
  Database: schemas.Database,
  Pagination: schemas.Pagination,
  DatabasesPage: schemas.DatabasesPage,
  Conversation: schemas.Conversation,
  ConversationsPage: schemas.ConversationsPage,
  ConversationsResponse: schemas.ConversationsResponse,
  Message: schemas.Message,
  MessagesPage: schemas.MessagesPage,
  MessagesResponse: schemas.MessagesResponse,
  ConversationHistory: schemas.ConversationHistory,
  ConversationHistoryResponse: schemas.ConversationHistoryResponse,
  DeleteResult: schemas.DeleteResult,
  DeleteResponse: schemas.DeleteResponse,
  AppendResult: schemas.AppendResult,
  AppendResponse: schemas.AppendResponse,
  QueryType: schemas.QueryType,
  ChatAnswer: schemas.ChatAnswer,
  ChatAnswerResponse: schemas.ChatAnswerResponse,
  StreamStatus: schemas.StreamStatus,
  StreamChunk: schemas.StreamChunk,
  StreamDone: schemas.StreamDone,
  StreamEvent: schemas.StreamEvent,
  OpenApiDocument: schemas.OpenApiDocument,
  ChatMessageRequest: ChatMessageInput.entries.body,
  AppendMessageRequest: AppendInput.entries.body,
  ConversationMessageRequest: ConversationMessageInput.entries.body,
  EmbedSession: schemas.EmbedSession,
  EmbedSessionResponse: schemas.EmbedSessionResponse,
  EmbedSessionRequest: EmbedSessionInput.entries.body,
  FeedbackResult: schemas.FeedbackResult,
  FeedbackResponse: schemas.FeedbackResponse,
  // The control plane (lib/routes/manage-schemas.ts).
  JobSummary: manage.JobSummary,
  DatabaseCreated: manage.DatabaseCreated,
  DatabaseCreatedResponse: manage.DatabaseCreatedResponse,
  RowPolicy: manage.RowPolicyDoc,
  DatabaseDetail: manage.DatabaseDetail,
  DatabaseDetailResponse: manage.DatabaseDetailResponse,
  DatabaseUpdated: manage.DatabaseUpdated,
  DatabaseUpdatedResponse: manage.DatabaseUpdatedResponse,
  Job: manage.Job,
  JobResponse: manage.JobResponse,
  JobQueuedResponse: manage.JobQueuedResponse,
  ApiKey: manage.ApiKey,
  ApiKeysPage: manage.ApiKeysPage,
  ApiKeyCreated: manage.ApiKeyCreated,
  ApiKeyCreatedResponse: manage.ApiKeyCreatedResponse,
  Personality: manage.Personality,
  PersonalityResponse: manage.PersonalityResponse,
  PersonalitiesPage: manage.PersonalitiesPage,
  QueryPattern: manage.QueryPattern,
  QueryPatternResponse: manage.QueryPatternResponse,
  QueryPatternsPage: manage.QueryPatternsPage,
  Glossary: manage.Glossary,
  GlossaryResponse: manage.GlossaryResponse,
  Usage: manage.Usage,
  UsageResponse: manage.UsageResponse,
  Deleted: manage.Deleted,
  DeletedResponse: manage.DeletedResponse,
};

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';

/** The routes' response and event schemas the list leaves out, by their export name in lib/routes/. */
const namedByRoutes = (): Record<string, Schema> => {
  const listed = new Set(Object.values(listedSchemas));
  const exportNames = new Map<unknown, string>(
    Object.entries({ ...schemas, ...manage }).map(([name, value]) => [value, name]),
  );
  const added: Record<string, Schema> = {};
  for (const route of routes)
    for (const response of route.responses)
      for (const schema of [response.schema, response.events]) {
        if (!isSchema(schema) || listed.has(schema)) continue;
        const name = exportNames.get(schema);
        if (!name)
          throw new Error(`openapi: ${route.operationId} answers with a schema lib/routes/ does not export`);
        added[name] = schema;
      }
  return added;
};

const componentSchemas: Record<string, Schema> = { ...listedSchemas, ...namedByRoutes() };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const describe = (schema: JsonSchema, sentence: string): JsonSchema => ({
  ...schema,
  description: schema.description ? `${schema.description}; ${sentence}` : sentence,
});

const conversion: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'throw',
  definitions: componentSchemas,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideAction: ({ valibotAction, jsonSchema }) => {
    const action = valibotAction as {
      type: string;
      requirement?: unknown;
      message?: unknown;
      metadata?: Json;
    };
    if (action.type === 'regex' && action.requirement instanceof RegExp && action.requirement.flags) {
      // JSON Schema patterns are Unicode-aware (ajv compiles them with the u flag).
      if (action.requirement.flags === 'u') return { ...jsonSchema, pattern: action.requirement.source };
      if (action.requirement.source !== uuidPattern.source) return undefined;
      const { pattern: _pattern, ...rest } = jsonSchema;
      return { ...rest, format: 'uuid' };
    }
    // The stored form of an id is lower case; a client may send either. Spaces around a value
    // are trimmed before its other checks: what a client may send is the same JSON type.
    if (action.type === 'to_lower_case' || action.type === 'trim') return jsonSchema;
    if (action.type === 'check')
      return typeof action.message === 'string' ? describe(jsonSchema, action.message) : jsonSchema;
    if (action.type === 'metadata' && action.metadata?.openapi) return action.metadata.openapi as JsonSchema;
    return undefined;
  },
  overrideSchema: ({ valibotSchema, jsonSchema }) => {
    // Append's metadata (a plain JSON object, checked with `custom`).
    if (valibotSchema.type === 'custom') return { ...jsonSchema, type: 'object' };
    return undefined;
  },
};

const withoutDialect = (schema: JsonSchema): Json => {
  const { $schema: _dialect, ...rest } = schema as Json;
  return rest;
};

const convert = (schema: Schema): Json => withoutDialect(toJsonSchema(schema, conversion));

// ---- Errors ----------------------------------------------------------------------------------

/** The error kinds of a route by status, each status documented with the codes it carries. */
const errorResponses = (kinds: readonly ErrorKind[], counted: boolean): Record<string, Json> => {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of kinds) {
    const { status } = errorCatalogue[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const entries = group.map((kind) => errorCatalogue[kind]);
    const codes = [...new Set(entries.map((entry) => entry.code))];
    const errorCodes = [...new Set(entries.map((entry) => entry.errorCode))];
    const lines = group.map((kind) => {
      const entry = errorCatalogue[kind];
      return `- \`${entry.code}\` / \`${entry.errorCode}\`: ${entry.message}`;
    });
    const headers: Json = { ...commonHeaders(counted) };
    if (status === 429 || status === 503)
      headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    responses[String(status)] = {
      description: `${lines.join('\n')}`,
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref('ErrorEnvelope'),
              {
                type: 'object',
                properties: {
                  error: { type: 'object', properties: { code: { enum: codes } } },
                  error_code: { enum: errorCodes },
                  status_code: { const: status },
                },
              },
            ],
          },
        },
      },
    };
  }
  return responses;
};

// ---- Headers and parameters -------------------------------------------------------------------

const rateLimitHeaderNames = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** X-Request-ID on every response; the rate-limit headers on every counted one. */
const commonHeaders = (rateLimited: boolean): Json => {
  const headers: Json = { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } };
  if (rateLimited)
    for (const name of rateLimitHeaderNames) headers[name] = { $ref: `#/components/headers/${name}` };
  return headers;
};

const componentHeaders = {
  'X-Request-ID': {
    description: 'The request id, `req_…`: the `trace_id` of an error envelope. On every response.',
    required: true,
    schema: { type: 'string', pattern: '^req_' },
  },
  'X-RateLimit-Limit': {
    description:
      'The limit of the tightest window that applies to the route (fewest requests left). On every ' +
      'response to a request the limiter counted: not on 401, nor on a 403 for the credential kind or plan.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window after this one.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When that window ends, Unix time in seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (429 and 503).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Server-Timing': {
    description: "The split of the request's time (answers only).",
    schema: { type: 'string' },
  },
};

const componentParameters = {
  ScopeRequired: {
    name: 'X-Scope-Id',
    in: 'header',
    required: true,
    description:
      'The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: ' +
      'without it the response is 403 `FORBIDDEN`.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  ScopeOptional: {
    name: 'X-Scope-Id',
    in: 'header',
    required: false,
    description:
      'The end-user scope (1 to 255 printable characters). A conversation created without it can be ' +
      'continued only by requests that also send none; on a database with a scope column it filters rows further.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  TenantId: {
    name: 'X-Tenant-Id',
    in: 'header',
    required: false,
    description:
      'The tenant for row filtering: required when the database has `requires_organization_scoping` ' +
      "(403 `INVALID_TENANT_ID` without it); validated against the tenant column's type (integer, " +
      'UUID, or 1 to 255 printable characters). Derive it from your own session, never from user input.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
};

const parametersOf = (route: Route, input: Json | undefined): Json[] => {
  const parameters: Json[] = [];
  const properties = (input?.properties ?? {}) as Record<string, Json>;
  for (const location of ['path', 'query', 'header'] as const) {
    const part = properties[location];
    if (!part) continue;
    const required = new Set((part.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((part.properties ?? {}) as Record<string, Json>)) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  }
  if (route.scope === 'required') parameters.push({ $ref: '#/components/parameters/ScopeRequired' });
  if (route.scope === 'optional') parameters.push({ $ref: '#/components/parameters/ScopeOptional' });
  if (route.tenant) parameters.push({ $ref: '#/components/parameters/TenantId' });
  return parameters;
};

const componentNameOf = (schema: Schema): string => {
  const name = Object.entries(componentSchemas).find(([, candidate]) => candidate === schema)?.[0];
  if (!name) throw new Error('openapi: a request body or response schema is not a named component');
  return name;
};

/** Which limits count the route, as the document says it: a choice per request is the chat message's. */
const limitsOf = (route: Route): 'standard' | 'answering' | 'answering or standard' | 'none' =>
  typeof route.limits === 'function' ? 'answering or standard' : route.limits;

const successResponse = (route: Route, response: RouteResponse): Json => {
  const counted = limitsOf(route) !== 'none';
  const headers = commonHeaders(counted);
  if (response.schema === schemas.ChatAnswerResponse)
    headers['Server-Timing'] = { $ref: '#/components/headers/Server-Timing' };
  if (response.events) {
    // OpenAPI 3.1 has no schema for one event of a stream (3.2's itemSchema): the body is
    // described as the sequence of its events, each a StreamEvent (the parsed event).
    return {
      description: response.description,
      headers,
      content: {
        'text/event-stream': {
          schema: {
            type: 'array',
            description:
              'The server-sent events of the stream, in order, each as a client parses it: its `event` ' +
              'type (`message` for an unnamed event) and its `data` as JSON. See the operation description.',
            items: ref(componentNameOf(response.events)),
          },
        },
      },
    };
  }
  if (response.page)
    return {
      description: response.description,
      headers,
      content: { 'text/html': { schema: { type: 'string' } } },
    };
  if (!response.schema) throw new Error(`openapi: ${route.operationId} ${response.status} has no schema`);
  return {
    description: response.description,
    headers,
    content: { 'application/json': { schema: ref(componentNameOf(response.schema)) } },
  };
};

const credentialNames = {
  sk: 'an organization key (sk_)',
  pk: 'a database key (pk_)',
  jwt: 'a portal JWT',
  et: 'an embed session token (et_)',
};

const accessText = (route: Route): string => {
  const { credentials } = route.access;
  if (credentials.length === 0) return 'No credentials needed.';
  const names = credentials.map((credential) => credentialNames[credential]).join(', ');
  const limits = limitsOf(route);
  const feature =
    route.access.feature === 'custom_api_access'
      ? ' An sk_ key needs a plan with custom API access (Professional and up).'
      : route.access.write
        ? ' A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only).'
        : '';
  const counting =
    limits === 'answering'
      ? ' Counts toward the message limits (30 per minute, 200 per hour) and the plan limits.'
      : limits === 'answering or standard'
        ? ' The chat variant counts toward the message limits and the plan limits; the append variant toward the plan limits only.'
        : ' Counts toward the plan limits.';
  const session =
    credentials.includes('et') && limits !== 'standard'
      ? " With an embed session, an answering request also counts toward its token scope's own limit (10 per minute)."
      : '';
  return `Credentials: ${names}.${feature}${counting}${session}`;
};

const operationOf = (route: Route): Json => {
  const input = route.input ? convert(route.input) : undefined;
  const parameters = parametersOf(route, input);
  const operation: Json = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: `${route.description}\n\n${accessText(route)}`,
    'x-credentials': route.access.credentials,
  };
  if (parameters.length > 0) operation.parameters = parameters;
  const body = (input?.properties as Record<string, Json> | undefined)?.body;
  if (route.bodyVariants) {
    operation.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: { oneOf: route.bodyVariants.map((variant) => ref(componentNameOf(variant))) },
        },
      },
    };
  } else if (body) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  }
  operation.security = route.access.credentials.length === 0 ? [] : [{ ApiKey: [] }, { BearerAuth: [] }];
  operation.responses = {
    ...Object.fromEntries(
      route.responses.map((response) => [String(response.status), successResponse(route, response)]),
    ),
    ...errorResponses(route.errors, limitsOf(route) !== 'none'),
  };
  return operation;
};

// ---- The document ------------------------------------------------------------------------------

const overview = `Ask questions about your SQL database in plain language, keep per-scope conversations, and stream answers.

**Credentials.** \`X-API-Key: sk_…\` (organization key: server side only; Starter plan and up), \`X-API-Key: pk_…\` (database key for the embedded widget, every plan; bound to one database; refused by databases that filter rows by tenant), \`Authorization: Bearer <portal JWT>\`, or \`Authorization: Bearer et_…\` (an embed session: the widget on a database that filters rows by tenant, with the tenant and scope your server chose; see POST /api/v1/embed/sessions). An sk_/pk_ key is also accepted as a bearer value. Each operation lists the credentials it takes. \`GET /api/v1/openapi.json\` needs none.

**Scope and tenant.** \`X-Scope-Id\` names the end-user scope: conversations are isolated per scope, and the history endpoints require it. \`X-Tenant-Id\` selects the tenant on databases with row filtering.

**Errors.** Every error is the ErrorEnvelope, which carries both documented shapes: \`success\`/\`error.code\`/\`error.message\`/\`error.details\` and \`error_code\`/\`message\`/\`status_code\`/\`details\`/\`trace_id\`/\`timestamp\`. Each operation lists its statuses with their codes. A path that exists with another method is 405 with \`Allow\` (\`error.code\` METHOD_NOT_ALLOWED); an unknown path is 404 (\`NOT_FOUND\` / \`NOT_FOUND_RESOURCE\`). A body over 1 MB is 413.

**Rate limits.** Per organization: the plan's requests per minute and per hour and a monthly quota on every counted request, and on the answering operations also 30 messages per minute and 200 per hour and a number of concurrent answers. Counted responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (the tightest window); a 429 adds \`Retry-After\`.

**Lists.** Conversations and messages come in cursor pages: send the returned \`cursor\` back unchanged while \`hasMore\` is true. The control plane's lists (databases, API keys, personalities, query patterns) come in numbered pages (\`page\`, \`page_size\`).

**Control plane.** \`/api/v1/organization/…\` and \`PUT /api/v1/branding\`: reads take an sk_ key or a portal JWT of any role; changes take a portal JWT of an owner or admin, or an sk_ key created with \`manage\`. pk_ keys and embed sessions are refused (403). Indexing runs as a background job: follow it at \`GET /api/v1/organization/jobs/{job_id}\`.`;

export interface DocumentOptions {
  /** The base address the API is served under (e.g. `https://host/prod`), listed first when known. */
  serverUrl?: string;
}

/** The address of the local stack (npm start, local/stack.ts). */
export const LOCAL_SERVER_URL = 'http://127.0.0.1:3000';

/** Where the API is served: the stage answering (when known), any deployed stage, the local stack. */
const serversOf = (options: DocumentOptions): Json[] => [
  ...(options.serverUrl ? [{ url: options.serverUrl, description: 'This stage' }] : []),
  {
    url: 'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
    description:
      "A deployed stage on API Gateway's default host (`npx serverless info --stage <stage>` prints its address)",
    variables: {
      api_id: { default: 'api-id', description: "The REST API's id" },
      region: { default: 'us-east-1', description: 'The AWS region the stage is deployed to' },
      stage: {
        default: 'prod',
        enum: ['prod', 'dev'],
        description: 'The stage (serverless.yml custom.stages)',
      },
    },
  },
  { url: LOCAL_SERVER_URL, description: 'The local stack (npm start)' },
];

export const buildOpenApiDocument = (options: DocumentOptions = {}): Json => {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route) };
  }
  const components = toJsonSchemaDefs(componentSchemas, { ...conversion, definitions: undefined } as Omit<
    ConversionConfig,
    'definitions'
  >);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'tabletalk API',
      version: API_VERSION,
      summary: 'Natural-language questions about a connected SQL database, as a chat API',
      description: overview,
      license: {
        name: 'Proprietary: use under the terms of your tabletalk plan',
        identifier: 'LicenseRef-tabletalk',
      },
    },
    servers: serversOf(options),
    tags: [
      { name: 'Answers', description: 'Ask questions: answers, streaming, and the history append' },
      { name: 'Conversations', description: 'Conversations and messages of an end-user scope' },
      { name: 'Organization', description: "The organization's branding" },
      {
        name: 'Control plane',
        description:
          "The organization's own management API: connected databases and their indexing jobs, API keys, personalities, query patterns, glossaries and usage (docs/control-plane.md)",
      },
      {
        name: 'Embed sessions',
        description: 'Short-lived widget tokens for one database, tenant and scope, asked for by your server',
      },
      { name: 'Service', description: 'About the API itself' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(components).map(([name, schema]) => [name, withoutDialect(schema)]),
      ),
      parameters: componentParameters,
      headers: componentHeaders,
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'sk_… organization key (server side only; Starter plan and up) or pk_… database key (the widget; every plan).',
        },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A portal JWT (claims org_id, sub, role), verified with the stage secret (HS256) or JWKS; or an embed session token (et_…, from POST /api/v1/embed/sessions). An sk_/pk_ key is accepted here too.',
        },
      },
    },
    'x-error-catalogue': Object.values(errorCatalogue).map(({ status, code, errorCode, message }) => ({
      status,
      code,
      error_code: errorCode,
      message,
    })),
  };
};
