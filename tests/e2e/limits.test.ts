// Limits end to end over HTTP through the local gateway: the answering endpoints' 30 messages a
// minute (a test answering route, tests/e2e/fixtures/answering.ts), a free plan's 10 requests a
// minute on /api/v1/branding, an enterprise organization's own limits, and which responses carry
// the X-RateLimit-* headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrganizationLimits } from '#lib/store/organizations.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { ANSWERING_TEST_ROUTE, jsonOf, startTestGateway } from '../helpers/gateway.ts';
import { roomInThisMinute } from '../helpers/limits.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  gateway = await startTestGateway([ANSWERING_TEST_ROUTE]);
});
afterAll(() => gateway?.close());

const call = (method: string, path: string, headers: Record<string, string>) =>
  fetch(`${gateway.url}${path}`, { method, headers });

const rateLimitHeaders = (response: Response) => ({
  limit: response.headers.get('x-ratelimit-limit'),
  remaining: response.headers.get('x-ratelimit-remaining'),
  reset: response.headers.get('x-ratelimit-reset'),
});

describe('answering endpoints', () => {
  it('answer 30 messages a minute and refuse the 31st with 429 and Retry-After', async () => {
    // Arrange: a professional organization (500 requests a minute: the message limit binds).
    await roomInThisMinute(10_000);
    const { sk } = await makeOrganization('professional');
    // Act
    const responses: Response[] = [];
    for (let i = 0; i < 31; i++) responses.push(await call('POST', '/test/answer', { 'X-API-Key': sk }));
    // Assert
    const resetAt = String(Math.ceil(Date.now() / 60_000) * 60);
    expect(responses.slice(0, 30).map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(responses.slice(0, 30).map((r) => rateLimitHeaders(r).remaining)).toEqual(
      Array.from({ length: 30 }, (_, i) => String(29 - i)),
    );
    expect(rateLimitHeaders(responses[0]!)).toEqual({ limit: '30', remaining: '29', reset: resetAt });
    const refused = responses[30]!;
    const body = await jsonOf(refused);
    expect(refused.status).toBe(429);
    expect(body).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED' },
      error_code: 'QUOTA_RATE_LIMIT_EXCEEDED',
      status_code: 429,
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(resetAt) - Date.now() / 1000).toBeGreaterThan(retryAfter - 2);
    expect(body.message).toBe(`Rate limit exceeded: 30 requests per minute; retry in ${retryAfter} seconds`);
    expect(rateLimitHeaders(refused)).toEqual({ limit: '30', remaining: '0', reset: resetAt });
    expect(refused.headers.get('x-request-id')).toBe(body.trace_id);
  });
});

describe('plan limits on every endpoint', () => {
  it('refuses a free organization’s 11th request of a minute on /api/v1/branding', async () => {
    await roomInThisMinute();
    const { pk } = await makeOrganization('free');
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await call('GET', '/api/v1/branding', { 'X-API-Key': pk });
      statuses.push(last.status);
      if (i < 10) await last.arrayBuffer();
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(rateLimitHeaders(last!)).toMatchObject({ limit: '10', remaining: '0' });
  });

  it('applies an enterprise organization’s own per-minute limit', async () => {
    await roomInThisMinute();
    const { organization, sk } = await makeOrganization('enterprise');
    await setOrganizationLimits(organization.id, { requestsPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call('GET', '/api/v1/branding', { 'X-API-Key': sk })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('which responses carry the headers', () => {
  it('every response of an authenticated organization, errors included; none without credentials', async () => {
    const { sk } = await makeOrganization('professional');
    // A 403 of the scope check, after the limiter counted the request.
    const forbidden = await call('GET', '/api/v1/chat/conversations', { 'X-API-Key': sk });
    // A 404 from the handler of an answering route.
    const notFound = await call('POST', '/test/answer?fail=1', { 'X-API-Key': sk });
    // A 401: no organization, so nothing to count and no headers.
    const unauthorized = await call('GET', '/api/v1/branding', {});
    expect(forbidden.status).toBe(403);
    expect(rateLimitHeaders(forbidden).limit).toBe('500');
    expect(notFound.status).toBe(404);
    expect(rateLimitHeaders(notFound).limit).toBe('30');
    expect(unauthorized.status).toBe(401);
    expect(rateLimitHeaders(unauthorized)).toEqual({ limit: null, remaining: null, reset: null });
  });
});
