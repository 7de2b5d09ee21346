// Rate limits, the monthly quota and the concurrency lease in the chain (docs/design.md "Limits",
// docs/limits.md). Two middlewares, because middy runs `after`/`onError` in reverse order:
//  - rateLimit() sits right after authentication (it needs the organization) and before the
//    scope check, body parsing and validation: every authenticated request counts, whatever
//    becomes of it, so a flood of malformed requests spends the sender's own limits rather than
//    the service's capacity, and a refused request is refused before any handler writes.
//    On answering routes it also takes a concurrency lease, given back in `after` and `onError`.
//  - rateLimitHeaders() sits before the error envelope, so that its `after`/`onError` run once
//    the response exists (a success, the 429, or any later error) and add X-RateLimit-* to it.
// Failure policy: when the counters cannot be read or written, answering routes fail closed
// (503 with Retry-After); every other route fails open: it is served, uncounted, with a warning.
import { Readable } from 'node:stream';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Principal } from '#lib/auth/principal.ts';
import { ServiceError } from '#lib/errors.ts';
import {
  type Admission,
  admit,
  LEASE_MARGIN_MS,
  type LimitClass,
  release,
  type Visitor,
} from '#lib/limits/limiter.ts';
import { effectiveLimits, type Limits } from '#lib/limits/plans.ts';
import { logger } from '#lib/log.ts';
import { recordLimiterRejection } from '#lib/observability/metrics.ts';
import { onStreamEnd } from '../stream-end.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

/** A route's limits: fixed, or chosen per request from the raw event (one route, two variants). */
export type LimitSelector = LimitClass | ((event: ApiEvent) => LimitClass);

export interface RateLimitOptions {
  limits: LimitSelector;
  /** The clock (ms since the epoch); tests move it. */
  now?: () => number;
  /** Whether to count at all, asked per request (the chain passes LIMITS_ENABLED of the settings). */
  enabled?: () => boolean;
}

type ApiRequest = Request<ApiEvent, ApiResult, Error, ApiContext>;

const UNAVAILABLE_RETRY_SECONDS = '2';
/** The longest a Lambda runs (15 min): a lease never outlives its request by more than the margin. */
const MAX_LEASE_MS = 15 * 60_000 + LEASE_MARGIN_MS;

const leaseMsOf = (context: ApiContext): number | undefined => {
  const remaining = context.getRemainingTimeInMillis?.();
  return typeof remaining === 'number' && Number.isFinite(remaining) && remaining > 0
    ? Math.min(MAX_LEASE_MS, remaining + LEASE_MARGIN_MS)
    : undefined;
};

const isReadable = (body: unknown): body is Readable => body instanceof Readable;

/** Who has a message window of its own inside the organization's: an embed session's scope, a pk_ key. */
const visitorOf = (principal: Principal, limits: Limits): Visitor | undefined => {
  if (principal.session)
    return {
      key: principal.session.limitKey,
      kind: 'scope',
      messagesPerMinute: limits.embedScopeMessagesPerMinute,
      messagesPerHour: limits.embedScopeMessagesPerHour,
      messagesPerDay: limits.embedScopeMessagesPerDay,
    };
  if (principal.credential === 'pk' && principal.keyId)
    return {
      key: `pk-${principal.keyId}`,
      kind: 'key',
      messagesPerMinute: limits.databaseKeyMessagesPerMinute,
      messagesPerHour: limits.databaseKeyMessagesPerHour,
      messagesPerDay: limits.databaseKeyMessagesPerDay,
    };
  return undefined;
};

export const rateLimit = (
  options: RateLimitOptions,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const rateLimitBefore = async (request: ApiRequest): Promise<void> => {
    if (options.enabled && !options.enabled()) return;
    const { principal } = request.context;
    const limitClass = typeof options.limits === 'function' ? options.limits(request.event) : options.limits;
    const leaseMs = leaseMsOf(request.context);
    const limits = effectiveLimits(principal.plan, principal.limits);
    const clock = options.now ? { now: options.now } : {};
    // An answering request of a visitor (an embed session's scope, a pk_ key) counts in the
    // visitor's own windows and the organization's, in one round trip (docs/limits.md "Visitors").
    const visitor = limitClass === 'answering' ? visitorOf(principal, limits) : undefined;
    let admission: Admission;
    try {
      admission = await admit({
        organizationId: principal.organizationId,
        limits,
        limitClass,
        visitor,
        ...(leaseMs === undefined ? {} : { leaseMs }),
        ...clock,
      });
    } catch (error) {
      if (limitClass === 'answering') {
        // Logged by the error envelope, with this cause.
        throw new ServiceError('SERVICE_UNAVAILABLE', {
          message: 'Rate limiting is unavailable right now, so answering is paused; retry later',
          headers: { 'Retry-After': UNAVAILABLE_RETRY_SECONDS },
          cause: error,
        });
      }
      logger.warn('rate limiter unavailable: request served without counting', {
        organizationId: principal.organizationId,
        error: error as Error,
      });
      return;
    }
    request.context.rateLimit = {
      headers: { ...admission.headers },
      ...(admission.admitted && admission.lease ? { lease: admission.lease } : {}),
    };
    if (!admission.admitted) {
      recordLimiterRejection(admission.error.detail ?? 'UNKNOWN', request.context.traceId);
      throw admission.error;
    }
  };

  /** Gives the request's lease back, once (after and onError may both run for one request). */
  const releaseLease = async (request: ApiRequest): Promise<void> => {
    const held = request.context.rateLimit;
    const lease = held?.lease;
    if (!held || !lease) return;
    delete held.lease;
    try {
      await release(lease);
    } catch (error) {
      logger.warn('concurrency lease not given back; it lapses on its own', {
        organizationId: lease.organizationId,
        error: error as Error,
      });
    }
  };

  const rateLimitAfter = async (request: ApiRequest): Promise<void> => {
    // A streamed answer is still running when the handler returns: release when it ends.
    const body: unknown = request.response?.body;
    if (request.response && request.context.rateLimit?.lease && isReadable(body)) {
      // The lease goes back once the stream has ended (before its reader sees the end), failed or been dropped.
      (request.response as { body: unknown }).body = onStreamEnd(body, () => releaseLease(request));
      return;
    }
    await releaseLease(request);
  };

  return { before: rateLimitBefore, after: rateLimitAfter, onError: releaseLease };
};

export const rateLimitHeaders = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const addRateLimitHeaders = (request: ApiRequest): void => {
    const headers = request.context.rateLimit?.headers;
    if (headers && request.response) {
      request.response.headers = { ...request.response.headers, ...headers };
    }
  };
  return { after: addRateLimitHeaders, onError: addRateLimitHeaders };
};
