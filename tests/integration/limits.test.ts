// The limiter against DynamoDB Local: exact counts under 100 parallel requests, windows that roll
// over on an injected clock (with this container's view of the item, and with none), leases given
// back on errors and lapsing after a crash, headers through the real chain, the failure policy,
// and the indexing quota.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '#lib/http/api.ts';
import { ok } from '#lib/http/response.ts';
import { consumeIndexingQuota } from '#lib/limits/indexing.ts';
import {
  type Admission,
  admit,
  clearSeenCounters,
  type LimitClass,
  release,
  type Visitor,
} from '#lib/limits/limiter.ts';
import { effectiveLimits, type Limits } from '#lib/limits/plans.ts';
import { logger } from '#lib/log.ts';
import { documents, tableName } from '#lib/store/client.ts';
import { countersKey, scopeCountersKey } from '#lib/store/limit-counters.ts';
import { createOrganization, setOrganizationLimits } from '#lib/store/organizations.ts';
import { handler as answeringHandler } from '../e2e/fixtures/answering.ts';
import { type HttpHandler, invoke } from '../helpers/events.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { inParallel, roomInThisMinute } from '../helpers/limits.ts';

afterEach(() => {
  clearSeenCounters();
  vi.restoreAllMocks();
});

const newOrganizationId = async (plan: 'free' | 'enterprise' = 'enterprise') =>
  (await createOrganization({ name: 'Limits', plan })).id;

/** Generous figures, so that a test constrains exactly the window it is about. */
const roomy: Limits = {
  ...effectiveLimits('enterprise'),
  requestsPerMinute: 100_000,
  requestsPerHour: 100_000,
  monthlyRequests: 100_000,
  concurrentRequests: 100_000,
  messagesPerMinute: 100_000,
  messagesPerHour: 100_000,
};

const counters = async (organizationId: number) =>
  (
    await documents().send(
      new GetCommand({ TableName: tableName(), Key: countersKey(organizationId), ConsistentRead: true }),
    )
  ).Item ?? {};

// 22 Nov 2026, 10:00:30 UTC.
const T = Date.UTC(2026, 10, 22, 10, 0, 30);

const admitAt =
  (organizationId: number, limits: Limits, limitClass: LimitClass = 'standard', leaseMs = 30_000) =>
  (now: number) =>
    admit({ organizationId, limits, limitClass, leaseMs, now: () => now });

const summary = (admissions: Admission[]) => ({
  admitted: admissions.filter((a) => a.admitted).length,
  refused: admissions.filter((a) => !a.admitted).map((a) => (a.admitted ? '' : a.error.kind)),
});

describe('exact under concurrency: 100 parallel requests', () => {
  it('admit exactly the per-minute limit, and the refused ones count nothing', async () => {
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, requestsPerMinute: 37 });
    const { admitted, refused } = summary(await inParallel(100, () => at(T)));
    expect(admitted).toBe(37);
    expect(new Set(refused)).toEqual(new Set(['RATE_LIMITED']));
    expect(await counters(organizationId)).toMatchObject({ minuteCount: 37, hourCount: 37, monthCount: 37 });
  });

  it('admit exactly the per-hour limit', async () => {
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, requestsPerHour: 23 });
    expect(summary(await inParallel(100, () => at(T))).admitted).toBe(23);
  });

  it('admit exactly the monthly quota and refuse the rest as the monthly quota', async () => {
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, monthlyRequests: 19 });
    const { admitted, refused } = summary(await inParallel(100, () => at(T)));
    expect(admitted).toBe(19);
    expect(new Set(refused)).toEqual(new Set(['MONTHLY_QUOTA_EXCEEDED']));
  });

  it('admit exactly 30 messages a minute on answering routes, and count them toward the plan too', async () => {
    const organizationId = await newOrganizationId();
    const admissions = await inParallel(100, () =>
      admitAt(organizationId, { ...roomy, messagesPerMinute: 30 }, 'answering')(T),
    );
    expect(summary(admissions).admitted).toBe(30);
    expect(await counters(organizationId)).toMatchObject({
      messageMinuteCount: 30,
      messageHourCount: 30,
      minuteCount: 30,
      leaseCount: 30,
    });
    await Promise.all(admissions.map((a) => (a.admitted && a.lease ? release(a.lease) : undefined)));
    expect(await counters(organizationId)).toMatchObject({ leaseCount: 0 });
  });

  it('hold exactly the concurrency limit of leases at once, and admit again once they are given back', async () => {
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, concurrentRequests: 7 }, 'answering');
    const first = await inParallel(100, () => at(T));
    expect(summary(first).admitted).toBe(7);
    await Promise.all(first.map((a) => (a.admitted && a.lease ? release(a.lease) : undefined)));
    const second = await inParallel(100, () => at(T + 1_000));
    expect(summary(second).admitted).toBe(7);
  });

  it('stay exact when every request comes from a container that has never seen the item', async () => {
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, requestsPerMinute: 41 });
    const admissions = await inParallel(100, async () => {
      clearSeenCounters();
      return at(T);
    });
    expect(summary(admissions).admitted).toBe(41);
  });
});

describe.each([
  ['one container', () => undefined],
  ['a fresh container per request', () => clearSeenCounters()],
])('windows roll over on the clock (%s)', (_name, beforeEachRequest) => {
  const run = (organizationId: number, limits: Limits) => {
    const at = admitAt(organizationId, limits);
    return async (now: number, times = 1) => {
      const results: Admission[] = [];
      for (let i = 0; i < times; i++) {
        beforeEachRequest();
        results.push(await at(now));
      }
      return results;
    };
  };

  it('starts each minute afresh while the hour keeps counting, then starts the next hour', async () => {
    // Arrange: 5 a minute, 8 an hour.
    const organizationId = await newOrganizationId();
    const request = run(organizationId, { ...roomy, requestsPerMinute: 5, requestsPerHour: 8 });
    // Act / Assert: 10:00:30, five admitted, the sixth waits for 10:01.
    expect(summary(await request(T, 5)).admitted).toBe(5);
    const [sixth] = await request(T + 1_000);
    expect(sixth).toMatchObject({
      admitted: false,
      error: { message: 'Rate limit exceeded: 5 requests per minute; retry in 29 seconds' },
    });
    // 10:01:10: three more fill the hour's 8; the next waits for 11:00.
    expect(summary(await request(T + 40_000, 3)).admitted).toBe(3);
    const [ninth] = await request(T + 40_000);
    expect(ninth).toMatchObject({
      admitted: false,
      error: { message: 'Rate limit exceeded: 8 requests per hour; retry in 3530 seconds' },
      headers: { 'X-RateLimit-Limit': '8', 'X-RateLimit-Remaining': '0' },
    });
    // 11:00:00 a new hour and minute.
    const [nextHour] = await request(Date.UTC(2026, 10, 22, 11));
    expect(nextHour).toMatchObject({ admitted: true, headers: { 'X-RateLimit-Remaining': '4' } });
    // The refused requests counted nothing.
    expect(await counters(organizationId)).toMatchObject({ minuteCount: 1, hourCount: 1, monthCount: 9 });
  });

  it('starts the monthly quota again on the first of the month (UTC)', async () => {
    const organizationId = await newOrganizationId();
    const request = run(organizationId, { ...roomy, monthlyRequests: 3 });
    const lastSeconds = Date.UTC(2027, 0, 31, 23, 59, 50);
    expect(summary(await request(lastSeconds, 3)).admitted).toBe(3);
    const [refused] = await request(lastSeconds + 1_000);
    expect(refused).toMatchObject({
      admitted: false,
      error: { kind: 'MONTHLY_QUOTA_EXCEEDED', headers: { 'Retry-After': '9' } },
      headers: { 'X-RateLimit-Reset': String(Date.UTC(2027, 1, 1) / 1000) },
    });
    expect(summary(await request(Date.UTC(2027, 1, 1, 0, 0, 5), 3)).admitted).toBe(3);
  });
});

const visitorCounters = async (organizationId: number, key: string) =>
  (
    await documents().send(
      new GetCommand({
        TableName: tableName(),
        Key: scopeCountersKey(organizationId, key),
        ConsistentRead: true,
      }),
    )
  ).Item ?? {};

describe('a visitor’s admission: its windows and the organization’s in one transaction', () => {
  const visitor = (key: string, messagesPerMinute: number): Visitor => ({
    key,
    kind: 'scope',
    messagesPerMinute,
    messagesPerHour: 1_000,
    messagesPerDay: 1_000,
  });
  const admitVisitor = (organizationId: number, limits: Limits, who: Visitor, now: number) =>
    admit({ organizationId, limits, limitClass: 'answering', visitor: who, leaseMs: 30_000, now: () => now });

  it('counts both items or neither: a refusal by either spends nothing of the other', async () => {
    // Arrange: the organization's message minute holds 5; other traffic has used 4 of it.
    const organizationId = await newOrganizationId();
    const limits = { ...roomy, messagesPerMinute: 5 };
    for (let i = 0; i < 4; i++)
      expect((await admitAt(organizationId, limits, 'answering')(T)).admitted).toBe(true);
    const alice = visitor('alice', 3);

    // Act: alice's first message takes the organization's last; her second meets its full minute.
    const first = await admitVisitor(organizationId, limits, alice, T);
    const second = await admitVisitor(organizationId, limits, alice, T);
    // The next minute: alice's own 3, then her own limit.
    const next: Admission[] = [];
    for (let i = 0; i < 4; i++) next.push(await admitVisitor(organizationId, limits, alice, T + 60_000));

    // Assert
    expect(first.admitted).toBe(true);
    expect(second.admitted ? undefined : second.error.detail).toBe('MESSAGES_PER_MINUTE');
    expect(next.map((a) => a.admitted)).toEqual([true, true, true, false]);
    const refused = next[3];
    expect(refused?.admitted ? undefined : refused?.error.detail).toBe('EMBED_SESSION_MESSAGES_PER_MINUTE');
    expect(await visitorCounters(organizationId, 'alice')).toMatchObject({
      scopeMessageMinuteCount: 3,
      scopeMessageHourCount: 4,
      scopeMessageDayCount: 4,
    });
    expect(await counters(organizationId)).toMatchObject({ messageMinuteCount: 3, messageHourCount: 8 });
  });

  it('stays exact under 40 parallel requests of one visitor, each from a container that has never seen the items', async () => {
    // Arrange
    const organizationId = await newOrganizationId();
    const bob = visitor('bob', 9);

    // Act
    const admissions = await inParallel(40, async () => {
      clearSeenCounters();
      return admitVisitor(organizationId, roomy, bob, T);
    });

    // Assert: exactly the visitor's minute, counted in both items.
    expect(summary(admissions).admitted).toBe(9);
    expect(await visitorCounters(organizationId, 'bob')).toMatchObject({ scopeMessageMinuteCount: 9 });
    expect(await counters(organizationId)).toMatchObject({ messageMinuteCount: 9, leaseCount: 9 });
  });
});

describe('concurrency leases', () => {
  it('lapse when their request died, so a crash cannot lock the organization out', async () => {
    // Arrange: one answering request at a time; the first takes a 2 s lease and its Lambda dies.
    const organizationId = await newOrganizationId();
    const at = admitAt(organizationId, { ...roomy, concurrentRequests: 1 }, 'answering', 2_000);
    const crashed = await at(T);
    expect(crashed.admitted).toBe(true);
    // Act
    const whileHeld = await at(T + 1_000);
    clearSeenCounters(); // another container, which never saw the lease
    const afterExpiry = await at(T + 2_500);
    // Assert
    expect(whileHeld).toMatchObject({ admitted: false, error: { detail: 'CONCURRENT_REQUESTS' } });
    expect(afterExpiry.admitted).toBe(true);
    const item = await counters(organizationId);
    expect(item.leaseCount).toBe(1);
    expect(Object.keys(item).filter((name) => name.startsWith('lease_'))).toHaveLength(1);
  });

  it('are given back after errors and successes through the chain', async () => {
    // Arrange: an enterprise organization allowed one answering request at a time.
    const { organization, sk } = await makeOrganization('enterprise');
    await setOrganizationLimits(organization.id, { concurrentRequests: 1 });
    const post = (query: Record<string, string>) =>
      invoke(answeringHandler, { method: 'POST', path: '/test/answer', headers: { 'X-API-Key': sk }, query });
    // Act: one after another, each would be refused if the one before had kept its lease.
    const statuses: number[] = [];
    for (const query of [{ fail: '1' }, { fail: '1' }, {}, { fail: '1' }, {}])
      statuses.push((await post(query)).statusCode);
    // Assert
    expect(statuses).toEqual([404, 404, 200, 404, 200]);
    expect((await counters(organization.id)).leaseCount).toBe(0);
  });
});

describe('through the chain: headers and failure policy', () => {
  const branding = api({
    access: { credentials: ['sk', 'pk', 'jwt'] },
    scope: 'optional',
    limits: 'standard',
  }).handler(async () => ok({ branded: true }));
  const get = (handler: HttpHandler, key: string) =>
    invoke(handler, { method: 'GET', path: '/api/v1/branding', headers: { 'X-API-Key': key } });

  it('puts the tightest window on every response: the plan minute on reads, the message minute on answers', async () => {
    await roomInThisMinute();
    const { pk, sk } = await makeOrganization('professional');
    const read = await get(branding, pk);
    const answer = await get(answeringHandler, sk);
    const publicAnswer = await get(answeringHandler, pk);
    const nextMinute = String(Math.ceil(Date.now() / 60_000) * 60);
    expect(read.headers).toMatchObject({
      'x-ratelimit-limit': '500',
      'x-ratelimit-remaining': '499',
      'x-ratelimit-reset': nextMinute,
    });
    expect(answer.headers).toMatchObject({
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '29',
      'x-ratelimit-reset': nextMinute,
    });
    // A pk_ key's own message window (20 a minute) is tighter than the organization's 28 left.
    expect(publicAnswer.headers).toMatchObject({
      'x-ratelimit-limit': '20',
      'x-ratelimit-remaining': '19',
      'x-ratelimit-reset': nextMinute,
    });
  });

  it('refuses a free organization’s 11th request of a minute with 429, Retry-After and the headers', async () => {
    await roomInThisMinute();
    const { pk } = await makeOrganization('free');
    const responses = [];
    for (let i = 0; i < 11; i++) responses.push(await get(branding, pk));
    expect(responses.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(responses[9]?.headers['x-ratelimit-remaining']).toBe('0');
    const refused = responses[10]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatchObject({
      error: { code: 'RATE_LIMIT_EXCEEDED' },
      error_code: 'QUOTA_RATE_LIMIT_EXCEEDED',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.message).toBe(
      `Rate limit exceeded: 10 requests per minute; retry in ${retryAfter} seconds`,
    );
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
  });

  it('fails closed on answering routes and open on the others when the counters cannot be reached', async () => {
    // Arrange: every request for a LIMITS# item fails as if DynamoDB were down.
    const { pk } = await makeOrganization('professional');
    await get(branding, pk); // the key and organization are cached: only the limiter's calls fail
    const warn = vi.spyOn(logger, 'warn');
    documents().middlewareStack.add(
      (next) => async (args) => {
        // The keys as the document client has them, or already marshalled ({S: ...}): of the
        // command, or of each item of a transaction (a visitor's admission is one).
        type Key = { PK?: string | { S?: string } };
        const input = args.input as { Key?: Key; TransactItems?: { Update?: { Key?: Key } }[] };
        const keys = [input.Key, ...(input.TransactItems ?? []).map((item) => item.Update?.Key)];
        const partitions = keys.map((key) => (typeof key?.PK === 'string' ? key.PK : key?.PK?.S));
        if (partitions.some((pk) => pk?.startsWith('LIMITS#'))) {
          throw Object.assign(new Error('DynamoDB is unavailable'), { name: 'ServiceUnavailable' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failLimiterCalls' },
    );
    try {
      // Act
      const read = await get(branding, pk);
      const answer = await get(answeringHandler, pk);
      // Assert
      expect(read.statusCode).toBe(200);
      expect(read.headers).not.toHaveProperty('x-ratelimit-limit');
      expect(warn).toHaveBeenCalledWith(
        'rate limiter unavailable: request served without counting',
        expect.anything(),
      );
      expect(answer.statusCode).toBe(503);
      expect(answer.body).toMatchObject({ error_code: 'SYSTEM_SERVICE_UNAVAILABLE' });
      expect(answer.headers['retry-after']).toBe('2');
    } finally {
      documents().middlewareStack.remove('failLimiterCalls');
    }
  });
});

describe('indexing quota', () => {
  it('counts 10 operations a billing period on free, then refuses with used versus allowed', async () => {
    const organizationId = await newOrganizationId('free');
    const used: number[] = [];
    for (let i = 0; i < 10; i++) used.push((await consumeIndexingQuota(organizationId, { now: T })).used);
    expect(used).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await expect(consumeIndexingQuota(organizationId, { now: T })).rejects.toMatchObject({
      kind: 'INDEXING_QUOTA_EXCEEDED',
      status: 429,
      detail: 'QUOTA_EXCEEDED',
      message: 'Indexing quota exceeded: 10 of 10 indexing operations used this billing period',
    });
    // The next billing period starts at 0 again.
    expect(await consumeIndexingQuota(organizationId, { now: Date.UTC(2026, 11, 1) })).toEqual({
      period: '2026-12',
      used: 1,
      limit: 10,
    });
  });

  it('is exact under concurrency and follows an enterprise override', async () => {
    const organizationId = await newOrganizationId('enterprise');
    await setOrganizationLimits(organizationId, { indexingOperations: 4 });
    const results = await inParallel(30, () =>
      consumeIndexingQuota(organizationId, { now: T }).then(
        () => 'counted',
        (error: { kind?: string }) => error.kind,
      ),
    );
    expect(results.filter((r) => r === 'counted')).toHaveLength(4);
    expect(results.filter((r) => r === 'INDEXING_QUOTA_EXCEEDED')).toHaveLength(26);
  });

  it('is NOT_FOUND for an organization that does not exist', async () => {
    await expect(consumeIndexingQuota(987_654_321)).rejects.toMatchObject({ kind: 'NOT_FOUND' });
  });
});
