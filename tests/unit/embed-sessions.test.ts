import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAnswerCatalogs } from '#lib/answer/catalog.ts';
import { clearEngines } from '#lib/answer/registry.ts';
import { signEmbedToken, verifyEmbedToken } from '#lib/auth/embed-token.ts';
import { clearPrincipalCaches } from '#lib/auth/principal.ts';
import type { ErrorEnvelope } from '#lib/errors.ts';
import { handler as chatMessage } from '../../functions/chat-message.ts';
import { handler as conversations } from '../../functions/conversations.ts';
import { handler as embedSessions } from '../../functions/embed-sessions.ts';
import { ordersCatalog } from '../fixtures/catalogs/orders.ts';
import { type ApiEventInit, invoke } from '../helpers/events.ts';
import {
  databaseItem,
  FAKE_ORG,
  FAKE_PK,
  FAKE_SK,
  type FakeTable,
  fakeAnsweringTable,
} from '../helpers/fake-table.ts';

const ddb = mockClient(DynamoDBDocumentClient);

const ORG = FAKE_ORG;
const SCOPED = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5f';
const UNSCOPED = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a50';
const SCOPE_REQUIRED = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a51';
const PERSONALITY = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a61';
const SK = FAKE_SK;
const PK = FAKE_PK;

let table: FakeTable;
const _put = (item: Record<string, unknown>) => table.put(item);

beforeEach(() => {
  clearAnswerCatalogs();
  table = fakeAnsweringTable(ddb, {
    pkDatabase: SCOPED,
    databases: [
      databaseItem(SCOPED),
      databaseItem(UNSCOPED, { requiresOrganizationScoping: false }),
      databaseItem(SCOPE_REQUIRED, {
        policy: { tenant_column: 'org_id', scope_column: 'org_id', scope_required: true, tables: {} },
      }),
    ],
    personality: { id: PERSONALITY },
    catalog: ordersCatalog,
  });
});

afterEach(() => {
  ddb.reset();
  clearPrincipalCaches();
  clearEngines();
  vi.unstubAllEnvs();
});

type Response = {
  statusCode: number;
  headers: Record<string, string>;
  body: ErrorEnvelope & { data: Record<string, unknown> };
};

const expectError = (
  response: Response,
  status: number,
  errorCode: string,
  field?: string,
  code?: string,
) => {
  expect({ status: response.statusCode, errorCode: response.body.error_code }).toEqual({ status, errorCode });
  if (field) expect(response.body.details.map((issue) => issue.field)).toContain(field);
  if (code) expect(response.body.details.map((issue) => issue.code)).toContain(code);
};

const createSession = (
  body: unknown,
  headers: Record<string, string> = { 'X-API-Key': SK },
): Promise<Response> =>
  invoke(embedSessions, { method: 'POST', path: '/api/v1/embed/sessions', headers, body });

const tokenFor = async (body: Record<string, unknown>): Promise<string> => {
  const response = await createSession(body);
  expect(response.statusCode, JSON.stringify(response.body)).toBe(201);
  return response.body.data.token as string;
};

const chat = (headers: Record<string, string>, body: unknown, init: ApiEventInit = {}): Promise<Response> =>
  invoke(chatMessage, { method: 'POST', path: '/api/v1/chat/message', headers, body, ...init });

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  ...extra,
});

describe('POST /api/v1/embed/sessions', () => {
  it('answers 201 with an et_ token bound to the database, tenant, scope, origins and expiry', async () => {
    // Arrange
    const before = Math.floor(Date.now() / 1000);

    // Act
    const response = await createSession({
      database_id: SCOPED.toUpperCase(),
      tenant_id: 1,
      scope_id: 'user-7',
      origins: ['https://app.example.com', 'http://localhost:5173'],
      ttl_seconds: 120,
      personality_id: PERSONALITY,
    });

    // Assert
    expect(response.statusCode).toBe(201);
    expect(response.body).toMatchObject({
      success: true,
      data: { database_id: SCOPED, tenant_id: '1', scope_id: 'user-7' },
    });
    const token = response.body.data.token as string;
    expect(token).toMatch(/^et_[\w-]+\.[\w-]+\.[\w-]+$/);
    const expiresAt = Date.parse(response.body.data.expires_at as string) / 1000;
    expect(expiresAt - before).toBeGreaterThanOrEqual(120);
    expect(expiresAt - before).toBeLessThanOrEqual(122);
    expect(await verifyEmbedToken(token)).toMatchObject({
      organizationId: ORG,
      databaseId: SCOPED,
      tenant: '1',
      scope: 'user-7',
      origins: ['https://app.example.com', 'http://localhost:5173'],
      personalityId: PERSONALITY,
      expiresAt,
      id: expect.any(String),
    });
  });

  it('lasts 900 seconds by default and has no scope when none is given', async () => {
    const response = await createSession({ database_id: SCOPED, tenant_id: '2' });
    expect(response.statusCode).toBe(201);
    expect(response.body.data.scope_id).toBeNull();
    const session = await verifyEmbedToken(response.body.data.token as string);
    expect(session.expiresAt - Math.floor(Date.now() / 1000)).toBeGreaterThan(895);
    expect(session).not.toHaveProperty('scope');
  });

  it('requires tenant_id on a database that filters rows by tenant, and checks it against the column', async () => {
    const missing = await createSession({ database_id: SCOPED, scope_id: 'u' });
    const malformed = await createSession({ database_id: SCOPED, tenant_id: 'acme' });
    const blank = await createSession({ database_id: SCOPED, tenant_id: '  ' });
    expectError(missing, 400, 'VALIDATION_ERROR', 'body.tenant_id', 'REQUIRED');
    expectError(malformed, 400, 'VALIDATION_ERROR', 'body.tenant_id', 'INVALID_FORMAT');
    expect(malformed.body.message).toMatch(/^tenant_id must be .*integer/);
    expectError(blank, 400, 'VALIDATION_ERROR', 'body.tenant_id');
  });

  it('refuses tenant_id on a database without scoping, and issues a token without a tenant there', async () => {
    const refused = await createSession({ database_id: UNSCOPED, tenant_id: '1' });
    const plain = await createSession({ database_id: UNSCOPED, scope_id: 'user-7' });
    expectError(refused, 400, 'VALIDATION_ERROR', 'body.tenant_id', 'SCOPING_NOT_ENABLED');
    expect(plain.statusCode).toBe(201);
    expect(plain.body.data.tenant_id).toBeNull();
  });

  it('requires scope_id when the row policy says scope_required, and checks it against the scope column', async () => {
    const missing = await createSession({ database_id: SCOPE_REQUIRED, tenant_id: '1' });
    const malformed = await createSession({
      database_id: SCOPE_REQUIRED,
      tenant_id: '1',
      scope_id: 'user-7',
    });
    const given = await createSession({ database_id: SCOPE_REQUIRED, tenant_id: '1', scope_id: '7' });
    expectError(missing, 400, 'VALIDATION_ERROR', 'body.scope_id', 'REQUIRED');
    expectError(malformed, 400, 'VALIDATION_ERROR', 'body.scope_id', 'INVALID_FORMAT');
    expect(given.statusCode).toBe(201);
  });

  it.each([59, 3601, 1.5, '900', 0])('refuses ttl_seconds %j (60 to 3600)', async (ttl) => {
    const response = await createSession({ database_id: SCOPED, tenant_id: '1', ttl_seconds: ttl });
    expectError(response, 400, 'VALIDATION_ERROR', 'body.ttl_seconds');
  });

  it.each([60, 3600])('accepts ttl_seconds %j', async (ttl) => {
    expect((await createSession({ database_id: SCOPED, tenant_id: '1', ttl_seconds: ttl })).statusCode).toBe(
      201,
    );
  });

  it.each([
    [['http://app.example.com']],
    [['https://app.example.com/']],
    [['https://app.example.com/widget']],
    [['https://user@app.example.com']],
    [['https://app.example.com:99999']],
    [['app.example.com']],
    [['*']],
    [[]],
    [Array.from({ length: 11 }, (_, i) => `https://app${i}.example.com`)],
    ['https://app.example.com'],
  ])('refuses origins %j', async (origins) => {
    const response = await createSession({ database_id: SCOPED, tenant_id: '1', origins });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.details.some((issue) => issue.field.startsWith('body.origins'))).toBe(true);
  });

  it('accepts https origins with ports and http on the loopback host', async () => {
    const response = await createSession({
      database_id: SCOPED,
      tenant_id: '1',
      origins: ['https://App.Example.com:8443', 'http://localhost', 'http://127.0.0.1:3000'],
    });
    expect(response.statusCode).toBe(201);
    expect((await verifyEmbedToken(response.body.data.token as string)).origins).toEqual([
      'https://app.example.com:8443',
      'http://localhost',
      'http://127.0.0.1:3000',
    ]);
  });

  it('answers 404 for an unknown database or personality', async () => {
    const database = await createSession({
      database_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4aff',
      tenant_id: '1',
    });
    const personality = await createSession({
      database_id: SCOPED,
      tenant_id: '1',
      personality_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4aff',
    });
    expectError(database, 404, 'NOT_FOUND_DATABASE');
    expectError(personality, 404, 'NOT_FOUND_PERSONALITY');
  });

  it('is for servers: a pk_ key or an et_ token cannot create sessions', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const byKey = await createSession({ database_id: SCOPED, tenant_id: '1' }, { 'X-API-Key': PK });
    const byToken = await createSession({ database_id: SCOPED, tenant_id: '1' }, bearer(token));
    expectError(byKey, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
    expectError(byToken, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
  });

  it('refuses to sign without a secret of at least 32 characters (500, no token)', async () => {
    vi.stubEnv('EMBED_SESSION_SECRET', 'short');
    const response = await createSession({ database_id: SCOPED, tenant_id: '1' });
    expect(response.statusCode).toBe(500);
    expect(JSON.stringify(response.body)).not.toMatch(/et_|EMBED_SESSION_SECRET/);
  });
});

describe('pk_ keys on a database that filters rows by tenant', () => {
  it.each([
    {},
    { 'X-Tenant-Id': '1' },
    { 'X-Tenant-Id': '1', 'X-Scope-Id': 'user-7' },
    { 'X-Tenant-Id': 'acme' },
  ])('are refused with 403 EMBED_SESSION_REQUIRED whatever headers they send: %j', async (extra) => {
    const response = await chat({ 'X-API-Key': PK, ...extra }, { message: 'hello', database_id: SCOPED });
    expectError(response, 403, 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-API-Key', 'EMBED_SESSION_REQUIRED');
    expect(response.body.error).toMatchObject({ code: 'FORBIDDEN', details: 'EMBED_SESSION_REQUIRED' });
    expect(response.body.message).toMatch(/embed session/);
  });
});

describe('an et_ token on the chat route', () => {
  it('answers with its own tenant, alone or with the same X-Tenant-Id and X-Scope-Id', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1', scope_id: 'user-7' });
    const alone = await chat(bearer(token), { message: 'hello', database_id: SCOPED });
    const same = await chat(bearer(token, { 'X-Tenant-Id': '1', 'X-Scope-Id': 'user-7' }), {
      message: 'hello',
      database_id: SCOPED,
    });
    expect(alone.statusCode, JSON.stringify(alone.body)).toBe(200);
    expect(same.statusCode).toBe(200);
  });

  it('refuses another X-Tenant-Id (403 INVALID_TENANT_ID) and another X-Scope-Id (403 FORBIDDEN)', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1', scope_id: 'user-7' });
    const body = { message: 'hello', database_id: SCOPED };
    const tenant = await chat(bearer(token, { 'X-Tenant-Id': '2' }), body);
    const scope = await chat(bearer(token, { 'X-Scope-Id': 'user-8' }), body);
    const unscopedToken = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const addedScope = await chat(bearer(unscopedToken, { 'X-Scope-Id': 'user-8' }), body);
    expectError(tenant, 403, 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-Tenant-Id');
    expect(tenant.body.error.code).toBe('INVALID_TENANT_ID');
    expectError(scope, 403, 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-Scope-Id');
    expect(scope.body.error.code).toBe('FORBIDDEN');
    expectError(addedScope, 403, 'AUTH_INSUFFICIENT_PERMISSIONS', 'X-Scope-Id');
  });

  it('refuses another database of the organization with 403, before any lookup of it', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const gets = ddb.commandCalls(GetCommand).length;
    const response = await chat(bearer(token), { message: 'hello', database_id: UNSCOPED });
    expectError(response, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(response.body.message).toMatch(/embed session cannot be used with another database/);
    // The other database was never read.
    expect(
      ddb
        .commandCalls(GetCommand)
        .slice(gets)
        .map((call) => call.args[0].input.Key?.SK),
    ).not.toContain(`DB#${UNSCOPED}`);
  });

  it('refuses another personality than the token’s with 403', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1', personality_id: PERSONALITY });
    const response = await chat(bearer(token), {
      message: 'hello',
      database_id: SCOPED,
      personality_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a62',
    });
    expectError(response, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
  });

  it('is 401 AUTH_TOKEN_EXPIRED once expired, and 401 AUTH_TOKEN_INVALID with a bad signature', async () => {
    // Arrange
    const now = Math.floor(Date.now() / 1000);
    const expired = (
      await signEmbedToken(
        { organizationId: ORG, databaseId: SCOPED, tenant: '1', expiresAt: now - 5 },
        new Date((now - 65) * 1000),
      )
    ).token;
    const forged = `et_${await new SignJWT({ org: ORG, db: SCOPED, tnt: '2' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('tabletalk:embed-session')
      .setJti('x')
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode('another-secret-of-at-least-32-characters!'))}`;
    const valid = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const [head, payload, signature] = valid.slice(3).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `et_${head}.${Buffer.from(JSON.stringify({ ...claims, tnt: '2' })).toString('base64url')}.${signature}`;
    const body = { message: 'hello', database_id: SCOPED };

    // Act
    const responses = await Promise.all(
      [expired, forged, tampered, 'et_nonsense'].map((t) => chat(bearer(t), body)),
    );

    // Assert
    expectError(responses[0]!, 401, 'AUTH_TOKEN_EXPIRED');
    for (const response of responses.slice(1)) expectError(response, 401, 'AUTH_TOKEN_INVALID');
  });

  it('is refused from a page origin it does not list: 403 without Access-Control-Allow-Origin', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1', origins: ['https://shop.example'] });
    const body = { message: 'hello', database_id: SCOPED };
    const listed = await chat(bearer(token, { Origin: 'https://shop.example' }), body);
    const other = await chat(bearer(token, { Origin: 'https://evil.example' }), body);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['access-control-allow-origin']).toBe('https://shop.example');
    expectError(other, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('cannot append to history, and reads history only with a scope', async () => {
    const unscoped = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const append = await chat(bearer(unscoped), {
      conversation_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a70',
      role: 'user',
      content: 'hi',
    });
    const list = await invoke<ErrorEnvelope>(conversations, {
      path: '/api/v1/chat/conversations',
      headers: bearer(unscoped),
    });
    expectError(append, 403, 'AUTH_INSUFFICIENT_PERMISSIONS');
    expect(list.statusCode).toBe(403);
    expect(list.body).toMatchObject({
      error: { code: 'FORBIDDEN' },
      error_code: 'AUTH_INSUFFICIENT_PERMISSIONS',
    });
    expect(list.body.details.map((issue) => issue.field)).toContain('X-Scope-Id');
  });

  it('is not taken in X-API-Key', async () => {
    const token = await tokenFor({ database_id: SCOPED, tenant_id: '1' });
    const response = await chat({ 'X-API-Key': token }, { message: 'hello', database_id: SCOPED });
    expectError(response, 401, 'AUTH_INVALID_CREDENTIALS');
  });
});
