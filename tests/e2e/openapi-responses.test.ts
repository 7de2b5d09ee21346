// Real responses against the OpenAPI document: every route is driven through the local gateway
// (DynamoDB Local, the demo shop on PGlite) to a success and to its typical errors, and each
// response body is validated with ajv against the document's schema for that route and status,
// served by the API itself at /api/v1/openapi.json. Counted responses must carry the rate-limit
// headers the document names; a 429 also Retry-After. The reference page is served at /docs.
import { randomUUID } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { buildOpenApiDocument } from '#lib/openapi/document.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { closeConnectors, registerDatabase } from '../helpers/answering.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { startTestGateway } from '../helpers/gateway.ts';
import { ajvFor, conformanceOf, type Json, operationOf } from '../helpers/openapi.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let acme: Awaited<ReturnType<typeof makeOrganization>>;
let shop: DatabaseRecord;
let shopKey: string;
let document: Json;
let compile: ReturnType<typeof ajvFor>['compile'];

beforeAll(async () => {
  gateway = await startTestGateway();
  acme = await makeOrganization('professional');
  shop = await registerDatabase({ organizationId: acme.organization.id });
  shopKey = (await createApiKey({ organizationId: acme.organization.id, kind: 'pk', databaseId: shop.id }))
    .key;
  const response = await fetch(`${gateway.url}/api/v1/openapi.json`);
  document = (await response.json()) as Json;
  ({ compile } = ajvFor(document));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await closeConnectors();
});

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
/** Routes seen answering 2xx, checked against the document at the end. */
const succeeded = new Set<string>();

type Headers = Record<string, string>;

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route's path template in the document. */
  route: string;
  /** The path requested. */
  url: string;
  headers?: Headers;
  body?: unknown;
}

/**
 * Sends one request and checks its response against the document: status documented, body valid,
 * required headers present, and the rate-limit headers when the limiter counted the request.
 */
const call = async (request: Call, expected: { status: number; counted: boolean }): Promise<Json> => {
  const response = await fetch(`${gateway.url}${request.url}`, {
    method: request.method,
    headers: {
      ...request.headers,
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const body = (await response.json()) as Json;
  expect(response.status, JSON.stringify(body)).toBe(expected.status);
  const problems = conformanceOf(
    document,
    compile,
    { method: request.method, path: request.route },
    { status: response.status, headers: response.headers, body },
    expected.counted ? RATE_LIMIT_HEADERS : [],
  );
  expect(problems, `${request.method} ${request.url} ${response.status}`).toEqual([]);
  if (response.status < 300) succeeded.add(`${request.method} ${request.route}`);
  if (!expected.counted)
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.has(name)).toBe(false);
  return body;
};

const sk = (scope?: string): Headers => ({ 'X-API-Key': acme.sk, ...(scope ? { 'X-Scope-Id': scope } : {}) });
/** The answered conversations are tenant 1's: history reads name the tenant as the questions did. */
const skTenant = (): Headers => ({ ...sk(SCOPE), 'X-Tenant-Id': '1' });
const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const SCOPE = `customer-${randomUUID().slice(0, 8)}`;

describe('the document and the reference page', () => {
  it('serves the document without a key, cacheable, equal to the generated one', async () => {
    const response = await fetch(`${gateway.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual(buildOpenApiDocument());
    await call(
      { method: 'GET', route: '/api/v1/openapi.json', url: '/api/v1/openapi.json' },
      { status: 200, counted: false },
    );
  });

  it('serves the reference page at /docs', async () => {
    const response = await fetch(`${gateway.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const html = await response.text();
    expect(html).toContain('<title>tabletalk API reference</title>');
    expect(html).toContain("Redoc.init(base + 'api/v1/openapi.json'");
    expect(html.length).toBeGreaterThan(500_000);
    succeeded.add('GET /docs');
  });
});

describe('organization routes', () => {
  it('GET /branding: 200, and 401 without a key', async () => {
    const route = '/api/v1/branding';
    await call(
      { method: 'GET', route, url: route, headers: { 'X-API-Key': shopKey } },
      { status: 200, counted: true },
    );
    await call({ method: 'GET', route, url: route }, { status: 401, counted: false });
    await call(
      { method: 'GET', route, url: route, headers: { 'X-API-Key': 'sk_unknown' } },
      { status: 401, counted: false },
    );
  });

  it('GET /organization/databases: 200, 400 and 403 for a pk_ key', async () => {
    const route = '/api/v1/organization/databases';
    const page = await call(
      { method: 'GET', route, url: `${route}?page=1&page_size=1`, headers: sk() },
      { status: 200, counted: true },
    );
    expect(page.pagination).toMatchObject({ current_page: 1, page_size: 1, has_next: true });
    await call(
      { method: 'GET', route, url: `${route}?page_size=0`, headers: sk() },
      { status: 400, counted: true },
    );
    await call(
      { method: 'GET', route, url: route, headers: { 'X-API-Key': shopKey } },
      { status: 403, counted: false },
    );
  });
});

describe('embed sessions', () => {
  it('POST /embed/sessions: 201, 400, 404, and 403 for a pk_ key', async () => {
    const route = '/api/v1/embed/sessions';
    const created = await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: sk(),
        body: { database_id: shop.id, tenant_id: '1', scope_id: SCOPE, origins: ['https://shop.example'] },
      },
      { status: 201, counted: true },
    );
    const token = (created.data as Json).token as string;
    await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: sk(),
        body: { database_id: shop.id, tenant_id: '1', ttl_seconds: 30 },
      },
      { status: 400, counted: true },
    );
    await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: sk(),
        body: { database_id: randomUUID(), tenant_id: '1' },
      },
      { status: 404, counted: true },
    );
    await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: { 'X-API-Key': shopKey },
        body: { database_id: shop.id, tenant_id: '1' },
      },
      { status: 403, counted: false },
    );
    // The token answers on the chat route, whose documented 200 it then meets.
    await call(
      {
        method: 'POST',
        route: '/api/v1/chat/message',
        url: '/api/v1/chat/message',
        headers: { Authorization: `Bearer ${token}` },
        body: { message: 'How many orders were placed in 2025?', database_id: shop.id },
      },
      { status: 200, counted: true },
    );
  });
});

describe('conversations and answers', () => {
  const appended = randomUUID();
  let answered: string;

  it('POST /chat/message: 201 append, 200 answer, 400 and 404', async () => {
    const route = '/api/v1/chat/message';
    const append = await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: sk(SCOPE),
        body: { conversation_id: appended, role: 'user', content: 'Hello there' },
      },
      { status: 201, counted: true },
    );
    expect((append.data as Json).conversation_id).toBe(appended);
    const answer = await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: { ...sk(SCOPE), 'X-Tenant-Id': '1' },
        body: { message: 'How many orders were placed in 2025?', database_id: shop.id },
      },
      { status: 200, counted: true },
    );
    answered = (answer.data as Json).conversation_id as string;
    expect((answer.data as Json).query_type).toBe('sql');
    await call(
      { method: 'POST', route, url: route, headers: sk(SCOPE), body: { content: 'neither' } },
      { status: 400, counted: true },
    );
    await call(
      {
        method: 'POST',
        route,
        url: route,
        headers: sk(SCOPE),
        body: { message: 'Hi', database_id: randomUUID() },
      },
      { status: 404, counted: true },
    );
    await call(
      { method: 'POST', route, url: route, headers: sk(), body: { message: 'Hi', database_id: shop.id } },
      { status: 403, counted: true },
    );
  });

  it('POST /chat/{id}/message: 200 and 400', async () => {
    const route = '/api/v1/chat/{conversation_id}/message';
    const url = `/api/v1/chat/${answered}/message`;
    const headers = { ...sk(SCOPE), 'X-Tenant-Id': '1' };
    await call(
      { method: 'POST', route, url, headers, body: { message: 'And how many customers are there?' } },
      { status: 200, counted: true },
    );
    await call(
      { method: 'POST', route, url, headers, body: { message: '   ' } },
      { status: 400, counted: true },
    );
  });

  it('GET /chat/{id}/stream: 200 events valid against the document, 404 before the stream', async () => {
    const route = '/api/v1/chat/{conversation_id}/stream';
    const operation = operationOf(document, 'GET', route) as Json;
    const ok = (operation.responses as Record<string, Json>)['200'] as Json;
    expect(ok.content).toHaveProperty('text/event-stream');
    const content = (ok.content as Json)['text/event-stream'] as { schema: { items: Json } };
    const validateEvent = compile(content.schema.items);
    const response = await fetch(
      `${gateway.url}/api/v1/chat/${answered}/stream?message=${encodeURIComponent('How many orders were placed in 2025?')}`,
      { headers: { ...sk(SCOPE), 'X-Tenant-Id': '1' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    for (const name of ['X-Request-ID', ...RATE_LIMIT_HEADERS])
      expect(response.headers.has(name), name).toBe(true);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(await response.text());
    expect(events.at(-1)?.event).toBe('done');
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) {
      const parsed = { event: event.event ?? 'message', data: JSON.parse(event.data) };
      expect(validateEvent(parsed), JSON.stringify(validateEvent.errors)).toBe(true);
    }
    succeeded.add(`GET ${route}`);
    await call(
      {
        method: 'GET',
        route,
        url: `/api/v1/chat/${randomUUID()}/stream?message=hi`,
        headers: { ...sk(SCOPE), 'X-Tenant-Id': '1' },
      },
      { status: 404, counted: true },
    );
  });

  it('GET /chat/conversations: 200, 400, and 403 without X-Scope-Id', async () => {
    const route = '/api/v1/chat/conversations';
    const page = await call(
      { method: 'GET', route, url: `${route}?limit=1`, headers: skTenant() },
      { status: 200, counted: true },
    );
    expect((page.data as Json).hasMore).toBe(true);
    await call(
      { method: 'GET', route, url: `${route}?limit=0`, headers: skTenant() },
      { status: 400, counted: true },
    );
    await call({ method: 'GET', route, url: route, headers: sk() }, { status: 403, counted: true });
  });

  it('GET /chat/history: 200 for the scope and one conversation, 400 and 404', async () => {
    const route = '/api/v1/chat/history';
    const page = await call(
      { method: 'GET', route, url: `${route}?limit=2`, headers: skTenant() },
      { status: 200, counted: true },
    );
    expect((page.data as Json).cursor).toEqual(expect.any(String));
    await call(
      { method: 'GET', route, url: `${route}?conversation_id=${answered}&order=asc`, headers: skTenant() },
      { status: 200, counted: true },
    );
    await call(
      { method: 'GET', route, url: `${route}?conversation_id=nope`, headers: skTenant() },
      { status: 400, counted: true },
    );
    await call(
      { method: 'GET', route, url: `${route}?conversation_id=${randomUUID()}`, headers: skTenant() },
      { status: 404, counted: true },
    );
  });

  it('GET /chat/{id}/history: 200 and 404', async () => {
    const route = '/api/v1/chat/{conversation_id}/history';
    const history = await call(
      { method: 'GET', route, url: `/api/v1/chat/${answered}/history`, headers: skTenant() },
      { status: 200, counted: true },
    );
    expect(((history.data as Json).messages as unknown[]).length).toBeGreaterThanOrEqual(4);
    await call(
      { method: 'GET', route, url: `/api/v1/chat/${randomUUID()}/history`, headers: skTenant() },
      { status: 404, counted: true },
    );
  });

  it('POST /chat/{id}/messages/{message_id}/feedback: 201, 400 and 404', async () => {
    const route = '/api/v1/chat/{conversation_id}/messages/{message_id}/feedback';
    const headers = { ...sk(SCOPE), 'X-Tenant-Id': '1' };
    const answer = await call(
      {
        method: 'POST',
        route: '/api/v1/chat/{conversation_id}/message',
        url: `/api/v1/chat/${answered}/message`,
        headers,
        body: { message: 'How many products are there?' },
      },
      { status: 200, counted: true },
    );
    const messageId = (answer.data as Json).message_id as string;
    const url = `/api/v1/chat/${answered}/messages/${messageId}/feedback`;
    await call(
      { method: 'POST', route, url, headers: skTenant(), body: { rating: 'up' } },
      { status: 201, counted: true },
    );
    await call(
      { method: 'POST', route, url, headers: skTenant(), body: { rating: 'great' } },
      { status: 400, counted: true },
    );
    await call(
      {
        method: 'POST',
        route,
        url: `/api/v1/chat/${answered}/messages/${randomUUID()}/feedback`,
        headers: sk(SCOPE),
        body: { rating: 'down' },
      },
      { status: 404, counted: true },
    );
  });

  it('DELETE /chat/{id}: 200, then 404', async () => {
    const route = '/api/v1/chat/{conversation_id}';
    await call(
      { method: 'DELETE', route, url: `/api/v1/chat/${appended}`, headers: sk(SCOPE) },
      { status: 200, counted: true },
    );
    await call(
      { method: 'DELETE', route, url: `/api/v1/chat/${appended}`, headers: sk(SCOPE) },
      { status: 404, counted: true },
    );
  });
});

describe('control plane routes', () => {
  const org = '/api/v1/organization';
  let manage: Headers;
  beforeAll(async () => {
    const key = await createApiKey({ organizationId: acme.organization.id, kind: 'sk', manage: true });
    manage = { 'X-API-Key': key.key };
  });

  it('databases: one, changed, re-indexed (202) and its job; connect; delete; 400, 403, 404, 422', async () => {
    const one = `${org}/databases/{id}`;
    const detail = await call(
      { method: 'GET', route: one, url: `${org}/databases/${shop.id}`, headers: manage },
      { status: 200, counted: true },
    );
    expect(detail.data).toMatchObject({ id: shop.id, tables: expect.any(Number) });
    await call(
      { method: 'GET', route: one, url: `${org}/databases/${randomUUID()}`, headers: manage },
      { status: 404, counted: true },
    );
    await call(
      {
        method: 'PATCH',
        route: one,
        url: `${org}/databases/${shop.id}`,
        headers: manage,
        body: { name: 'Demo shop (renamed)' },
      },
      { status: 200, counted: true },
    );
    await call(
      { method: 'PATCH', route: one, url: `${org}/databases/${shop.id}`, headers: manage, body: {} },
      { status: 400, counted: true },
    );
    await call(
      { method: 'PATCH', route: one, url: `${org}/databases/${shop.id}`, headers: sk(), body: { name: 'x' } },
      { status: 403, counted: false },
    );
    const queued = await call(
      { method: 'POST', route: `${one}/index`, url: `${org}/databases/${shop.id}/index`, headers: manage },
      { status: 202, counted: true },
    );
    const job = `${org}/jobs/{job_id}`;
    await call(
      { method: 'GET', route: job, url: `${org}/jobs/${(queued.data as Json).id}`, headers: manage },
      { status: 200, counted: true },
    );
    await call(
      { method: 'GET', route: job, url: `${org}/jobs/${randomUUID()}`, headers: manage },
      { status: 404, counted: true },
    );
    const connect = {
      method: 'POST' as const,
      route: `${org}/databases`,
      url: `${org}/databases`,
      headers: manage,
    };
    await call(
      {
        ...connect,
        body: { name: 'Nowhere', engine: 'postgres', connection: { url: 'postgres://u@127.0.0.1:1/db' } },
      },
      { status: 422, counted: true },
    );
    if (postgresUrl) {
      const created = await call(
        { ...connect, body: { name: 'Server', engine: 'postgres', connection: { url: postgresUrl } } },
        { status: 201, counted: true },
      );
      const id = (created.data as Json).id as string;
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const status = (
          (
            await call(
              {
                method: 'GET',
                route: job,
                url: `${org}/jobs/${((created.data as Json).job as Json).id}`,
                headers: manage,
              },
              { status: 200, counted: true },
            )
          ).data as Json
        ).status;
        if (status === 'succeeded' || status === 'failed') break;
        await new Promise((done) => setTimeout(done, 50));
      }
      await call(
        { method: 'DELETE', route: one, url: `${org}/databases/${id}`, headers: manage },
        { status: 200, counted: true },
      );
    } else {
      const spare = await registerDatabase({ organizationId: acme.organization.id, name: 'Spare' });
      await call(
        { method: 'DELETE', route: one, url: `${org}/databases/${spare.id}`, headers: manage },
        { status: 200, counted: true },
      );
    }
    await call(
      { method: 'DELETE', route: one, url: `${org}/databases/${randomUUID()}`, headers: manage },
      { status: 404, counted: true },
    );
  });

  it('API keys: list, create (the key once), delete, 404', async () => {
    const keys = `${org}/api-keys`;
    await call({ method: 'GET', route: keys, url: keys, headers: manage }, { status: 200, counted: true });
    const created = await call(
      { method: 'POST', route: keys, url: keys, headers: manage, body: { kind: 'sk', name: 'Backend' } },
      { status: 201, counted: true },
    );
    // The shop filters rows by tenant: a pk_ key for it is refused (its widgets use embed sessions).
    await call(
      { method: 'POST', route: keys, url: keys, headers: manage, body: { kind: 'pk', database_id: shop.id } },
      { status: 400, counted: true },
    );
    await call(
      { method: 'POST', route: keys, url: keys, headers: manage, body: { kind: 'pk' } },
      { status: 400, counted: true },
    );
    const one = `${keys}/{id}`;
    const url = `${keys}/${(created.data as Json).id}`;
    await call({ method: 'DELETE', route: one, url, headers: manage }, { status: 200, counted: true });
    await call({ method: 'DELETE', route: one, url, headers: manage }, { status: 404, counted: true });
  });

  it('personalities: create, list, read, change, delete, 404', async () => {
    const all = `${org}/personalities`;
    const one = `${all}/{id}`;
    const created = await call(
      {
        method: 'POST',
        route: all,
        url: all,
        headers: manage,
        body: { name: 'Brief', instructions: 'Be brief.' },
      },
      { status: 201, counted: true },
    );
    const url = `${all}/${(created.data as Json).id}`;
    await call({ method: 'GET', route: all, url: all, headers: manage }, { status: 200, counted: true });
    await call({ method: 'GET', route: one, url, headers: manage }, { status: 200, counted: true });
    await call(
      { method: 'PATCH', route: one, url, headers: manage, body: { language: 'en' } },
      { status: 200, counted: true },
    );
    await call({ method: 'DELETE', route: one, url, headers: manage }, { status: 200, counted: true });
    await call({ method: 'GET', route: one, url, headers: manage }, { status: 404, counted: true });
  });

  it('query patterns and the glossary: saved when the guard accepts them, 400 otherwise', async () => {
    const all = `${org}/databases/{id}/patterns`;
    const one = `${all}/{pattern_id}`;
    const url = `${org}/databases/${shop.id}/patterns`;
    const created = await call(
      {
        method: 'POST',
        route: all,
        url,
        headers: manage,
        body: { question: 'How many orders?', sql: 'SELECT count(*) FROM orders' },
      },
      { status: 201, counted: true },
    );
    await call(
      {
        method: 'POST',
        route: all,
        url,
        headers: manage,
        body: { question: 'how many orders', sql: 'SELECT 1' },
      },
      { status: 400, counted: true },
    );
    await call({ method: 'GET', route: all, url, headers: manage }, { status: 200, counted: true });
    const patternUrl = `${url}/${(created.data as Json).id}`;
    await call(
      { method: 'PATCH', route: one, url: patternUrl, headers: manage, body: { notes: 'approved' } },
      { status: 200, counted: true },
    );
    await call(
      { method: 'PATCH', route: one, url: `${url}/${randomUUID()}`, headers: manage, body: { notes: 'x' } },
      { status: 404, counted: true },
    );
    await call(
      { method: 'DELETE', route: one, url: patternUrl, headers: manage },
      { status: 200, counted: true },
    );
    const glossary = `${org}/databases/{id}/glossary`;
    const glossaryUrl = `${org}/databases/${shop.id}/glossary`;
    await call(
      {
        method: 'PUT',
        route: glossary,
        url: glossaryUrl,
        headers: manage,
        body: { synonyms: { buyers: 'customers' } },
      },
      { status: 200, counted: true },
    );
    await call(
      {
        method: 'PUT',
        route: glossary,
        url: glossaryUrl,
        headers: manage,
        body: { metrics: { x: 'pg_sleep(orders.id)' } },
      },
      { status: 400, counted: true },
    );
    await call(
      { method: 'GET', route: glossary, url: glossaryUrl, headers: manage },
      { status: 200, counted: true },
    );
  });

  it('branding and usage', async () => {
    const branding = '/api/v1/branding';
    await call(
      {
        method: 'PUT',
        route: branding,
        url: branding,
        headers: manage,
        body: { colors: { accent: '#ff8800' } },
      },
      { status: 200, counted: true },
    );
    await call(
      {
        method: 'PUT',
        route: branding,
        url: branding,
        headers: manage,
        body: { colors: { accent: 'orange' } },
      },
      { status: 400, counted: true },
    );
    await call(
      { method: 'GET', route: `${org}/usage`, url: `${org}/usage`, headers: sk() },
      { status: 200, counted: true },
    );
  });
});

describe('outside the routes, and limits', () => {
  const envelope = () => compile({ $ref: '#/components/schemas/ErrorEnvelope' });

  it('answers a wrong method (405 with Allow) and an unknown path (404) with the documented envelope', async () => {
    const wrong = await fetch(`${gateway.url}/api/v1/branding`, { method: 'DELETE', headers: sk() });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PUT');
    const validate = envelope();
    expect(validate(await wrong.json()), JSON.stringify(validate.errors)).toBe(true);
    const unknown = await fetch(`${gateway.url}/api/v1/nothing-here`, { headers: sk() });
    expect(unknown.status).toBe(404);
    expect(validate(await unknown.json()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('answers 429 with Retry-After and the rate-limit headers once a Free plan minute is used up', async () => {
    const trial = await makeOrganization('free');
    const route = '/api/v1/branding';
    let status = 200;
    for (let i = 0; i < 12 && status === 200; i++) {
      const response = await fetch(`${gateway.url}${route}`, { headers: { 'X-API-Key': trial.pk } });
      status = response.status;
      await response.arrayBuffer();
    }
    expect(status).toBe(429);
    const body = await call(
      { method: 'GET', route, url: route, headers: { 'X-API-Key': trial.pk } },
      { status: 429, counted: true },
    );
    expect(body.error_code).toBe('QUOTA_RATE_LIMIT_EXCEEDED');
  });

  it('has driven every documented route to a success', () => {
    const documented = Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Connecting a database needs a server to connect to (the test PostgreSQL, as CI has).
    const needsServer = postgresUrl ? [] : ['POST /api/v1/organization/databases'];
    expect([...succeeded].sort()).toEqual(documented.filter((route) => !needsServer.includes(route)).sort());
  });
});
