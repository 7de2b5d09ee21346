// The widget's HTTP client for the chat API with a database (`pk_`) key or an embed session
// (`et_…` token from the integrator's backend, docs/widget.md "Embed sessions"): branding
// (endpoint 9) and questions streamed as server-sent events (endpoint 8, with database_id so that
// the first question creates the conversation; the `done` event carries the rows), read with
// fetch because EventSource cannot send X-API-Key or Authorization. A session token is asked for
// again once 80 % of its lifetime has passed, and once more when the API answers 401
// AUTH_TOKEN_EXPIRED. Errors come back as `ChatError` in plain words.
import type { ChartSpec } from './chart-spec.ts';

export interface Branding {
  colors: {
    primary: string;
    secondary: string;
    accent: string;
    text_primary: string;
    text_secondary: string;
  };
  logo_url?: string;
  logo_dark_url?: string;
  widget_theme: {
    position: string;
    greeting_message: string;
    placeholder_text: string;
    header_color: string;
  };
  hide_dialektai_branding: boolean;
}

export type Row = Record<string, unknown>;

export interface Answer {
  message: string;
  conversation_id: string;
  query_type: string;
  results?: Row[];
  row_count?: number;
  results_truncated?: boolean;
  /** What the engine understood, in plain words; null when no query ran. */
  interpretation?: string | null;
  /** The stored answer's id (for feedback). */
  message_id?: string;
  /** A Vega-Lite v5 spec of the rows (line, bar or point), or null. */
  chart?: ChartSpec | null;
  /** Up to three follow-up questions. */
  suggestions?: string[];
}

export interface ClientOptions {
  /** A database (pk_) key; sent with the tenant and scope below. */
  apiKey?: string | undefined;
  /** Or an embed session: resolves to an `et_…` token that fixes the tenant and scope itself. */
  getSessionToken?: (() => Promise<string>) | undefined;
  baseUrl: string;
  databaseId: string;
  tenantId?: string | undefined;
  scopeId?: string | undefined;
}

/** What the widget reads of a session token (its claims are not secret, only signed). */
export interface SessionClaims {
  exp?: number;
  iat?: number;
  /** The tenant and scope the token is bound to. */
  tnt?: string;
  scp?: string;
}

/** The claims of an `et_…` token; `{}` when it cannot be read. */
export const claimsOf = (token: string): SessionClaims => {
  try {
    const part = token.split('.')[1] ?? '';
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))) as SessionClaims;
  } catch {
    return {};
  }
};

/** When to ask for the next token: after 80 % of this one's lifetime (a minute when unknown). */
export const refreshAtOf = (claims: SessionClaims, now = Date.now()): number =>
  claims.exp && claims.iat && claims.exp > claims.iat
    ? (claims.iat + (claims.exp - claims.iat) * 0.8) * 1000
    : now + 60_000;

export type ErrorKind = 'rate-limit' | 'network' | 'not-found' | 'refused' | 'invalid' | 'server';

/** A failure to show: `message` is for people; `retryAfter` (seconds) on rate limits. */
export class ChatError extends Error {
  readonly kind: ErrorKind;
  readonly retryAfter: number | undefined;
  constructor(kind: ErrorKind, message: string, retryAfter?: number) {
    super(message);
    this.kind = kind;
    this.retryAfter = retryAfter;
  }
  /** Worth offering "Try again" for. */
  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'rate-limit';
  }
}

interface Envelope {
  error?: { code?: string; message?: string };
  error_code?: string;
  message?: string;
  status_code?: number;
}

const seconds = (value: number): string => (value === 1 ? '1 second' : `${value} seconds`);

/** The wait a 429 asks for: Retry-After, else the window's reset time, else a minute. */
const waitOf = (headers: Headers): number => {
  const retryAfter = Number(headers.get('Retry-After'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.ceil(retryAfter);
  const reset = Number(headers.get('X-RateLimit-Reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  return 60;
};

/** An error envelope (docs/design.md "Errors") or an HTTP status in plain words. */
export const errorOf = (status: number, body: Envelope | undefined, headers?: Headers): ChatError => {
  const code = body?.error?.code;
  if (status === 429) {
    const wait = headers ? waitOf(headers) : 60;
    return new ChatError(
      'rate-limit',
      `Too many questions at once. Please try again in ${seconds(wait)}.`,
      wait,
    );
  }
  if (status === 401)
    return new ChatError('refused', 'This chat could not sign in: its key or session was not accepted.');
  if (code === 'INVALID_TENANT_ID')
    return new ChatError('refused', 'This chat is not set up for your account (tenant not accepted).');
  if (status === 403)
    return new ChatError(
      'refused',
      'This chat is not allowed here. Contact the site owner if this persists.',
    );
  if (status === 404 && code === 'DATABASE_NOT_FOUND')
    return new ChatError('refused', 'The data this chat answers from is not available.');
  if (status === 404) return new ChatError('not-found', 'This conversation no longer exists.');
  if (status === 400 || status === 413 || status === 422)
    return new ChatError(
      'invalid',
      body?.error?.message ?? body?.message ?? 'That question could not be sent.',
    );
  if (status === 503) {
    const wait = headers ? waitOf(headers) : 5;
    return new ChatError('server', `The service is busy. Please try again in ${seconds(wait)}.`, wait);
  }
  return new ChatError('server', 'Something went wrong while answering. Please try again.');
};

const networkError = (): ChatError =>
  new ChatError('network', 'The connection was lost. Check your network and try again.');

const readEnvelope = async (response: Response): Promise<Envelope | undefined> => {
  try {
    return (await response.json()) as Envelope;
  } catch {
    return undefined;
  }
};

export const newId = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
        (Number(c) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(c) / 4)))).toString(16),
      );

export interface StreamHandlers {
  onContent(chunk: string): void;
  /** A step of the answer before its first piece ("Writing the query…"): `event: status`. */
  onStatus?(message: string, step: string): void;
}

/** A server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Splits a growing buffer into complete events; returns them and what is left. */
export const parseSse = (buffer: string): { events: SseEvent[]; rest: string } => {
  const events: SseEvent[] = [];
  const normalised = buffer.replace(/\r\n?/g, '\n');
  const frames = normalised.split('\n\n');
  const rest = frames.pop() ?? '';
  for (const frame of frames) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
};

export class ChatClient {
  readonly options: ClientOptions;
  /** The current session token, its claims, and when to replace it. */
  private session: { token: string; claims: SessionClaims; refreshAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(options: ClientOptions) {
    this.options = { ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') };
  }

  /** The session token's claims once one was fetched (the tenant and scope it is bound to). */
  get claims(): SessionClaims | undefined {
    return this.session?.claims;
  }

  /** A session token: the current one until 80 % of its lifetime, else a new one (one call at a time). */
  private token(fresh: boolean): Promise<string> {
    const { getSessionToken } = this.options;
    if (!getSessionToken) return Promise.resolve('');
    if (!fresh && this.session && Date.now() < this.session.refreshAt)
      return Promise.resolve(this.session.token);
    this.pending ??= getSessionToken()
      .then((token) => {
        const claims = claimsOf(token);
        this.session = { token, claims, refreshAt: refreshAtOf(claims) };
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  private async headers(fresh = false): Promise<Record<string, string>> {
    const { apiKey, getSessionToken, tenantId, scopeId } = this.options;
    if (getSessionToken) {
      let token: string;
      try {
        token = await this.token(fresh);
      } catch {
        throw new ChatError('refused', 'This chat could not start a session. Please try again later.');
      }
      return { Authorization: `Bearer ${token}` };
    }
    return {
      'X-API-Key': apiKey ?? '',
      ...(tenantId ? { 'X-Tenant-Id': tenantId } : {}),
      ...(scopeId ? { 'X-Scope-Id': scopeId } : {}),
    };
  }

  /** One request; with a session, an expired token is replaced and the request sent once more. */
  private async request(path: string, init: RequestInit, retried = false): Promise<Response> {
    let response: Response;
    try {
      const headers = { ...(init.headers as Record<string, string>), ...(await this.headers(retried)) };
      response = await fetch(`${this.options.baseUrl}${path}`, { ...init, headers });
    } catch (error) {
      if (error instanceof ChatError || (error as Error).name === 'AbortError') throw error;
      throw networkError();
    }
    if (response.ok) return response;
    const envelope = await readEnvelope(response);
    if (
      response.status === 401 &&
      envelope?.error_code === 'AUTH_TOKEN_EXPIRED' &&
      this.options.getSessionToken &&
      !retried
    )
      return this.request(path, init, true);
    throw errorOf(response.status, envelope, response.headers);
  }

  /** A rating of one answer (up or down); a second rating of the same answer replaces the first. */
  async feedback(conversationId: string, messageId: string, rating: 'up' | 'down'): Promise<void> {
    const path = `/api/v1/chat/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/feedback`;
    await this.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ rating }),
    });
  }

  async branding(signal?: AbortSignal): Promise<Branding> {
    const response = await this.request('/api/v1/branding', { signal: signal ?? null });
    return ((await response.json()) as { data: Branding }).data;
  }

  /**
   * A question, streamed: `onContent` gets each piece; resolves with the whole answer (its rows
   * come with the `done` event). `database_id` goes along, so a conversation id that does not
   * exist yet is created by this first question.
   */
  async stream(
    conversationId: string,
    message: string,
    handlers: StreamHandlers,
    signal?: AbortSignal,
  ): Promise<Answer> {
    const query = new URLSearchParams({ message, database_id: this.options.databaseId });
    const path = `/api/v1/chat/${encodeURIComponent(conversationId)}/stream?${query}`;
    const response = await this.request(path, {
      headers: { Accept: 'text/event-stream' },
      signal: signal ?? null,
    });
    if (!response.body) throw networkError();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let text = '';
    let answer: Answer | undefined;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseSse(buffer + value);
        buffer = parsed.rest;
        for (const { event, data } of parsed.events) {
          const payload = JSON.parse(data) as Record<string, unknown>;
          if (event === 'message' && typeof payload.content === 'string') {
            text += payload.content;
            handlers.onContent(payload.content);
          } else if (event === 'status' && typeof payload.message === 'string') {
            handlers.onStatus?.(payload.message, String(payload.step ?? ''));
          } else if (event === 'done') {
            answer = { ...(payload as unknown as Omit<Answer, 'message'>), message: text };
          } else if (event === 'error') {
            const envelope = payload as Envelope;
            throw errorOf(envelope.status_code ?? 500, envelope);
          }
        }
      }
    } catch (error) {
      void reader.cancel().catch(() => undefined);
      if (error instanceof ChatError || (error as Error).name === 'AbortError') throw error;
      throw networkError();
    }
    // Without its `done` event the stream was cut off mid-answer.
    if (!answer) throw networkError();
    return answer;
  }
}
