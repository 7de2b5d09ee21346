// A local OpenAI-compatible server for the model engine tests: listens on 127.0.0.1 only, answers
// POST /v1/chat/completions with recorded responses, queued in order (or computed from the
// request), and keeps every request it received for assertions. A response can be delayed or
// never sent at all (a provider that hangs), or streamed as server-sent events (`stream: true`
// requests), event by event with a pause between them, possibly broken off mid-way. Bodies of
// the recorded responses below have the shape of real OpenAI chat completions, streamed
// `chat.completion.chunk`s and errors.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: ChatCompletionRequest;
}

export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  response_format?: { type: string };
  [field: string]: unknown;
}

/** A streamed completion: each event's data is written as `data: <data>\n\n`. */
export interface StreamedBody {
  /** The data of each event, in order (JSON text, `[DONE]`, or anything malformed). */
  events: string[];
  /** Pause before each event after the first. */
  intervalMs?: number;
  /** Break the connection off after the events, without ending the response. */
  drop?: boolean;
}

export interface RecordedResponse {
  status?: number;
  /** Sent as `text/event-stream` instead of `body`. */
  stream?: StreamedBody;
  /** Sent as JSON unless a string. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the server closes). */
  hang?: boolean;
}

export type Responder = RecordedResponse | ((request: ReceivedRequest) => RecordedResponse);

export interface FakeOpenAi {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Queues responses, one per request, in order; a request with none queued gets a 500. */
  respond(...responses: Responder[]): void;
  /** Drops queued responses and received requests. */
  reset(): void;
  close(): Promise<void>;
}

let completionCount = 0;

/** A chat completion as OpenAI returns it, with `content` as the assistant's message. */
export const completion = (content: string | null, extra: { refusal?: string } = {}) => ({
  status: 200,
  body: {
    id: `chatcmpl-test${++completionCount}`,
    object: 'chat.completion',
    created: 1_773_570_600,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: extra.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 1_412, completion_tokens: 58, total_tokens: 1_470 },
    system_fingerprint: 'fp_test',
  },
});

/** A reply in the format the engines ask for. */
export const reply = (fields: { kind: string; sql?: string; message?: string; description?: string }) =>
  completion(JSON.stringify(fields));

/** One `chat.completion.chunk` of a streamed completion. */
export const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'chatcmpl-stream1',
    object: 'chat.completion.chunk',
    created: 1_773_570_600,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
    ...extra,
  });

/**
 * A completion streamed as OpenAI streams it: a role chunk, one chunk per piece of content, a
 * chunk with `finish_reason`, the usage chunk (`stream_options.include_usage`), then `[DONE]`.
 */
export const streamed = (
  pieces: readonly string[],
  options: { intervalMs?: number; usage?: { prompt_tokens: number; completion_tokens: number } | null } = {},
): RecordedResponse => {
  const usage = options.usage === undefined ? { prompt_tokens: 812, completion_tokens: 24 } : options.usage;
  const finish = JSON.stringify({
    id: 'chatcmpl-stream1',
    object: 'chat.completion.chunk',
    created: 1_773_570_600,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }],
  });
  const events = [
    chunk({ role: 'assistant', content: '', refusal: null }),
    ...pieces.map((content) => chunk({ content })),
    finish,
    ...(usage
      ? [
          JSON.stringify({
            id: 'chatcmpl-stream1',
            object: 'chat.completion.chunk',
            created: 1_773_570_600,
            model: 'gpt-4o-mini-2024-07-18',
            choices: [],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }),
        ]
      : []),
    '[DONE]',
  ];
  return {
    status: 200,
    stream: { events, ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}) },
  };
};

/** Streams that go wrong, by case. */
export const recordedStreams = {
  /** A chunk cut in the middle of its JSON, then the end of the stream. */
  malformed: {
    status: 200,
    stream: {
      events: [
        chunk({ content: 'There are' }),
        '{"id":"chatcmpl-stream1","choices":[{"delta":{"con',
        '[DONE]',
      ],
    },
  },
  /** Two pieces, then the connection breaks off (no finish_reason, no [DONE]). */
  dropped: {
    status: 200,
    stream: { events: [chunk({ content: 'There are 42' }), chunk({ content: ' orders' })], drop: true },
  },
  /** Two pieces, then the stream ends cleanly but without finish_reason or [DONE]. */
  truncated: {
    status: 200,
    stream: { events: [chunk({ content: 'There are 42' }), chunk({ content: ' orders' })] },
  },
} satisfies Record<string, RecordedResponse>;

/** Responses recorded from providers, by case. */
export const recorded = {
  countCancelledOrders: reply({
    kind: 'sql',
    sql: "SELECT count(*) AS cancelled_orders FROM orders WHERE status = 'cancelled'",
    description: "Counting orders with status 'cancelled'",
  }),
  /** Prose and a truncated object: what a model without JSON mode sometimes sends. */
  malformed: completion(
    'Sure! Here is the query you asked for: {"kind": "sql", "sql": "SELECT count(*) FROM',
  ),
  dropTable: reply({ kind: 'sql', sql: 'DROP TABLE orders', description: 'Dropping the orders table' }),
  clarification: reply({
    kind: 'clarification',
    message: 'Do you mean the amount of the orders’ payments or of their invoices?',
  }),
  serverError: {
    status: 500,
    body: {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: null,
      },
    },
  },
  rateLimited: {
    status: 429,
    body: {
      error: {
        message:
          'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  unauthorized: {
    status: 401,
    body: {
      error: {
        message:
          'Incorrect API key provided: sk-test-***************cret. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  },
  /** A server without JSON mode (as some local servers answer). */
  jsonModeUnsupported: {
    status: 400,
    body: {
      error: {
        message: "Unsupported value: 'response_format' is not supported with this model.",
        type: 'invalid_request_error',
        param: 'response_format',
        code: 'unsupported_value',
      },
    },
  },
  hang: { hang: true },
} satisfies Record<string, RecordedResponse>;

const readBody = (request: import('node:http').IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

export const startFakeOpenAi = async (): Promise<FakeOpenAi> => {
  const requests: ReceivedRequest[] = [];
  let queue: Responder[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer(async (request, response) => {
    const text = await readBody(request);
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(text) as ChatCompletionRequest;
    } catch {
      body = undefined as unknown as ChatCompletionRequest;
    }
    const received: ReceivedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
    };
    requests.push(received);
    const next = queue.shift();
    const recordedResponse: RecordedResponse =
      next === undefined
        ? {
            status: 500,
            body: { error: { message: 'fake-openai: no recorded response left', type: 'test' } },
          }
        : typeof next === 'function'
          ? next(received)
          : next;
    if (recordedResponse.hang) return;
    const later = (ms: number, work: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work();
      }, ms);
      timers.add(timer);
    };
    const sendStream = (stream: StreamedBody) => {
      response.writeHead(recordedResponse.status ?? 200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
      });
      response.flushHeaders();
      const next = (index: number) => {
        if (response.destroyed) return;
        if (index >= stream.events.length) {
          // Once the events are on the wire, the connection goes without ending the response.
          if (stream.drop) later(30, () => response.socket?.destroy());
          else response.end();
          return;
        }
        response.write(`data: ${stream.events[index]}\n\n`);
        if (stream.intervalMs) later(stream.intervalMs, () => next(index + 1));
        else next(index + 1);
      };
      next(0);
    };
    const send = () => {
      if (recordedResponse.stream) {
        sendStream(recordedResponse.stream);
        return;
      }
      const payload =
        typeof recordedResponse.body === 'string'
          ? recordedResponse.body
          : JSON.stringify(recordedResponse.body ?? {});
      response.writeHead(recordedResponse.status ?? 200, { 'content-type': 'application/json' });
      response.end(payload);
    };
    if (recordedResponse.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, recordedResponse.delayMs);
      timers.add(timer);
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respond: (...responses) => {
      queue.push(...responses);
    },
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
