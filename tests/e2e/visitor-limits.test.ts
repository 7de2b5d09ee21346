// A pk_ key sits in a public page, and an embed session is one visitor's browser: each has its own
// message windows inside the organization's (per minute, hour and UTC day; plans data,
// docs/limits.md), so one visitor hammering a key or a session cannot spend the organization's
// 30 messages a minute or 200 an hour. Through the local gateway with the answering chain, on the
// real clock, and on a controlled clock for the hour and the day.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '#lib/auth/api-keys.ts';
import { signEmbedToken } from '#lib/auth/embed-token.ts';
import { effectiveLimits } from '#lib/limits/plans.ts';
import { setOrganizationLimits } from '#lib/store/organizations.ts';
import { makeOrganization } from '../helpers/fixtures.ts';
import { ANSWERING_TEST_ROUTE, jsonOf, startTestGateway } from '../helpers/gateway.ts';
import { roomInThisMinute } from '../helpers/limits.ts';

let gateway: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  gateway = await startTestGateway([ANSWERING_TEST_ROUTE]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

const answer = (key: string) =>
  fetch(`${gateway.url}/test/answer`, { method: 'POST', headers: { 'X-API-Key': key } });

const answerAsSession = (token: string) =>
  fetch(`${gateway.url}/test/answer`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });

/** Sends `count` requests one after the other; the statuses, and the refusals' details by count. */
const burst = async (count: number, send: () => Promise<Response>) => {
  const statuses: number[] = [];
  const details = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const response = await send();
    statuses.push(response.status);
    if (response.status === 429) {
      const detail = String((await jsonOf(response)).error.details);
      details.set(detail, (details.get(detail) ?? 0) + 1);
    } else await response.arrayBuffer();
  }
  return {
    admitted: statuses.filter((status) => status === 200).length,
    details: Object.fromEntries(details),
  };
};

describe('the message limit of a pk_ key', () => {
  it('refuses a key past its own limit while the organization’s other keys still answer', async () => {
    // Arrange: an enterprise organization whose keys may send 3 messages a minute each.
    await roomInThisMinute(15_000);
    const acme = await makeOrganization('enterprise');
    await setOrganizationLimits(acme.organization.id, { databaseKeyMessagesPerMinute: 3 });
    const other = (
      await createApiKey({ organizationId: acme.organization.id, kind: 'pk', databaseId: acme.databaseId })
    ).key;

    // Act
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await answer(acme.pk);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    const fourth = await answer(acme.pk);
    const otherKey = await answer(other);
    const organizationKey = await answer(acme.sk);

    // Assert
    expect(statuses).toEqual([200, 200, 200]);
    expect(fourth.status).toBe(429);
    const refused = await jsonOf(fourth);
    expect(refused.error_code).toBe('QUOTA_RATE_LIMIT_EXCEEDED');
    expect(refused.error.details).toBe('DATABASE_KEY_MESSAGES_PER_MINUTE');
    expect(fourth.headers.get('x-ratelimit-limit')).toBe('3');
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(otherKey.status).toBe(200);
    expect(organizationKey.status).toBe(200);
  });

  it('is 20 messages a minute by default, inside the organization’s 30', () => {
    for (const plan of ['free', 'starter', 'professional', 'business', 'enterprise'] as const) {
      expect(effectiveLimits(plan).databaseKeyMessagesPerMinute).toBe(20);
      expect(effectiveLimits(plan).databaseKeyMessagesPerMinute).toBeLessThan(
        effectiveLimits(plan).messagesPerMinute,
      );
    }
  });
});

describe('a visitor’s hour and day (controlled clock)', () => {
  const MINUTE = 60_000;
  const HOUR = 3_600_000;
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stop the page’s pk_ key and one browser long before the organization’s 200 messages an hour', async () => {
    // Arrange: the clock at the start of the next hour; a professional organization (30 messages
    // a minute, 200 an hour), its pk_ key, and two visitors' embed sessions on its database.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 5_000;
    vi.setSystemTime(start);
    const acme = await makeOrganization('professional');
    const session = async (scope: string) =>
      (
        await signEmbedToken({
          organizationId: acme.organization.id,
          databaseId: acme.databaseId,
          scope,
          expiresAt: Math.floor(start / 1000) + 3 * 86_400,
        })
      ).token;
    const alice = await session('alice');
    const bob = await session('bob');

    // Act: the page's key sends its 20 a minute for ten minutes (200 messages: today the
    // organization's whole hour), then alice sends her 10 a minute for ten more.
    const byKey = { admitted: 0, details: {} as Record<string, number> };
    for (let minute = 0; minute < 10; minute++) {
      vi.setSystemTime(start + minute * MINUTE);
      const sent = await burst(20, () => answer(acme.pk));
      byKey.admitted += sent.admitted;
      for (const [detail, n] of Object.entries(sent.details))
        byKey.details[detail] = (byKey.details[detail] ?? 0) + n;
    }
    const byAlice = { admitted: 0, details: {} as Record<string, number> };
    for (let minute = 10; minute < 20; minute++) {
      vi.setSystemTime(start + minute * MINUTE);
      const sent = await burst(10, () => answerAsSession(alice));
      byAlice.admitted += sent.admitted;
      for (const [detail, n] of Object.entries(sent.details))
        byAlice.details[detail] = (byAlice.details[detail] ?? 0) + n;
    }
    const bobFirst = await answerAsSession(bob);
    const integrator = await answer(acme.sk);

    // Assert: each visitor stops at its own hour; the organization keeps answering everyone else.
    expect(byKey).toEqual({ admitted: 60, details: { DATABASE_KEY_MESSAGES_PER_HOUR: 140 } });
    expect(byAlice).toEqual({ admitted: 30, details: { EMBED_SESSION_MESSAGES_PER_HOUR: 70 } });
    expect(bobFirst.status).toBe(200);
    expect(integrator.status).toBe(200);
    expect(Number(integrator.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
  }, 120_000);

  it('stop one browser at its day, and give it its hour back the next hour', async () => {
    // Arrange
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 5_000;
    vi.setSystemTime(start);
    const acme = await makeOrganization('professional');
    const { token } = await signEmbedToken({
      organizationId: acme.organization.id,
      databaseId: acme.databaseId,
      scope: 'carol',
      expiresAt: Math.floor(start / 1000) + 3 * 86_400,
    });
    const limits = effectiveLimits('professional');

    // Act: every hour, carol sends as many as her hour holds (10 a minute), for four hours.
    const perHour: number[] = [];
    const refusals: Record<string, number> = {};
    for (let hour = 0; hour < 4; hour++) {
      let admitted = 0;
      for (let minute = 0; minute < limits.embedScopeMessagesPerHour / 10 + 1; minute++) {
        vi.setSystemTime(start + hour * HOUR + minute * MINUTE);
        const sent = await burst(10, () => answerAsSession(token));
        admitted += sent.admitted;
        for (const [detail, n] of Object.entries(sent.details))
          refusals[detail] = (refusals[detail] ?? 0) + n;
      }
      perHour.push(admitted);
    }

    // Assert: 30 + 30 + 30 + 10 = the day's 100; the hours' refusals, then the day's.
    expect(perHour).toEqual([30, 30, 30, 10]);
    expect(refusals).toEqual({ EMBED_SESSION_MESSAGES_PER_HOUR: 30, EMBED_SESSION_MESSAGES_PER_DAY: 30 });
  }, 120_000);

  it('are one hour for every token without a scope of one database and tenant, however many are handed out', async () => {
    // Arrange: the clock at the start of the next hour; a session route that hands every request
    // a fresh token without a scope.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 5_000;
    vi.setSystemTime(start);
    const acme = await makeOrganization('professional');
    const fresh = async (databaseId: string, tenant?: string) =>
      (
        await signEmbedToken({
          organizationId: acme.organization.id,
          databaseId,
          ...(tenant === undefined ? {} : { tenant }),
          expiresAt: Math.floor(start / 1000) + 3 * 86_400,
        })
      ).token;

    // Act: a new token every minute for five minutes, each sending its 10.
    const refusals: Record<string, number> = {};
    let admitted = 0;
    for (let minute = 0; minute < 5; minute++) {
      vi.setSystemTime(start + minute * MINUTE);
      const token = await fresh(acme.databaseId);
      const sent = await burst(10, () => answerAsSession(token));
      admitted += sent.admitted;
      for (const [detail, n] of Object.entries(sent.details)) refusals[detail] = (refusals[detail] ?? 0) + n;
    }
    const otherTenant = await answerAsSession(await fresh(acme.databaseId, '2'));
    const otherDatabase = await answerAsSession(await fresh(randomUUID()));
    const scoped = await answerAsSession(
      (
        await signEmbedToken({
          organizationId: acme.organization.id,
          databaseId: acme.databaseId,
          scope: 'dave',
          expiresAt: Math.floor(start / 1000) + 3 * 86_400,
        })
      ).token,
    );

    // Assert: the fresh tokens share one hour of 30; another tenant, another database and a scoped
    // token have their own.
    expect(admitted).toBe(30);
    expect(refusals).toEqual({ EMBED_SESSION_MESSAGES_PER_HOUR: 20 });
    expect(otherTenant.status).toBe(200);
    expect(otherDatabase.status).toBe(200);
    expect(scoped.status).toBe(200);
  }, 120_000);

  it('are well under the organization’s hour on every plan, and never above half of it', () => {
    for (const plan of ['free', 'starter', 'professional', 'business', 'enterprise'] as const) {
      const limits = effectiveLimits(plan);
      expect(limits.embedScopeMessagesPerHour).toBe(30);
      expect(limits.databaseKeyMessagesPerHour).toBe(60);
      expect(limits.databaseKeyMessagesPerHour).toBeLessThanOrEqual(limits.messagesPerHour / 2);
      expect(limits.embedScopeMessagesPerDay).toBe(100);
      expect(limits.databaseKeyMessagesPerDay).toBe(300);
    }
    // An enterprise organization that lowers its own hour keeps the guarantee.
    const lowered = effectiveLimits('enterprise', { messagesPerHour: 40 });
    expect(lowered.databaseKeyMessagesPerHour).toBe(20);
    expect(lowered.embedScopeMessagesPerHour).toBe(20);
  });
});
