// The limiter's counters (docs/design.md "Limits", docs/limits.md). Three kinds of item:
//   PK LIMITS#<org>  SK COUNTERS            one per organization: the count of every window the
//                                           limiter keeps (minute, hour, month, message minute,
//                                           message hour) as <window>Id + <window>Count, and the
//                                           organization's concurrency leases: leaseCount and one
//                                           lease_<id> attribute per lease holding its expiry (ms)
//   PK LIMITS#<org>  SK INDEXING#<yyyy-mm>  indexing operations of one billing period
//   PK LIMITS#<org>  SK SCOPE#<key>         one per visitor: an embed session scope (lib/auth/principal.ts
//                                           limitKeyOf) or a pk_ key: its own message windows (minute,
//                                           hour, UTC day), counted the same way as the organization's
// Both carry the table's TTL attribute `expiresAt`. Every admission is ONE conditional UpdateItem
// of the COUNTERS item: a window whose id is current is continued (`id = :id AND count < :limit`,
// ADD 1), a window that has passed is started over (`id < :id`, SET count = 1). The condition
// holds for all of them or nothing is written, so a refused request consumes nothing; DynamoDB
// applies updates of one item one at a time, so the counts are exact however many Lambdas write.
// On a failed condition DynamoDB returns the item as it was (ALL_OLD): the limiter learns from
// it whether a limit is reached or a window has moved on, without a read.
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, isConditionFailure, type TransactionUpdate, tableName } from './client.ts';
import { type CancellationReason, cancellationReasons } from './retry.ts';

const PARTITION_PREFIX = 'LIMITS#';
export const limitsPartition = (organizationId: number): string => `${PARTITION_PREFIX}${organizationId}`;
/** Whether a partition key is the limiter's (benchmarks count its calls apart). */
export const isLimitsPartition = (pk: string): boolean => pk.startsWith(PARTITION_PREFIX);
export const countersKey = (organizationId: number) => ({
  PK: limitsPartition(organizationId),
  SK: 'COUNTERS',
});
export const scopeCountersKey = (organizationId: number, scopeKey: string) => ({
  PK: limitsPartition(organizationId),
  SK: `SCOPE#${scopeKey}`,
});
export const indexingKey = (organizationId: number, month: string) => ({
  PK: limitsPartition(organizationId),
  SK: `INDEXING#${month}`,
});

/**
 * The windows the limiter counts (docs/limits.md; their units: lib/limits/windows.ts).
 * `scopeMessage*` and `keyMessage*`: an embed session scope's and a pk_ key's own message
 * windows (minute, hour, day), kept in that visitor's counters item.
 */
export type WindowName =
  | 'minute'
  | 'hour'
  | 'month'
  | 'messageMinute'
  | 'messageHour'
  | 'scopeMessageMinute'
  | 'scopeMessageHour'
  | 'scopeMessageDay'
  | 'keyMessageMinute'
  | 'keyMessageHour'
  | 'keyMessageDay';

const windowAttributes: Record<WindowName, { id: string; count: string }> = {
  minute: { id: 'minuteId', count: 'minuteCount' },
  hour: { id: 'hourId', count: 'hourCount' },
  month: { id: 'monthId', count: 'monthCount' },
  messageMinute: { id: 'messageMinuteId', count: 'messageMinuteCount' },
  messageHour: { id: 'messageHourId', count: 'messageHourCount' },
  scopeMessageMinute: { id: 'scopeMessageMinuteId', count: 'scopeMessageMinuteCount' },
  scopeMessageHour: { id: 'scopeMessageHourId', count: 'scopeMessageHourCount' },
  scopeMessageDay: { id: 'scopeMessageDayId', count: 'scopeMessageDayCount' },
  keyMessageMinute: { id: 'keyMessageMinuteId', count: 'keyMessageMinuteCount' },
  keyMessageHour: { id: 'keyMessageHourId', count: 'keyMessageHourCount' },
  keyMessageDay: { id: 'keyMessageDayId', count: 'keyMessageDayCount' },
};
const LEASE_COUNT = 'leaseCount';
const LEASE_PREFIX = 'lease_';

export interface WindowCount {
  id: number;
  count: number;
}

export interface LeaseEntry {
  id: string;
  /** When the lease lapses (ms since the epoch) if its request never releases it. */
  expiresAt: number;
}

/** The COUNTERS item as the limiter reads it. */
export interface CounterState {
  windows: Partial<Record<WindowName, WindowCount>>;
  /** Leases held, expired ones included until someone prunes them. */
  leaseCount: number;
  leases: LeaseEntry[];
}

export const EMPTY_COUNTERS: CounterState = { windows: {}, leaseCount: 0, leases: [] };

/** One window of an admission: continue the current window, or start a new one. */
export interface WindowStep {
  window: WindowName;
  id: number;
  form: 'continue' | 'start';
  limit: number;
}

/** Takes a concurrency lease, pruning expired leases (which must still exist) in the same update. */
export interface LeaseStep {
  id: string;
  expiresAt: number;
  limit: number;
  prune: string[];
}

export interface CounterUpdate {
  organizationId: number;
  /** An embed session scope's item instead of the organization's COUNTERS item. */
  scopeKey?: string | undefined;
  steps: WindowStep[];
  lease?: LeaseStep | undefined;
  /** TTL of the item (seconds since the epoch): it goes once the organization is idle that long. */
  expiresAt: number;
}

export type CounterResult =
  | { admitted: true; state: CounterState }
  /** `state` undefined: the item does not exist. */
  | { admitted: false; state: CounterState | undefined }
  /**
   * The item was in a transaction at that moment (an answer being stored gives its lease back in
   * its transaction, docs/limits.md): nothing written, nothing learnt; try again shortly.
   */
  | { admitted: false; conflict: true };

type Wire = { N?: string; S?: string };

/** A number attribute, from the document client (number) or a failed condition's raw item ({N}). */
const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  const wire = value as Wire | undefined;
  if (typeof wire?.N === 'string') return Number(wire.N);
  return undefined;
};

export const counterStateOf = (item: Record<string, unknown>): CounterState => {
  const windows: CounterState['windows'] = {};
  for (const [name, attributes] of Object.entries(windowAttributes) as [
    WindowName,
    { id: string; count: string },
  ][]) {
    const id = numberOf(item[attributes.id]);
    const count = numberOf(item[attributes.count]);
    if (id !== undefined && count !== undefined) windows[name] = { id, count };
  }
  const leases: LeaseEntry[] = [];
  for (const [name, value] of Object.entries(item)) {
    const expiresAt = name.startsWith(LEASE_PREFIX) ? numberOf(value) : undefined;
    if (expiresAt !== undefined) leases.push({ id: name.slice(LEASE_PREFIX.length), expiresAt });
  }
  return { windows, leaseCount: numberOf(item[LEASE_COUNT]) ?? 0, leases };
};

/** The item a failed condition returned (ReturnValuesOnConditionCheckFailure: ALL_OLD), if any. */
const oldItemOf = (error: unknown): Record<string, unknown> | undefined =>
  (error as { Item?: Record<string, unknown> }).Item;

/** The conditional update of one counters item for an admission (see the file comment). */
const counterUpdateOf = (update: CounterUpdate): TransactionUpdate & { UpdateExpression: string } => {
  const names: Record<string, string> = { '#ttl': 'expiresAt' };
  const values: Record<string, unknown> = { ':one': 1, ':ttl': update.expiresAt };
  const set = ['#ttl = :ttl'];
  const add: string[] = [];
  const remove: string[] = [];
  const conditions: string[] = [];
  update.steps.forEach((step, i) => {
    const attributes = windowAttributes[step.window];
    names[`#w${i}`] = attributes.id;
    names[`#n${i}`] = attributes.count;
    values[`:w${i}`] = step.id;
    if (step.form === 'continue') {
      values[`:max${i}`] = step.limit;
      conditions.push(`#w${i} = :w${i} AND #n${i} < :max${i}`);
      add.push(`#n${i} :one`);
    } else {
      conditions.push(`(attribute_not_exists(#w${i}) OR #w${i} < :w${i})`);
      set.push(`#w${i} = :w${i}`, `#n${i} = :one`);
    }
  });
  const { lease } = update;
  if (lease) {
    names['#leases'] = LEASE_COUNT;
    names['#lease'] = `${LEASE_PREFIX}${lease.id}`;
    // The count after pruning must stay below the limit: old count − pruned < limit.
    values[':leaseMax'] = lease.limit + lease.prune.length;
    values[':leaseDelta'] = 1 - lease.prune.length;
    values[':leaseExpiry'] = lease.expiresAt;
    conditions.push('(attribute_not_exists(#leases) OR #leases < :leaseMax)');
    add.push('#leases :leaseDelta');
    set.push('#lease = :leaseExpiry');
    lease.prune.forEach((id, i) => {
      names[`#p${i}`] = `${LEASE_PREFIX}${id}`;
      conditions.push(`attribute_exists(#p${i})`);
      remove.push(`#p${i}`);
    });
  }
  const expression = [
    `SET ${set.join(', ')}`,
    add.length > 0 ? `ADD ${add.join(', ')}` : '',
    remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    TableName: tableName(),
    Key:
      update.scopeKey === undefined
        ? countersKey(update.organizationId)
        : scopeCountersKey(update.organizationId, update.scopeKey),
    UpdateExpression: expression,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
};

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof Error && error.name === 'TransactionConflictException';

/** The one UpdateItem of an admission (see the file comment). */
export const updateCounters = async (update: CounterUpdate): Promise<CounterResult> => {
  try {
    const { Attributes } = await documents().send(
      new UpdateCommand({
        ...counterUpdateOf(update),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    if (!Attributes) throw new Error('UpdateItem returned no attributes for ReturnValues ALL_NEW');
    return { admitted: true, state: counterStateOf(Attributes) };
  } catch (error) {
    if (isTransactionConflict(error)) return { admitted: false, conflict: true };
    if (!isConditionFailure(error)) throw error;
    const old = oldItemOf(error);
    return { admitted: false, state: old ? counterStateOf(old) : undefined };
  }
};

/** What a failed joint admission learnt of one item. */
export type ItemOutcome =
  /** Its condition held: the plan for it was right. */
  | { failed: false }
  /** Its condition failed: the item as it was (undefined: it does not exist). */
  | { failed: true; state: CounterState | undefined };

export type JointCounterResult =
  | { admitted: true }
  | { admitted: false; conflict: true }
  | { admitted: false; organization: ItemOutcome; visitor: ItemOutcome };

const outcomeOf = (reason: CancellationReason | undefined): ItemOutcome =>
  reason?.Code === 'ConditionalCheckFailed'
    ? { failed: true, state: reason.Item ? counterStateOf(reason.Item) : undefined }
    : { failed: false };

/**
 * An admission of a visitor's request (docs/limits.md "Visitors"): the visitor's windows and the
 * organization's windows and lease in ONE TransactWriteItems of the two conditional updates, so
 * either both items count the request or neither does, in one round trip. A transaction returns
 * no new values; a failed condition returns its item as it was (ALL_OLD), as updateCounters does.
 */
export const updateCountersWithVisitor = async (
  organization: CounterUpdate,
  visitor: CounterUpdate,
): Promise<JointCounterResult> => {
  try {
    await documents().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { ...counterUpdateOf(visitor), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
          { Update: { ...counterUpdateOf(organization), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
        ],
      }),
    );
    return { admitted: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) {
      if (isTransactionConflict(error)) return { admitted: false, conflict: true };
      throw error;
    }
    const [visitorReason, organizationReason] = reasons;
    const visitorOutcome = outcomeOf(visitorReason);
    const organizationOutcome = outcomeOf(organizationReason);
    if (!visitorOutcome.failed && !organizationOutcome.failed) {
      // Cancelled for another reason: another transaction on an item, or throttling.
      if (
        reasons.some((reason) => reason.Code === 'TransactionConflict' || reason.Code === 'ThrottlingError')
      )
        return { admitted: false, conflict: true };
      throw error;
    }
    return { admitted: false, organization: organizationOutcome, visitor: visitorOutcome };
  }
};

/** Removes expired leases that still exist (at most a few dozen per call: expression size). */
export const pruneLeases = async (organizationId: number, ids: string[]): Promise<boolean> => {
  const names: Record<string, string> = { '#leases': LEASE_COUNT };
  ids.forEach((id, i) => {
    names[`#p${i}`] = `${LEASE_PREFIX}${id}`;
  });
  const placeholders = ids.map((_, i) => `#p${i}`);
  try {
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: countersKey(organizationId),
        UpdateExpression: `REMOVE ${placeholders.join(', ')} ADD #leases :delta`,
        ConditionExpression: placeholders.map((p) => `attribute_exists(${p})`).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':delta': -ids.length },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * The update that gives a lease back, if it is still there: on its own (releaseLease) or in the
 * transaction that stores an answer (lib/limits/limiter.ts leaseReturn).
 */
export const leaseReleaseUpdate = (organizationId: number, leaseId: string): TransactionUpdate => ({
  TableName: tableName(),
  Key: countersKey(organizationId),
  UpdateExpression: 'REMOVE #lease ADD #leases :minusOne',
  ConditionExpression: 'attribute_exists(#lease)',
  ExpressionAttributeNames: { '#lease': `${LEASE_PREFIX}${leaseId}`, '#leases': LEASE_COUNT },
  ExpressionAttributeValues: { ':minusOne': -1 },
});

/** Gives a lease back. False when it was no longer there (it expired and was pruned). */
export const releaseLease = async (organizationId: number, leaseId: string): Promise<boolean> => {
  try {
    await documents().send(new UpdateCommand(leaseReleaseUpdate(organizationId, leaseId)));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * Counts one indexing operation of a billing period, unless `limit` are counted already. One
 * conditional UpdateItem: exact under concurrency, and a refusal counts nothing.
 */
export const countIndexingOperation = async (
  organizationId: number,
  month: string,
  limit: number,
  expiresAt: number,
): Promise<{ counted: boolean; used: number }> => {
  try {
    const { Attributes } = await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: indexingKey(organizationId, month),
        UpdateExpression: 'SET #ttl = :ttl ADD #used :one',
        ConditionExpression: 'attribute_not_exists(#used) OR #used < :limit',
        ExpressionAttributeNames: { '#used': 'used', '#ttl': 'expiresAt' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ttl': expiresAt },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { counted: true, used: numberOf(Attributes?.used) ?? 1 };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { counted: false, used: numberOf(oldItemOf(error)?.used) ?? limit };
  }
};
