// What an organization has used (GET /api/v1/organization/usage; docs/control-plane.md "Usage"):
// its plan, the current minute and hour of the plan's request limits, the monthly API quota and
// the indexing quota of this calendar month (UTC), and this month's answers by who answered.
// One BatchGetItem (lib/store/usage.ts); the limits come from the caller's principal.
import type { Principal } from '#lib/auth/principal.ts';
import { effectiveLimits } from '#lib/limits/plans.ts';
import { monthKey, windowEnd, windowId } from '#lib/limits/windows.ts';
import type { WindowName } from '#lib/store/limit-counters.ts';
import { readUsageItems } from '#lib/store/usage.ts';

const window = (
  name: Extract<WindowName, 'minute' | 'hour' | 'month'>,
  limit: number,
  counts: Awaited<ReturnType<typeof readUsageItems>>['counters'],
  now: number,
) => {
  const id = windowId(name, now);
  const seen = counts?.windows[name];
  return {
    used: seen && seen.id === id ? seen.count : 0,
    limit,
    resets_at: new Date(windowEnd(name, id)).toISOString(),
  };
};

export const readUsage = async (principal: Principal, now = Date.now()) => {
  const limits = effectiveLimits(principal.plan, principal.limits);
  const items = await readUsageItems(principal.organizationId, monthKey(now));
  const monthEnds = new Date(windowEnd('month', windowId('month', now))).toISOString();
  return {
    plan: principal.plan,
    rate: {
      minute: window('minute', limits.requestsPerMinute, items.counters, now),
      hour: window('hour', limits.requestsPerHour, items.counters, now),
    },
    monthly: window('month', limits.monthlyRequests, items.counters, now),
    indexing: { used: items.indexingUsed, limit: limits.indexingOperations, resets_at: monthEnds },
    answers: items.answers,
    // This month's model calls, tokens (as providers reported them) and repair rounds.
    model: items.model,
  };
};
export type Usage = Awaited<ReturnType<typeof readUsage>>;
