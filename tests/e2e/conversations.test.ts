// End to end over HTTP through the local gateway: appending, listing, reading and deleting
// conversations (spec endpoints 1, 2, 3, 4, 7) with real keys, plans, scopes and portal JWTs.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway, TEST_JWT_SECRET } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
});
afterAll(() => gateway?.close());

type Headers = Record<string, string>;
const as = (key: string, scope?: string): Headers => ({
  'X-API-Key': key,
  ...(scope === undefined ? {} : { 'X-Scope-Id': scope }),
});

const request = (method: string, path: string, headers: Headers, body?: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const appendTo = async (
  headers: Headers,
  conversationId: string,
  role: string,
  content: string,
  metadata?: unknown,
) => {
  const response = await request('POST', '/api/v1/chat/message', headers, {
    conversation_id: conversationId,
    role,
    content,
    ...(metadata === undefined ? {} : { metadata }),
  });
  expect(response.status).toBe(201);
  return (await jsonOf(response)).data as { message_id: string; conversation_id: string; created_at: string };
};

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

const portalToken = (organizationId: number, sub: string, role: 'owner' | 'admin' | 'member' = 'member') =>
  new SignJWT({ org_id: organizationId, role, token_use: 'portal' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('a conversation’s life over HTTP', () => {
  it('appends, lists, reads both histories and deletes', async () => {
    // Arrange
    const scope = as(acme.sk, `customer-${randomUUID()}`);
    const id = randomUUID();

    // Act: append (the first append creates the conversation)
    const first = await appendTo(scope, id, 'user', 'What were the top products last month?');
    const second = await appendTo(scope, id, 'assistant', 'Top products: …', {
      query_type: 'sql',
      execution_time_ms: 35,
    });

    // Assert: the append responses
    expect(first.conversation_id).toBe(id);
    expect(first.created_at).toMatch(iso);
    expect(first.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // The list
    const list = await jsonOf(await request('GET', '/api/v1/chat/conversations', scope));
    expect(list).toEqual({
      success: true,
      data: {
        conversations: [
          {
            id,
            organizationId: acme.organization.id,
            scopeId: scope['X-Scope-Id'],
            tenantId: null,
            title: 'What were the top products last month?',
            lastMessageAt: second.created_at,
            messageCount: 2,
            createdAt: first.created_at,
          },
        ],
        hasMore: false,
      },
    });

    // Messages of the scope, newest first, with the ids append returned
    const messages = await jsonOf(await request('GET', '/api/v1/chat/history', scope));
    expect(messages.data).toEqual({
      messages: [
        {
          id: second.message_id,
          content: 'Top products: …',
          sender: 'ASSISTANT',
          timestamp: second.created_at,
          type: 'text',
          metadata: { query_type: 'sql', execution_time_ms: 35 },
        },
        {
          id: first.message_id,
          content: 'What were the top products last month?',
          sender: 'USER',
          timestamp: first.created_at,
          type: 'text',
          metadata: {},
        },
      ],
      hasMore: false,
    });
    const oldestFirst = await jsonOf(
      await request('GET', `/api/v1/chat/history?conversation_id=${id}&order=asc&limit=1`, scope),
    );
    expect(oldestFirst.data.messages.map((m: { id: string }) => m.id)).toEqual([first.message_id]);
    expect(oldestFirst.data.hasMore).toBe(true);

    // The whole conversation
    const whole = await jsonOf(await request('GET', `/api/v1/chat/${id}/history`, scope));
    expect(whole).toEqual({
      success: true,
      data: {
        conversation_id: id,
        messages: [
          { role: 'USER', content: 'What were the top products last month?', timestamp: first.created_at },
          { role: 'ASSISTANT', content: 'Top products: …', timestamp: second.created_at },
        ],
        organization_id: acme.organization.id,
        user_id: 0,
        truncated: false,
      },
    });

    // Delete, then nothing is left
    const deleted = await request('DELETE', `/api/v1/chat/${id}`, scope);
    expect(deleted.status).toBe(200);
    expect(await jsonOf(deleted)).toEqual({ success: true, data: { message: 'Conversation deleted' } });
    await expectError(
      await request('GET', `/api/v1/chat/${id}/history`, scope),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    await expectError(
      await request('DELETE', `/api/v1/chat/${id}`, scope),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    expect((await jsonOf(await request('GET', '/api/v1/chat/history', scope))).data).toEqual({
      messages: [],
      hasMore: false,
    });
    expect((await jsonOf(await request('GET', '/api/v1/chat/conversations', scope))).data).toEqual({
      conversations: [],
      hasMore: false,
    });
  });

  it('records the portal user who created a conversation as user_id', async () => {
    const token = await portalToken(acme.organization.id, '4711');
    const headers = { Authorization: `Bearer ${token}`, 'X-Scope-Id': 'portal-user' };
    const id = randomUUID();
    await appendTo(headers, id, 'user', 'hello from the portal');
    const whole = await jsonOf(await request('GET', `/api/v1/chat/${id}/history`, headers));
    expect(whole.data).toMatchObject({
      conversation_id: id,
      organization_id: acme.organization.id,
      user_id: 4711,
    });
  });

  it('pages through conversations with cursors', async () => {
    const scope = as(acme.sk, `pager-${randomUUID()}`);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await appendTo(scope, id, 'user', `conversation ${id}`);
    const first = await jsonOf(await request('GET', '/api/v1/chat/conversations?limit=2', scope));
    expect(first.data.conversations.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.data).toMatchObject({ hasMore: true, cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    const second = await jsonOf(
      await request('GET', `/api/v1/chat/conversations?limit=2&cursor=${first.data.cursor}`, scope),
    );
    expect(second.data).toEqual({ conversations: [expect.objectContaining({ id: ids[0] })], hasMore: false });
  });
});

describe('access over HTTP', () => {
  const routes = (id: string): [string, string, unknown?][] => [
    ['GET', '/api/v1/chat/conversations'],
    ['GET', '/api/v1/chat/history'],
    ['GET', `/api/v1/chat/history?conversation_id=${id}`],
    ['GET', `/api/v1/chat/${id}/history`],
    ['DELETE', `/api/v1/chat/${id}`],
    ['POST', '/api/v1/chat/message', { conversation_id: id, role: 'user', content: 'hi' }],
  ];

  it('is 403 FORBIDDEN without X-Scope-Id on every endpoint', async () => {
    for (const [method, path, body] of routes(randomUUID())) {
      const error = await expectError(
        await request(method, path, as(acme.sk), body),
        403,
        'FORBIDDEN',
        'AUTH_INSUFFICIENT_PERMISSIONS',
      );
      expect(error.details[0].field).toBe('X-Scope-Id');
    }
  });

  it('is 403 for a pk_ key, and for sk_ keys of plans without custom_api_access', async () => {
    const starter = await makeOrganization('starter');
    const trial = await makeOrganization('free');
    for (const [method, path, body] of routes(randomUUID())) {
      await expectError(
        await request(method, path, as(acme.pk, 's'), body),
        403,
        'FORBIDDEN',
        'AUTH_INSUFFICIENT_PERMISSIONS',
      );
      await expectError(
        await request(method, path, as(starter.sk, 's'), body),
        403,
        'FORBIDDEN',
        'BUSINESS_FEATURE_NOT_AVAILABLE',
      );
      await expectError(
        await request(method, path, as(trial.sk, 's'), body),
        403,
        'PLAN_FEATURE_REQUIRED',
        'BUSINESS_SUBSCRIPTION_REQUIRED',
      );
    }
  });

  it('lets a portal member read a conversation but not delete it; an admin or owner deletes it', async () => {
    // Arrange
    const scope = `portal-${randomUUID()}`;
    const id = randomUUID();
    await appendTo(as(acme.sk, scope), id, 'user', 'keep me');
    const asRole = async (role: 'owner' | 'admin' | 'member') => ({
      Authorization: `Bearer ${await portalToken(acme.organization.id, '4711', role)}`,
      'X-Scope-Id': scope,
    });
    const member = await asRole('member');

    // Act + Assert: the member reads, and is refused the delete, which changes nothing.
    expect((await request('GET', `/api/v1/chat/${id}/history`, member)).status).toBe(200);
    const refused = await expectError(
      await request('DELETE', `/api/v1/chat/${id}`, member),
      403,
      'FORBIDDEN',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
    expect(refused.message).toMatch(/member role/);
    expect((await request('GET', `/api/v1/chat/${id}/history`, member)).status).toBe(200);

    // An admin deletes; an owner may too (on a second conversation).
    expect((await request('DELETE', `/api/v1/chat/${id}`, await asRole('admin'))).status).toBe(200);
    expect((await request('GET', `/api/v1/chat/${id}/history`, member)).status).toBe(404);
    const second = randomUUID();
    await appendTo(as(acme.sk, scope), second, 'user', 'and me');
    expect((await request('DELETE', `/api/v1/chat/${second}`, await asRole('owner'))).status).toBe(200);
  });

  it('is 404 for another scope’s or organization’s conversation on every endpoint, and changes nothing', async () => {
    // Arrange
    const other = await makeOrganization('professional');
    const owner = as(acme.sk, 'owner');
    const id = randomUUID();
    const mine = await appendTo(owner, id, 'user', 'private');

    // Act + Assert
    for (const stranger of [as(acme.sk, 'stranger'), as(other.sk, 'owner')]) {
      for (const [method, path, body] of routes(id).filter(([, path]) => path.includes(id))) {
        await expectError(
          await request(method, path, stranger, body),
          404,
          'NOT_FOUND',
          'NOT_FOUND_RESOURCE',
        );
      }
    }
    const whole = await jsonOf(await request('GET', `/api/v1/chat/${id}/history`, owner));
    expect(whole.data.messages).toEqual([{ role: 'USER', content: 'private', timestamp: mine.created_at }]);
  });

  it('is 400 for a conversation id that is not a UUID', async () => {
    const scope = as(acme.sk, 's');
    for (const [method, path, field] of [
      ['GET', '/api/v1/chat/history?conversation_id=42', 'query.conversation_id'],
      ['GET', '/api/v1/chat/42/history', 'path.conversation_id'],
      ['DELETE', '/api/v1/chat/42', 'path.conversation_id'],
    ] as const) {
      const error = await expectError(
        await request(method, path, scope),
        400,
        'VALIDATION_ERROR',
        'VALIDATION_ERROR',
      );
      expect(error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
  });
});

describe('validation over HTTP', () => {
  it('refuses a cursor replayed under another scope with 400 on field cursor', async () => {
    const alice = as(acme.sk, `alice-${randomUUID()}`);
    const bob = as(acme.sk, `bob-${randomUUID()}`);
    for (let index = 0; index < 2; index += 1) {
      await appendTo(alice, randomUUID(), 'user', `a${index}`);
      await appendTo(bob, randomUUID(), 'user', `b${index}`);
    }
    for (const path of ['/api/v1/chat/conversations?limit=1', '/api/v1/chat/history?limit=1']) {
      const { data } = await jsonOf(await request('GET', path, alice));
      expect(data.cursor).toEqual(expect.any(String));
      const replay = await request('GET', `${path}&cursor=${data.cursor}`, bob);
      const error = await expectError(replay, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
      expect(error.details).toEqual([
        { field: 'cursor', message: expect.any(String), code: 'INVALID_CURSOR' },
      ]);
      const tampered = `${data.cursor.slice(0, 10)}${data.cursor[10] === 'A' ? 'B' : 'A'}${data.cursor.slice(11)}`;
      await expectError(
        await request('GET', `${path}&cursor=${tampered}`, alice),
        400,
        'VALIDATION_ERROR',
        'VALIDATION_ERROR',
      );
    }
  });

  it('refuses a body with both variants, and a first chat message without database_id, with 400', async () => {
    const scope = as(acme.sk, 's');
    const both = await expectError(
      await request('POST', '/api/v1/chat/message', scope, {
        conversation_id: randomUUID(),
        role: 'user',
        content: 'x',
        message: 'x',
      }),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(both.message).toMatch(/role.*message/);
    const chat = await expectError(
      await request('POST', '/api/v1/chat/message', scope, { message: 'hi' }),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(chat.details).toEqual([expect.objectContaining({ field: 'body.database_id', code: 'REQUIRED' })]);
  });

  it('refuses limits out of bounds naming the bound, and a bad order', async () => {
    const scope = as(acme.sk, 's');
    const tooMany = await expectError(
      await request('GET', '/api/v1/chat/conversations?limit=101', scope),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(tooMany.details).toEqual([
      { field: 'query.limit', message: 'limit must be at most 100', code: expect.any(String) },
    ]);
    const order = await expectError(
      await request('GET', '/api/v1/chat/history?order=sideways', scope),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(order.details[0].field).toBe('query.order');
  });

  it('answers a known path with the wrong method with 405', async () => {
    const response = await request('GET', `/api/v1/chat/${randomUUID()}`, as(acme.sk, 's'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('DELETE');
  });
});
