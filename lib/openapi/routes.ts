// The route table of the OpenAPI document: every method and path of serverless.yml with the
// input schema its function passes to `api()` (the same object), its success schema and status,
// and the error kinds of the catalogue (lib/errors.ts) it can answer with.
// tests/integration/openapi.test.ts holds this table and serverless.yml to each other.
import type * as v from 'valibot';
import { ChatMessageInput, ConversationMessageInput, StreamMessageInput } from '#lib/answer/inputs.ts';
import { EmbedSessionInput } from '#lib/auth/embed-session-input.ts';
import type { Credential } from '#lib/auth/principal.ts';
import {
  AppendInput,
  ConversationPathInput,
  FeedbackInput,
  HistoryInput,
  ListConversationsInput,
} from '#lib/conversations/inputs.ts';
import type { ErrorKind } from '#lib/errors.ts';
import { PageNumberInput } from '#lib/params.ts';
import { manageRoutes } from './manage-routes.ts';
import { authenticated } from './route-errors.ts';
import {
  AppendResponse,
  BrandingResponse,
  ChatAnswerResponse,
  ConversationHistoryResponse,
  ConversationsResponse,
  DatabasesPage,
  DeleteResponse,
  EmbedSessionResponse,
  FeedbackResponse,
  MessagesResponse,
  OpenApiDocument,
  StreamEvent,
} from './schemas.ts';

type Schema = v.GenericSchema;
/** An input schema of `api()`: `{path?, query?, header?, body?}`. */
type InputSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface RouteResponse {
  status: number;
  description: string;
  /** The JSON body; absent for an event stream. */
  schema?: Schema;
  /** A `text/event-stream` body: the schema of one parsed event (StreamEvent). */
  events?: Schema;
  /** An HTML page (the API reference). */
  page?: boolean;
}

export interface RouteDoc {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in serverless.yml, with `{name}` path parameters. */
  path: string;
  operationId: string;
  tag: 'Organization' | 'Control plane' | 'Conversations' | 'Answers' | 'Embed sessions' | 'Service';
  summary: string;
  description: string;
  /** Which credentials the route takes; empty for a public route. */
  credentials: readonly Credential[];
  /** The route's access needs the plan feature custom_api_access for sk_ keys. */
  customApiAccess?: boolean;
  /** A control-plane write: portal tokens need the owner or admin role, sk_ keys `manage`. */
  write?: boolean;
  scope?: 'required' | 'optional';
  /** Takes X-Tenant-Id (answering routes). */
  tenant?: boolean;
  input?: InputSchema;
  /** Request bodies of a route whose function picks the schema by variant (one of them). */
  bodyVariants?: readonly Schema[];
  responses: readonly RouteResponse[];
  errors: readonly ErrorKind[];
  /** Which limits count it (docs/limits.md); `none`: the route is not counted. */
  limits: 'standard' | 'answering' | 'answering or standard' | 'none';
}

const history: readonly ErrorKind[] = [
  ...authenticated,
  'FEATURE_NOT_AVAILABLE',
  'SCOPE_REQUIRED',
  'CONVERSATION_NOT_FOUND',
];
const answering: readonly ErrorKind[] = [
  ...authenticated,
  'INVALID_TENANT',
  'CONVERSATION_NOT_FOUND',
  'DATABASE_NOT_FOUND',
  'PERSONALITY_NOT_FOUND',
  // A database whose schema was never indexed (detail SCHEMA_NOT_INDEXED).
  'CONNECTION_TEST_FAILED',
  'DB_CONNECTION_FAILED',
  'DB_QUERY_FAILED',
  'LLM_FAILED',
];

const conversationScope =
  'Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or ' +
  "organization is 404, as an unknown one. With an embed session the scope is the token's " +
  '(a token without one is 403, as a missing X-Scope-Id).';

export const routes: readonly RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/v1/branding',
    operationId: 'getBranding',
    tag: 'Organization',
    summary: 'Get branding',
    description:
      "The organization's branding (colors, logos, widget theme): the fields set with `admin branding set` over the defaults.",
    credentials: ['sk', 'pk', 'jwt', 'et'],
    scope: 'optional',
    responses: [{ status: 200, schema: BrandingResponse, description: 'The branding' }],
    errors: authenticated,
    limits: 'standard',
  },
  {
    method: 'GET',
    path: '/api/v1/organization/databases',
    operationId: 'listDatabases',
    tag: 'Control plane',
    summary: 'List connected databases',
    description:
      "The organization's connected databases, oldest first, page by page (the Paginated response " +
      'wrapper). A database is shown without its URL, host, user or password. Any sk_ key or portal ' +
      'token may read it (spec endpoint 10: the way to check that a database still exists).',
    credentials: ['sk', 'jwt'],
    scope: 'optional',
    input: PageNumberInput,
    responses: [{ status: 200, schema: DatabasesPage, description: 'One page of databases' }],
    errors: authenticated,
    limits: 'standard',
  },
  {
    method: 'GET',
    path: '/api/v1/chat/conversations',
    operationId: 'listConversations',
    tag: 'Conversations',
    summary: 'List conversations',
    description: `The scope's conversations, newest activity first, in cursor pages. ${conversationScope}`,
    credentials: ['sk', 'jwt', 'et'],
    customApiAccess: true,
    scope: 'required',
    input: ListConversationsInput,
    responses: [{ status: 200, schema: ConversationsResponse, description: 'A page of conversations' }],
    errors: history,
    limits: 'standard',
  },
  {
    method: 'GET',
    path: '/api/v1/chat/history',
    operationId: 'listMessages',
    tag: 'Conversations',
    summary: 'Get messages',
    description:
      'Messages of one conversation (`conversation_id`) or of the whole scope, newest first ' +
      `(\`order=asc\`: oldest first), in cursor pages. ${conversationScope}`,
    credentials: ['sk', 'jwt', 'et'],
    customApiAccess: true,
    scope: 'required',
    input: HistoryInput,
    responses: [{ status: 200, schema: MessagesResponse, description: 'A page of messages' }],
    errors: history,
    limits: 'standard',
  },
  {
    method: 'GET',
    path: '/api/v1/chat/{conversation_id}/history',
    operationId: 'getConversationHistory',
    tag: 'Conversations',
    summary: 'Get the history of one conversation',
    description: `The whole conversation, oldest first. ${conversationScope}`,
    credentials: ['sk', 'jwt', 'et'],
    customApiAccess: true,
    scope: 'required',
    input: ConversationPathInput,
    responses: [{ status: 200, schema: ConversationHistoryResponse, description: 'The conversation' }],
    errors: history,
    limits: 'standard',
  },
  {
    method: 'POST',
    path: '/api/v1/chat/{conversation_id}/messages/{message_id}/feedback',
    operationId: 'rateAnswer',
    tag: 'Conversations',
    summary: 'Rate an answer',
    description:
      'A rating of one answer (`up` or `down`), with an optional comment and corrected SQL; a second ' +
      'rating of the same answer replaces the first. An up-voted SQL answer, or a corrected SQL that ' +
      'passes the SQL guard, becomes a candidate query pattern of the database for the question, ' +
      'which an admin approves (GET …/patterns?status=candidate, PATCH status). ' +
      conversationScope,
    credentials: ['sk', 'jwt', 'et'],
    customApiAccess: true,
    scope: 'required',
    input: FeedbackInput,
    responses: [{ status: 201, schema: FeedbackResponse, description: 'The rating is stored' }],
    errors: history,
    limits: 'standard',
  },
  {
    method: 'DELETE',
    path: '/api/v1/chat/{conversation_id}',
    operationId: 'deleteConversation',
    tag: 'Conversations',
    summary: 'Delete a conversation',
    description:
      'Deletes the conversation and every message of it. A very long conversation that cannot be ' +
      'deleted within one request answers 503 with Retry-After; repeating the request finishes ' +
      'the delete. A portal token needs the owner or admin role (a member gets 403 FORBIDDEN). ' +
      conversationScope,
    credentials: ['sk', 'jwt', 'et'],
    customApiAccess: true,
    scope: 'required',
    input: ConversationPathInput,
    responses: [{ status: 200, schema: DeleteResponse, description: 'Deleted' }],
    errors: history,
    limits: 'standard',
  },
  {
    method: 'POST',
    path: '/api/v1/chat/message',
    operationId: 'sendMessage',
    tag: 'Answers',
    summary: 'Send a chat message, or append a message to history',
    description:
      'Two variants on one route, told apart by the body. A body with `message` is the chat ' +
      'variant (200): it answers the question in the conversation named by `conversation_id` or ' +
      '`session_id` (a session is a conversation), or in a new one, which needs `database_id`; ' +
      'it counts toward the message limits. A body with `role` appends a message to history ' +
      '(201) without answering: the rules of the history endpoints apply (an sk_ key with custom ' +
      'API access or a portal JWT, and X-Scope-Id); an id that does not exist yet creates the ' +
      'conversation. A body with both `message` and `role`, or neither, is 400.',
    credentials: ['sk', 'pk', 'jwt', 'et'],
    scope: 'optional',
    tenant: true,
    bodyVariants: [ChatMessageInput.entries.body, AppendInput.entries.body],
    responses: [
      { status: 200, schema: ChatAnswerResponse, description: 'The answer (chat variant)' },
      { status: 201, schema: AppendResponse, description: 'The message is appended (append variant)' },
    ],
    errors: [...answering, 'FEATURE_NOT_AVAILABLE', 'SCOPE_REQUIRED', 'PAYLOAD_TOO_LARGE'],
    limits: 'answering or standard',
  },
  {
    method: 'POST',
    path: '/api/v1/chat/{conversation_id}/message',
    operationId: 'sendConversationMessage',
    tag: 'Answers',
    summary: 'Send a message to a given conversation',
    description:
      'Answers the question in the conversation. An id that does not exist yet creates the ' +
      "conversation in the caller's scope, which needs `database_id`; a conversation keeps the " +
      'database and personality of its first message.',
    credentials: ['sk', 'pk', 'jwt', 'et'],
    scope: 'optional',
    tenant: true,
    input: ConversationMessageInput,
    responses: [{ status: 200, schema: ChatAnswerResponse, description: 'The answer' }],
    errors: [...answering, 'PAYLOAD_TOO_LARGE'],
    limits: 'answering',
  },
  {
    method: 'GET',
    path: '/api/v1/chat/{conversation_id}/stream',
    operationId: 'streamAnswer',
    tag: 'Answers',
    summary: 'Stream an answer (server-sent events)',
    description:
      'Answers `message` in an existing conversation (it supplies the database) as server-sent ' +
      'events (each parsed event is a StreamEvent), written as the answer is produced:\n\n' +
      '- `event: status` with `data:` StreamStatus: the step the answer is at (reading_question, ' +
      'writing_query, running_query, writing_answer), each as it starts, before the first piece;\n' +
      '- `data: {"content": "…"}` (unnamed events, schema StreamChunk): the pieces of the answer, ' +
      'in order; their concatenation is the stored assistant message;\n' +
      '- `event: done` with `data:` StreamDone: the last event of an answered stream;\n' +
      '- `event: error` with `data:` ErrorEnvelope: a failure after the stream started (the stream ' +
      'then ends);\n' +
      '- `: ping` comments keep an idle connection open.\n\n' +
      'Everything that can be refused (credentials, limits, an unknown conversation, a missing or ' +
      'empty `message`, the tenant) is refused before the stream starts, as an ordinary JSON ' +
      'error response with its status. A client that disconnects stops the answer.',
    credentials: ['sk', 'pk', 'jwt', 'et'],
    scope: 'optional',
    tenant: true,
    input: StreamMessageInput,
    responses: [
      {
        status: 200,
        description: 'The event stream',
        events: StreamEvent,
      },
    ],
    errors: answering,
    limits: 'answering',
  },
  {
    method: 'POST',
    path: '/api/v1/embed/sessions',
    operationId: 'createEmbedSession',
    tag: 'Embed sessions',
    summary: 'Create an embed session for the widget',
    description:
      'Called by your server, after it has signed its own user in, to get a short-lived token the ' +
      'widget uses instead of a key: `Authorization: Bearer et_…`. The token names the database, ' +
      'the tenant (`tenant_id`: required when the database filters rows by tenant, validated like ' +
      'X-Tenant-Id against the tenant column, and refused when it does not) and the end-user scope ' +
      '(`scope_id`: required when the row policy says `scope_required`). Its tenant and scope are ' +
      'the only ones it can use: an X-Tenant-Id or X-Scope-Id that differs is 403. It may answer ' +
      '(both chat variants that answer, the stream), read branding, and read and delete its own ' +
      "scope's conversations. `origins` (1 to 10 `https://host[:port]`, `http://localhost` allowed) " +
      'limits the pages that may use it; `ttl_seconds` is 60 to 3600 (default 900). Each token ' +
      "scope has its own message limit (10 per minute) inside the organization's. A database that " +
      'filters rows by tenant refuses pk_ keys (403, details code EMBED_SESSION_REQUIRED).',
    credentials: ['sk', 'jwt'],
    scope: 'optional',
    input: EmbedSessionInput,
    responses: [{ status: 201, schema: EmbedSessionResponse, description: 'The embed session' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND', 'PERSONALITY_NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
    limits: 'standard',
  },
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of the API. It needs no key and is the same for every caller: it ' +
      'describes the API, nothing of any organization. Not counted by the organization limits; ' +
      "API Gateway's throttling of the whole stage applies to it as to every route (429).",
    credentials: [],
    responses: [{ status: 200, schema: OpenApiDocument, description: 'The document' }],
    errors: ['RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE'],
    limits: 'none',
  },
  {
    method: 'GET',
    path: '/docs',
    operationId: 'getReferencePage',
    tag: 'Service',
    summary: 'The API reference page',
    description:
      'This document rendered for people (Redoc: search, every operation and schema, examples). The ' +
      'page carries its renderer and loads nothing but the document from the same base address. No ' +
      "key; not counted by the organization limits, only by API Gateway's throttling of the stage.",
    credentials: [],
    responses: [{ status: 200, page: true, description: 'The reference page (HTML)' }],
    errors: ['RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE'],
    limits: 'none',
  },
  // The control plane (lib/openapi/manage-routes.ts).
  ...manageRoutes,
];
