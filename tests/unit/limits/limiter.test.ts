// The limiter's logic with DynamoDB mocked (aws-sdk-client-mock): which window forms one
// UpdateItem takes, how a failed condition's old item (ALL_OLD) is planned from, refusals that
// need no call, the messages and headers of a 429, leases and their pruning.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  admit,
  clearSeenCounters,
  currentWindows,
  headersOf,
  type LimitClass,
  MAX_PRUNED_LEASES,
  release,
} from '#lib/limits/limiter.ts';
import { effectiveLimits, type Limits } from '#lib/limits/plans.ts';
import { windowId } from '#lib/limits/windows.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  ddb.reset();
  clearSeenCounters();
});

// 22 Nov 2026, 10:15:18 UTC: 42 s left in the minute, 44 min 42 s in the hour.
const T = Date.UTC(2026, 10, 22, 10, 15, 18);
const minute = windowId('minute', T);
const hour = windowId('hour', T);
const month = windowId('month', T);
let organizationId = 100;
beforeEach(() => {
  organizationId += 1;
});

const professional = effectiveLimits('professional');
const limitsWith = (changes: Partial<Limits>): Limits => ({ ...professional, ...changes });

/** The COUNTERS item as DynamoDB returns it on a failed condition: raw attribute values. */
const wireItem = (attributes: Record<string, number>) =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, { N: String(value) }]));

const conditionFailed = (item?: Record<string, number>) =>
  new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    ...(item ? { Item: wireItem(item) } : {}),
  });

const currentItem = (counts: { minute?: number; hour?: number; month?: number } = {}) => ({
  minuteId: minute,
  minuteCount: counts.minute ?? 1,
  hourId: hour,
  hourCount: counts.hour ?? 1,
  monthId: month,
  monthCount: counts.month ?? 1,
});

const updates = (): UpdateCommandInput[] => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);

const run = (limitClass: LimitClass = 'standard', limits: Limits = professional, now = T) =>
  admit({ organizationId, limits, limitClass, leaseMs: 10_000, now: () => now });

describe('one request, one UpdateItem', () => {
  it('continues every window of an organization it has not seen, and admits with the tightest window', async () => {
    // Arrange
    ddb.on(UpdateCommand).resolves({ Attributes: currentItem({ minute: 12, hour: 40, month: 900 }) });
    // Act
    const admission = await run();
    // Assert
    expect(admission).toEqual({
      admitted: true,
      headers: {
        'X-RateLimit-Limit': '500',
        'X-RateLimit-Remaining': '488',
        'X-RateLimit-Reset': String(Date.UTC(2026, 10, 22, 10, 16) / 1000),
      },
    });
    const [input] = updates();
    expect(updates()).toHaveLength(1);
    expect(input?.Key).toEqual({ PK: `LIMITS#${organizationId}`, SK: 'COUNTERS' });
    expect(input?.ConditionExpression).toBe(
      '#w0 = :w0 AND #n0 < :max0 AND #w1 = :w1 AND #n1 < :max1 AND #w2 = :w2 AND #n2 < :max2',
    );
    expect(input?.ExpressionAttributeValues).toMatchObject({
      ':w0': minute,
      ':max0': 500,
      ':w1': hour,
      ':max1': 25_000,
      ':w2': month,
      ':max2': 500_000,
    });
    expect(input?.UpdateExpression).toBe('SET #ttl = :ttl ADD #n0 :one, #n1 :one, #n2 :one');
    expect(input?.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  });

  it('plans from the old item a failed condition returns: a missing item starts every window', async () => {
    // Arrange
    ddb.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({ Attributes: currentItem() });
    // Act
    const admission = await run();
    // Assert
    expect(admission.admitted).toBe(true);
    const [, second] = updates();
    expect(second?.ConditionExpression).toBe(
      '(attribute_not_exists(#w0) OR #w0 < :w0) AND (attribute_not_exists(#w1) OR #w1 < :w1) AND (attribute_not_exists(#w2) OR #w2 < :w2)',
    );
    expect(second?.UpdateExpression).toBe(
      'SET #ttl = :ttl, #w0 = :w0, #n0 = :one, #w1 = :w1, #n1 = :one, #w2 = :w2, #n2 = :one',
    );
  });

  it('starts the minute that has begun and continues the hour and month it has seen', async () => {
    // Arrange: this container saw the previous minute.
    ddb.on(UpdateCommand).resolves({ Attributes: { ...currentItem(), minuteId: minute - 1 } });
    await run('standard', professional, T - 60_000);
    ddb.resetHistory();
    ddb.on(UpdateCommand).resolves({ Attributes: currentItem() });
    // Act
    await run();
    // Assert
    expect(updates()[0]?.ConditionExpression).toBe(
      '(attribute_not_exists(#w0) OR #w0 < :w0) AND #w1 = :w1 AND #n1 < :max1 AND #w2 = :w2 AND #n2 < :max2',
    );
  });

  it('joins a window another Lambda’s clock already started, rather than start it again', async () => {
    // Arrange: the item is one minute ahead of this clock (a boundary, clocks a hair apart).
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed({ ...currentItem(), minuteId: minute + 1 }))
      .resolves({ Attributes: { ...currentItem(), minuteId: minute + 1 } });
    // Act
    await run();
    // Assert
    expect(updates()[1]?.ExpressionAttributeValues?.[':w0']).toBe(minute + 1);
  });

  it('gives up after repeated conflicts with an error the failure policy handles', async () => {
    // Arrange: the window moves under every attempt.
    let next = minute;
    ddb.on(UpdateCommand).callsFake(() => {
      next += 1;
      throw conditionFailed({ ...currentItem(), minuteId: next });
    });
    // Act / Assert
    await expect(run()).rejects.toMatchObject({ name: 'LimiterContention' });
  });

  it('passes a DynamoDB failure on (the middleware decides: fail open or closed)', async () => {
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('down'), { name: 'ServiceUnavailable' }));
    await expect(run()).rejects.toMatchObject({ name: 'ServiceUnavailable' });
  });
});

describe('refusals', () => {
  it('refuses with the spec’s wording, Retry-After and the full window’s headers, counting nothing', async () => {
    // Arrange: 30 messages this minute, as the failed condition shows.
    const full = {
      ...currentItem(),
      messageMinuteId: minute,
      messageMinuteCount: 30,
      messageHourId: hour,
      messageHourCount: 30,
    };
    ddb.on(UpdateCommand).rejects(conditionFailed(full));
    // Act
    const admission = await run('answering');
    // Assert
    expect(admission.admitted).toBe(false);
    if (admission.admitted) return;
    expect(admission.error).toMatchObject({
      kind: 'RATE_LIMITED',
      status: 429,
      message: 'Rate limit exceeded: 30 requests per minute; retry in 42 seconds',
      detail: 'MESSAGES_PER_MINUTE',
      headers: { 'Retry-After': '42' },
    });
    expect(admission.headers).toEqual({
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.UTC(2026, 10, 22, 10, 16) / 1000),
    });
    expect(updates()).toHaveLength(1);
  });

  it('refuses from what this container saw, without a call, while that window lasts', async () => {
    // Arrange: a refusal teaches the container that the minute is full.
    ddb.on(UpdateCommand).rejects(conditionFailed(currentItem({ minute: 10 })));
    const free = effectiveLimits('free');
    await run('standard', free);
    ddb.reset();
    ddb.on(UpdateCommand).resolves({ Attributes: { ...currentItem(), minuteId: minute + 1 } });
    // Act
    const again = await run('standard', free, T + 20_000);
    const callsWithinTheMinute = updates().length;
    const nextMinute = await run('standard', free, T + 42_000);
    // Assert
    expect(again).toMatchObject({ admitted: false, error: { message: /retry in 22 seconds$/ } });
    expect(callsWithinTheMinute).toBe(0);
    expect(nextMinute.admitted).toBe(true);
    expect(updates()).toHaveLength(1);
  });

  it('names the window that keeps the caller waiting longest when several are full', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(currentItem({ minute: 10, hour: 100 })));
    const admission = await run('standard', effectiveLimits('free'));
    expect(admission).toMatchObject({
      admitted: false,
      error: {
        message: 'Rate limit exceeded: 100 requests per hour; retry in 2682 seconds',
        detail: 'REQUESTS_PER_HOUR',
        headers: { 'Retry-After': '2682' },
      },
      headers: { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0' },
    });
  });

  it('reports the monthly quota as QUOTA_MONTHLY_LIMIT_EXCEEDED until the month ends', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed(currentItem({ month: 1_000 })));
    const admission = await run('standard', effectiveLimits('free'));
    const wait = (Date.UTC(2026, 11, 1) - T) / 1000;
    expect(admission).toMatchObject({
      admitted: false,
      error: {
        kind: 'MONTHLY_QUOTA_EXCEEDED',
        message: `Monthly API quota exceeded: 1000 requests per calendar month (UTC); retry in ${wait} seconds`,
        headers: { 'Retry-After': String(wait) },
      },
      headers: { 'X-RateLimit-Reset': String(Date.UTC(2026, 11, 1) / 1000) },
    });
  });
});

describe('concurrency leases', () => {
  const answeringLimits = limitsWith({ concurrentRequests: 2 });

  it('takes a lease in the same UpdateItem as the counts, with an expiry', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: currentItem() });
    const admission = await run('answering', answeringLimits);
    expect(admission).toMatchObject({ admitted: true, lease: { organizationId, id: expect.any(String) } });
    const input = updates()[0];
    expect(updates()).toHaveLength(1);
    expect(input?.ConditionExpression).toContain('(attribute_not_exists(#leases) OR #leases < :leaseMax)');
    expect(input?.ExpressionAttributeValues).toMatchObject({
      ':leaseMax': 2,
      ':leaseDelta': 1,
      ':leaseExpiry': T + 10_000,
    });
    expect(input?.ExpressionAttributeNames?.['#lease']).toMatch(/^lease_[0-9a-f]{16}$/);
  });

  it('refuses when the leases in flight reach the limit, and says to retry in a second', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(conditionFailed({ ...currentItem(), leaseCount: 2, lease_a: T + 5_000, lease_b: T + 9_000 }));
    const admission = await run('answering', answeringLimits);
    expect(admission).toMatchObject({
      admitted: false,
      error: {
        kind: 'RATE_LIMITED',
        message: 'Concurrency limit exceeded: 2 requests in flight; retry in 1 second',
        detail: 'CONCURRENT_REQUESTS',
        headers: { 'Retry-After': '1' },
      },
      // The tightest window as it stands (the refused request counted nothing).
      headers: { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '30' },
    });
  });

  it('prunes leases that lapsed (a crashed request) in the update that takes the new one', async () => {
    // Arrange: both leases are held by requests that died; one lapsed a second ago.
    ddb
      .on(UpdateCommand)
      .rejectsOnce(
        conditionFailed({ ...currentItem(), leaseCount: 2, lease_dead: T - 1_000, lease_live: T + 9_000 }),
      )
      .resolves({ Attributes: currentItem() });
    // Act
    const admission = await run('answering', answeringLimits);
    // Assert
    expect(admission.admitted).toBe(true);
    const retry = updates()[1];
    expect(retry?.ExpressionAttributeNames?.['#p0']).toBe('lease_dead');
    expect(retry?.ConditionExpression).toContain('attribute_exists(#p0)');
    expect(retry?.UpdateExpression).toContain('REMOVE #p0');
    expect(retry?.ExpressionAttributeValues).toMatchObject({ ':leaseMax': 3, ':leaseDelta': 0 });
  });

  it('clears a batch of lapsed leases first when there are more than one update may prune', async () => {
    // Arrange: more dead leases than MAX_PRUNED_LEASES (the limit was lowered meanwhile), so
    // pruning one batch in the admitting update would still leave the count at the limit.
    const dead = Object.fromEntries(
      Array.from({ length: MAX_PRUNED_LEASES + 5 }, (_, i) => [`lease_d${i}`, T - 1_000]),
    );
    const limits = limitsWith({ concurrentRequests: 3 });
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed({ ...currentItem(), leaseCount: MAX_PRUNED_LEASES + 5, ...dead }))
      .resolvesOnce({})
      .resolves({ Attributes: currentItem() });
    // Act
    const admission = await run('answering', limits);
    // Assert
    expect(admission.admitted).toBe(true);
    const prune = updates()[1];
    expect(prune?.UpdateExpression).toMatch(/^REMOVE #p0, .* ADD #leases :delta$/);
    expect(prune?.ExpressionAttributeValues).toEqual({ ':delta': -MAX_PRUNED_LEASES });
  });

  it('gives a lease back with one conditional UpdateItem; one already pruned is not an error', async () => {
    ddb.on(UpdateCommand).resolvesOnce({}).rejects(conditionFailed());
    await release({ organizationId, id: 'abc' });
    await release({ organizationId, id: 'abc' });
    const input = updates()[0];
    expect(input).toMatchObject({
      UpdateExpression: 'REMOVE #lease ADD #leases :minusOne',
      ConditionExpression: 'attribute_exists(#lease)',
      ExpressionAttributeNames: { '#lease': 'lease_abc', '#leases': 'leaseCount' },
    });
  });
});

describe('headers', () => {
  it('show the message limit on answering routes, and the window nearest its limit otherwise', () => {
    // Arrange
    const state = {
      windows: {
        minute: { id: minute, count: 5 },
        hour: { id: hour, count: 24_990 },
        month: { id: month, count: 100 },
        messageMinute: { id: minute, count: 3 },
        messageHour: { id: hour, count: 3 },
      },
      leaseCount: 0,
      leases: [],
    };
    // Act
    const answering = headersOf(currentWindows('answering', professional, state, T));
    const standard = headersOf(currentWindows('standard', professional, state, T));
    // Assert: 27 messages left this minute; 10 requests left this hour.
    expect(answering['X-RateLimit-Limit']).toBe('25000');
    expect(answering['X-RateLimit-Remaining']).toBe('10');
    expect(standard['X-RateLimit-Remaining']).toBe('10');
    const quiet = { ...state, windows: { ...state.windows, hour: { id: hour, count: 3 } } };
    expect(headersOf(currentWindows('answering', professional, quiet, T))).toMatchObject({
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '27',
    });
  });

  it('count a window that has passed as empty', () => {
    const state = { windows: { minute: { id: minute - 1, count: 500 } }, leaseCount: 0, leases: [] };
    const [current] = currentWindows('standard', professional, state, T);
    expect(current).toMatchObject({ id: minute, count: 0, started: false });
  });
});
