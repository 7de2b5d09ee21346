// Asking questions end to end over HTTP through the local gateway (spec endpoints 5 and 6), on the
// demo shop (PGlite, local/demo/shop.sql) registered in a test organization: a plain-English
// question answered with rows, a follow-up in the same conversation, the errors a client meets
// (database_id, unknown database, pk_ keys, X-Tenant-Id), message limits and Server-Timing on
// the answering variant only, and two messages to one conversation at once.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorFor } from '#lib/connectors/index.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway, TEST_JWT_SECRET } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

type Headers = Record<string, string>;

const post = (path: string, headers: Headers, body: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const chat = (headers: Headers, body: unknown) => post('/api/v1/chat/message', headers, body);
const toConversation = (id: string, headers: Headers, body: unknown) =>
  post(`/api/v1/chat/${id}/message`, headers, body);

const expectError = async (response: Response, status: number, code: string, errorCode: string) => {
  const body = await jsonOf(response);
  expect({ status: response.status, code: body.error?.code, errorCode: body.error_code }).toEqual({
    status,
    code,
    errorCode,
  });
  expect(body.trace_id).toBe(response.headers.get('x-request-id'));
  return body;
};

/** Orders of one tenant placed in 2025, counted directly. */
const ordersIn2025 = async (tenant: number): Promise<number> => {
  const connector = await connectorFor(shop);
  const { rows } = await connector.execute(
    "SELECT count(*) AS n FROM public.orders WHERE org_id = $1 AND ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'",
    [tenant],
    { timeoutMs: 30_000 },
  );
  return Number(rows[0]?.n);
};

describe('asking a question', () => {
  it('answers a plain-English question with rows, in the superset shape, with Server-Timing', async () => {
    // Arrange
    const expected = await ordersIn2025(1);

    // Act
    const response = await chat(
      { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' },
      { message: 'How many orders were placed in 2025?', database_id: shop.id },
    );

    // Assert
    expect(response.status).toBe(200);
    const { data } = await jsonOf(response);
    expect(data).toEqual({
      message: `There are ${expected.toLocaleString('en-US')} orders in 2025.`,
      conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      session_id: data.conversation_id,
      sources: ['database'],
      query_type: 'sql',
      execution_time_ms: expect.any(Number),
      results: [{ order_count: expected }],
      row_count: 1,
      results_truncated: false,
      sql: expect.stringMatching(/^SELECT COUNT\(\*\) AS order_count/),
      interpretation: expect.stringMatching(/orders/i),
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      answered_by: 'builtin',
      // One value: no chart; follow-ups the builtin engine answers on this database.
      chart: null,
      suggestions: expect.any(Array),
    });
    expect(data.suggestions.length).toBeGreaterThan(0);
    // Every suggested follow-up, asked back, is answered with SQL.
    for (const suggestion of data.suggestions as string[]) {
      const followUp = await chat(
        { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' },
        { message: suggestion, database_id: shop.id },
      );
      const followBody = await jsonOf(followUp);
      expect(followBody.data?.query_type, `${suggestion}: ${JSON.stringify(followBody).slice(0, 300)}`).toBe(
        'sql',
      );
    }
    expect(response.headers.get('server-timing')).toMatch(
      /load;dur=[\d.]+, engine;dur=[\d.]+, guard;dur=[\d.]+, db;dur=[\d.]+, store;dur=[\d.]+, total;dur=[\d.]+/,
    );
    // The answering variant counts toward the message limit (30 a minute).
    expect(response.headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('continues the conversation: a follow-up through endpoint 5, and through session_id', async () => {
    // Arrange
    const headers = { 'X-API-Key': acme.sk, 'X-Tenant-Id': '2', 'X-Scope-Id': 'customer-7' };
    const first = await jsonOf(
      await chat(headers, { message: 'How many orders were placed in 2025?', database_id: shop.id }),
    );
    const id = first.data.conversation_id as string;

    // Act
    const followUp = await toConversation(id, headers, { message: 'and how many of those were cancelled?' });
    const bySession = await chat(headers, { message: 'what about 2024?', session_id: id });

    // Assert
    expect(followUp.status).toBe(200);
    const narrowed = (await jsonOf(followUp)).data;
    expect(narrowed.conversation_id).toBe(id);
    expect(narrowed.message).toMatch(/^There are \d+ cancelled orders in 2025\.$/);
    expect(narrowed.results[0].order_count).toBeLessThan(first.data.results[0].order_count);
    const moved = (await jsonOf(bySession)).data;
    expect(moved.session_id).toBe(id);
    expect(moved.message).toMatch(/in 2024\.$/);
    // The history endpoints show the exchange, with the answers' metadata.
    const history = await jsonOf(
      await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${id}&order=asc`, { headers }),
    );
    expect(history.data.messages.map((m: { sender: string }) => m.sender)).toEqual([
      'USER',
      'ASSISTANT',
      'USER',
      'ASSISTANT',
      'USER',
      'ASSISTANT',
    ]);
    expect(history.data.messages[1].metadata).toMatchObject({
      query_type: 'sql',
      execution_time_ms: first.data.execution_time_ms,
      sql: first.data.sql,
      row_count: 1,
    });
  });

  it('answers a portal user (JWT) and an embed session on its own database', async () => {
    // Arrange
    const token = await new SignJWT({ org_id: acme.organization.id, role: 'member', token_use: 'portal' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('42')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

    // Act
    const byJwt = await chat(
      { Authorization: `Bearer ${token}`, 'X-Tenant-Id': '3' },
      { message: 'hello', database_id: shop.id },
    );
    const session = await post(
      '/api/v1/embed/sessions',
      { 'X-API-Key': acme.sk },
      { database_id: shop.id, tenant_id: '3' },
    );
    const byKey = await chat(
      { Authorization: `Bearer ${(await jsonOf(session)).data.token}` },
      { message: 'hello', database_id: shop.id },
    );

    // Assert
    expect(byJwt.status).toBe(200);
    expect((await jsonOf(byJwt)).data).toMatchObject({
      query_type: 'conversational',
      sources: [],
      sql: null,
    });
    expect(byKey.status).toBe(200);
  });
});

describe('what a client gets wrong', () => {
  it('needs database_id on a first message: 400 naming body.database_id', async () => {
    const body = await expectError(
      await chat({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' }, { message: 'How many orders?' }),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(body.details).toEqual([expect.objectContaining({ field: 'body.database_id', code: 'REQUIRED' })]);
  });

  it('answers 404 DATABASE_NOT_FOUND for an unknown database or another organization’s', async () => {
    // Arrange
    const other = await makeOrganization('professional');

    // Act / Assert
    await expectError(
      await chat({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' }, { message: 'hi', database_id: randomUUID() }),
      404,
      'DATABASE_NOT_FOUND',
      'NOT_FOUND_DATABASE',
    );
    await expectError(
      await chat({ 'X-API-Key': other.sk, 'X-Tenant-Id': '1' }, { message: 'hi', database_id: shop.id }),
      404,
      'DATABASE_NOT_FOUND',
      'NOT_FOUND_DATABASE',
    );
  });

  it('refuses a pk_ key on another database of its organization with 403', async () => {
    await expectError(
      await chat({ 'X-API-Key': acme.pk, 'X-Tenant-Id': '1' }, { message: 'hi', database_id: shop.id }),
      403,
      'FORBIDDEN',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
  });

  it('needs X-Tenant-Id on the scoped demo database: 403 MISSING_REQUIRED_HEADER', async () => {
    const body = await expectError(
      await chat({ 'X-API-Key': acme.sk }, { message: 'How many orders?', database_id: shop.id }),
      403,
      'INVALID_TENANT_ID',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
    expect(body.details).toEqual([
      { field: 'X-Tenant-Id', message: expect.any(String), code: 'MISSING_REQUIRED_HEADER' },
    ]);
  });

  it('answers 404 for a new conversation id without database_id, and for another scope’s conversation', async () => {
    // Arrange
    const id = randomUUID();
    await toConversation(
      id,
      { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': 'alice' },
      {
        message: 'hello',
        database_id: shop.id,
      },
    );

    // Act / Assert
    await expectError(
      await toConversation(randomUUID(), { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' }, { message: 'hello' }),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    await expectError(
      await toConversation(
        id,
        { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': 'bob' },
        {
          message: 'hello',
          database_id: shop.id,
        },
      ),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
  });
});

describe('one conversation, two messages at once', () => {
  it('stores both questions and both answers', async () => {
    // Arrange
    const id = randomUUID();
    const headers = { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': 'busy' };

    // Act
    const responses = await Promise.all([
      toConversation(id, headers, { message: 'How many customers are there?', database_id: shop.id }),
      toConversation(id, headers, { message: 'How many products are there?', database_id: shop.id }),
    ]);

    // Assert
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const history = await jsonOf(
      await fetch(`${gateway.url}/api/v1/chat/history?conversation_id=${id}&order=asc`, { headers }),
    );
    const messages = history.data.messages as { sender: string; content: string }[];
    expect(messages).toHaveLength(4);
    expect(
      messages
        .filter((m) => m.sender === 'USER')
        .map((m) => m.content)
        .sort(),
    ).toEqual(['How many customers are there?', 'How many products are there?']);
    expect(messages.filter((m) => m.sender === 'ASSISTANT')).toHaveLength(2);
  });
});

describe('the append variant on the same route', () => {
  it('still appends (201), counted toward the plan’s limits only', async () => {
    const response = await chat(
      { 'X-API-Key': acme.sk, 'X-Scope-Id': 'importer' },
      { conversation_id: randomUUID(), role: 'user', content: 'imported' },
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-limit')).toBe('500');
    expect(response.headers.get('server-timing')).toBeNull();
  });
});
