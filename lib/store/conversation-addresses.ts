// Moving conversations kept before a tenant was a part of their address (docs/design.md "Embed
// sessions"; lib/store/scopes.ts) to their address of organization, tenant and scope. Before,
//  - an embed session's conversation on a tenant-filtered database was kept under the one scope
//    `<tenant>/<scope>` (tenant with `%` and `/` escaped), with its tenant in `tenantKey`;
//  - any other conversation of a tenant-filtered database was kept under its scope alone, its
//    tenant (X-Tenant-Id) in `tenantKey` only.
// Each such conversation (a `tenantKey` of a tenant and no `tenant` part yet) gets the tenant of
// its `tenantKey` and the scope as given: the session's own scope when the old scope starts with
// the escaped tenant and `/`, the old scope otherwise. Its messages move first and the
// conversation last, each update conditional on the conversation's old key, so a run that stops
// half-way is finished by running it again, and a second run changes nothing.
// The same run gives every message of a conversation about a database that database
// (`databaseId`) when it has none yet: messages stored before every append to such a conversation
// carried it (a conversation's first chat message gives it to the history appended before it). An embed
// session's scope timeline reads its database's messages only (lib/store/messages.ts
// scopeMessagePage), so until then such messages are left out of it, never shown to another
// database's session.
// `admin conversations migrate-addresses` runs it once per stage, after the deploy that brings
// tenant addresses (and again after the one that brings message databases).
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';
import { CONVERSATION_SK, conversationKey, parseConversation } from './conversations.ts';
import { giveMessagesDatabase, MESSAGE_PREFIX } from './messages.ts';
import { type ConversationScope, legacySessionScopeId, scopeKey, scopePartition } from './scopes.ts';

const TENANT_PREFIX = 'tenant:';

/** The address a conversation kept before tenant addresses moves to; undefined when it has none to move. */
export const migratedScope = (conversation: {
  scopeId?: string | undefined;
  tenantKey?: string | undefined;
  tenant?: string | undefined;
}): ConversationScope | undefined => {
  const { tenantKey, scopeId } = conversation;
  if (conversation.tenant !== undefined || !tenantKey?.startsWith(TENANT_PREFIX)) return undefined;
  const tenant = tenantKey.slice(TENANT_PREFIX.length);
  const sessionPrefix = legacySessionScopeId(tenant, '');
  const sessionScope =
    scopeId?.startsWith(sessionPrefix) && scopeId.length > sessionPrefix.length
      ? scopeId.slice(sessionPrefix.length)
      : undefined;
  return { tenant, scopeId: sessionScope ?? scopeId };
};

export interface MigrationSummary {
  /** Conversations moved to their tenant address. */
  moved: number;
  /** Messages whose scope timeline (GSI2) moved with them. */
  messages: number;
  /** Messages given their conversation's database. */
  databases: number;
}

const moveMessages = async (
  organizationId: number,
  id: string,
  scope: ConversationScope,
): Promise<number> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :messages)',
    ExpressionAttributeValues: { ':pk': conversationKey(organizationId, id).PK, ':messages': MESSAGE_PREFIX },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  const partition = scopePartition(organizationId, scope);
  for (const item of items) {
    await documents()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: item.PK, SK: item.SK },
          UpdateExpression: 'SET GSI2PK = :partition',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':partition': partition },
        }),
      )
      .catch((error: unknown) => {
        // Deleted meanwhile: nothing to move.
        if (!isConditionFailure(error)) throw error;
      });
  }
  return items.length;
};

/**
 * Moves every conversation that still has its address of before, and gives the messages of
 * conversations about a database that database (see the top of this file), for every
 * organization or one.
 */
export const migrateConversationAddresses = async (
  options: { organizationId?: number } = {},
): Promise<MigrationSummary> => {
  const { organizationId } = options;
  const summary: MigrationSummary = { moved: 0, messages: 0, databases: 0 };
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `SK = :conversation AND (attribute_exists(databaseId) OR (begins_with(tenantKey, :tenant) AND attribute_not_exists(tenant)))${organizationId === undefined ? '' : ' AND organizationId = :organization'}`,
        ExpressionAttributeValues: {
          ':conversation': CONVERSATION_SK,
          ':tenant': TENANT_PREFIX,
          ...(organizationId === undefined ? {} : { ':organization': organizationId }),
        },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const conversation = parseConversation(item);
      if (conversation.databaseId !== undefined)
        summary.databases += await giveMessagesDatabase(
          conversation.organizationId,
          conversation.id,
          conversation.databaseId,
        );
      const scope = migratedScope(conversation);
      if (!scope) continue;
      summary.messages += await moveMessages(conversation.organizationId, conversation.id, scope);
      const listed = item.GSI1PK !== undefined;
      try {
        await documents().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: conversationKey(conversation.organizationId, conversation.id),
            UpdateExpression: `SET tenant = :tenant, scopeKey = :key${scope.scopeId === undefined ? ' REMOVE scopeId' : ', scopeId = :scope'}${listed ? ', GSI1PK = :partition' : ''}`,
            ConditionExpression: 'scopeKey = :old AND attribute_not_exists(tenant)',
            ExpressionAttributeValues: {
              ':tenant': scope.tenant,
              ':key': scopeKey(scope),
              ':old': conversation.scopeKey,
              ...(scope.scopeId === undefined ? {} : { ':scope': scope.scopeId }),
              ...(listed ? { ':partition': scopePartition(conversation.organizationId, scope) } : {}),
            },
          }),
        );
        summary.moved += 1;
      } catch (error) {
        // Moved by a run alongside, or deleted: nothing left to do for it.
        if (!isConditionFailure(error)) throw error;
      }
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return summary;
};
