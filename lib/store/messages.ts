// Messages of conversations (docs/design.md "Storage"). One item per message, in its conversation's
// partition:
//   PK CONV#<org>#<conversation>  SK MSG#<uuidv7>   a conversation's messages in time order
//   GSI2PK SCOPE#<org>#<address>  GSI2SK <uuidv7>   "messages of a scope by time" (lib/store/scopes.ts)
// Message ids are UUIDv7, so ordering by id is ordering by time on both keys, and the id is the
// `id` that history returns. Metadata is stored as its JSON text: any JSON object comes back
// exactly as sent, free of DynamoDB's limits on numbers, nesting and empty map keys.
// An append is one TransactWriteItems with its conversation's upsert (lib/store/conversations.ts).
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import {
  type AlongsideWrite,
  documents,
  type ItemKey,
  isConditionFailure,
  queryAll,
  tableName,
} from './client.ts';
import {
  CONVERSATION_SK,
  type ConversationOwner,
  type ConversationRecord,
  type ConversationTouch,
  conversationKeeps,
  conversationKey,
  conversationTouchUpdate,
  isOwnedBy,
  parseConversation,
} from './conversations.ts';
import { type Page, readPage } from './pages.ts';
import {
  backoffDelay,
  type CancellationReason,
  cancellationReasons,
  sleep,
  transactionConflictBackoff,
  unprocessedItemsBackoff,
} from './retry.ts';
import { type ConversationScope, scopeKey, scopePartition } from './scopes.ts';

export const MESSAGE_PREFIX = 'MSG#';

export const messageKey = (organizationId: number, conversationId: string, id: string) => ({
  PK: conversationKey(organizationId, conversationId).PK,
  SK: `${MESSAGE_PREFIX}${id}`,
});

/** The GSI2 attributes of a message: its place in its scope's timeline. */
export const messageTimelineKey = (organizationId: number, scope: ConversationScope, id: string) => ({
  GSI2PK: scopePartition(organizationId, scope),
  GSI2SK: id,
});

export const Role = v.picklist(['user', 'assistant', 'system', 'tool']);
export type Role = v.InferOutput<typeof Role>;

export const MessageRecord = v.object({
  id: v.string(),
  conversationId: v.string(),
  organizationId: v.number(),
  role: Role,
  content: v.string(),
  /** JSON text of the metadata object; absent when none was given. */
  metadataJson: v.optional(v.string()),
  createdAt: v.string(),
  /**
   * What the conversation keeps from its first chat message (database, personality, tenant), as
   * this message's append checked and set them (lib/store/conversations.ts conversationTouchUpdate):
   * a chat message's follow-up reads them from the latest messages instead of reading the
   * conversation item too (docs/design.md "Round trips of a chat message"). Absent on history
   * appends and on messages stored before it existed.
   */
  kept: v.optional(
    v.object({
      databaseId: v.optional(v.string()),
      personalityId: v.optional(v.string()),
      tenantKey: v.optional(v.string()),
    }),
  ),
  /** An answer's rating (lib/conversations/feedback.ts); set on the item, never on append. */
  feedback: v.optional(
    v.object({
      rating: v.picklist(['up', 'down']),
      comment: v.optional(v.string()),
      correctedSql: v.optional(v.string()),
      at: v.string(),
    }),
  ),
});
export type MessageRecord = v.InferOutput<typeof MessageRecord>;

export const parseMessage = (item: Record<string, unknown>): MessageRecord => v.parse(MessageRecord, item);

/** The whole item of a message, keys included (also what tests seed with BatchWriteItem). */
export const messageItem = (message: MessageRecord, scope: ConversationScope, databaseId?: string) => ({
  ...messageKey(message.organizationId, message.conversationId, message.id),
  ...messageTimelineKey(message.organizationId, scope, message.id),
  type: 'message',
  // The conversation's database, so a scope's timeline can be read for one database only (an
  // embed session's): every append to a conversation that has one carries it (appendMessage);
  // absent on messages of conversations without one yet.
  ...(databaseId ? { databaseId } : {}),
  ...message,
});

/** The millisecond timestamp in the first 48 bits of a UUIDv7. */
export const uuidv7Time = (id: string): number => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

// ---- Appending ------------------------------------------------------------------------------

export interface NewMessage {
  conversationId: string;
  organizationId: number;
  scope: ConversationScope;
  role: Role;
  content: string;
  metadata?: Record<string, unknown> | undefined;
  /** What the conversation gets when this message creates it (or, for a title, is its first user message). */
  conversation: Pick<ConversationTouch, 'title' | 'userId' | 'databaseId' | 'personalityId' | 'tenantKey'>;
}

export interface AppendOptions {
  /** More writes in the append's transaction (an answer's count, a lease given back). */
  alongside?: readonly AlongsideWrite[];
  now?: () => number;
  random?: () => number;
  wait?: (ms: number) => Promise<void>;
}

const conversationNotFound = () => new ServiceError('CONVERSATION_NOT_FOUND');

const retryableCodes = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded']);

/** What stopped an append transaction, from its cancellation reasons (message put, conversation update, alongside writes). */
type Refusal =
  | { kind: 'conflict' }
  | { kind: 'not-found' }
  | { kind: 'reshape'; form: 'latest' | 'earlier' }
  | { kind: 'id-taken' }
  | { kind: 'drop'; index: number }
  | { kind: 'mismatch'; field: 'databaseId' | 'personalityId'; kept: string }
  | { kind: 'database'; databaseId: string };

const refusalOf = (
  reasons: CancellationReason[],
  touch: Pick<
    ConversationTouch,
    'organizationId' | 'scope' | 'at' | 'databaseId' | 'personalityId' | 'tenantKey'
  >,
  droppable: (alongsideIndex: number) => boolean,
): Refusal | undefined => {
  const { organizationId, scope, at } = touch;
  const [messageReason, conversationReason, ...alongsideReasons] = reasons;
  if (conversationReason?.Code === 'ConditionalCheckFailed') {
    const old = conversationReason.Item;
    // No item: the `earlier` form met a conversation that is gone; start it afresh.
    if (!old) return { kind: 'reshape', form: 'latest' };
    const owned =
      old.organizationId?.N === String(organizationId) &&
      old.scopeKey?.S === scopeKey(scope) &&
      old.deletingAt === undefined;
    if (!owned) return { kind: 'not-found' };
    // Another tenant's conversation is not found either (before the database is named).
    const keptTenant = old.tenantKey?.S;
    if (touch.tenantKey !== undefined && keptTenant !== undefined && keptTenant !== touch.tenantKey)
      return { kind: 'not-found' };
    // An append naming no database (a history append) met a conversation that has one: it
    // carries that database from its next attempt on (conversationTouchUpdate).
    const keptDatabase = old.databaseId?.S;
    if (touch.databaseId === undefined && keptDatabase !== undefined)
      return { kind: 'database', databaseId: keptDatabase };
    for (const field of ['databaseId', 'personalityId'] as const) {
      const kept = old[field]?.S;
      if (touch[field] !== undefined && kept !== undefined && kept !== touch[field])
        return { kind: 'mismatch', field, kept };
    }
    const lastMessageAt = old.lastMessageAt?.S ?? '';
    return { kind: 'reshape', form: lastMessageAt > at ? 'earlier' : 'latest' };
  }
  // Another transaction on the same item, or a throttled partition: both pass with a little patience.
  if (reasons.some((reason) => reason.Code !== undefined && retryableCodes.has(reason.Code)))
    return { kind: 'conflict' };
  if (messageReason?.Code === 'ConditionalCheckFailed') return { kind: 'id-taken' };
  const failed = alongsideReasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
  if (failed >= 0 && droppable(failed)) return { kind: 'drop', index: failed };
  return undefined;
};

/** What a chat message's append checks and sets on its conversation, stored with the message. */
const keptOf = (conversation: NewMessage['conversation']): Pick<MessageRecord, 'kept'> | undefined => {
  const { databaseId, personalityId, tenantKey } = conversation;
  if (databaseId === undefined) return undefined;
  return {
    kept: {
      databaseId,
      ...(personalityId === undefined ? {} : { personalityId }),
      ...(tenantKey === undefined ? {} : { tenantKey }),
    },
  };
};

const newMessage = (input: NewMessage, now: number): MessageRecord => {
  const id = uuidv7(now);
  return {
    id,
    conversationId: input.conversationId,
    organizationId: input.organizationId,
    role: input.role,
    content: input.content,
    ...(input.metadata && Object.keys(input.metadata).length > 0
      ? { metadataJson: JSON.stringify(input.metadata) }
      : {}),
    // From the id itself, so time order and id order can never disagree.
    createdAt: new Date(uuidv7Time(id)).toISOString(),
    ...(keptOf(input.conversation) ?? {}),
  };
};

/**
 * Appends a message and updates (or creates) its conversation in one TransactWriteItems, with
 * `options.alongside` (other items' updates) in the same transaction.
 * The message keeps the id and time it got on arrival through every retry. Retries, within
 * transactionConflictBackoff's attempts:
 *  - TransactionConflict (another append to the same conversation at the same moment) or
 *    throttling: after a jittered, growing wait;
 *  - the conversation was last active after this message (an append that arrived later
 *    committed first): at once, in the update form that leaves last activity alone, and back
 *    (see conversationTouchUpdate);
 *  - the id is taken (not expected with UUIDv7): at once, with a new id;
 *  - a droppable alongside write's condition failed: at once, without it;
 *  - the append names no database (a history append) and the conversation has one: at once,
 *    with that database, so that every message of a conversation about a database carries it
 *    (an embed session's timeline reads its database's messages only). The condition that finds
 *    it is the same transaction's, so a database set by a chat message in between is not missed.
 * A conversation of another organization, scope or tenant, or one being deleted, is CONVERSATION_NOT_FOUND.
 */
export const appendMessage = async (
  input: NewMessage,
  options: AppendOptions = {},
): Promise<MessageRecord> => {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const policy = transactionConflictBackoff;
  let message = newMessage(input, now());
  let form: 'latest' | 'earlier' = 'latest';
  let conflicts = 0;
  let databaseId = input.conversation.databaseId;
  const alongside = [...(options.alongside ?? [])];
  const dropped: AlongsideWrite[] = [];
  for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
    const touch = {
      ...input.conversation,
      databaseId,
      id: input.conversationId,
      organizationId: input.organizationId,
      scope: input.scope,
      at: message.createdAt,
    };
    try {
      await documents().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName(),
                Item: messageItem(message, input.scope, databaseId),
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            { Update: conversationTouchUpdate(touch, form) },
            ...alongside.map((write) => ({ Update: write.update })),
          ],
        }),
      );
      for (const write of alongside) write.settled?.(true);
      for (const write of dropped) write.settled?.(false);
      return message;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const refusal = reasons && refusalOf(reasons, touch, (index) => alongside[index]?.droppable === true);
      if (!refusal) throw error;
      if (refusal.kind === 'not-found') throw conversationNotFound();
      if (refusal.kind === 'mismatch') throw conversationKeeps(refusal.field, refusal.kept);
      if (refusal.kind === 'reshape') form = refusal.form;
      if (refusal.kind === 'database') databaseId = refusal.databaseId;
      if (refusal.kind === 'id-taken') message = newMessage(input, now());
      if (refusal.kind === 'drop') {
        dropped.push(...alongside.splice(refusal.index, 1));
      }
      if (refusal.kind === 'conflict') {
        conflicts += 1;
        await wait(backoffDelay(policy, conflicts, options.random));
      }
    }
  }
  throw new ServiceError('SERVICE_UNAVAILABLE', {
    message: 'The conversation is receiving too many messages at once; retry shortly',
    headers: { 'Retry-After': '1' },
  });
};

/**
 * Gives the messages of a conversation that lack it the conversation's database; how many. For
 * messages appended before the conversation had one (history appended before its first chat
 * message) or stored before messages carried it (lib/store/conversation-addresses.ts).
 */
export const giveMessagesDatabase = async (
  organizationId: number,
  id: string,
  databaseId: string,
): Promise<number> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :messages)',
    FilterExpression: 'attribute_not_exists(databaseId)',
    ExpressionAttributeValues: { ':pk': conversationKey(organizationId, id).PK, ':messages': MESSAGE_PREFIX },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  let given = 0;
  for (const item of items) {
    try {
      await documents().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: item.PK, SK: item.SK },
          UpdateExpression: 'SET databaseId = :database',
          // A conversation never changes its database, so one already set is this one.
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(databaseId)',
          ExpressionAttributeValues: { ':database': databaseId },
        }),
      );
      given += 1;
    } catch (error) {
      // Deleted, or given it by a run alongside: nothing to do.
      if (!isConditionFailure(error)) throw error;
    }
  }
  return given;
};

// ---- Reading --------------------------------------------------------------------------------

/** Rough JSON size of a message in a response, for the page byte budget. */
export const messageBytes = (message: MessageRecord): number =>
  200 + Buffer.byteLength(message.content) + (message.metadataJson?.length ?? 0);

/**
 * Lambda returns at most 6 MB: a page of messages stops growing past this many bytes (it keeps
 * at least one message), and its cursor continues after the last message it holds.
 */
export const PAGE_BYTE_BUDGET = 4 * 1024 * 1024;

/** One page of a scope's messages across its conversations (GSI2), after the message `afterId`. */
export const scopeMessagePage = (
  organizationId: number,
  scope: ConversationScope,
  options: {
    limit: number;
    order: 'asc' | 'desc';
    afterId?: string | undefined;
    /**
     * An embed session's database: only messages that carry it (of its conversations; never
     * those of a conversation about no database or another one).
     */
    databaseId?: string | undefined;
  },
): Promise<Page<MessageRecord>> =>
  readPage({
    input: {
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression:
        options.afterId === undefined
          ? 'GSI2PK = :scope'
          : `GSI2PK = :scope AND GSI2SK ${options.order === 'asc' ? '>' : '<'} :after`,
      ...(options.databaseId === undefined ? {} : { FilterExpression: 'databaseId = :database' }),
      ExpressionAttributeValues: {
        ':scope': scopePartition(organizationId, scope),
        ...(options.afterId === undefined ? {} : { ':after': options.afterId }),
        ...(options.databaseId === undefined ? {} : { ':database': options.databaseId }),
      },
      ScanIndexForward: options.order === 'asc',
    },
    limit: options.limit,
    parse: parseMessage,
    sizeOf: messageBytes,
    maxBytes: PAGE_BYTE_BUDGET,
  });

/**
 * One page of a conversation's messages, read in ONE Query when the conversation is the
 * caller's: every message carries its scope partition (GSI2PK), so a filter on it both checks
 * ownership and reads the page. A conversation always has at least one message (it is created
 * by one), so a first page that reads nothing or keeps nothing means "not yours" or "none":
 * `owned: false` on a filtered-out read, `owned: undefined` when the partition held no message
 * at all (the caller looks the conversation up to tell an empty one from a missing one).
 * After a position, the key condition is `SK > MSG#<id>` (oldest first: only messages sort after
 * 'MSG#') or `SK < MSG#<id>` (newest first: reaches the conversation item 'CONV' last, which has
 * no GSI2PK and so is filtered out).
 */
export const conversationMessagePage = async (
  organizationId: number,
  scope: ConversationScope,
  conversationId: string,
  options: { limit: number; order: 'asc' | 'desc'; afterId?: string | undefined },
): Promise<Page<MessageRecord> & { owned: boolean | undefined }> => {
  const page = await readPage({
    input: {
      TableName: tableName(),
      KeyConditionExpression:
        options.afterId === undefined
          ? 'PK = :pk AND begins_with(SK, :after)'
          : `PK = :pk AND SK ${options.order === 'asc' ? '>' : '<'} :after`,
      FilterExpression: 'GSI2PK = :scope',
      ExpressionAttributeValues: {
        ':pk': conversationKey(organizationId, conversationId).PK,
        ':after':
          options.afterId === undefined
            ? MESSAGE_PREFIX
            : messageKey(organizationId, conversationId, options.afterId).SK,
        ':scope': scopePartition(organizationId, scope),
      },
      ScanIndexForward: options.order === 'asc',
      // Read-your-writes: a message appended a moment ago is in the next read.
      ConsistentRead: true,
    },
    limit: options.limit,
    parse: parseMessage,
    sizeOf: messageBytes,
    maxBytes: PAGE_BYTE_BUDGET,
    stopWhenFilteredOut: true,
  });
  const owned = page.filteredOut ? false : page.items.length > 0 ? true : undefined;
  return { items: page.items, hasMore: page.hasMore, owned };
};

/**
 * A whole conversation, oldest first, if it is this organization's and scope's: the conversation
 * item and then its messages, from one Query of its partition ('CONV' sorts before 'MSG#'),
 * following DynamoDB's pages to the end. The ownership check happens on the first page, so
 * nobody else's conversation is read beyond it. undefined when not found or not the caller's.
 */
export const readWholeConversation = async (
  owner: ConversationOwner,
  conversationId: string,
): Promise<{ conversation: ConversationRecord; messages: MessageRecord[] } | undefined> => {
  let conversation: ConversationRecord | undefined;
  const messages: MessageRecord[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': conversationKey(owner.organizationId, conversationId).PK },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.SK === CONVERSATION_SK) conversation = parseConversation(item);
      else messages.push(parseMessage(item));
    }
    if (!conversation || !isOwnedBy(conversation, owner)) return undefined;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { conversation, messages };
};

// ---- Feedback -------------------------------------------------------------------------------

/** One message of a conversation of this organization (callers check the conversation is theirs). */
export const findMessage = async (
  organizationId: number,
  conversationId: string,
  id: string,
): Promise<MessageRecord | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({
      TableName: tableName(),
      Key: messageKey(organizationId, conversationId, id),
      ConsistentRead: true,
    }),
  );
  return Item?.type === 'message' ? parseMessage(Item) : undefined;
};

export type MessageFeedback = NonNullable<MessageRecord['feedback']>;

/**
 * Sets the feedback of a message, replacing any earlier one (one rating per message). It lives on
 * the message item, so deleting the conversation deletes it too. False when the message is gone.
 */
export const setMessageFeedback = async (
  organizationId: number,
  conversationId: string,
  id: string,
  feedback: MessageFeedback,
): Promise<boolean> => {
  try {
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(organizationId, conversationId, id),
        UpdateExpression: 'SET feedback = :feedback',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: {
          ':feedback': Object.fromEntries(
            Object.entries(feedback).filter(([, value]) => value !== undefined),
          ),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

// ---- Deleting -------------------------------------------------------------------------------

const BATCH_SIZE = 25;
/** BatchWriteItem requests in flight at once while deleting one conversation. */
const DELETE_CONCURRENCY = 8;

const deleteBatch = async (keys: ItemKey[], wait: (ms: number) => Promise<void>): Promise<void> => {
  let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
  for (let attempt = 1; ; attempt += 1) {
    const output = await documents().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
    );
    requests = (output.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    if (requests.length === 0) return;
    if (attempt >= unprocessedItemsBackoff.attempts) {
      throw new ServiceError('SERVICE_UNAVAILABLE', {
        message: 'The conversation could not be deleted completely right now; repeat the request',
        headers: { 'Retry-After': '2' },
      });
    }
    await wait(backoffDelay(unprocessedItemsBackoff, attempt));
  }
};

/**
 * Deletes every message of a conversation: pages of keys from a consistent Query, each page
 * removed by BatchWriteItem in batches of 25, DELETE_CONCURRENCY at a time, UnprocessedItems
 * retried with backoff. `remainingMs` is the time left for the request: when it runs low the
 * delete stops with a 503 (Retry-After) before the Lambda is cut off; repeating it continues.
 */
export const deleteConversationMessages = async (
  organizationId: number,
  conversationId: string,
  options: { remainingMs?: () => number; wait?: (ms: number) => Promise<void> } = {},
): Promise<number> => {
  const wait = options.wait ?? sleep;
  let deleted = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    if (options.remainingMs && options.remainingMs() < 3_000) {
      throw new ServiceError('SERVICE_UNAVAILABLE', {
        message: 'Deleting this conversation takes longer than one request; repeat the request to finish',
        headers: { 'Retry-After': '1' },
      });
    }
    const page = await documents().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :messages)',
        ExpressionAttributeValues: {
          ':pk': conversationKey(organizationId, conversationId).PK,
          ':messages': MESSAGE_PREFIX,
        },
        ProjectionExpression: 'PK, SK',
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    const keys = (page.Items ?? []) as ItemKey[];
    const batches: ItemKey[][] = [];
    for (let start = 0; start < keys.length; start += BATCH_SIZE)
      batches.push(keys.slice(start, start + BATCH_SIZE));
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        await deleteBatch(batch, wait);
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, batches.length) }, worker));
    deleted += keys.length;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
};
