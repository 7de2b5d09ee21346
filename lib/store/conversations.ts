// Conversations (docs/design.md "Storage"). One item per conversation:
//   PK CONV#<org>#<id>  SK CONV  read by organization and id (GetItem), then owned-by checked:
//                                another scope's conversation is reported as not found. Ids are
//                                chosen by clients (append and stream create on first use), so
//                                each organization has its own id space: no organization can take
//                                an id from another or learn whether it exists there
//   GSI1PK SCOPE#<org>#<address>  "conversations of a scope by last activity" (the address is
//                                the scope, with its tenant on a tenant-filtered database:
//                                lib/store/scopes.ts):
//   GSI1SK <lastMessageAt>#<id>  newest first with ScanIndexForward false, ties broken by id
// The messages of a conversation share its partition (lib/store/messages.ts), so one Query reads
// the conversation item and its messages together ('CONV' sorts before 'MSG#').
// Its counter and last activity change only in the transaction that appends a message.
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { invalidField, type ServiceError } from '#lib/errors.ts';
import { documents, isConditionFailure, tableName } from './client.ts';
import { readPage } from './pages.ts';
import { type ConversationScope, scopeKey, scopePartition } from './scopes.ts';

export const CONVERSATION_SK = 'CONV';

export const conversationKey = (organizationId: number, id: string) => ({
  PK: `CONV#${organizationId}#${id}`,
  SK: CONVERSATION_SK,
});

/** The GSI1 attributes of a conversation: its place in its scope's list. */
export const conversationListKey = (
  organizationId: number,
  scope: ConversationScope,
  lastMessageAt: string,
  id: string,
) => ({ GSI1PK: scopePartition(organizationId, scope), GSI1SK: `${lastMessageAt}#${id}` });

export const ConversationRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  /** Absent for a conversation created without X-Scope-Id. */
  scopeId: v.optional(v.string()),
  /** The tenant part of its address (a tenant-filtered database); absent otherwise. */
  tenant: v.optional(v.string()),
  /** The address as encoded in keys (lib/store/scopes.ts): what ownership is checked against. */
  scopeKey: v.string(),
  /** Absent until the first user message. */
  title: v.optional(v.string()),
  /** Set by the first chat message (the chat flow); absent for appended history. */
  databaseId: v.optional(v.string()),
  personalityId: v.optional(v.string()),
  /**
   * The tenant of its first answered message (conversationTenantKey); absent until then
   * (appended history, or a conversation older than this attribute). See tenantMatches.
   */
  tenantKey: v.optional(v.string()),
  /** Portal user (JWT `sub`) who created it; '' when it was created with an API key. */
  userId: v.optional(v.string()),
  messageCount: v.number(),
  createdAt: v.string(),
  lastMessageAt: v.string(),
  /** Set when a delete has started: the conversation is gone for every reader and writer. */
  deletingAt: v.optional(v.string()),
});
export type ConversationRecord = v.InferOutput<typeof ConversationRecord>;

/**
 * Who may reach a conversation: its organization and address, and, for a caller bound to one
 * database (an embed session), that database too (docs/design.md "Isolation against an
 * attacker: second round": reading, deleting and rating check it, as continuing does).
 */
export interface ConversationOwner extends ConversationScope {
  organizationId: number;
  /** An embed session's database; undefined for callers of the whole organization. */
  databaseId?: string | undefined;
}

export const isOwnedBy = (
  conversation: Pick<ConversationRecord, 'organizationId' | 'scopeKey' | 'deletingAt' | 'databaseId'>,
  owner: ConversationOwner,
): boolean =>
  conversation.organizationId === owner.organizationId &&
  conversation.scopeKey === scopeKey(owner) &&
  conversation.deletingAt === undefined &&
  (owner.databaseId === undefined ||
    conversation.databaseId === undefined ||
    conversation.databaseId === owner.databaseId);

export const parseConversation = (item: Record<string, unknown>): ConversationRecord =>
  v.parse(ConversationRecord, item);

/**
 * docs/design.md "A conversation keeps its tenant": the X-Tenant-Id value (as validated for the
 * database) of a conversation's first answered message, or its absence, as stored with it.
 */
export const conversationTenantKey = (tenant: string | number | undefined): string =>
  tenant === undefined ? 'none' : `tenant:${String(tenant)}`;

/**
 * Whether a message under this tenant may continue the conversation: the tenant it keeps, or
 * none kept yet. Another tenant — or none, when it had one — is answered as a conversation of
 * another scope (404), so that nothing of its context crosses tenants.
 */
export const tenantMatches = (
  conversation: Pick<ConversationRecord, 'tenantKey'>,
  tenant: string | number | undefined,
): boolean =>
  conversation.tenantKey === undefined || conversation.tenantKey === conversationTenantKey(tenant);

/** This organization's conversation with this id, whatever its scope (callers check isOwnedBy). */
export const findConversation = async (
  organizationId: number,
  id: string,
): Promise<ConversationRecord | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({
      TableName: tableName(),
      Key: conversationKey(organizationId, id),
      ConsistentRead: true,
    }),
  );
  return Item ? parseConversation(Item) : undefined;
};

/** The conversation with this id if it exists and is the owner's (isOwnedBy). */
export const findOwnedConversation = async (
  owner: ConversationOwner,
  id: string,
): Promise<ConversationRecord | undefined> => {
  const conversation = await findConversation(owner.organizationId, id);
  return conversation && isOwnedBy(conversation, owner) ? conversation : undefined;
};

/** What a message append sets on its conversation: creates it, or checks it is the caller's. */
export interface ConversationTouch {
  id: string;
  organizationId: number;
  scope: ConversationScope;
  /** The appended message's time: the new last activity (and creation time when new). */
  at: string;
  /** Cut from the first user message; kept once set. */
  title?: string | undefined;
  /** Creator's portal user id; '' for API keys. Kept from creation. */
  userId: string;
  databaseId?: string | undefined;
  personalityId?: string | undefined;
  /** conversationTenantKey of the answered message's tenant; kept from the first one. */
  tenantKey?: string | undefined;
}

/**
 * The 400 for a message naming another database or personality than the conversation keeps from
 * its first message (docs/design.md "Chat answers"), found before the append or by its condition.
 */
export const conversationKeeps = (
  field: 'databaseId' | 'personalityId',
  kept: string,
  location: 'body' | 'query' = 'body',
): ServiceError =>
  field === 'databaseId'
    ? invalidField(
        `${location}.database_id`,
        `This conversation is about database ${kept}: a conversation keeps the database of its first message. ` +
          'Omit database_id, or start a new conversation for another database',
        'CONVERSATION_DATABASE_MISMATCH',
      )
    : invalidField(
        `${location}.personality_id`,
        `This conversation uses personality ${kept}: a conversation keeps the personality of its first message. ` +
          'Omit personality_id, or start a new conversation for another personality',
        'CONVERSATION_PERSONALITY_MISMATCH',
      );

/**
 * The Update of a TransactWriteItems that appends a message. Two forms, because DynamoDB has no
 * max(): lastMessageAt (and with it the list position GSI1SK) must never move backwards when
 * appends commit in another order than their times.
 *  - `latest`: an upsert guarded by "new, or this organization's and scope's, not being deleted,
 *    and last active no later than this message"; it moves last activity to the message's time.
 *  - `earlier`: for a message older than the conversation's last activity: counts it and leaves
 *    last activity alone, guarded by "this organization's and scope's, not being deleted, and
 *    last active later than this message".
 * On a failed condition DynamoDB returns the item as it was (ALL_OLD), which tells the caller
 * which form fits, or that the conversation is not the caller's, without another read.
 */
export const conversationTouchUpdate = (touch: ConversationTouch, form: 'latest' | 'earlier' = 'latest') => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const set = (attribute: string, value: unknown, keepExisting = false) => {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(
      keepExisting
        ? `#${attribute} = if_not_exists(#${attribute}, :${attribute})`
        : `#${attribute} = :${attribute}`,
    );
  };
  set('userId', touch.userId, true);
  if (touch.title !== undefined) set('title', touch.title, true);
  if (touch.databaseId !== undefined) set('databaseId', touch.databaseId, true);
  if (touch.personalityId !== undefined) set('personalityId', touch.personalityId, true);
  if (touch.tenantKey !== undefined) set('tenantKey', touch.tenantKey, true);
  names['#organizationId'] = 'organizationId';
  names['#scopeKey'] = 'scopeKey';
  names['#lastMessageAt'] = 'lastMessageAt';
  names['#deletingAt'] = 'deletingAt';
  names['#messageCount'] = 'messageCount';
  values[':organizationId'] = touch.organizationId;
  values[':scopeKey'] = scopeKey(touch.scope);
  values[':at'] = touch.at;
  values[':one'] = 1;
  // A conversation keeps the database, personality and tenant of its first message: an append
  // naming others (two first messages racing with different databases) fails here, not afterwards.
  // An append naming no database (a history append) requires the conversation to have none: one
  // that has a database refuses it, and the append is repeated carrying that database (appendMessage).
  names['#databaseId'] = 'databaseId';
  const keeps = (['databaseId', 'personalityId', 'tenantKey'] as const)
    .filter((attribute) => touch[attribute] !== undefined)
    .map((attribute) => ` AND (attribute_not_exists(#${attribute}) OR #${attribute} = :${attribute})`)
    .join('')
    .concat(touch.databaseId === undefined ? ' AND attribute_not_exists(#databaseId)' : '');
  const owned = `#organizationId = :organizationId AND #scopeKey = :scopeKey AND attribute_not_exists(#deletingAt)${keeps}`;
  if (form === 'latest') {
    set('type', 'conversation');
    set('id', touch.id);
    if (touch.scope.scopeId !== undefined) set('scopeId', touch.scope.scopeId);
    if (touch.scope.tenant !== undefined) set('tenant', touch.scope.tenant);
    set('createdAt', touch.at, true);
    const listKey = conversationListKey(touch.organizationId, touch.scope, touch.at, touch.id);
    set('GSI1PK', listKey.GSI1PK);
    set('GSI1SK', listKey.GSI1SK);
    sets.push('#organizationId = :organizationId', '#scopeKey = :scopeKey', '#lastMessageAt = :at');
    names['#pk'] = 'PK';
  }
  return {
    TableName: tableName(),
    Key: conversationKey(touch.organizationId, touch.id),
    UpdateExpression: `SET ${sets.join(', ')} ADD #messageCount :one`,
    ConditionExpression:
      form === 'latest'
        ? `attribute_not_exists(#pk) OR (${owned} AND #lastMessageAt <= :at)`
        : `${owned} AND #lastMessageAt > :at`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
};

/** One page of a scope's conversations, newest activity first, after the list position `after` (a GSI1SK). */
export const listConversationPage = (
  organizationId: number,
  scope: ConversationScope,
  {
    limit,
    after,
    databaseId,
  }: {
    limit: number;
    after?: string | undefined;
    /** An embed session's database: only its conversations (and those not yet about one). */
    databaseId?: string | undefined;
  },
) =>
  readPage({
    input: {
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: after === undefined ? 'GSI1PK = :scope' : 'GSI1PK = :scope AND GSI1SK < :after',
      ...(databaseId === undefined
        ? {}
        : { FilterExpression: 'attribute_not_exists(databaseId) OR databaseId = :database' }),
      ExpressionAttributeValues: {
        ':scope': scopePartition(organizationId, scope),
        ...(after === undefined ? {} : { ':after': after }),
        ...(databaseId === undefined ? {} : { ':database': databaseId }),
      },
      ScanIndexForward: false,
    },
    limit,
    parse: parseConversation,
  });

/**
 * First step of a delete: marks the conversation as being deleted and takes it out of its
 * scope's list, if it is this organization's and scope's. False when there is no such
 * conversation. A conversation already marked passes again, so a delete that stopped half-way
 * is finished by repeating it.
 */
export const markConversationDeleting = async (
  owner: ConversationOwner,
  id: string,
  now = new Date(),
): Promise<boolean> => {
  const database =
    owner.databaseId === undefined ? '' : ' AND (attribute_not_exists(databaseId) OR databaseId = :database)';
  try {
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: conversationKey(owner.organizationId, id),
        UpdateExpression: 'SET deletingAt = if_not_exists(deletingAt, :now) REMOVE GSI1PK, GSI1SK',
        ConditionExpression: `attribute_exists(PK) AND organizationId = :org AND scopeKey = :scope${database}`,
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':org': owner.organizationId,
          ':scope': scopeKey(owner),
          ...(owner.databaseId === undefined ? {} : { ':database': owner.databaseId }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** Last step of a delete: the conversation item, only while it is still the one marked. */
export const removeConversationItem = async (organizationId: number, id: string): Promise<void> => {
  try {
    await documents().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: conversationKey(organizationId, id),
        ConditionExpression: 'attribute_exists(deletingAt)',
      }),
    );
  } catch (error) {
    // Already removed by a concurrent delete (or re-created since): nothing of ours is left.
    if (!isConditionFailure(error)) throw error;
  }
};
