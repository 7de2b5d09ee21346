// The rate limiter (docs/design.md "Limits", docs/limits.md): admits or refuses one request of an
// organization against its plan's windows, and on the answering endpoints also against the
// message limits and the concurrency lease. Counts live in one DynamoDB item per organization
// (lib/store/limit-counters.ts) changed by one conditional UpdateItem per request.
//
// Which form each window takes (continue the current window, or start a new one) is planned from
// the item as last seen by this container; a plan made on an outdated view fails its condition,
// and the failure returns the item as it is, from which the next attempt is planned. A window
// count seen at or over its limit is final for that window (counts only grow within a window),
// so a refusal needs no call once this container has seen the limit reached; a lease count is
// not (leases are given back), so a concurrency refusal is only made on the item as just read.
import { randomBytes } from 'node:crypto';
import { ServiceError } from '#lib/errors.ts';
import type { AlongsideWrite } from '#lib/store/client.ts';
import {
  type CounterState,
  EMPTY_COUNTERS,
  type LeaseStep,
  leaseReleaseUpdate,
  pruneLeases,
  releaseLease,
  updateCounters,
  updateCountersWithVisitor,
  type WindowName,
  type WindowStep,
} from '#lib/store/limit-counters.ts';
import { backoffDelay, sleep } from '#lib/store/retry.ts';
import { TtlCache } from '#lib/ttl-cache.ts';
import type { Limits } from './plans.ts';
import { secondsUntil, unitOf, windowEnd, windowId } from './windows.ts';

/**
 * `standard`: the plan's windows and the monthly quota. `answering`: also the message limits and
 * a lease, and, for a visitor (AdmitInput.visitor: an embed session scope or a pk_ key), the
 * visitor's own windows, all in one round trip.
 */
export type LimitClass = 'standard' | 'answering';

/** A visitor with message windows of its own inside the organization's (docs/limits.md). */
export interface Visitor {
  /** Its counters item (lib/store/limit-counters.ts scopeCountersKey). */
  key: string;
  /** An embed session's scope or a pk_ key: which windows (their refusals say which). */
  kind: 'scope' | 'key';
  messagesPerMinute: number;
  messagesPerHour: number;
  messagesPerDay: number;
}

const visitorWindows = {
  scope: ['scopeMessageMinute', 'scopeMessageHour', 'scopeMessageDay'],
  key: ['keyMessageMinute', 'keyMessageHour', 'keyMessageDay'],
} as const satisfies Record<Visitor['kind'], readonly [WindowName, WindowName, WindowName]>;

export interface RateLimitHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
}

export interface Lease {
  organizationId: number;
  id: string;
}

export type Admission =
  | { admitted: true; headers: RateLimitHeaders; lease?: Lease }
  | { admitted: false; headers: RateLimitHeaders; error: ServiceError };

export interface AdmitInput {
  organizationId: number;
  limits: Limits;
  limitClass: LimitClass;
  /** `answering`: the visitor whose own windows are counted too (docs/limits.md "Visitors"). */
  visitor?: Visitor | undefined;
  /** How long the request may still run: its lease lapses after that (answering only). */
  leaseMs?: number;
  /** The clock (ms since the epoch); tests move it. */
  now?: () => number;
}

/** A window of the route, placed on the clock and on what was seen of the item. */
export interface CurrentWindow {
  name: WindowName;
  limit: number;
  id: number;
  endsAt: number;
  /** Requests counted in this window so far, as far as known (0 when it has not started). */
  count: number;
  /** Whether the item is known to hold this window already (continue) or not (start). */
  started: boolean;
}

const organizationRules = (limitClass: LimitClass, limits: Limits): { name: WindowName; limit: number }[] => [
  { name: 'minute', limit: limits.requestsPerMinute },
  { name: 'hour', limit: limits.requestsPerHour },
  { name: 'month', limit: limits.monthlyRequests },
  ...(limitClass === 'answering'
    ? [
        { name: 'messageMinute' as const, limit: limits.messagesPerMinute },
        { name: 'messageHour' as const, limit: limits.messagesPerHour },
      ]
    : []),
];

const visitorRules = (visitor: Visitor): { name: WindowName; limit: number }[] => {
  const [minute, hour, day] = visitorWindows[visitor.kind];
  return [
    { name: minute, limit: visitor.messagesPerMinute },
    { name: hour, limit: visitor.messagesPerHour },
    { name: day, limit: visitor.messagesPerDay },
  ];
};

type Rule = { name: WindowName; limit: number };

const rulesOf = (limitClass: LimitClass, limits: Limits): Rule[] => organizationRules(limitClass, limits);

/**
 * The route's windows at `now`. `state` undefined: the item has not been seen, and every window
 * is assumed current (right for an active organization; a wrong guess costs one retry). A window
 * the item holds with a later id than this clock's (another Lambda's clock runs a little ahead
 * at a boundary) is joined rather than started again.
 */
export const currentWindows = (
  limitClass: LimitClass,
  limits: Limits,
  state: CounterState | undefined,
  now: number,
): CurrentWindow[] => windowsOf(rulesOf(limitClass, limits), state, now);

/** A visitor's windows at `now` (see currentWindows). */
export const currentVisitorWindows = (
  visitor: Visitor,
  state: CounterState | undefined,
  now: number,
): CurrentWindow[] => windowsOf(visitorRules(visitor), state, now);

const windowsOf = (rules: Rule[], state: CounterState | undefined, now: number): CurrentWindow[] =>
  rules.map(({ name, limit }) => {
    const unit = unitOf[name];
    const seen = state?.windows[name];
    const id = Math.max(windowId(unit, now), seen?.id ?? Number.NEGATIVE_INFINITY);
    const current = seen !== undefined && seen.id === id;
    return {
      name,
      limit,
      id,
      endsAt: windowEnd(unit, id),
      count: current ? seen.count : 0,
      started: state === undefined || current,
    };
  });

/** The X-RateLimit-* headers of the tightest window: fewest requests left, then the longest wait. */
export const headersOf = (windows: readonly CurrentWindow[]): RateLimitHeaders => {
  const [tightest] = [...windows].sort(
    (a, b) => a.limit - a.count - (b.limit - b.count) || b.endsAt - a.endsAt || a.limit - b.limit,
  );
  if (!tightest) throw new Error('a route has at least one window');
  return {
    'X-RateLimit-Limit': String(tightest.limit),
    'X-RateLimit-Remaining': String(Math.max(0, tightest.limit - tightest.count)),
    'X-RateLimit-Reset': String(Math.floor(tightest.endsAt / 1000)),
  };
};

const windowWords: Record<WindowName, { per: string; detail: string }> = {
  minute: { per: 'minute', detail: 'REQUESTS_PER_MINUTE' },
  hour: { per: 'hour', detail: 'REQUESTS_PER_HOUR' },
  month: { per: 'calendar month (UTC)', detail: 'MONTHLY_QUOTA_EXCEEDED' },
  messageMinute: { per: 'minute', detail: 'MESSAGES_PER_MINUTE' },
  messageHour: { per: 'hour', detail: 'MESSAGES_PER_HOUR' },
  scopeMessageMinute: { per: 'minute for this embed session', detail: 'EMBED_SESSION_MESSAGES_PER_MINUTE' },
  scopeMessageHour: { per: 'hour for this embed session', detail: 'EMBED_SESSION_MESSAGES_PER_HOUR' },
  scopeMessageDay: { per: 'day (UTC) for this embed session', detail: 'EMBED_SESSION_MESSAGES_PER_DAY' },
  keyMessageMinute: { per: 'minute for this database key', detail: 'DATABASE_KEY_MESSAGES_PER_MINUTE' },
  keyMessageHour: { per: 'hour for this database key', detail: 'DATABASE_KEY_MESSAGES_PER_HOUR' },
  keyMessageDay: { per: 'day (UTC) for this database key', detail: 'DATABASE_KEY_MESSAGES_PER_DAY' },
};

const inSeconds = (seconds: number): string => `${seconds} second${seconds === 1 ? '' : 's'}`;

/** The 429 for windows at their limit: it names the one that keeps the caller waiting longest. */
export const windowRefusal = (
  windows: readonly CurrentWindow[],
  now: number,
): { headers: RateLimitHeaders; error: ServiceError } => {
  const full = windows.filter((window) => window.count >= window.limit);
  const [longest] = full.sort((a, b) => b.endsAt - a.endsAt);
  if (!longest) throw new Error('windowRefusal needs a window at its limit');
  const wait = secondsUntil(longest.endsAt, now);
  const words = windowWords[longest.name];
  const message =
    longest.name === 'month'
      ? `Monthly API quota exceeded: ${longest.limit} requests per ${words.per}; retry in ${inSeconds(wait)}`
      : `Rate limit exceeded: ${longest.limit} requests per ${words.per}; retry in ${inSeconds(wait)}`;
  return {
    headers: headersOf([longest]),
    error: new ServiceError(longest.name === 'month' ? 'MONTHLY_QUOTA_EXCEEDED' : 'RATE_LIMITED', {
      message,
      detail: words.detail,
      headers: { 'Retry-After': String(wait) },
    }),
  };
};

const CONCURRENCY_RETRY_SECONDS = 1;

const concurrencyRefusal = (windows: readonly CurrentWindow[], limit: number) => ({
  headers: headersOf(windows),
  error: new ServiceError('RATE_LIMITED', {
    message: `Concurrency limit exceeded: ${limit} requests in flight; retry in ${inSeconds(CONCURRENCY_RETRY_SECONDS)}`,
    detail: 'CONCURRENT_REQUESTS',
    headers: { 'Retry-After': String(CONCURRENCY_RETRY_SECONDS) },
  }),
});

/** A lease lasts as long as its request may still run, plus this margin. */
export const LEASE_MARGIN_MS = 5_000;
/** When the request's remaining time is unknown: API Gateway's 29 s integration limit, rounded up. */
const DEFAULT_LEASE_MS = 30_000 + LEASE_MARGIN_MS;
/** Expired leases pruned per update: keeps the expression well under DynamoDB's 4 KB. */
export const MAX_PRUNED_LEASES = 40;
/** Attempts per admission; each failed one carries the item forward, so two or three suffice. */
const MAX_ATTEMPTS = 6;
/** Waits when the counters item is in a transaction (an answer giving its lease back). */
const COUNTER_CONFLICT_BACKOFF = { attempts: MAX_ATTEMPTS, baseMs: 10, maxMs: 200 };
/** The counters item goes (TTL) after this long without a request: every window in it has passed. */
const COUNTERS_TTL_SECONDS = 40 * 24 * 3600;
/** A visitor's item holds windows of up to a day: it may go a day after its last request. */
const SCOPE_COUNTERS_TTL_SECONDS = 2 * 24 * 3600;

/** The item as this container last saw it, per organization or scope (a hint; conditions decide). */
const seen = new TtlCache<string, CounterState>(3_600_000, 10_000);
const seenKey = (organizationId: number, scopeKey?: string): string =>
  scopeKey === undefined ? String(organizationId) : `${organizationId}#${scopeKey}`;

export const clearSeenCounters = (): void => seen.clear();

const newLeaseId = (): string => randomBytes(8).toString('hex');

const stepsOf = (windows: readonly CurrentWindow[]): WindowStep[] =>
  windows.map((window) => ({
    window: window.name,
    id: window.id,
    form: window.started ? 'continue' : 'start',
    limit: window.limit,
  }));

const isFull = (windows: readonly CurrentWindow[]): boolean =>
  windows.some((window) => window.count >= window.limit);

/**
 * The item after an admission made in a transaction (which returns no values): as planned, each
 * window one further. Counts under concurrency may be higher still; the next condition tells.
 */
const countedState = (
  state: CounterState | undefined,
  windows: readonly CurrentWindow[],
  lease?: LeaseStep,
): CounterState => {
  const base = state ?? EMPTY_COUNTERS;
  const counted: CounterState = {
    windows: { ...base.windows },
    leaseCount: base.leaseCount,
    leases: base.leases,
  };
  for (const window of windows) counted.windows[window.name] = { id: window.id, count: window.count + 1 };
  if (lease) {
    counted.leases = [
      ...base.leases.filter((entry) => !lease.prune.includes(entry.id)),
      { id: lease.id, expiresAt: lease.expiresAt },
    ];
    counted.leaseCount = base.leaseCount + 1 - lease.prune.length;
  }
  return counted;
};

/**
 * Admits or refuses one request. Throws only when the counters cannot be read or written
 * (DynamoDB down, or the items changing under every attempt): the caller's failure policy applies.
 * A visitor's answering request is one TransactWriteItems of the visitor's and the organization's
 * conditional updates; every other request one UpdateItem of the organization's item.
 */
export const admit = async (input: AdmitInput): Promise<Admission> => {
  const clock = input.now ?? Date.now;
  const { organizationId, limits, limitClass } = input;
  const visitor = limitClass === 'answering' ? input.visitor : undefined;
  const cacheKey = seenKey(organizationId);
  const visitorCacheKey = visitor && seenKey(organizationId, visitor.key);
  const leaseId = limitClass === 'answering' ? newLeaseId() : undefined;
  let state = seen.get(cacheKey);
  let visitorState = visitorCacheKey === undefined ? undefined : seen.get(visitorCacheKey);
  let fresh = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const now = clock();
    const visitorWindows = visitor ? currentVisitorWindows(visitor, visitorState, now) : [];
    // A visitor at its own limit is refused first: nothing of the organization's is spent.
    if (isFull(visitorWindows)) return { admitted: false, ...windowRefusal(visitorWindows, now) };
    const windows = currentWindows(limitClass, limits, state, now);
    if (isFull(windows)) return { admitted: false, ...windowRefusal(windows, now) };
    let lease: LeaseStep | undefined;
    if (leaseId !== undefined) {
      const expired = (state?.leases ?? [])
        .filter((entry) => entry.expiresAt <= now)
        .map((entry) => entry.id);
      const prune = expired.slice(0, MAX_PRUNED_LEASES);
      const inFlight = (state?.leaseCount ?? 0) - prune.length;
      if (fresh && inFlight >= limits.concurrentRequests) {
        if (expired.length > prune.length) {
          // More crashed leases than one update may prune: clear a batch, then plan again.
          await pruneLeases(organizationId, prune);
          state = undefined;
          fresh = false;
          continue;
        }
        return { admitted: false, ...concurrencyRefusal(windows, limits.concurrentRequests) };
      }
      lease = {
        id: leaseId,
        expiresAt: now + (input.leaseMs ?? DEFAULT_LEASE_MS),
        limit: limits.concurrentRequests,
        prune,
      };
    }
    const organizationUpdate = {
      organizationId,
      steps: stepsOf(windows),
      lease,
      expiresAt: Math.floor(now / 1000) + COUNTERS_TTL_SECONDS,
    };
    const admitted = { ...(leaseId !== undefined ? { lease: { organizationId, id: leaseId } } : {}) };
    if (visitor && visitorCacheKey !== undefined) {
      const result = await updateCountersWithVisitor(organizationUpdate, {
        organizationId,
        scopeKey: visitor.key,
        steps: stepsOf(visitorWindows),
        expiresAt: Math.floor(now / 1000) + SCOPE_COUNTERS_TTL_SECONDS,
      });
      if ('conflict' in result) {
        await sleep(backoffDelay(COUNTER_CONFLICT_BACKOFF, attempt));
        continue;
      }
      if (result.admitted) {
        state = countedState(state, windows, lease);
        visitorState = countedState(visitorState, visitorWindows);
        seen.set(cacheKey, state);
        seen.set(visitorCacheKey, visitorState);
        return {
          admitted: true,
          headers: headersOf([
            ...currentWindows(limitClass, limits, state, now),
            ...currentVisitorWindows(visitor, visitorState, now),
          ]),
          ...admitted,
        };
      }
      // Learn from the item whose condition failed; the other's plan held.
      if (result.visitor.failed) {
        visitorState = result.visitor.state ?? EMPTY_COUNTERS;
        seen.set(visitorCacheKey, visitorState);
      }
      if (result.organization.failed) {
        state = result.organization.state ?? EMPTY_COUNTERS;
        fresh = true;
        seen.set(cacheKey, state);
      }
      continue;
    }
    const result = await updateCounters(organizationUpdate);
    if ('conflict' in result) {
      // The item is in a transaction for a moment (an answer being stored): wait a little.
      await sleep(backoffDelay(COUNTER_CONFLICT_BACKOFF, attempt));
      continue;
    }
    state = result.state ?? EMPTY_COUNTERS;
    fresh = true;
    seen.set(cacheKey, state);
    if (result.admitted) {
      return {
        admitted: true,
        headers: headersOf(currentWindows(limitClass, limits, state, now)),
        ...admitted,
      };
    }
  }
  throw Object.assign(new Error(`rate-limit counters of organization ${organizationId} kept changing`), {
    name: 'LimiterContention',
  });
};

/** Takes a lease given back out of this container's view of the item. */
const forgetLease = (lease: Lease): void => {
  const cached = seen.get(seenKey(lease.organizationId));
  if (cached?.leases.some((entry) => entry.id === lease.id)) {
    seen.set(seenKey(lease.organizationId), {
      ...cached,
      leaseCount: cached.leaseCount - 1,
      leases: cached.leases.filter((entry) => entry.id !== lease.id),
    });
  }
};

/** Leases already given back in an answer's transaction: `release` has nothing left to do. */
const returned = new WeakSet<Lease>();

/**
 * The lease given back in the transaction that stores the answer (docs/design.md "Round trips of
 * a chat message"): no round trip of its own. A lease that lapsed and was pruned meanwhile is
 * left out of that transaction (it is already given back).
 */
export const leaseReturn = (lease: Lease): AlongsideWrite => ({
  update: leaseReleaseUpdate(lease.organizationId, lease.id),
  droppable: true,
  settled: (written) => {
    returned.add(lease);
    if (written) forgetLease(lease);
  },
});

/** Gives the lease back; a lease that lapsed and was pruned meanwhile is already gone. */
export const release = async (lease: Lease): Promise<void> => {
  if (returned.has(lease)) return;
  await releaseLease(lease.organizationId, lease.id);
  forgetLease(lease);
};
