// The tabletalk API from TypeScript: one call per operation of the OpenAPI document, typed by the
// types openapi-typescript generates from it (./schema.ts), sent with openapi-fetch. The
// credentials, the end-user scope and the tenant are set once, on the client; streamed answers
// are async iterators of typed events; an error is a value, never an exception.
import createFetchClient, { type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths } from './schema.ts';

export type Schemas = components['schemas'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
/** One event of a streamed answer: `message` (a piece of the text), `done` (the answer) or `error`. */
export type StreamEvent = Schemas['StreamEvent'];

export interface ClientOptions {
  /** Where the API is served: `https://<api>.execute-api.<region>.amazonaws.com/prod`, `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An organization key (`sk_…`, server side only) or a database key (`pk_…`), sent as X-API-Key. */
  apiKey?: string;
  /** A portal JWT or an embed session token (`et_…`), sent as `Authorization: Bearer`; a function is asked on every call. */
  token?: string | (() => string | Promise<string>);
  /** The end-user scope (X-Scope-Id) of every call: conversations are kept per scope. */
  scope?: string;
  /** The tenant (X-Tenant-Id) of every call, on databases that filter rows by tenant. */
  tenant?: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
}

/** What went wrong: the API's error envelope with its status, or no answer at all. */
export type ApiError =
  | {
      kind: 'api';
      status: number;
      /** `error.code` of the envelope (VALIDATION_ERROR, NOT_FOUND, RATE_LIMIT_EXCEEDED, …). */
      code: string;
      /** `error_code` of the envelope (AUTH_INVALID_CREDENTIALS, QUOTA_RATE_LIMIT_EXCEEDED, …). */
      errorCode: string;
      message: string;
      /** Seconds to wait before retrying (429, 503). */
      retryAfter?: number;
      /** The whole envelope; absent when the body was not one (a proxy's page). */
      envelope?: ErrorEnvelope;
    }
  | { kind: 'network'; status: 0; code: 'NETWORK_ERROR'; message: string; cause: unknown };

/** The outcome of a call: its data, or its error. `requestId` is X-Request-ID (the envelope's trace_id). */
export type Result<T> =
  | { ok: true; status: number; data: T; requestId?: string }
  | { ok: false; status: number; error: ApiError; requestId?: string };

/** The two variants of POST /api/v1/chat/message, each with its own answer. */
type SendMessage = {
  (body: Schemas['ChatMessageRequest']): Promise<Result<Schemas['ChatAnswerResponse']>>;
  (body: Schemas['AppendMessageRequest']): Promise<Result<Schemas['AppendResponse']>>;
};

type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

// Headers that the middleware sets from the client's options (the generated types list them per
// operation, where a call would have to repeat them).
const fromOptions = {} as { 'X-Scope-Id': string };

const isEnvelope = (body: unknown): body is ErrorEnvelope =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as ErrorEnvelope).error?.code === 'string' &&
  typeof (body as ErrorEnvelope).error_code === 'string';

const apiError = (status: number, body: unknown, headers: Headers): ApiError => {
  const retry = Number(headers.get('Retry-After'));
  return {
    kind: 'api',
    status,
    code: isEnvelope(body) ? body.error.code : 'HTTP_ERROR',
    errorCode: isEnvelope(body) ? body.error_code : `HTTP_${status}`,
    message: isEnvelope(body) ? body.message : `HTTP ${status}`,
    ...(Number.isFinite(retry) && headers.has('Retry-After') ? { retryAfter: retry } : {}),
    ...(isEnvelope(body) ? { envelope: body } : {}),
  };
};

const networkError = (cause: unknown): ApiError => ({
  kind: 'network',
  status: 0,
  code: 'NETWORK_ERROR',
  message: cause instanceof Error ? cause.message : String(cause),
  cause,
});

/** An openapi-fetch call as a Result. */
const settle = async <T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Result<T>> => {
  let outcome: { data?: T; error?: unknown; response: Response };
  try {
    outcome = await call;
  } catch (cause) {
    return { ok: false, status: 0, error: networkError(cause) };
  }
  const { data, error, response } = outcome;
  const requestId = response.headers.get('X-Request-ID') ?? undefined;
  const id = requestId === undefined ? {} : { requestId };
  if (response.ok) return { ok: true, status: response.status, data: data as T, ...id };
  return {
    ok: false,
    status: response.status,
    error: apiError(response.status, error, response.headers),
    ...id,
  };
};

/**
 * Server-sent events of a body, parsed as the EventSource standard reads them: `event:` names the
 * type (`message` when absent), `data:` lines joined by newlines, comments (`: ping`) skipped.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let type = '';
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      // The end of the body ends its last line; a '\r' at the end of a chunk may be half of '\r\n'.
      buffer += done ? `${decoder.decode()}\n` : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0)
            yield { event: type || 'message', data: JSON.parse(data.join('\n')) } as StreamEvent;
          type = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') type = text;
        else if (field === 'data') data.push(text);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}

/** The client: `createClient({ baseUrl, apiKey, scope })`, then one method per operation. */
export const createClient = (options: ClientOptions) => {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const credentials: Middleware = {
    async onRequest({ request }) {
      if (options.apiKey) request.headers.set('X-API-Key', options.apiKey);
      const token = typeof options.token === 'function' ? await options.token() : options.token;
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      if (options.scope !== undefined) request.headers.set('X-Scope-Id', options.scope);
      if (options.tenant !== undefined) request.headers.set('X-Tenant-Id', options.tenant);
      return request;
    },
  };
  api.use(credentials);
  const header = fromOptions;

  return {
    /** The same credentials with another end-user scope or tenant (one client per signed-in user). */
    with: (change: Pick<ClientOptions, 'scope' | 'tenant'>) => createClient({ ...options, ...change }),

    // ---- Answers --------------------------------------------------------------------------------
    /**
     * POST /api/v1/chat/message: ask (a new conversation, or `conversation_id`) and get the
     * answer; or, with `role` and `content`, append a message to the history (201).
     */
    sendMessage: ((body: JsonBody<operations['sendMessage']>) =>
      settle(api.POST('/api/v1/chat/message', { body }))) as SendMessage,
    /** POST /api/v1/chat/{conversation_id}/message: ask in an existing conversation. */
    sendConversationMessage: (
      conversationId: string,
      body: JsonBody<operations['sendConversationMessage']>,
    ) =>
      settle(
        api.POST('/api/v1/chat/{conversation_id}/message', {
          params: { path: { conversation_id: conversationId } },
          body,
        }),
      ),
    /**
     * GET /api/v1/chat/{conversation_id}/stream: the answer as it is produced. A refusal (key,
     * limits, an unknown conversation) is an error Result before any event; then iterate the events:
     * `message` pieces, then `done` with the answer, or `error`. Breaking out of the loop (or the
     * signal) stops the answer.
     */
    streamAnswer: async (
      conversationId: string,
      query: QueryOf<operations['streamAnswer']>,
      init: { signal?: AbortSignal } = {},
    ): Promise<Result<AsyncIterable<StreamEvent>>> => {
      const result = await settle(
        api.GET('/api/v1/chat/{conversation_id}/stream', {
          params: { path: { conversation_id: conversationId }, query },
          parseAs: 'stream',
          headers: { Accept: 'text/event-stream' },
          ...(init.signal ? { signal: init.signal } : {}),
        }),
      );
      if (!result.ok) return result;
      const body = result.data as ReadableStream<Uint8Array> | null;
      if (!body) return { ok: false, status: result.status, error: networkError('The stream has no body') };
      return { ...result, data: serverSentEvents(body) };
    },
    /** POST /api/v1/chat/{conversation_id}/messages/{message_id}/feedback: rate an answer. */
    rateAnswer: (conversationId: string, messageId: string, body: JsonBody<operations['rateAnswer']>) =>
      settle(
        api.POST('/api/v1/chat/{conversation_id}/messages/{message_id}/feedback', {
          params: { path: { conversation_id: conversationId, message_id: messageId }, header },
          body,
        }),
      ),

    // ---- Conversations --------------------------------------------------------------------------
    /** GET /api/v1/chat/conversations: the scope's conversations, newest first, in cursor pages. */
    listConversations: (query: QueryOf<operations['listConversations']> = {}) =>
      settle(api.GET('/api/v1/chat/conversations', { params: { query, header } })),
    /** GET /api/v1/chat/history: messages of the scope, of one conversation or all, in cursor pages. */
    listMessages: (query: QueryOf<operations['listMessages']> = {}) =>
      settle(api.GET('/api/v1/chat/history', { params: { query, header } })),
    /** GET /api/v1/chat/{conversation_id}/history: one conversation, oldest first. */
    getConversationHistory: (conversationId: string) =>
      settle(
        api.GET('/api/v1/chat/{conversation_id}/history', {
          params: { path: { conversation_id: conversationId }, header },
        }),
      ),
    /** DELETE /api/v1/chat/{conversation_id}. */
    deleteConversation: (conversationId: string) =>
      settle(
        api.DELETE('/api/v1/chat/{conversation_id}', {
          params: { path: { conversation_id: conversationId }, header },
        }),
      ),

    // ---- Organization, embed sessions, the service ----------------------------------------------
    getBranding: () => settle(api.GET('/api/v1/branding')),
    putBranding: (body: JsonBody<operations['putBranding']>) => settle(api.PUT('/api/v1/branding', { body })),
    /** POST /api/v1/embed/sessions: a short-lived widget token for one database, tenant and scope. */
    createEmbedSession: (body: JsonBody<operations['createEmbedSession']>) =>
      settle(api.POST('/api/v1/embed/sessions', { body })),
    getOpenApiDocument: () => settle(api.GET('/api/v1/openapi.json')),
    /** GET /docs: the reference page's HTML. */
    getReferencePage: () => settle(api.GET('/docs', { parseAs: 'text' })),

    // ---- Control plane: databases and jobs ------------------------------------------------------
    listDatabases: (query: QueryOf<operations['listDatabases']> = {}) =>
      settle(api.GET('/api/v1/organization/databases', { params: { query } })),
    createDatabase: (body: JsonBody<operations['createDatabase']>) =>
      settle(api.POST('/api/v1/organization/databases', { body })),
    getDatabase: (id: string) =>
      settle(api.GET('/api/v1/organization/databases/{id}', { params: { path: { id } } })),
    updateDatabase: (id: string, body: JsonBody<operations['updateDatabase']>) =>
      settle(api.PATCH('/api/v1/organization/databases/{id}', { params: { path: { id } }, body })),
    deleteDatabase: (id: string) =>
      settle(api.DELETE('/api/v1/organization/databases/{id}', { params: { path: { id } } })),
    indexDatabase: (id: string) =>
      settle(api.POST('/api/v1/organization/databases/{id}/index', { params: { path: { id } } })),
    getJob: (jobId: string) =>
      settle(api.GET('/api/v1/organization/jobs/{job_id}', { params: { path: { job_id: jobId } } })),

    // ---- Control plane: keys, personalities, patterns, glossary, usage --------------------------
    listApiKeys: (query: QueryOf<operations['listApiKeys']> = {}) =>
      settle(api.GET('/api/v1/organization/api-keys', { params: { query } })),
    createApiKey: (body: JsonBody<operations['createApiKey']>) =>
      settle(api.POST('/api/v1/organization/api-keys', { body })),
    deleteApiKey: (id: string) =>
      settle(api.DELETE('/api/v1/organization/api-keys/{id}', { params: { path: { id } } })),
    listPersonalities: (query: QueryOf<operations['listPersonalities']> = {}) =>
      settle(api.GET('/api/v1/organization/personalities', { params: { query } })),
    createPersonality: (body: JsonBody<operations['createPersonality']>) =>
      settle(api.POST('/api/v1/organization/personalities', { body })),
    getPersonality: (id: string) =>
      settle(api.GET('/api/v1/organization/personalities/{id}', { params: { path: { id } } })),
    updatePersonality: (id: string, body: JsonBody<operations['updatePersonality']>) =>
      settle(api.PATCH('/api/v1/organization/personalities/{id}', { params: { path: { id } }, body })),
    deletePersonality: (id: string) =>
      settle(api.DELETE('/api/v1/organization/personalities/{id}', { params: { path: { id } } })),
    listPatterns: (databaseId: string, query: QueryOf<operations['listPatterns']> = {}) =>
      settle(
        api.GET('/api/v1/organization/databases/{id}/patterns', {
          params: { path: { id: databaseId }, query },
        }),
      ),
    createPattern: (databaseId: string, body: JsonBody<operations['createPattern']>) =>
      settle(
        api.POST('/api/v1/organization/databases/{id}/patterns', {
          params: { path: { id: databaseId } },
          body,
        }),
      ),
    updatePattern: (databaseId: string, patternId: string, body: JsonBody<operations['updatePattern']>) =>
      settle(
        api.PATCH('/api/v1/organization/databases/{id}/patterns/{pattern_id}', {
          params: { path: { id: databaseId, pattern_id: patternId } },
          body,
        }),
      ),
    deletePattern: (databaseId: string, patternId: string) =>
      settle(
        api.DELETE('/api/v1/organization/databases/{id}/patterns/{pattern_id}', {
          params: { path: { id: databaseId, pattern_id: patternId } },
        }),
      ),
    getGlossary: (databaseId: string) =>
      settle(
        api.GET('/api/v1/organization/databases/{id}/glossary', { params: { path: { id: databaseId } } }),
      ),
    putGlossary: (databaseId: string, body: JsonBody<operations['putGlossary']>) =>
      settle(
        api.PUT('/api/v1/organization/databases/{id}/glossary', {
          params: { path: { id: databaseId } },
          body,
        }),
      ),
    getUsage: () => settle(api.GET('/api/v1/organization/usage')),
  };
};

export type TabletalkClient = ReturnType<typeof createClient>;
