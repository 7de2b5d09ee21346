// A pk_ key sits in a public page, so each one has its own message limit inside the
// organization's (databaseKeyMessagesPerMinute, 20 by default in the plans data; docs/limits.md):
// one visitor hammering a key cannot spend the organization's 30 messages a minute. Through the
// local gateway with the answering chain, on the real clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveLimits } from '#lib/limits/plans.ts';
import { createApiKey } from '#lib/store/api-keys.ts';
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
