// Plans as data (spec "Limits" and "Plan gating"): the spec's figures, features per plan, the
// enterprise overrides, and the calendar windows the limiter counts in.

import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { effectiveLimits, hasFeature, MESSAGE_LIMITS, plans } from '#lib/limits/plans.ts';
import { monthKey, secondsUntil, windowEnd, windowId, windowStart } from '#lib/limits/windows.ts';
import { LimitOverrides } from '#lib/store/organizations.ts';

describe('plans', () => {
  it('carries the spec table: requests per minute, per hour and concurrent requests', () => {
    // Arrange: spec "Plan rate limits", written out rather than read back.
    const spec = {
      free: [10, 100, 2],
      starter: [100, 5_000, 10],
      professional: [500, 25_000, 50],
    } as const;
    // Assert
    for (const [name, [perMinute, perHour, concurrent]] of Object.entries(spec)) {
      const plan = plans[name as keyof typeof spec];
      expect([plan.requestsPerMinute, plan.requestsPerHour, plan.concurrentRequests]).toEqual([
        perMinute,
        perHour,
        concurrent,
      ]);
    }
  });

  it('gives every plan the message limits of 30 per minute and 200 per hour', () => {
    expect(MESSAGE_LIMITS).toEqual({ messagesPerMinute: 30, messagesPerHour: 200 });
    for (const plan of Object.values(plans)) {
      expect([plan.messagesPerMinute, plan.messagesPerHour]).toEqual([30, 200]);
    }
  });

  it('orders the plans: each at least the one below, business between professional and enterprise', () => {
    const order = [plans.free, plans.starter, plans.professional, plans.business, plans.enterprise];
    const figures = [
      'requestsPerMinute',
      'requestsPerHour',
      'concurrentRequests',
      'monthlyRequests',
      'indexingOperations',
    ] as const;
    for (let i = 1; i < order.length; i++) {
      for (const figure of figures) expect(order[i]![figure]).toBeGreaterThanOrEqual(order[i - 1]![figure]);
    }
    expect(plans.free.indexingOperations).toBe(10);
  });

  it('gates features: widget everywhere, api_access from starter, custom_api_access from professional', () => {
    expect(Object.values(plans).every((plan) => hasFeature(plan.name, 'widget'))).toBe(true);
    expect(
      ['free', 'starter', 'professional', 'business', 'enterprise'].map((name) => [
        hasFeature(name as 'free', 'api_access'),
        hasFeature(name as 'free', 'custom_api_access'),
      ]),
    ).toEqual([
      [false, false],
      [true, false],
      [true, true],
      [true, true],
      [true, true],
    ]);
  });
});

describe('effective limits', () => {
  it('applies an organization’s overrides on the enterprise plan only', () => {
    const overrides = { requestsPerMinute: 7, indexingOperations: 3 };
    expect(effectiveLimits('enterprise', overrides)).toMatchObject({
      requestsPerMinute: 7,
      indexingOperations: 3,
      requestsPerHour: plans.enterprise.requestsPerHour,
      messagesPerMinute: 30,
    });
    expect(effectiveLimits('professional', overrides).requestsPerMinute).toBe(500);
    expect(effectiveLimits('enterprise')).not.toHaveProperty('features');
  });

  it('accepts only whole positive overrides of the figures it knows', () => {
    expect(v.safeParse(LimitOverrides, { requestsPerMinute: 0 }).success).toBe(false);
    expect(v.safeParse(LimitOverrides, { requestsPerHour: 1.5 }).success).toBe(false);
    expect(v.safeParse(LimitOverrides, { requestsPerDay: 100 }).success).toBe(false);
    expect(v.safeParse(LimitOverrides, { messagesPerMinute: 100 }).success).toBe(true);
    expect(v.safeParse(LimitOverrides, { concurrentRequests: 3, monthlyRequests: 9 }).success).toBe(true);
  });
});

describe('MONTHLY_QUOTAS', () => {
  it('replaces plans’ monthly quotas and ignores entries it cannot read', () => {
    // Arrange
    vi.stubEnv('MONTHLY_QUOTAS', 'free=2500, starter = 7, platinum=9, professional=lots');
    // Act / Assert
    expect(effectiveLimits('free').monthlyRequests).toBe(2_500);
    expect(effectiveLimits('starter').monthlyRequests).toBe(7);
    expect(effectiveLimits('professional').monthlyRequests).toBe(plans.professional.monthlyRequests);
  });
});

describe('windows', () => {
  const at = Date.UTC(2026, 11, 31, 23, 59, 18, 500); // 31 Dec 2026, 23:59:18.5 UTC

  it('names the clock minute, the clock hour and the calendar month, and ends each on the next', () => {
    expect(windowStart('minute', windowId('minute', at))).toBe(Date.UTC(2026, 11, 31, 23, 59));
    expect(windowEnd('minute', windowId('minute', at))).toBe(Date.UTC(2027, 0, 1, 0, 0));
    expect(windowEnd('hour', windowId('hour', at))).toBe(Date.UTC(2027, 0, 1));
    expect(windowStart('month', windowId('month', at))).toBe(Date.UTC(2026, 11, 1));
    expect(windowEnd('month', windowId('month', at))).toBe(Date.UTC(2027, 0, 1));
    expect(windowId('month', Date.UTC(2027, 0, 1))).toBe(windowId('month', at) + 1);
    expect(monthKey(at)).toBe('2026-12');
  });

  it('rounds a wait up to whole seconds, at least one', () => {
    expect(secondsUntil(Date.UTC(2027, 0, 1), at)).toBe(42);
    expect(secondsUntil(at, at)).toBe(1);
  });
});
