// The typed TypeScript client (clients/typescript) against the local stack: the key, scope and
// tenant given once; answers, conversations, the control plane; a streamed answer as an async
// iterator of typed events; every failure a typed value (the API's envelope, or no answer).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { createClient, type StreamEvent } from '../../clients/typescript/src/index.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
let manageKey: string;
const QUESTION = 'How many orders were placed in 2025?';

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  manageKey = (await createApiKey({ organizationId: acme.organization.id, kind: 'sk', manage: true })).key;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

const client = (scope = 'client-user-1') =>
  createClient({ baseUrl: gateway.url, apiKey: acme.sk, scope, tenant: '1' });

describe('the typed client', () => {
  it('has one call per operation of the document', async () => {
    const document = await client().getOpenApiDocument();
    expect(document.ok).toBe(true);
    const paths = (document.ok ? document.data : {}) as {
      paths?: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(paths.paths ?? {}).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(operationIds.length).toBeGreaterThan(30);
    const calls = new Set(Object.keys(client()));
    expect(operationIds.filter((id) => !calls.has(id))).toEqual([]);
  });

  it('asks, lists and reads a conversation with the key, scope and tenant given once', async () => {
    // Act
    const answer = await client().sendMessage({ message: QUESTION, database_id: shop.id });

    // Assert
    if (!answer.ok) throw new Error(JSON.stringify(answer.error));
    expect(answer.status).toBe(200);
    expect(answer.requestId).toMatch(/^req_/);
    const { conversation_id: conversationId, message } = answer.data.data;
    expect(message).toMatch(/\d/);
    const listed = await client().listConversations({ limit: 10 });
    if (!listed.ok) throw new Error(JSON.stringify(listed.error));
    expect(listed.data.data.conversations.map((conversation) => conversation.id)).toContain(conversationId);
    const history = await client().getConversationHistory(conversationId);
    if (!history.ok) throw new Error(JSON.stringify(history.error));
    expect(history.data.data.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);

    // Another end user of the same organization sees none of it.
    const other = await client().with({ scope: 'client-user-2' }).getConversationHistory(conversationId);
    expect(other).toMatchObject({ ok: false, status: 404, error: { kind: 'api', code: 'NOT_FOUND' } });
  });

  it('streams an answer as an async iterator of typed events, ending with done', async () => {
    // Arrange
    const first = await client().sendMessage({ message: QUESTION, database_id: shop.id });
    if (!first.ok) throw new Error(JSON.stringify(first.error));

    // Act
    const stream = await client().streamAnswer(first.data.data.conversation_id, {
      message: 'And how many customers are there?',
    });
    if (!stream.ok) throw new Error(JSON.stringify(stream.error));
    const events: StreamEvent[] = [];
    for await (const event of stream.data) events.push(event);

    // Assert
    const last = events.at(-1);
    expect(last?.event).toBe('done');
    const pieces = events.flatMap((event) => (event.event === 'message' ? [event.data.content] : []));
    expect(pieces.length).toBeGreaterThan(0);
    if (last?.event !== 'done') throw new Error('no done event');
    expect(last.data.conversation_id).toBe(first.data.data.conversation_id);
    const history = await client().getConversationHistory(first.data.data.conversation_id);
    if (!history.ok) throw new Error(JSON.stringify(history.error));
    expect(history.data.data.messages.at(-1)?.content).toBe(pieces.join(''));
  });

  it('calls the control plane with a manage key', async () => {
    const manage = createClient({ baseUrl: gateway.url, apiKey: manageKey });
    const databases = await manage.listDatabases({ page: 1, page_size: 10 });
    if (!databases.ok) throw new Error(JSON.stringify(databases.error));
    expect(databases.data.data.map((database) => database.id)).toContain(shop.id);
    const glossary = await manage.putGlossary(shop.id, { synonyms: { buyers: 'customers' } });
    if (!glossary.ok) throw new Error(JSON.stringify(glossary.error));
    const read = await manage.getGlossary(shop.id);
    expect(read).toMatchObject({ ok: true, data: { data: { synonyms: { buyers: 'customers' } } } });
  });
});

describe('its errors are values', () => {
  it('an unknown key: 401 with the envelope and its codes', async () => {
    const result = await createClient({ baseUrl: gateway.url, apiKey: 'sk_unknown' }).getBranding();
    expect(result).toMatchObject({
      ok: false,
      status: 401,
      error: { kind: 'api', status: 401, code: 'UNAUTHORIZED', errorCode: 'AUTH_INVALID_CREDENTIALS' },
    });
    if (result.ok || result.error.kind !== 'api') throw new Error('expected an API error');
    expect(result.error.envelope?.trace_id).toBe(result.requestId);
  });

  it('a refused stream: the error before any event', async () => {
    const result = await client().streamAnswer('0192f7a0-1c1d-7b2e-8f00-0123456789ab', { message: 'hi' });
    expect(result).toMatchObject({ ok: false, status: 404, error: { kind: 'api', code: 'NOT_FOUND' } });
  });

  it('a list that needs a scope, without one: 403', async () => {
    const result = await createClient({ baseUrl: gateway.url, apiKey: acme.sk }).listConversations();
    expect(result).toMatchObject({ ok: false, status: 403, error: { kind: 'api', code: 'FORBIDDEN' } });
  });

  it('no answer at all: a network error, not an exception', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => done(free));
      });
    });
    const result = await createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: acme.sk }).getBranding();
    expect(result).toMatchObject({ ok: false, status: 0, error: { kind: 'network', code: 'NETWORK_ERROR' } });
  });
});
