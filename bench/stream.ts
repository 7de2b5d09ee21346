// Streaming answers (GET /api/v1/chat/{id}/stream, server-sent events) end to end through the
// local gateway on the demo shop (PGlite), client side: the time to the first event and to the
// end of the stream for builtin-engine answers, and, for a model engine whose provider streams
// its tokens with a pause between them, when each event arrives: events must come out as the
// tokens do, not all at the end. The server (DynamoDB Local + gateway, bench/chat-child.ts) runs
// in its own process; the delayed engine is the openai engine against a small OpenAI-compatible
// server in this process that streams a fixed answer token by token.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createParser } from 'eventsource-parser';
import type { ChatChildMessage } from './chat-child.ts';
import {
  type Figure,
  fixed,
  median,
  percentile,
  printFigure,
  type Section,
  startServerChild,
  stopChild,
  table,
  verdict,
} from './common.ts';

const WARMUP = 20;
const STREAMS = 200;
/** Streams per conversation before a new one starts (each stream adds two messages). */
const PER_CONVERSATION = 10;
const DELAYED_STREAMS = 20;
/** Buffered answers to the same questions (endpoint 5), for comparison under the same load. */
const BUFFERED = 100;
const TOKENS = 10;
const TOKEN_INTERVAL_MS = 20;
const FIRST_EVENT_TARGET_MS = 50;

const questions = [
  'How many orders were placed in 2025?',
  'How many customers are there?',
  'Revenue per category',
  'Top 5 customers by revenue',
  'How many orders per status?',
  'What is the average unit price of products?',
  'Hello',
];

interface Timing {
  /** From the request to the first `data` event. */
  first: number;
  /** From the request to the end of the body. */
  total: number;
  /** When each event arrived, from the request. */
  arrivals: number[];
  events: number;
  last: string | undefined;
}

/** A running chat-child: the gateway's URL, a key and the demo database. */
interface StackServer {
  url: string;
  apiKey: string;
  databaseId: string;
  stop: () => Promise<void>;
}

const startServer = async (env: NodeJS.ProcessEnv): Promise<StackServer> => {
  const { child, ready } = await startServerChild<ChatChildMessage>('chat-child.ts', env);
  return { url: ready.url, apiKey: ready.apiKey, databaseId: ready.databaseId, stop: () => stopChild(child) };
};

const headersOf = (server: StackServer) => ({ 'X-API-Key': server.apiKey, 'X-Tenant-Id': '1' });

/** A new conversation on the demo shop (one greeting answered); its id. */
const newConversation = async (server: StackServer): Promise<string> => {
  const response = await fetch(`${server.url}/api/v1/chat/message`, {
    method: 'POST',
    headers: { ...headersOf(server), 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'Hello', database_id: server.databaseId }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /chat/message answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: { conversation_id: string } }).data.conversation_id;
};

/** One stream, read with an SSE parser as the chunks arrive. */
const stream = async (server: StackServer, conversationId: string, message: string): Promise<Timing> => {
  const started = performance.now();
  const response = await fetch(
    `${server.url}/api/v1/chat/${conversationId}/stream?message=${encodeURIComponent(message)}`,
    { headers: headersOf(server) },
  );
  if (response.status !== 200)
    throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const arrivals: number[] = [];
  let last: string | undefined;
  const parser = createParser({
    onEvent: (event) => {
      arrivals.push(performance.now() - started);
      last = event.event;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  const total = performance.now() - started;
  if (last !== 'done') throw new Error(`stream ended with ${last ?? 'no event'} instead of done`);
  return { first: arrivals[0] ?? total, total, arrivals, events: arrivals.length, last };
};

// ---- the delayed engine's provider -------------------------------------------------------------

/**
 * An OpenAI-compatible server: proposals (plain requests) count the orders; answers (`stream:
 * true`) stream TOKENS tokens TOKEN_INTERVAL_MS apart, as chat.completion.chunk events.
 */
const startDelayedProvider = async (): Promise<{ baseUrl: string; close: () => Promise<void> }> => {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const streamed = (JSON.parse(body) as { stream?: boolean }).stream === true;
      if (!streamed) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            choices: [
              {
                message: {
                  role: 'assistant',
                  content: JSON.stringify({
                    kind: 'sql',
                    sql: 'SELECT count(*) AS order_count FROM orders',
                    description: 'Counting orders',
                  }),
                },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 900, completion_tokens: 30 },
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let sent = 0;
      const next = () => {
        if (response.destroyed) return;
        if (sent === TOKENS) {
          response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
          return;
        }
        response.write(chunk({ content: sent === 0 ? 'Token 0' : ` token ${sent}` }));
        sent++;
        setTimeout(next, TOKEN_INTERVAL_MS);
      };
      next();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

// ---- the measurement ---------------------------------------------------------------------------

const measureBuiltinStreams = async () => {
  const server = await startServer({ ...process.env });
  try {
    let conversation = '';
    const ask = async (i: number) => {
      if (i % PER_CONVERSATION === 0) conversation = await newConversation(server);
      return stream(server, conversation, questions[i % questions.length]!);
    };
    for (let i = 0; i < WARMUP; i++) await ask(i);
    const timings: Timing[] = [];
    for (let i = 0; i < STREAMS; i++) timings.push(await ask(i));
    // The same questions answered buffered (endpoint 5), under the same load: the baseline.
    const buffered: number[] = [];
    for (let i = 0; i < BUFFERED; i++) {
      if (i % PER_CONVERSATION === 0) conversation = await newConversation(server);
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/chat/${conversation}/message`, {
        method: 'POST',
        headers: { ...headersOf(server), 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: questions[i % questions.length] }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`POST /chat/{id}/message answered ${response.status}`);
      buffered.push(performance.now() - started);
    }
    return { timings, buffered };
  } finally {
    await server.stop();
  }
};

const measureDelayedStreams = async () => {
  const provider = await startDelayedProvider();
  const server = await startServer({
    ...process.env,
    ANSWER_ENGINE: 'openai:bench-delayed',
    OPENAI_BASE_URL: provider.baseUrl,
  });
  try {
    const conversation = await newConversation(server);
    const timings: Timing[] = [];
    for (let i = 0; i < DELAYED_STREAMS + 2; i++) {
      // A few streams per conversation: its history stays short.
      const id = i % 5 === 0 ? await newConversation(server) : conversation;
      const timing = await stream(server, id, 'How many orders are there?');
      if (i >= 2) timings.push(timing);
    }
    return timings;
  } finally {
    await server.stop();
    await provider.close();
  }
};

export const measureStream = async (): Promise<Section> => {
  const { timings: builtin, buffered } = await measureBuiltinStreams();
  const delayed = await measureDelayedStreams();

  const first = builtin.map((t) => t.first);
  const total = builtin.map((t) => t.total);
  const firstP50 = percentile(first, 50);
  const delayedFirst = median(delayed.map((t) => t.first));
  const delayedLastContent = median(delayed.map((t) => t.arrivals.at(-2) ?? t.total));
  const delayedTotal = median(delayed.map((t) => t.total));
  const gaps = delayed.flatMap((t) =>
    t.arrivals.slice(1, -1).map((at, index) => at - (t.arrivals[index] ?? at)),
  );
  const gapMedian = median(gaps);
  const spread = delayedLastContent - delayedFirst;
  // Unbuffered: the content events span about (TOKENS - 1) intervals, as the tokens did.
  const unbuffered = spread >= (TOKENS - 1) * TOKEN_INTERVAL_MS * 0.7;
  const events = median(builtin.map((t) => t.events));

  const figures: Figure[] = [
    {
      name: '(k) stream, builtin: first event (p50)',
      measured: `p50 ${fixed(firstP50)} ms, p99 ${fixed(percentile(first, 99))} ms`,
      target: `≤ ${FIRST_EVENT_TARGET_MS} ms`,
      pass: firstP50 <= FIRST_EVENT_TARGET_MS,
    },
    {
      name: '(k) stream, builtin: whole stream',
      measured: `p50 ${fixed(percentile(total, 50))} ms, p99 ${fixed(percentile(total, 99))} ms`,
      target: 'reported',
    },
    {
      name: '(k) same questions buffered (endpoint 5)',
      measured: `p50 ${fixed(percentile(buffered, 50))} ms, p99 ${fixed(percentile(buffered, 99))} ms`,
      target: 'reported',
    },
    {
      name: '(k) stream, delayed engine: events as produced',
      measured: `first ${fixed(delayedFirst)} ms, last piece ${fixed(delayedLastContent)} ms, gap median ${fixed(gapMedian)} ms`,
      target: `span ≥ ${fixed((TOKENS - 1) * TOKEN_INTERVAL_MS * 0.7, 0)} ms`,
      pass: unbuffered,
    },
  ];
  // The machine's load skews latency most: say how busy it was.
  const load = loadavg()
    .map((value) => fixed(value, 2))
    .join(' / ');
  for (const figure of figures) printFigure(figure);

  const markdown = `## (k) Streaming answers through the local gateway

${table(
  [
    'Stream',
    'First event p50 (ms)',
    'First event p99 (ms)',
    'Whole stream p50 (ms)',
    'Whole stream p99 (ms)',
    'Events (median)',
  ],
  [
    [
      `builtin engine, demo shop (${STREAMS})`,
      fixed(firstP50),
      fixed(percentile(first, 99)),
      fixed(percentile(total, 50)),
      fixed(percentile(total, 99)),
      fixed(events, 0),
    ],
    [
      `openai engine, ${TOKENS} tokens ${TOKEN_INTERVAL_MS} ms apart (${DELAYED_STREAMS})`,
      fixed(delayedFirst),
      fixed(
        percentile(
          delayed.map((t) => t.first),
          99,
        ),
      ),
      fixed(delayedTotal),
      fixed(
        percentile(
          delayed.map((t) => t.total),
          99,
        ),
      ),
      fixed(median(delayed.map((t) => t.events)), 0),
    ],
  ],
)}

${table(
  ['Figure', 'Value', 'Target', 'Result'],
  [
    [
      'Builtin, first event p50',
      `${fixed(firstP50)} ms`,
      `≤ ${FIRST_EVENT_TARGET_MS} ms`,
      verdict(figures[0]!.pass),
    ],
    [
      'Delayed engine, first → last content event (medians)',
      `${fixed(delayedFirst)} → ${fixed(delayedLastContent)} ms (span ${fixed(spread)} ms)`,
      `≥ ${fixed((TOKENS - 1) * TOKEN_INTERVAL_MS * 0.7, 0)} ms`,
      verdict(unbuffered),
    ],
    ['Delayed engine, inter-arrival median', `${fixed(gapMedian)} ms`, `≈ ${TOKEN_INTERVAL_MS} ms`, '—'],
    [
      `Same questions buffered, \`POST /chat/{id}/message\` (${BUFFERED})`,
      `p50 ${fixed(percentile(buffered, 50))} ms, p99 ${fixed(percentile(buffered, 99))} ms`,
      '—',
      '—',
    ],
  ],
)}

Method: a child process (bench/chat-child.ts, as in (j)) starts DynamoDB Local in memory, an enterprise organization
whose own limits are beyond reach, an sk_ key and the demo shop (PGlite), and serves every route through the local
gateway. This process is the client and reads each stream with eventsource-parser as the chunks arrive: the first
event is the first \`data\` event, the whole stream ends with the body after \`event: done\`. Builtin: ${WARMUP} warm-up
streams, then ${STREAMS} sequential streams rotating over ${questions.length} questions (${questions.map((q) => `“${q}”`).join(', ')}),
${PER_CONVERSATION} per conversation (a conversation is started with one chat message, not timed); then ${BUFFERED} buffered
answers to the same questions on endpoint 5, the baseline under the same load. Delayed engine: a
second child with \`ANSWER_ENGINE=openai\` against an OpenAI-compatible server in this process, which answers
proposals at once (a count of orders) and streams the answer's ${TOKENS} tokens ${TOKEN_INTERVAL_MS} ms apart; ${DELAYED_STREAMS}
streams (after 2 warm-up). Unbuffered when the content events span at least 70 % of the ${fixed((TOKENS - 1) * TOKEN_INTERVAL_MS, 0)} ms the
tokens took; the inter-arrival median is over consecutive content events. Everything shares this machine (load
average at the end ${load}).
`;
  return { figures, markdown };
};

// Run alone: node bench/stream.ts
if (import.meta.main) {
  const section = await measureStream();
  console.log(section.markdown);
}
