// docs/design.md "Round trips of a chat message": a chat message costs at most 4 DynamoDB round
// trips, the limiter's included — a question in a new conversation, a follow-up, a streamed
// follow-up, and the same for a visitor (an embed session, whose own windows are counted too).
// Through the local gateway on the demo shop (PGlite), every DynamoDB command of the process
// counted while one request runs (after a warm-up, as a warm Lambda serves it).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signEmbedToken } from '#lib/auth/embed-token.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { type DynamoDbCalls, recordDynamoDbCalls } from '../helpers/dynamodb-calls.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
let calls: DynamoDbCalls | undefined;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
}, 60_000);

afterEach(() => {
  calls?.stop();
  calls = undefined;
});

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

const MAX_ROUND_TRIPS = 4;

type Headers = Record<string, string>;

const post = (path: string, headers: Headers, body: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The DynamoDB commands one request sends, the body read to its end. */
const counted = async (send: () => Promise<Response>) => {
  calls = recordDynamoDbCalls();
  const response = await send();
  const text = await response.text();
  // Nothing of the request runs after its body has ended; a moment for anything that would.
  await new Promise((done) => setTimeout(done, 100));
  const sent = [...calls.sent];
  calls.stop();
  calls = undefined;
  return { status: response.status, text, sent };
};

const integrator = { 'X-API-Key': '', 'X-Tenant-Id': '1' };

describe('a chat message', () => {
  it(`costs at most ${MAX_ROUND_TRIPS} DynamoDB round trips with an sk_ key: new conversation, follow-up, streamed follow-up`, async () => {
    // Arrange: a warm container (keys, organization, database and schema index cached).
    const headers = { ...integrator, 'X-API-Key': acme.sk };
    const warm = await post('/api/v1/chat/message', headers, {
      message: 'How many customers are there?',
      database_id: shop.id,
    });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();

    // Act
    const fresh = await counted(() =>
      post('/api/v1/chat/message', headers, {
        message: 'How many orders were placed in 2025?',
        database_id: shop.id,
      }),
    );
    const id = (JSON.parse(fresh.text) as { data: { conversation_id: string } }).data.conversation_id;
    const followUp = await counted(() =>
      post(`/api/v1/chat/${id}/message`, headers, { message: 'and how many of those were cancelled?' }),
    );
    const streamed = await counted(() =>
      fetch(`${gateway.url}/api/v1/chat/${id}/stream?message=${encodeURIComponent('what about 2024?')}`, {
        headers,
      }),
    );

    // Assert
    for (const request of [fresh, followUp, streamed]) {
      expect(request.status).toBe(200);
      expect(request.sent.length, request.sent.join(', ')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    }
    expect(streamed.text).toContain('event: done');
  });

  it(`costs at most ${MAX_ROUND_TRIPS} DynamoDB round trips for a visitor (embed session), whose own windows count too`, async () => {
    // Arrange
    const { token } = await signEmbedToken({
      organizationId: acme.organization.id,
      databaseId: shop.id,
      tenant: '1',
      scope: `visitor-${randomUUID()}`,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    const headers = { Authorization: `Bearer ${token}` };
    const warm = await post('/api/v1/chat/message', headers, {
      message: 'How many customers are there?',
      database_id: shop.id,
    });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    const id = randomUUID();

    // Act
    const first = await counted(() =>
      post(`/api/v1/chat/${id}/message`, headers, {
        message: 'How many orders were placed in 2025?',
        database_id: shop.id,
      }),
    );
    const followUp = await counted(() =>
      post(`/api/v1/chat/${id}/message`, headers, { message: 'and how many of those were cancelled?' }),
    );

    // Assert
    for (const request of [first, followUp]) {
      expect(request.status, request.text).toBe(200);
      expect(request.sent.length, request.sent.join(', ')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    }
    const { data } = await jsonOf(
      await post(`/api/v1/chat/${id}/message`, headers, { message: 'what about 2024?' }),
    );
    expect(data.conversation_id).toBe(id);
  });
});
