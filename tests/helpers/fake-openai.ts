// A local OpenAI-compatible server for the model engine tests: listens on 127.0.0.1 only, answers
// POST /v1/chat/completions with recorded responses, queued in order (or computed from the
// request), and keeps every request it received for assertions. A response can be delayed or
// never sent at all (a provider that hangs). Bodies of the recorded responses below have the
// shape of real OpenAI chat completions and errors.
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

export interface RecordedResponse {
  status?: number;
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
    const send = () => {
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
