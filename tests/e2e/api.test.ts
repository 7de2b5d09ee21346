// End to end over HTTP through the local gateway: credentials, the envelope, branding and
// databases, unknown routes and methods.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { revokeApiKey } from '#lib/store/api-keys.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway, TEST_JWT_SECRET } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
});
afterAll(() => gateway?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}${path}`, { headers });

const expectEnvelope = async (response: Response, status: number, code: string, errorCode: string) => {
  const body = await jsonOf(response);
  expect(response.status).toBe(status);
  expect(body).toMatchObject({
    success: false,
    error: { code, message: expect.any(String), details: expect.any(String) },
    error_code: errorCode,
    message: expect.any(String),
    status_code: status,
    details: expect.any(Array),
    trace_id: response.headers.get('x-request-id'),
  });
  expect(body.trace_id).toMatch(/^req_/);
  expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  return body;
};

describe('credentials', () => {
  it('rejects a request without a key with the envelope of both shapes', async () => {
    await expectEnvelope(await get('/api/v1/branding'), 401, 'UNAUTHORIZED', 'AUTH_INVALID_CREDENTIALS');
  });

  it('rejects unknown and malformed keys', async () => {
    await expectEnvelope(
      await get('/api/v1/branding', { 'X-API-Key': 'sk_unknown' }),
      401,
      'UNAUTHORIZED',
      'AUTH_INVALID_CREDENTIALS',
    );
    await expectEnvelope(
      await get('/api/v1/branding', { 'X-API-Key': 'nonsense' }),
      401,
      'UNAUTHORIZED',
      'AUTH_INVALID_CREDENTIALS',
    );
  });

  it('rejects a revoked key', async () => {
    const other = await makeOrganization('starter');
    await revokeApiKey(other.skId);
    await expectEnvelope(
      await get('/api/v1/branding', { 'X-API-Key': other.sk }),
      401,
      'UNAUTHORIZED',
      'AUTH_INVALID_CREDENTIALS',
    );
  });

  it('refuses an sk_ key of a free-trial organization', async () => {
    const trial = await makeOrganization('free');
    await expectEnvelope(
      await get('/api/v1/organization/databases', { 'X-API-Key': trial.sk }),
      403,
      'PLAN_FEATURE_REQUIRED',
      'BUSINESS_SUBSCRIPTION_REQUIRED',
    );
    // A pk_ key works on every plan (the widget).
    expect((await get('/api/v1/branding', { 'X-API-Key': trial.pk })).status).toBe(200);
  });

  it('accepts a key as a bearer value and a portal JWT', async () => {
    expect((await get('/api/v1/branding', { Authorization: `Bearer ${acme.sk}` })).status).toBe(200);
    const token = await new SignJWT({ org_id: acme.organization.id, role: 'admin', token_use: 'portal' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('42')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const response = await get('/api/v1/organization/databases', { Authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect((await jsonOf(response)).data[0].id).toBe(acme.databaseId);
  });

  it('tells an expired portal token from an invalid one', async () => {
    const expired = await new SignJWT({ org_id: acme.organization.id, token_use: 'portal' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('42')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    await expectEnvelope(
      await get('/api/v1/branding', { Authorization: `Bearer ${expired}` }),
      401,
      'UNAUTHORIZED',
      'AUTH_TOKEN_EXPIRED',
    );
    const forged = await new SignJWT({ org_id: acme.organization.id, token_use: 'portal' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('42')
      .sign(new TextEncoder().encode('another-secret-of-enough-length'));
    await expectEnvelope(
      await get('/api/v1/branding', { Authorization: `Bearer ${forged}` }),
      401,
      'UNAUTHORIZED',
      'AUTH_TOKEN_INVALID',
    );
  });
});

describe('GET /api/v1/branding', () => {
  it('serves every field of the spec with its type and X-Request-ID', async () => {
    const response = await get('/api/v1/branding', { 'x-api-key': acme.pk });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const { success, data } = await jsonOf(response);
    expect(success).toBe(true);
    const hex = expect.stringMatching(/^#[0-9a-fA-F]{3,6}$/);
    expect(data).toEqual({
      colors: { primary: hex, secondary: hex, accent: hex, text_primary: hex, text_secondary: hex },
      logo_url: expect.stringMatching(/^https?:\/\//),
      logo_dark_url: expect.stringMatching(/^https?:\/\//),
      widget_theme: {
        position: expect.any(String),
        greeting_message: expect.any(String),
        placeholder_text: expect.any(String),
        header_color: hex,
      },
      hide_dialektai_branding: false,
    });
  });
});

describe('GET /api/v1/organization/databases', () => {
  it('lists the organization databases in the paginated wrapper, without secrets', async () => {
    const response = await get('/api/v1/organization/databases?page=1&page_size=10', {
      'X-API-Key': acme.sk,
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/connectionRef|enc:v1|password|postgres:\/\//);
    const body = JSON.parse(text);
    expect(body.pagination).toEqual({
      current_page: 1,
      page_size: 10,
      total_items: 1,
      total_pages: 1,
      has_next: false,
      has_previous: false,
    });
    expect(body.data).toEqual([
      {
        id: acme.databaseId,
        name: 'Shop',
        engine: 'postgres',
        status: 'active',
        requires_organization_scoping: true,
        tenant_filter_column: 'org_id',
        scope_filter_column: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
  });

  it('never shows another organization its databases', async () => {
    const other = await makeOrganization('starter');
    const body = await jsonOf(await get('/api/v1/organization/databases', { 'X-API-Key': other.sk }));
    expect(body.data.map((d: { id: string }) => d.id)).toEqual([other.databaseId]);
  });

  it('refuses a pk_ key and bad paging parameters', async () => {
    await expectEnvelope(
      await get('/api/v1/organization/databases', { 'X-API-Key': acme.pk }),
      403,
      'FORBIDDEN',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
    const body = await expectEnvelope(
      await get('/api/v1/organization/databases?page_size=500', { 'X-API-Key': acme.sk }),
      400,
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
    );
    expect(body.details).toEqual([
      { field: 'query.page_size', message: 'page_size must be at most 100', code: expect.any(String) },
    ]);
  });
});

describe('routing', () => {
  it('answers an unknown route with 404 and a known route with the wrong method with 405', async () => {
    await expectEnvelope(await get('/api/v1/nope'), 404, 'NOT_FOUND', 'NOT_FOUND_RESOURCE');
    const response = await fetch(`${gateway.url}/api/v1/branding`, { method: 'DELETE' });
    expect(response.headers.get('allow')).toBe('GET, PUT');
    await expectEnvelope(response, 405, 'METHOD_NOT_ALLOWED', 'VALIDATION_ERROR');
  });

  it('answers headers too large for the HTTP parser with the 413 envelope, not a bare close', async () => {
    const response = await get(`/api/v1/branding?cursor=${'x'.repeat(9_000)}`, {
      'X-API-Key': `sk_${'a'.repeat(9_000)}`,
    });
    await expectEnvelope(response, 413, 'VALIDATION_ERROR', 'VALIDATION_ERROR');
  });
});

describe('pk_ key origins', () => {
  it('refuses a browser origin the key does not list, and serves the listed one', async () => {
    const key = await createApiKey({
      organizationId: acme.organization.id,
      kind: 'pk',
      databaseId: acme.databaseId,
      allowedOrigins: ['https://shop.example'],
    });
    expect(
      (await get('/api/v1/branding', { 'X-API-Key': key.key, Origin: 'https://shop.example' })).status,
    ).toBe(200);
    await expectEnvelope(
      await get('/api/v1/branding', { 'X-API-Key': key.key, Origin: 'https://evil.example' }),
      403,
      'FORBIDDEN',
      'AUTH_INSUFFICIENT_PERMISSIONS',
    );
  });
});
