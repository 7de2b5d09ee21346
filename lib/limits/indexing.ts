// The schema indexing quota (spec "Plan gating", "Domain error details"): indexing operations
// per billing period, which is the calendar month in UTC. `admin database index` counts each
// operation here before it runs.
import { ServiceError } from '#lib/errors.ts';
import { countIndexingOperation } from '#lib/store/limit-counters.ts';
import { findOrganization } from '#lib/store/organizations.ts';
import { effectiveLimits } from './plans.ts';
import { monthKey, windowEnd, windowId } from './windows.ts';

/** A period's count is kept this long after the period ends (TTL), for support questions. */
const KEEP_AFTER_PERIOD_SECONDS = 35 * 24 * 3600;

export interface IndexingUsage {
  /** The billing period, e.g. `2026-11`. */
  period: string;
  /** Operations counted in the period, this one included. */
  used: number;
  limit: number;
}

/**
 * Counts one indexing operation of the organization in the current billing period, atomically
 * (one conditional UpdateItem: exact under concurrency). Throws INDEXING_QUOTA_EXCEEDED (429,
 * detail QUOTA_EXCEEDED) when the period's operations are used up, counting nothing, and
 * NOT_FOUND for an unknown organization.
 */
export const consumeIndexingQuota = async (
  organizationId: number,
  options: { now?: number } = {},
): Promise<IndexingUsage> => {
  const now = options.now ?? Date.now();
  const organization = await findOrganization(organizationId);
  if (!organization)
    throw new ServiceError('NOT_FOUND', { message: `Organization ${organizationId} not found` });
  const { indexingOperations: limit } = effectiveLimits(organization.plan, organization.limits);
  const period = monthKey(now);
  const periodEnd = windowEnd('month', windowId('month', now));
  const { counted, used } = await countIndexingOperation(
    organizationId,
    period,
    limit,
    Math.floor(periodEnd / 1000) + KEEP_AFTER_PERIOD_SECONDS,
  );
  if (!counted) {
    throw new ServiceError('INDEXING_QUOTA_EXCEEDED', {
      detail: 'QUOTA_EXCEEDED',
      message: `Indexing quota exceeded: ${used} of ${limit} indexing operations used this billing period`,
    });
  }
  return { period, used, limit };
};
