// The streaming function as deployed: `serverless package --stage prod` bundles functions/stream.ts
// (stream.zip), and the packaged stream.mjs is imported in a fresh Node process (nothing but the
// zip and the AWS SDK) under a minimal Lambda response-stream shim: the runtime's `awslambda`
// global (streamifyResponse, HttpResponseStream.from writing the JSON prelude and 8 NUL bytes),
// and a Writable as the response stream. Against DynamoDB Local, one conversation answered without
// a database (a greeting: prelude with status 200 and the SSE headers, `data` events, then
// `event: done`, the answer stored), and one whose database cannot be reached (the prelude, then
// `event: error` with the envelope, and the end).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendMessage, conversationMessagePage } from '#lib/store/messages.ts';
import { apiEvent } from '../helpers/events.ts';
import {
  lambdaContextSource,
  type PackagedStage,
  packagedEnvironment,
  packageStage,
  runPackaged,
  seedOrdersDatabase,
} from '../helpers/packaged.ts';

const SCOPE = 'smoke-scope';
/** Precedes the response bytes on the child's stdout (anything else there is not the response). */
const MARK = '@@response@@';

let stage: PackagedStage | undefined;
let extractDir: string;

beforeAll(async () => {
  stage = await packageStage('stream');
  extractDir = await stage.unzip('stream.zip');
}, 240_000);

afterAll(() => {
  stage?.remove();
});

/** An organization, a key, a postgres database nobody listens on, and a conversation on it. */
const seed = async () => {
  const { organizationId, databaseId, key } = await seedOrdersDatabase(
    'Packaged stream',
    'postgres://tabletalk:unused@127.0.0.1:9/none',
  );
  const conversationId = randomUUID();
  await appendMessage({
    conversationId,
    organizationId,
    scope: { scopeId: SCOPE, tenant: '1' },
    role: 'user',
    content: 'Hi there',
    conversation: { title: 'Hi there', userId: '', databaseId, personalityId: undefined },
  });
  return { organizationId, conversationId, key };
};

const streamEvent = (conversationId: string, key: string, message: string) =>
  apiEvent({
    method: 'GET',
    path: `/api/v1/chat/${conversationId}/stream`,
    resource: '/api/v1/chat/{conversation_id}/stream',
    pathParameters: { conversation_id: conversationId },
    query: { message },
    headers: { 'X-API-Key': key, 'X-Tenant-Id': '1', 'X-Scope-Id': SCOPE },
  });

/**
 * Imports the packaged bundle in a fresh Node process under the shim, invokes its handler with
 * one event and returns the bytes written to the response stream, as text.
 */
const invokePackaged = async (event: unknown): Promise<string> => {
  const script = `
    const [file, eventJson] = process.argv.slice(1);
    const MARK = '${MARK}';
    const { Writable } = await import('node:stream');
    globalThis.awslambda = {
      streamifyResponse: (fn) => fn,
      HttpResponseStream: {
        from: (stream, prelude) => {
          stream.write(Buffer.concat([Buffer.from(JSON.stringify(prelude)), Buffer.alloc(8)]));
          return stream;
        },
      },
    };
    const { handler } = await import(file);
    const chunks = [];
    const sink = new Writable({ write(chunk, _encoding, callback) { chunks.push(Buffer.from(chunk)); callback(); } });
    const finished = new Promise((done) => sink.on('finish', done));
    const context = ${lambdaContextSource('tabletalk-prod-stream')};
    await handler(JSON.parse(eventJson), sink, context);
    await finished;
    process.stdout.write('\\n' + MARK + Buffer.concat(chunks).toString('base64'));
    process.exit(0);
  `;
  const { stdout } = await runPackaged(script, join(extractDir, 'functions', 'stream.mjs'), event, {
    cwd: extractDir,
    env: packagedEnvironment(),
  });
  const at = stdout.lastIndexOf(MARK);
  expect(at, stdout.slice(0, 2_000)).toBeGreaterThanOrEqual(0);
  return Buffer.from(stdout.slice(at + MARK.length).trim(), 'base64').toString('utf8');
};

/** The prelude (JSON before the 8 NUL bytes) and the events after it. */
const readResponse = (raw: string) => {
  const separator = raw.indexOf('\0'.repeat(8));
  expect(separator).toBeGreaterThan(0);
  const prelude = JSON.parse(raw.slice(0, separator)) as {
    statusCode: number;
    headers: Record<string, string>;
  };
  const body = raw.slice(separator + 8);
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(body);
  return { prelude, body, events };
};

describe('the packaged stream function under a response-stream shim', () => {
  it('writes the prelude, the answer as data events, then done, and stores the answer', async () => {
    // Arrange
    const { organizationId, conversationId, key } = await seed();

    // Act
    const raw = await invokePackaged(streamEvent(conversationId, key, 'Hello!'));

    // Assert
    const { prelude, events } = readResponse(raw);
    expect(prelude.statusCode).toBe(200);
    expect(prelude.headers).toMatchObject({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    });
    expect(events.length).toBeGreaterThanOrEqual(2);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(JSON.parse(done.data)).toEqual({
      conversation_id: conversationId,
      sources: [],
      query_type: 'conversational',
      execution_time_ms: expect.any(Number),
      row_count: 0,
      results: [],
      results_truncated: false,
      interpretation: null,
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      answered_by: 'builtin',
      chart: null,
      suggestions: expect.any(Array),
    });
    // Status events (the steps) come first, then the answer's pieces.
    const statuses = events.filter((event) => event.event === 'status');
    expect(events.slice(0, statuses.length)).toEqual(statuses);
    const content = events.slice(statuses.length, -1);
    for (const event of content) expect(event.event).toBeUndefined();
    const text = content.map((event) => JSON.parse(event.data).content as string).join('');
    expect(text.length).toBeGreaterThan(0);
    const page = await conversationMessagePage(
      organizationId,
      { scopeId: SCOPE, tenant: '1' },
      conversationId,
      {
        limit: 10,
        order: 'asc',
      },
    );
    expect(page.items.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Hi there'],
      ['user', 'Hello!'],
      ['assistant', text],
    ]);
  }, 90_000);

  it('sends `event: error` with the envelope after the prelude when the database cannot be reached', async () => {
    // Arrange
    const { conversationId, key } = await seed();

    // Act
    const raw = await invokePackaged(streamEvent(conversationId, key, 'How many orders are there?'));

    // Assert
    const { prelude, events } = readResponse(raw);
    expect(prelude.statusCode).toBe(200);
    // The steps it reached, then the error.
    expect(events.map((event) => event.event)).toEqual(['status', 'status', 'status', 'error']);
    const envelope = JSON.parse(events.at(-1)!.data);
    expect(envelope).toMatchObject({
      success: false,
      error: { code: 'DB_CONNECTION_FAILED' },
      status_code: 500,
    });
    expect(envelope.trace_id).toEqual(expect.any(String));
  }, 90_000);
});
