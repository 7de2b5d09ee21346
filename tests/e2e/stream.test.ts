// Streaming answers end to end through the local gateway (spec endpoint 8, DESIGN.md
// "Streaming"): server-sent events parsed with eventsource-parser, in order, the `done` payload,
// the stored messages (the assistant message is the concatenation of the streamed chunks), the
// errors that are plain JSON envelopes before the stream starts, and a client that goes away.
import { randomUUID } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
// Loaded after the gateway installed the `awslambda` global the function needs at import.
let pacing: { pieceDelayMs: number };

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  ({ pacing } = await import('../../functions/stream.ts'));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

type Headers = Record<string, string>;
const QUESTION = 'How many orders were placed in 2025?';
/** The history endpoints need X-Scope-Id: every request here runs in one end user's scope. */
const headersOf = (): Headers => ({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': 'customer-1' });

/** Starts a conversation on the demo shop with one answered message; returns its id. */
const startConversation = async (headers: Headers): Promise<string> => {
  const response = await fetch(`${gateway.url}/api/v1/chat/message`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'hello', database_id: shop.id }),
  });
  expect(response.status).toBe(200);
  return (await jsonOf(response)).data.conversation_id as string;
};

const streamUrl = (id: string, message?: string) =>
  `${gateway.url}/api/v1/chat/${id}/stream${message === undefined ? '' : `?message=${encodeURIComponent(message)}`}`;

/** Every event of a response body, in order, with the comments seen. */
const readEvents = async (response: Response) => {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return { events, comments };
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
      while (!received.includes('\n\n')) {
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
    const first = JSON.parse(received.slice('data: '.length, received.indexOf('\n\n'))).content as string;
    expect(messages[3]!.content).toBe(first);
  });
});
