// Streaming answers end to end through the local gateway (spec endpoint 8, docs/design.md
// "Streaming"): server-sent events parsed with eventsource-parser, in order, the `done` payload,
// the stored messages (the assistant message is the concatenation of the streamed chunks), the
// errors that are plain JSON envelopes before the stream starts, `: ping` while idle, and a
// client that goes away. Through the openai engine against the local fake OpenAI-compatible
// server: the model's tokens streamed as they arrive, a model that fails before writing (the
// deterministic answer instead) and one that breaks off mid-answer (`event: error` after the
// pieces, then the end of the stream).
import { randomUUID } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearEngines } from '#lib/answer/registry.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { createPersonality, type Personality } from '#lib/store/personalities.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import {
  type FakeOpenAi,
  recordedStreams,
  reply,
  startFakeOpenAi,
  streamed,
} from '../helpers/fake-openai.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
// Loaded after the gateway installed the `awslambda` global the function needs at import.
let pacing: { pieceDelayMs: number; pingIntervalMs: number };
let fake: FakeOpenAi;
/** A personality answering with the openai engine, on the fake server. */
let modelPersonality: Personality;
let previousBaseUrl: string | undefined;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  previousBaseUrl = process.env.OPENAI_BASE_URL;
  process.env.OPENAI_BASE_URL = fake.baseUrl;
  clearEngines();
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  modelPersonality = await createPersonality({
    organizationId: acme.organization.id,
    name: 'Streaming model',
    engine: 'openai',
    model: 'gpt-stream-e2e',
  });
  ({ pacing } = await import('../../functions/stream.ts'));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
  await fake?.close();
  if (previousBaseUrl === undefined) delete process.env.OPENAI_BASE_URL;
  else process.env.OPENAI_BASE_URL = previousBaseUrl;
  clearEngines();
});

type Headers = Record<string, string>;
const QUESTION = 'How many orders were placed in 2025?';
/** The history endpoints need X-Scope-Id: every request here runs in one end user's scope. */
const headersOf = (): Headers => ({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': 'customer-1' });

/** Starts a conversation on the demo shop with one answered message; returns its id. */
const startConversation = async (headers: Headers, personalityId?: string): Promise<string> => {
  const response = await fetch(`${gateway.url}/api/v1/chat/message`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      message: 'hello',
      database_id: shop.id,
      ...(personalityId ? { personality_id: personalityId } : {}),
    }),
  });
  expect(response.status).toBe(200);
  return (await jsonOf(response)).data.conversation_id as string;
};

const streamUrl = (id: string, message?: string) =>
  `${gateway.url}/api/v1/chat/${id}/stream${message === undefined ? '' : `?message=${encodeURIComponent(message)}`}`;

/**
 * Every event of a response body, in order, with the comments seen and when each event arrived
 * (ms after `started`, a performance.now() reading).
 */
const readEvents = async (response: Response, started = performance.now()) => {
  const events: EventSourceMessage[] = [];
  const arrivals: number[] = [];
  const comments: string[] = [];
  /** The `status` events (before the first piece), apart from the answer's events. */
  const statuses: { step: string; message: string; at: number; before: number }[] = [];
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === 'status') {
        statuses.push({ ...JSON.parse(event.data), at: performance.now() - started, before: events.length });
        return;
      }
      events.push(event);
      arrivals.push(performance.now() - started);
    },
    onComment: (comment) => comments.push(comment),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return { events, arrivals, comments, statuses };
};

const historyOf = async (id: string, headers: Headers) =>
  (
    await jsonOf(
      await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${id}&order=asc`, { headers }),
    )
  ).data.messages as { sender: string; content: string; metadata?: Record<string, unknown> }[];

const expectEnvelope = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await jsonOf(response);
  expect(body.error?.code).toBe(code);
  expect(body.trace_id).toBe(response.headers.get('x-request-id'));
  return body;
};

describe('streaming an answer', () => {
  it('sends content events, then done, and stores both messages (the answer is the chunks joined)', async () => {
    // Arrange
    const headers = headersOf();
    const id = await startConversation(headers);

    // Act
    const response = await fetch(streamUrl(id, QUESTION), { headers });
    const { events } = await readEvents(response);

    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('x-ratelimit-limit')).toBe('30');
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const content = events.slice(0, -1);
    expect(content.length).toBeGreaterThan(0);
    for (const event of content) {
      expect(event.event).toBeUndefined();
      expect(Object.keys(JSON.parse(event.data))).toEqual(['content']);
    }
    const text = content.map((event) => JSON.parse(event.data).content as string).join('');
    expect(text).toMatch(/orders/);
    const payload = JSON.parse(done.data);
    expect(payload).toEqual({
      conversation_id: id,
      sources: ['database'],
      query_type: 'sql',
      execution_time_ms: expect.any(Number),
      row_count: 1,
      results: [expect.any(Object)],
      results_truncated: false,
      interpretation: expect.any(String),
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      answered_by: 'builtin',
      chart: null,
      suggestions: expect.any(Array),
    });
    const messages = await historyOf(id, headers);
    expect(messages.map((m) => m.sender)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(messages[2]!.content).toBe(QUESTION);
    expect(messages[3]!.content).toBe(text);
    expect(messages[3]!.metadata).toMatchObject({ query_type: 'sql', row_count: 1 });
    expect(messages[3]!.metadata?.incomplete).toBeUndefined();
  });

  it('refuses a missing or empty message with a JSON 400, before any stream', async () => {
    const headers = headersOf();
    const id = await startConversation(headers);
    await expectEnvelope(await fetch(streamUrl(id), { headers }), 400, 'VALIDATION_ERROR');
    await expectEnvelope(await fetch(streamUrl(id, '   '), { headers }), 400, 'VALIDATION_ERROR');
    await expectEnvelope(await fetch(streamUrl(id, 'x'.repeat(4_001)), { headers }), 400, 'VALIDATION_ERROR');
    // Nothing was stored for them.
    expect(await historyOf(id, headers)).toHaveLength(2);
  });

  it('answers an unknown conversation with a JSON 404', async () => {
    const headers = headersOf();
    const response = await fetch(streamUrl(randomUUID(), QUESTION), { headers });
    await expectEnvelope(response, 404, 'NOT_FOUND');
  });

  it('creates an unknown conversation when database_id is given, as the chat endpoints do', async () => {
    // Arrange
    const headers = headersOf();
    const id = randomUUID();
    const url = `${streamUrl(id, QUESTION)}&database_id=${shop.id}`;

    // Act
    const response = await fetch(url, { headers });
    const { events } = await readEvents(response);

    // Assert
    expect(response.status).toBe(200);
    const done = JSON.parse(events.at(-1)!.data);
    expect(done).toMatchObject({ conversation_id: id, query_type: 'sql', row_count: 1 });
    expect(done.results).toHaveLength(1);
    const messages = await historyOf(id, headers);
    expect(messages.map((m) => [m.sender, m.content.length > 0])).toEqual([
      ['USER', true],
      ['ASSISTANT', true],
    ]);
    expect(messages[0]!.content).toBe(QUESTION);
    // Another database than the conversation's is refused on the query's field.
    const other = await fetch(`${streamUrl(id, QUESTION)}&database_id=${randomUUID()}`, { headers });
    const body = await expectEnvelope(other, 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([expect.objectContaining({ field: 'query.database_id' })]);
    // Another scope cannot take the id over: a JSON 404 before any stream, and nothing stored.
    const intruder = { ...headers, 'X-Scope-Id': 'customer-2' };
    await expectEnvelope(await fetch(url, { headers: intruder }), 404, 'NOT_FOUND');
    expect(await historyOf(id, headers)).toHaveLength(2);
  });

  it('requires authentication like the chat endpoints', async () => {
    const response = await fetch(streamUrl(randomUUID(), QUESTION));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('stops when the client goes away and stores what was sent, marked incomplete', async () => {
    // Arrange
    const headers = headersOf();
    const id = await startConversation(headers);
    pacing.pieceDelayMs = 300;
    const controller = new AbortController();
    let received = '';
    try {
      // Act
      // A ranking is composed in two pieces, a headline and the list: the client leaves after the first.
      const response = await fetch(streamUrl(id, 'top 5 customers by revenue'), {
        headers,
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      // Status events come first; the client leaves after the first piece of the answer.
      const firstPiece = /(?:^|\n)data: (\{"content"[^\n]*)\n\n/;
      while (!firstPiece.test(received)) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
      controller.abort();
    } finally {
      pacing.pieceDelayMs = 0;
    }

    // Assert
    await expect
      .poll(async () => (await historyOf(id, headers)).length, { timeout: 5_000, interval: 100 })
      .toBe(4);
    const messages = await historyOf(id, headers);
    expect(messages[3]!.sender).toBe('ASSISTANT');
    expect(messages[3]!.metadata).toMatchObject({ incomplete: true });
    // What the client received before it left.
    const first = JSON.parse(/(?:^|\n)data: (\{"content"[^\n]*)\n\n/.exec(received)![1]!).content as string;
    expect(messages[3]!.content).toBe(first);
  });
});

describe('an idle stream', () => {
  it('sends `: ping` comments while no piece is ready', async () => {
    // Arrange: pieces 250 ms apart, pings after 60 ms of silence
    const headers = headersOf();
    const id = await startConversation(headers);
    pacing.pieceDelayMs = 250;
    pacing.pingIntervalMs = 60;
    let read: Awaited<ReturnType<typeof readEvents>>;
    try {
      // Act
      read = await readEvents(await fetch(streamUrl(id, 'top 5 customers by revenue'), { headers }));
    } finally {
      pacing.pieceDelayMs = 0;
      pacing.pingIntervalMs = 15_000;
    }

    // Assert: pings, and the events intact around them
    expect(read.comments.filter((comment) => comment.trim() === 'ping').length).toBeGreaterThanOrEqual(2);
    expect(read.events.at(-1)?.event).toBe('done');
    expect(read.events.slice(0, -1).every((event) => event.event === undefined)).toBe(true);
  });
});

describe('streaming through a model engine', () => {
  const countQuery = reply({
    kind: 'sql',
    sql: 'SELECT count(*) AS order_count FROM orders',
    description: 'Counting orders',
  });

  /** A conversation on the model personality, started with a greeting the model answers. */
  const modelConversation = async (greeting: string) => {
    const headers = headersOf();
    fake.reset();
    fake.respond(reply({ kind: 'conversational', message: greeting }));
    return { headers, id: await startConversation(headers, modelPersonality.id) };
  };

  it('streams the model’s tokens as they arrive, then done, and stores them joined', async () => {
    // Arrange
    const { headers, id } = await modelConversation('Hello! Ask me about your shop.');
    const tokens = ['You have', ' 42', ' orders', ' in total.'];
    fake.respond(countQuery, streamed(tokens, { intervalMs: 80 }));

    // Act
    const started = performance.now();
    const response = await fetch(streamUrl(id, 'How many orders are there?'), { headers });
    const { events, arrivals } = await readEvents(response, started);

    // Assert
    expect(response.status).toBe(200);
    expect(events.map((event) => event.event)).toEqual([undefined, undefined, undefined, undefined, 'done']);
    expect(events.slice(0, -1).map((event) => JSON.parse(event.data).content)).toEqual(tokens);
    // Each token when the model sent it: the first long before the last.
    expect(arrivals[3]! - arrivals[0]!).toBeGreaterThan(180);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({
      conversation_id: id,
      sources: ['database'],
      query_type: 'sql',
      execution_time_ms: expect.any(Number),
      row_count: 1,
      results: [expect.any(Object)],
      results_truncated: false,
      interpretation: expect.any(String),
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      answered_by: 'model',
      chart: null,
      suggestions: expect.any(Array),
    });
    // The composition request was streamed, with the rows as data.
    const composition = fake.requests.at(-1)!.body;
    expect(composition).toMatchObject({ stream: true, model: 'gpt-stream-e2e' });
    expect(composition.messages[1]?.content).toContain('<rows returned="1" shown="1" more="false">');
    const messages = await historyOf(id, headers);
    expect(messages[3]!.content).toBe(tokens.join(''));
    expect(messages[3]!.metadata).toMatchObject({
      engine: 'openai',
      model: 'gpt-stream-e2e',
      query_type: 'sql',
    });
  });

  it('sends a status per step before the first piece, the first within 100 ms while the model takes 1.5 s', async () => {
    // Arrange: one streamed answer first, so that what is timed is the warm path (a container's
    // first request also loads modules, the schema index and the tokenizer).
    const { headers, id } = await modelConversation('Hello!');
    fake.respond(countQuery, streamed(['42 orders.']));
    await readEvents(await fetch(streamUrl(id, 'How many orders are there?'), { headers }));
    let modelAskedAt = Number.POSITIVE_INFINITY;
    fake.respond(
      () => {
        modelAskedAt = performance.now();
        return { ...countQuery, delayMs: 1_500 };
      },
      streamed(['There are', ' 42 orders.']),
    );

    // Act
    const started = performance.now();
    const response = await fetch(streamUrl(id, 'How many orders are there now?'), { headers });
    const { events, statuses } = await readEvents(response, started);

    // Assert
    expect(statuses.map((status) => status.step)).toEqual([
      'reading_question',
      'writing_query',
      'running_query',
      'writing_answer',
    ]);
    expect(statuses.every((status) => status.before === 0)).toBe(true);
    expect(statuses[0]!.message).toBe('Reading the question…');
    // The first status is out before the model is even asked (its prompt, the query patterns and
    // the model's 1.5 s all come after it), and within 100 ms of the request.
    expect(started + statuses[0]!.at).toBeLessThan(modelAskedAt);
    expect(statuses[0]!.at).toBeLessThan(100);
    expect(statuses[2]!.at).toBeGreaterThan(1_400);
    expect(events.at(-1)?.event).toBe('done');
  });

  it('answers with the deterministic composition when the model fails before writing', async () => {
    const { headers, id } = await modelConversation('Hello!');
    fake.respond(countQuery, {
      status: 503,
      body: { error: { message: 'The server is overloaded', type: 'server_error' } },
    });

    const { events } = await readEvents(
      await fetch(streamUrl(id, 'How many orders are there?'), { headers }),
    );

    expect(events.at(-1)?.event).toBe('done');
    const text = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.data).content as string)
      .join('');
    expect(text).toMatch(/^The result is [\d,]+\.$/);
    const messages = await historyOf(id, headers);
    expect(messages[3]!.content).toBe(text);
    expect(messages[3]!.metadata?.incomplete).toBeUndefined();
  });

  it('ends with `event: error` after the pieces when the model breaks off mid-answer', async () => {
    // Arrange
    const { headers, id } = await modelConversation('Hello!');
    fake.respond(countQuery, recordedStreams.dropped);

    // Act
    const response = await fetch(streamUrl(id, 'How many orders are there?'), { headers });
    const { events } = await readEvents(response);

    // Assert: the pieces, then the error envelope, then the end of the stream
    expect(response.status).toBe(200);
    expect(events.map((event) => event.event)).toEqual([undefined, undefined, 'error']);
    expect(events.slice(0, 2).map((event) => JSON.parse(event.data).content)).toEqual([
      'There are 42',
      ' orders',
    ]);
    const envelope = JSON.parse(events[2]!.data);
    expect(envelope).toMatchObject({
      success: false,
      error: { code: 'EXTERNAL_LLM_ERROR', details: 'UNAVAILABLE' },
      status_code: 500,
      details: [{ field: 'provider', message: 'openai', code: 'UNAVAILABLE' }],
      trace_id: response.headers.get('x-request-id'),
    });
    // Stored as sent, marked cut and failed.
    const messages = await historyOf(id, headers);
    expect(messages[3]!.content).toBe('There are 42 orders');
    expect(messages[3]!.metadata).toMatchObject({
      incomplete: true,
      error: { code: 'EXTERNAL_LLM_ERROR', detail: 'UNAVAILABLE' },
    });
  });
});
