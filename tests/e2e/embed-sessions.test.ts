// Embed sessions end to end over HTTP through the local gateway (docs/design.md "Embed sessions"),
// on the demo shop (PGlite, local/demo/shop.sql, three tenants) registered in a test organization:
// a server creates sessions with its sk_ key; a token answers with its own tenant's rows only
// (the headers cannot change it), streams, reads and deletes only its own scope's conversations,
// is refused on another database, after expiry, with a bad signature and from an unlisted page;
// pk_ keys are refused on the scoped database; each token scope has its own message limit.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { signEmbedToken } from '#lib/auth/embed-token.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { ANSWERING_TEST_ROUTE, jsonOf, startTestGateway } from '../helpers/gateway.ts';
import { roomInThisMinute } from '../helpers/limits.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
let shopKey: string;
/** A database of the same organization that filters rows by no tenant. */
let plain: DatabaseRecord;
const PAGE = 'https://shop.example';
const QUESTION = 'How many orders were placed in 2025?';

beforeAll(async () => {
  gateway = await startTestGateway([ANSWERING_TEST_ROUTE]);
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  plain = await registerDatabase({
    organizationId: acme.organization.id,
    requiresOrganizationScoping: false,
  });
  shopKey = (await createApiKey({ organizationId: acme.organization.id, kind: 'pk', databaseId: shop.id }))
    .key;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

type Headers = Record<string, string>;

const request = (method: string, path: string, headers: Headers, body?: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const expectError = async (response: Response, status: number, code: string, errorCode: string) => {
  const body = await jsonOf(response);
  expect({ status: response.status, code: body.error?.code, errorCode: body.error_code }).toEqual({
    status,
    code,
    errorCode,
  });
  return body;
};

/** A session created by the integrator's server with its sk_ key. */
const session = async (body: Record<string, unknown>, sk = acme.sk): Promise<string> => {
  const response = await request('POST', '/api/v1/embed/sessions', { 'X-API-Key': sk }, body);
  const json = await jsonOf(response);
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json.data.token as string;
};

const bearer = (token: string, extra: Headers = {}): Headers => ({
  Authorization: `Bearer ${token}`,
  ...extra,
});

const ask = (headers: Headers, body: Record<string, unknown> = {}) =>
  request('POST', '/api/v1/chat/message', headers, { message: QUESTION, database_id: shop.id, ...body });

/** The rows of an answer, to compare who saw what. */
const rowsOf = async (response: Response): Promise<unknown> => {
  const body = await jsonOf(response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.data.query_type).toBe('sql');
  return body.data.results;
};

describe('creating a session', () => {
  it('answers 201 with the token, its expiry, database, tenant and scope', async () => {
    const response = await request(
      'POST',
      '/api/v1/embed/sessions',
      { 'X-API-Key': acme.sk },
      { database_id: shop.id, tenant_id: '1', scope_id: 'user-7', ttl_seconds: 300 },
    );
    const body = await jsonOf(response);
    expect(response.status).toBe(201);
    expect(body).toEqual({
      success: true,
      data: {
        token: expect.stringMatching(/^et_/),
        expires_at: expect.any(String),
        database_id: shop.id,
        tenant_id: '1',
        scope_id: 'user-7',
      },
    });
    const seconds = (Date.parse(body.data.expires_at) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(290);
    expect(seconds).toBeLessThanOrEqual(300);
  });

  it('needs tenant_id on this scoped database, checked against the tenant column', async () => {
    const missing = await request(
      'POST',
      '/api/v1/embed/sessions',
      { 'X-API-Key': acme.sk },
      { database_id: shop.id },
    );
    const malformed = await request(
      'POST',
      '/api/v1/embed/sessions',
      { 'X-API-Key': acme.sk },
      { database_id: shop.id, tenant_id: 'acme' },
    );
    expect(
      (await expectError(missing, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR')).details[0],
    ).toMatchObject({
      field: 'body.tenant_id',
      code: 'REQUIRED',
    });
    expect(
      (await expectError(malformed, 400, 'VALIDATION_ERROR', 'VALIDATION_ERROR')).details[0],
    ).toMatchObject({
      field: 'body.tenant_id',
      code: 'INVALID_FORMAT',
    });
  });
});

describe('a pk_ key on a database that filters rows by tenant', () => {
  it('is refused with 403 EMBED_SESSION_REQUIRED whatever tenant and scope headers it sends', async () => {
    for (const headers of [{}, { 'X-Tenant-Id': '1' }, { 'X-Tenant-Id': '2', 'X-Scope-Id': 'v' }]) {
      const body = await expectError(
        await ask({ 'X-API-Key': shopKey, ...headers }),
        403,
        'FORBIDDEN',
        'AUTH_INSUFFICIENT_PERMISSIONS',
      );
      expect(body.details).toEqual([
        expect.objectContaining({ field: 'X-API-Key', code: 'EMBED_SESSION_REQUIRED' }),
      ]);
      expect(body.message).toMatch(/embed session/);
    }
    const stream = await request(
      'GET',
      `/api/v1/chat/${randomUUID()}/stream?message=hi&database_id=${shop.id}`,
      { 'X-API-Key': shopKey, 'X-Tenant-Id': '1' },
    );
    await expectError(stream, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
  });
});

describe('an et_ token', () => {
  it("answers with its own tenant's rows, which no header changes", async () => {
    // Arrange
    const one = await session({ database_id: shop.id, tenant_id: '1', scope_id: 'visitor-a' });
    const two = await session({ database_id: shop.id, tenant_id: '2', scope_id: 'visitor-b' });

    // Act
    const [asOne, asTwo, serverOne, serverTwo] = await Promise.all([
      ask(bearer(one)).then(rowsOf),
      ask(bearer(two)).then(rowsOf),
      ask({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '1' }).then(rowsOf),
      ask({ 'X-API-Key': acme.sk, 'X-Tenant-Id': '2' }).then(rowsOf),
    ]);
    const otherTenant = await ask(bearer(one, { 'X-Tenant-Id': '2' }));
    const otherScope = await ask(bearer(one, { 'X-Scope-Id': 'visitor-b' }));
    const sameHeaders = await ask(bearer(one, { 'X-Tenant-Id': '1', 'X-Scope-Id': 'visitor-a' }));

    // Assert
    expect(serverOne).not.toEqual(serverTwo);
    expect(asOne).toEqual(serverOne);
    expect(asTwo).toEqual(serverTwo);
    const tenantError = await expectError(
      otherTenant,
      403,
      'INVALID_TENANT_ID',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
    expect(tenantError.details[0].field).toBe('X-Tenant-Id');
    const scopeError = await expectError(otherScope, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(scopeError.details[0].field).toBe('X-Scope-Id');
    expect(await rowsOf(sameHeaders)).toEqual(serverOne);
  });

  it('streams an answer and reads the branding', async () => {
    const token = await session({ database_id: shop.id, tenant_id: '3' });
    const stream = await request(
      'GET',
      `/api/v1/chat/${randomUUID()}/stream?message=${encodeURIComponent(QUESTION)}&database_id=${shop.id}`,
      bearer(token),
    );
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('event: done');
    expect((await request('GET', '/api/v1/branding', bearer(token))).status).toBe(200);
  });

  it("reads and deletes its own scope's conversations only", async () => {
    // Arrange: visitor a asks; visitor b (same tenant) and the server look on.
    const a = await session({ database_id: shop.id, tenant_id: '1', scope_id: `a-${randomUUID()}` });
    const b = await session({ database_id: shop.id, tenant_id: '1', scope_id: `b-${randomUUID()}` });
    const unscoped = await session({ database_id: shop.id, tenant_id: '1' });
    const answered = await ask(bearer(a));
    const id = (await jsonOf(answered)).data.conversation_id as string;

    // Act / Assert: a sees it in every history endpoint
    const listed = await jsonOf(await request('GET', '/api/v1/chat/conversations', bearer(a)));
    expect(listed.data.conversations.map((c: { id: string }) => c.id)).toEqual([id]);
    const messages = await jsonOf(
      await request('GET', `/api/v1/chat/history?conversation_id=${id}`, bearer(a)),
    );
    expect(messages.data.messages).toHaveLength(2);
    expect((await request('GET', `/api/v1/chat/${id}/history`, bearer(a))).status).toBe(200);

    // b sees nothing of it, and cannot delete it
    const listedByB = await jsonOf(await request('GET', '/api/v1/chat/conversations', bearer(b)));
    expect(listedByB.data.conversations).toEqual([]);
    await expectError(
      await request('GET', `/api/v1/chat/${id}/history`, bearer(b)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    await expectError(
      await request('GET', `/api/v1/chat/history?conversation_id=${id}`, bearer(b)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    await expectError(
      await request('DELETE', `/api/v1/chat/${id}`, bearer(b)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );

    // a token without a scope reads no history: 403 as a missing X-Scope-Id
    for (const [method, path] of [
      ['GET', '/api/v1/chat/conversations'],
      ['GET', '/api/v1/chat/history'],
      ['GET', `/api/v1/chat/${id}/history`],
      ['DELETE', `/api/v1/chat/${id}`],
    ] as const) {
      const body = await expectError(
        await request(method, path, bearer(unscoped)),
        403,
        'FORBIDDEN',
        'AUTH_INSUFFICIENT_PERMISSIONS',
      );
      expect(body.details[0].field).toBe('X-Scope-Id');
    }

    // a deletes it
    expect((await request('DELETE', `/api/v1/chat/${id}`, bearer(a))).status).toBe(200);
    await expectError(
      await request('GET', `/api/v1/chat/${id}/history`, bearer(a)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
  });

  it("keeps the conversations of one scope id apart per tenant: another tenant's visitor sees none of them", async () => {
    // Arrange: the same scope id under tenants 1 and 2 (integrators' user ids often repeat).
    const scope = `user-${randomUUID()}`;
    const first = await session({ database_id: shop.id, tenant_id: '1', scope_id: scope });
    const second = await session({ database_id: shop.id, tenant_id: '2', scope_id: scope });
    const answered = await jsonOf(await ask(bearer(first)));
    const id = answered.data.conversation_id as string;

    // Act / Assert: tenant 2's visitor lists, reads and deletes none of it.
    const listed = await jsonOf(await request('GET', '/api/v1/chat/conversations', bearer(second)));
    expect(listed.data.conversations).toEqual([]);
    const timeline = await jsonOf(await request('GET', '/api/v1/chat/history', bearer(second)));
    expect(timeline.data.messages).toEqual([]);
    await expectError(
      await request('GET', `/api/v1/chat/${id}/history`, bearer(second)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    await expectError(
      await request('DELETE', `/api/v1/chat/${id}`, bearer(second)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    // The integrator's server reads them with the visitor's own scope id and tenant.
    const server = await jsonOf(
      await request('GET', '/api/v1/chat/conversations', {
        'X-API-Key': acme.sk,
        'X-Scope-Id': scope,
        'X-Tenant-Id': '1',
      }),
    );
    expect(server.data.conversations).toEqual([
      expect.objectContaining({ id, scopeId: scope, tenantId: '1' }),
    ]);
    expect((await request('GET', `/api/v1/chat/${id}/history`, bearer(first))).status).toBe(200);
  });

  it("keeps tenant 1's alice apart from a scope id '1/alice' on a database without tenants, and from another database", async () => {
    // Arrange: tenant 1's alice asks on the shop; an attacker holds a session on a database of the
    // same organization that filters by no tenant, with the scope id `1/<alice>`, and another on a
    // second tenant-filtered database with alice's very tenant and scope.
    const scope = `alice-${randomUUID()}`;
    const alice = await session({ database_id: shop.id, tenant_id: '1', scope_id: scope });
    const answered = await jsonOf(await ask(bearer(alice)));
    const id = answered.data.conversation_id as string;
    const messageId = answered.data.message_id as string;
    const slashed = await session({ database_id: plain.id, scope_id: `1/${scope}` });
    const now = Math.floor(Date.now() / 1000);
    const { token: otherDatabase } = await signEmbedToken({
      organizationId: acme.organization.id,
      databaseId: acme.databaseId,
      tenant: '1',
      scope,
      expiresAt: now + 600,
    });

    // Act / Assert: neither lists, reads, rates nor deletes it.
    for (const token of [slashed, otherDatabase]) {
      const listed = await jsonOf(await request('GET', '/api/v1/chat/conversations', bearer(token)));
      expect(listed.data.conversations.map((c: { id: string }) => c.id)).not.toContain(id);
      const timeline = await jsonOf(await request('GET', '/api/v1/chat/history', bearer(token)));
      expect(timeline.data.messages).toEqual([]);
      for (const [method, path, body] of [
        ['GET', `/api/v1/chat/${id}/history`],
        ['GET', `/api/v1/chat/history?conversation_id=${id}`],
        ['POST', `/api/v1/chat/${id}/messages/${messageId}/feedback`, { rating: 'down' }],
        ['DELETE', `/api/v1/chat/${id}`],
      ] as const) {
        await expectError(
          await request(method, path, bearer(token), body),
          404,
          'NOT_FOUND',
          'NOT_FOUND_RESOURCE',
        );
      }
    }
    // The server's own reads: `1/<alice>` without a tenant is not alice either.
    const bySlash = await jsonOf(
      await request('GET', '/api/v1/chat/conversations', {
        'X-API-Key': acme.sk,
        'X-Scope-Id': `1/${scope}`,
      }),
    );
    expect(bySlash.data.conversations).toEqual([]);
    // alice still has it, listed under her scope id as given and her tenant apart.
    const own = await jsonOf(await request('GET', '/api/v1/chat/conversations', bearer(alice)));
    expect(own.data.conversations).toEqual([expect.objectContaining({ id, scopeId: scope, tenantId: '1' })]);
    expect((await request('GET', `/api/v1/chat/${id}/history`, bearer(alice))).status).toBe(200);
  });

  it("shows a session none of another database's messages of its very tenant and scope, appended history included, nor continues that database's cursors", async () => {
    // Arrange: the integrator's server talks about a second database with tenant 1's alice and
    // appends a history note to that conversation; sessions for the shop and the second database.
    const second = await registerDatabase({ organizationId: acme.organization.id, name: 'Second shop' });
    const scope = `alice-${randomUUID()}`;
    const server = { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': scope };
    const asked = await jsonOf(
      await request('POST', '/api/v1/chat/message', server, { message: QUESTION, database_id: second.id }),
    );
    const id = asked.data.conversation_id as string;
    const appended = await request('POST', '/api/v1/chat/message', server, {
      conversation_id: id,
      role: 'user',
      content: 'A note about the second shop',
    });
    expect(appended.status).toBe(201);
    const onShop = await session({ database_id: shop.id, tenant_id: '1', scope_id: scope });
    const onSecond = await session({ database_id: second.id, tenant_id: '1', scope_id: scope });
    const contents = async (token: string, query = '') =>
      (await jsonOf(await request('GET', `/api/v1/chat/history${query}`, bearer(token)))).data.messages.map(
        (message: { content: string }) => message.content,
      );

    // Act / Assert: the second database's session has all three messages, the shop's none.
    expect(await contents(onSecond)).toEqual(['A note about the second shop', expect.any(String), QUESTION]);
    expect(await contents(onShop)).toEqual([]);
    await expectError(
      await request('GET', `/api/v1/chat/history?conversation_id=${id}`, bearer(onShop)),
      404,
      'NOT_FOUND',
      'NOT_FOUND_RESOURCE',
    );
    // A cursor of the second database's session continues on no other database's session.
    for (const query of [`?conversation_id=${id}&limit=1&order=asc`, '?limit=1&order=asc']) {
      const first = await jsonOf(await request('GET', `/api/v1/chat/history${query}`, bearer(onSecond)));
      const cursor = encodeURIComponent(first.data.cursor as string);
      expect((await contents(onSecond, `${query}&cursor=${cursor}`)).length).toBe(1);
      const replayed = await expectError(
        await request('GET', `/api/v1/chat/history${query}&cursor=${cursor}`, bearer(onShop)),
        400,
        'VALIDATION_ERROR',
        'VALIDATION_ERROR',
      );
      expect(JSON.stringify(replayed)).toContain('INVALID_CURSOR');
      expect(JSON.stringify(replayed)).not.toContain('second shop');
    }
  });

  it('shows history your server appended before the conversation’s first question once that question names the database', async () => {
    // Arrange: the server imports a note into a new conversation, then asks on the shop in it.
    const scope = `alice-${randomUUID()}`;
    const server = { 'X-API-Key': acme.sk, 'X-Tenant-Id': '1', 'X-Scope-Id': scope };
    const id = randomUUID();
    const imported = await request('POST', '/api/v1/chat/message', server, {
      conversation_id: id,
      role: 'user',
      content: 'An imported note',
    });
    expect(imported.status).toBe(201);
    const onShop = await session({ database_id: shop.id, tenant_id: '1', scope_id: scope });
    const timeline = async () =>
      (
        await jsonOf(await request('GET', '/api/v1/chat/history?order=asc', bearer(onShop)))
      ).data.messages.map((message: { content: string }) => message.content);
    expect(await timeline()).toEqual([]);

    // Act
    const asked = await request('POST', '/api/v1/chat/message', server, {
      message: QUESTION,
      database_id: shop.id,
      conversation_id: id,
    });

    // Assert: the note is the shop's now, before the question and its answer.
    expect(asked.status).toBe(200);
    expect(await timeline()).toEqual(['An imported note', QUESTION, expect.any(String)]);
  });

  it('is 403 on another database of the organization', async () => {
    const token = await session({ database_id: shop.id, tenant_id: '1' });
    await expectError(
      await ask(bearer(token), { database_id: acme.databaseId }),
      403,
      'FORBIDDEN',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
  });

  it('is 401 AUTH_TOKEN_EXPIRED once expired and 401 AUTH_TOKEN_INVALID with a bad signature', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { token: expired } = await signEmbedToken(
      { organizationId: acme.organization.id, databaseId: shop.id, tenant: '1', expiresAt: now - 1 },
      new Date((now - 61) * 1000),
    );
    const valid = await session({ database_id: shop.id, tenant_id: '1' });
    // A character inside the signature: the last one's low bits are padding, and some changes to it
    // decode to the same bytes.
    const at = valid.length - 10;
    const badSignature = `${valid.slice(0, at)}${valid[at] === 'A' ? 'B' : 'A'}${valid.slice(at + 1)}`;
    await expectError(await ask(bearer(expired)), 401, 'UNAUTHORIZED', 'AUTH_TOKEN_EXPIRED');
    await expectError(await ask(bearer(badSignature)), 401, 'UNAUTHORIZED', 'AUTH_TOKEN_INVALID');
  });

  it('gives a listed page the answer (CORS) and refuses another origin with 403 and no CORS grant', async () => {
    const token = await session({ database_id: shop.id, tenant_id: '1', origins: [PAGE] });
    const listed = await ask(bearer(token, { Origin: PAGE }));
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(PAGE);
    const other = await ask(bearer(token, { Origin: 'https://evil.example' }));
    await expectError(other, 403, 'FORBIDDEN', 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the message limit of a token scope', () => {
  it('answers 10 messages a minute per tenant and scope, inside the organization’s 30', async () => {
    // Arrange: an organization of its own, so that the other tests' answers in this minute do not
    // count against the organization's 30.
    const own = await makeOrganization('professional');
    const ownShop = await registerDatabase({ organizationId: own.organization.id });
    const sessionOf = (body: Record<string, unknown>) =>
      session({ database_id: ownShop.id, tenant_id: '1', ...body }, own.sk);
    await roomInThisMinute(15_000);
    const scope = `limited-${randomUUID()}`;
    const first = await sessionOf({ scope_id: scope });
    // A new token for the same visitor shares the scope's count; another visitor has its own.
    const again = await sessionOf({ scope_id: scope });
    const other = await sessionOf({ scope_id: `other-${randomUUID()}` });
    const answer = (token: string) => request('POST', '/test/answer', bearer(token));

    // Act
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await answer(first);
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
      await response.arrayBuffer();
    }
    const eleventh = await answer(first);
    const sameScope = await answer(again);
    const otherScope = await answer(other);

    // Assert
    expect(statuses).toEqual(Array(10).fill(200));
    expect(remaining).toEqual(Array.from({ length: 10 }, (_, i) => String(9 - i)));
    const refused = await expectError(eleventh, 429, 'RATE_LIMIT_EXCEEDED', 'QUOTA_RATE_LIMIT_EXCEEDED');
    expect(refused.error.details).toBe('EMBED_SESSION_MESSAGES_PER_MINUTE');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(eleventh.headers.get('x-ratelimit-limit')).toBe('10');
    await expectError(sameScope, 429, 'RATE_LIMIT_EXCEEDED', 'QUOTA_RATE_LIMIT_EXCEEDED');
    expect(otherScope.status).toBe(200);
  });
});
