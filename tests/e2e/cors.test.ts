// CORS through the local gateway (lib/http/middleware/cors.ts): preflights on every route, the
// headers on answers, error envelopes and the stream, and a pk_ key (or an embed session) that
// lists its allowed origins: a listed page may read the answer, any other gets 403 without
// Allow-Origin. The shop filters rows by tenant, so its answers go to an embed session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { jsonOf, startTestGateway } from '../helpers/gateway.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
/** A pk_ key of the shop that lists one allowed origin. */
let listedKey: string;
/** An embed session of the shop (tenant 1) that lists the same origin. */
let session: string;
const SHOP_PAGE = 'https://shop.example';

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  listedKey = (
    await createApiKey({
      organizationId: acme.organization.id,
      kind: 'pk',
      databaseId: shop.id,
      allowedOrigins: [SHOP_PAGE],
    })
  ).key;
  const created = await fetch(`${gateway.url}/api/v1/embed/sessions`, {
    method: 'POST',
    headers: { 'X-API-Key': acme.sk, 'Content-Type': 'application/json' },
    body: JSON.stringify({ database_id: shop.id, tenant_id: '1', origins: [SHOP_PAGE] }),
  });
  session = (await jsonOf(created)).data.token;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

const preflight = (path: string, origin: string, method = 'GET') =>
  fetch(`${gateway.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'x-api-key, x-tenant-id, content-type',
    },
  });

describe('preflight', () => {
  it.each([
    ['/api/v1/branding', 'GET'],
    ['/api/v1/chat/message', 'POST'],
    ['/api/v1/chat/0190a5d2-0000-7000-8000-000000000000/message', 'POST'],
    ['/api/v1/chat/0190a5d2-0000-7000-8000-000000000000/stream', 'GET'],
  ])('OPTIONS %s is 204 with the CORS headers', async (path, method) => {
    const response = await preflight(path, SHOP_PAGE, method);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
    expect(response.headers.get('access-control-allow-methods')).toContain(method);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-api-key', 'x-tenant-id', 'x-scope-id', 'content-type', 'authorization'])
      expect(allowed).toContain(header);
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('an unknown route is still 404 in the envelope', async () => {
    const response = await preflight('/api/v1/nothing-here', SHOP_PAGE);
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).error.code).toBe('NOT_FOUND');
  });
});

describe('responses to a page', () => {
  it('an allowed origin reads the branding, with the rate-limit headers exposed', async () => {
    const response = await fetch(`${gateway.url}/api/v1/branding`, {
      headers: { 'X-API-Key': listedKey, Origin: SHOP_PAGE },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
    expect(response.headers.get('vary')).toContain('Origin');
    const exposed = response.headers.get('access-control-expose-headers') ?? '';
    expect(exposed).toContain('X-RateLimit-Remaining');
    expect(exposed).toContain('Retry-After');
    expect(exposed).toContain('X-Request-ID');
  });

  it('a key without listed origins answers any page (the local demo page among them)', async () => {
    const response = await fetch(`${gateway.url}/api/v1/branding`, {
      headers: { 'X-API-Key': acme.pk, Origin: 'http://127.0.0.1:3000' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });

  it('an origin the key does not list gets 403 without Allow-Origin, so the page cannot read it', async () => {
    const response = await fetch(`${gateway.url}/api/v1/branding`, {
      headers: { 'X-API-Key': listedKey, Origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect((await jsonOf(response)).error.code).toBe('FORBIDDEN');
  });

  it('error envelopes carry the headers: a 401 and a 400', async () => {
    const unauthenticated = await fetch(`${gateway.url}/api/v1/branding`, { headers: { Origin: SHOP_PAGE } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
    const invalid = await fetch(`${gateway.url}/api/v1/chat/message`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${session}`,
        Origin: SHOP_PAGE,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ message: '' }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
  });

  it('the stream carries them on its event-stream response', async () => {
    const first = await fetch(`${gateway.url}/api/v1/chat/message`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${session}`,
        Origin: SHOP_PAGE,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ message: 'hello', database_id: shop.id }),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
    const id = (await jsonOf(first)).data.conversation_id as string;
    const stream = await fetch(
      `${gateway.url}/api/v1/chat/${id}/stream?message=${encodeURIComponent('How many orders were placed in 2025?')}`,
      { headers: { Authorization: `Bearer ${session}`, Origin: SHOP_PAGE } },
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('access-control-allow-origin')).toBe(SHOP_PAGE);
    expect(await stream.text()).toContain('event: done');
  });
});
