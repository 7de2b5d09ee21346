// Backoff for DynamoDB operations that are refused for a moment and must be tried again:
// transactions cancelled by a concurrent transaction on the same item (TransactionConflict) and
// the UnprocessedItems of a BatchWriteItem. "Full jitter" (a random wait between 0 and an
// exponentially growing cap) spreads contenders apart, so 50 appends racing for one
// conversation item get through instead of colliding again in lockstep.

export interface BackoffPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Cap of the first wait; doubles on each retry. */
  baseMs: number;
  /** The most one wait can grow to. */
  maxMs: number;
}

/** Appends to one conversation: ~6 s of waiting at worst, well inside the 29 s request limit. */
export const transactionConflictBackoff: BackoffPolicy = { attempts: 12, baseMs: 20, maxMs: 1_000 };

/** UnprocessedItems of a batch write (throttled partition): fewer, longer waits. */
export const unprocessedItemsBackoff: BackoffPolicy = { attempts: 8, baseMs: 50, maxMs: 2_000 };

/** The wait before retry number `retry` (1 = first retry): uniform in [0, min(max, base·2^(retry-1))]. */
export const backoffDelay = (policy: BackoffPolicy, retry: number, random: () => number = Math.random) =>
  Math.floor(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1)));

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Code of each item of a cancelled TransactWriteItems (`None`, `ConditionalCheckFailed`, `TransactionConflict`, …). */
export interface CancellationReason {
  Code?: string;
  /** The item as it was (ReturnValuesOnConditionCheckFailure: ALL_OLD), in DynamoDB JSON. */
  Item?: Record<string, { S?: string; N?: string; BOOL?: boolean }>;
}

export const cancellationReasons = (error: unknown): CancellationReason[] | undefined =>
  error instanceof Error && error.name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [])
    : undefined;
