// The response bodies of the API as valibot schemas: the OpenAPI document's response schemas
// (lib/openapi/document.ts converts them with @valibot/to-json-schema) and, through
// `v.InferOutput`, the types the function files give their bodies, so that a body and its
// documented schema cannot drift apart without a type error.
import * as v from 'valibot';
import { ChatAnswer, QueryType } from '#lib/answer/chat-answer.ts';
import { ENGINE_NAMES } from '#lib/dialects/index.ts';
import type { ErrorEnvelope as EnvelopeOfCatalogue } from '#lib/errors.ts';

const uuid = v.pipe(v.string(), v.uuid());
/** UTC ISO 8601 with milliseconds, as every timestamp of the API. */
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const hexColor = v.pipe(
  v.string(),
  v.regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  v.description('hex color, #rgb or #rrggbb'),
);
const url = v.pipe(v.string(), v.url());

// ---- Errors ---------------------------------------------------------------------------------

/** docs/design.md "Errors": one envelope that serves both documented shapes. */
export const ErrorEnvelope = v.pipe(
  v.object({
    success: v.pipe(v.literal(false), v.description('shape A: always false')),
    error: v.pipe(
      v.object({
        code: v.pipe(v.string(), v.description('shape A code, e.g. VALIDATION_ERROR, NOT_FOUND')),
        message: v.string(),
        details: v.pipe(v.string(), v.description('a detail code or sentence; the message when none')),
      }),
      v.description('shape A error object'),
    ),
    error_code: v.pipe(v.string(), v.description('shape B code, e.g. AUTH_INVALID_CREDENTIALS')),
    message: v.string(),
    status_code: v.pipe(v.number(), v.integer(), v.description('the HTTP status')),
    details: v.pipe(
      v.array(
        v.object({
          field: v.pipe(v.string(), v.description('e.g. query.limit, body.database_id, X-Tenant-Id')),
          message: v.string(),
          code: v.string(),
        }),
      ),
      v.description('shape B details: one entry per field in error, often empty'),
    ),
    trace_id: v.pipe(v.string(), v.regex(/^req_/), v.description('equals the X-Request-ID response header')),
    timestamp,
  }),
  v.description('The error envelope of every error response'),
);
export type ErrorEnvelope = v.InferOutput<typeof ErrorEnvelope>;

// ---- Response wrappers ----------------------------------------------------------------------

/** The spec's Data response: `{success: true, data}`, `message` only where a route names one. */
const dataResponse = <S extends v.GenericSchema>(data: S, description: string) =>
  v.pipe(v.object({ success: v.literal(true), data }), v.description(description));

// ---- Branding -------------------------------------------------------------------------------

export const Branding = v.pipe(
  v.object({
    colors: v.object({
      primary: hexColor,
      secondary: hexColor,
      accent: hexColor,
      text_primary: hexColor,
      text_secondary: hexColor,
    }),
    logo_url: url,
    logo_dark_url: url,
    widget_theme: v.object({
      position: v.pipe(v.string(), v.description('bottom-right, bottom-left, top-right or top-left')),
      greeting_message: v.string(),
      placeholder_text: v.string(),
      header_color: hexColor,
    }),
    hide_dialektai_branding: v.pipe(v.boolean(), v.description("hides the vendor's branding mark")),
  }),
  v.description("The organization's branding: stored fields over the defaults"),
);
export type Branding = v.InferOutput<typeof Branding>;
export const BrandingResponse = dataResponse(Branding, 'Branding of the organization');

// ---- Databases ------------------------------------------------------------------------------

export const Database = v.pipe(
  v.object({
    id: uuid,
    name: v.string(),
    engine: v.picklist(ENGINE_NAMES),
    status: v.picklist(['active', 'disabled']),
    requires_organization_scoping: v.pipe(
      v.boolean(),
      v.description('true: X-Tenant-Id is required and every query is filtered by tenant'),
    ),
    tenant_filter_column: v.nullable(v.string()),
    scope_filter_column: v.nullable(v.string()),
    created_at: timestamp,
  }),
  v.description('A connected database: never its URL, host, user or password'),
);
export type Database = v.InferOutput<typeof Database>;

export const Pagination = v.object({
  current_page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  page_size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  total_items: v.pipe(v.number(), v.integer(), v.minValue(0)),
  total_pages: v.pipe(v.number(), v.integer(), v.minValue(0)),
  has_next: v.boolean(),
  has_previous: v.boolean(),
});

export const DatabasesPage = v.pipe(
  v.object({ success: v.literal(true), data: v.array(Database), pagination: Pagination }),
  v.description("One page of the organization's connected databases, oldest first"),
);

// ---- Conversations and messages -------------------------------------------------------------

const cursorFields = {
  cursor: v.pipe(
    v.optional(v.string()),
    v.description('present only when hasMore is true: send it back unchanged for the next page'),
  ),
  hasMore: v.boolean(),
};

export const Conversation = v.object({
  id: uuid,
  organizationId: v.pipe(v.number(), v.integer()),
  scopeId: v.pipe(v.nullable(v.string()), v.description('the X-Scope-Id the conversation belongs to')),
  tenantId: v.pipe(
    v.nullable(v.string()),
    v.description(
      'the tenant of its address (X-Tenant-Id, or the embed session’s tenant) on a database that filters rows by tenant; null otherwise',
    ),
  ),
  title: v.pipe(
    v.string(),
    v.description('the first user message, cut to 80 characters; "New conversation" until one exists'),
  ),
  lastMessageAt: timestamp,
  messageCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  createdAt: timestamp,
});
export type Conversation = v.InferOutput<typeof Conversation>;

export const ConversationsPage = v.object({ conversations: v.array(Conversation), ...cursorFields });
export type ConversationsPage = v.InferOutput<typeof ConversationsPage>;
export const ConversationsResponse = dataResponse(
  ConversationsPage,
  "A page of the scope's conversations, newest activity first",
);

export const Sender = v.picklist(['USER', 'ASSISTANT', 'SYSTEM', 'TOOL']);

export const Message = v.object({
  id: v.pipe(uuid, v.description('equals the message_id returned by append')),
  content: v.string(),
  sender: Sender,
  timestamp,
  type: v.literal('text'),
  metadata: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('as appended ({} when none); answers carry query_type and execution_time_ms'),
  ),
});
export type Message = v.InferOutput<typeof Message>;

export const MessagesPage = v.object({ messages: v.array(Message), ...cursorFields });
export type MessagesPage = v.InferOutput<typeof MessagesPage>;
export const MessagesResponse = dataResponse(
  MessagesPage,
  'A page of messages of one conversation or of the whole scope',
);

export const ConversationHistory = v.object({
  conversation_id: uuid,
  messages: v.array(v.object({ role: Sender, content: v.string(), timestamp })),
  organization_id: v.pipe(v.number(), v.integer()),
  user_id: v.pipe(
    v.number(),
    v.integer(),
    v.description('the portal user (JWT sub) who created the conversation; 0 for API keys'),
  ),
  truncated: v.pipe(
    v.boolean(),
    v.description(
      'true when earlier messages were left out: at most the latest 1,000 messages (HISTORY_MAX_MESSAGES) are returned; GET /chat/history pages through all of them',
    ),
  ),
});
export type ConversationHistory = v.InferOutput<typeof ConversationHistory>;
export const ConversationHistoryResponse = dataResponse(
  ConversationHistory,
  'The conversation, oldest first (its latest messages when `truncated`)',
);

export const FeedbackResult = v.object({
  message_id: uuid,
  rating: v.picklist(['up', 'down']),
  comment: v.nullable(v.string()),
  created_at: timestamp,
  candidate_pattern_id: v.pipe(
    v.nullable(v.string()),
    v.description(
      'the candidate query pattern proposed for the answer’s question (an up-vote of a SQL answer, or a corrected_sql), for an admin to approve; null when none',
    ),
  ),
});
export type FeedbackResult = v.InferOutput<typeof FeedbackResult>;
export const FeedbackResponse = dataResponse(
  FeedbackResult,
  'The rating is stored (a second one replaces it)',
);

export const DeleteResult = v.object({ message: v.string() });
export type DeleteResult = v.InferOutput<typeof DeleteResult>;
export const DeleteResponse = dataResponse(DeleteResult, 'The conversation and all its messages are deleted');

export const AppendResult = v.object({
  message_id: uuid,
  conversation_id: uuid,
  created_at: timestamp,
});
export type AppendResult = v.InferOutput<typeof AppendResult>;
export const AppendResponse = v.pipe(
  v.object({ success: v.literal(true), data: AppendResult, message: v.string() }),
  v.description('The message is appended (201)'),
);

// ---- Answers ---------------------------------------------------------------------------------

// The answer's one schema lives with the code that builds it (lib/answer/chat-answer.ts).
export { ChatAnswer, QueryType };

export const ChatAnswerResponse = dataResponse(ChatAnswer, 'The answer');

/** The body of POST /api/v1/chat/message: an answer (200) or an appended message (201). */
export const ChatOrAppendResponse = v.union([ChatAnswerResponse, AppendResponse]);

// ---- Streaming -------------------------------------------------------------------------------

/** `event: status`: the step an answer is at, before its first piece. */
export const StreamStatus = v.object({
  step: v.picklist(['reading_question', 'writing_query', 'running_query', 'writing_answer']),
  message: v.string(),
});

/** An unnamed server-sent event: a piece of the answer. */
export const StreamChunk = v.object({ content: v.string() });

/** `event: done`, the last event of a stream that answered. */
export const StreamDone = v.object({
  conversation_id: uuid,
  sources: v.array(v.string()),
  query_type: QueryType,
  execution_time_ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
  row_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  results: ChatAnswer.entries.results,
  results_truncated: ChatAnswer.entries.results_truncated,
  interpretation: ChatAnswer.entries.interpretation,
  message_id: ChatAnswer.entries.message_id,
  answered_by: ChatAnswer.entries.answered_by,
  chart: ChatAnswer.entries.chart,
  suggestions: ChatAnswer.entries.suggestions,
});
export type StreamDone = v.InferOutput<typeof StreamDone>;

/**
 * One server-sent event of a stream as a client parses it: its type (`message` for an unnamed
 * event, as the EventSource standard names it) and its `data` read as JSON.
 */
export const StreamEvent = v.pipe(
  v.variant('event', [
    v.object({ event: v.literal('status'), data: StreamStatus }),
    v.object({ event: v.literal('message'), data: StreamChunk }),
    v.object({ event: v.literal('done'), data: StreamDone }),
    v.object({ event: v.literal('error'), data: ErrorEnvelope }),
  ]),
  v.description(
    'One event of an answer stream: `status` with the step the answer is at (before the first piece), `message` (unnamed on the wire) with a piece of the answer, `done` with the answer, `error` with a failure after the stream started',
  ),
);
export type StreamEvent = v.InferOutput<typeof StreamEvent>;

// ---- Embed sessions ----------------------------------------------------------------------------

/** docs/design.md "Embed sessions": the 201 of POST /api/v1/embed/sessions. */
export const EmbedSession = v.pipe(
  v.object({
    token: v.pipe(
      v.string(),
      v.regex(/^et_/),
      v.description('send as `Authorization: Bearer et_…` from the page (the widget option getSessionToken)'),
    ),
    expires_at: v.pipe(timestamp, v.description('when the token stops working; ask for a new one before')),
    database_id: uuid,
    tenant_id: v.pipe(
      v.nullable(v.string()),
      v.description('the tenant every answer is filtered by; null on a database without scoping'),
    ),
    scope_id: v.pipe(
      v.nullable(v.string()),
      v.description('the end-user scope of its conversations; null: it answers but reads no history'),
    ),
  }),
  v.description('A short-lived embed-session token for one database, tenant and scope'),
);
export type EmbedSession = v.InferOutput<typeof EmbedSession>;
export const EmbedSessionResponse = dataResponse(EmbedSession, 'The embed session is created (201)');

// ---- The OpenAPI document itself -------------------------------------------------------------

export const OpenApiDocument = v.pipe(
  v.looseObject({ openapi: v.string(), info: v.looseObject({ title: v.string(), version: v.string() }) }),
  v.description('This document (OpenAPI 3.1)'),
);

// ---- The code's own types match the schemas (compile-time checks only) -------------------------

type Assignable<From extends To, To> = [From, To];
/** The catalogue's envelope is what ErrorEnvelope documents. */
export type EnvelopeMatchesSchema = Assignable<EnvelopeOfCatalogue, ErrorEnvelope>;
/** The stream's last event carries the answer's fields as the answer has them. */
export type StreamDoneOf = Pick<ChatAnswer, keyof StreamDone>;
export type StreamDoneMatchesSchema = Assignable<StreamDoneOf, StreamDone>;
