// Conversations kept before a tenant was a part of their address stay readable: the address
// migration (lib/store/conversation-addresses.ts) moves them, against DynamoDB Local. Before, an
// embed session's conversation was kept under the scope `<tenant>/<scope>` and an sk_
// conversation of a tenant-filtered database under its scope alone; both are built here the way
// the store wrote them then (an append with the old scope and the tenant in tenantKey).
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  appendToHistory,
  type Caller,
  listConversations,
  readConversationHistory,
  readMessages,
} from '#lib/conversations/history.ts';
import { documents, tableName } from '#lib/store/client.ts';
import { migrateConversationAddresses, migratedScope } from '#lib/store/conversation-addresses.ts';
import { conversationTenantKey } from '#lib/store/conversations.ts';
import { appendMessage, messageKey } from '#lib/store/messages.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { legacySessionScopeId } from '#lib/store/scopes.ts';

const DATABASE = '01900000-0000-7000-8000-000000000001';

const keptBefore = (organizationId: number, scopeId: string, tenant: string | undefined, content: string) => {
  const id = randomUUID();
  return appendMessage({
    conversationId: id,
    organizationId,
    scope: { scopeId },
    role: 'user',
    content,
    conversation: {
      userId: '',
      databaseId: DATABASE,
      tenantKey: conversationTenantKey(tenant),
      title: content,
    },
  }).then(() => id);
};

const idsOf = async (caller: Caller) =>
  (await listConversations(caller, { limit: 20 })).conversations.map((conversation) => conversation.id);

describe('migratedScope', () => {
  it('reads the session scope out of `<tenant>/<scope>`, and keeps any other scope as given', () => {
    expect(migratedScope({ scopeId: '1/alice', tenantKey: 'tenant:1' })).toEqual({
      tenant: '1',
      scopeId: 'alice',
    });
    expect(migratedScope({ scopeId: 'a%2Fb/alice', tenantKey: 'tenant:a/b' })).toEqual({
      tenant: 'a/b',
      scopeId: 'alice',
    });
    expect(migratedScope({ scopeId: 'bob', tenantKey: 'tenant:2' })).toEqual({ tenant: '2', scopeId: 'bob' });
    expect(migratedScope({ scopeId: undefined, tenantKey: 'tenant:2' })).toEqual({
      tenant: '2',
      scopeId: undefined,
    });
    expect(migratedScope({ scopeId: '1/alice', tenantKey: 'none' })).toBeUndefined();
    expect(migratedScope({ scopeId: 'alice', tenantKey: 'tenant:1', tenant: '1' })).toBeUndefined();
    expect(legacySessionScopeId('1', 'alice')).toBe('1/alice');
  });
});

describe('migrateConversationAddresses', () => {
  it('moves each conversation with its messages to its tenant address, once; a scope id `1/alice` without a tenant stays', async () => {
    // Arrange: tenant 1's alice (an embed session), tenant 2's bob (an sk_ caller with X-Tenant-Id),
    // and a conversation of a database without tenants whose scope id is `1/alice`.
    const organizationId = (await createOrganization({ name: 'Addresses', plan: 'professional' })).id;
    const alice = await keptBefore(organizationId, legacySessionScopeId('1', 'alice'), '1', 'alice asks');
    const bob = await keptBefore(organizationId, 'bob', '2', 'bob asks');
    const slashed = await keptBefore(organizationId, '1/alice', undefined, 'no tenant asks');

    // Act
    const first = await migrateConversationAddresses({ organizationId });
    const second = await migrateConversationAddresses({ organizationId });

    // Assert
    expect(first).toEqual({ moved: 2, messages: 2, databases: 0 });
    expect(second).toEqual({ moved: 0, messages: 0, databases: 0 });
    const aliceCaller = { organizationId, scopeId: 'alice', tenant: '1' };
    expect(await idsOf(aliceCaller)).toEqual([alice]);
    expect((await listConversations(aliceCaller, { limit: 5 })).conversations[0]).toMatchObject({
      scopeId: 'alice',
      tenantId: '1',
    });
    expect(
      (await readMessages(aliceCaller, { limit: 5, order: 'asc' })).messages.map((m) => m.content),
    ).toEqual(['alice asks']);
    expect((await readConversationHistory(aliceCaller, alice)).messages).toHaveLength(1);
    expect(await idsOf({ organizationId, scopeId: 'bob', tenant: '2' })).toEqual([bob]);
    expect(await idsOf({ organizationId, scopeId: 'bob' })).toEqual([]);
    // The conversation without a tenant is where it was, and is nobody's alice.
    expect(await idsOf({ organizationId, scopeId: '1/alice' })).toEqual([slashed]);
    expect(await idsOf({ organizationId, scopeId: '1/alice', tenant: '1' })).toEqual([]);
  });
});

describe('migrateConversationAddresses on messages without their database', () => {
  it("gives them their conversation's database, once, so that its embed session's timeline shows them", async () => {
    // Arrange: history appended to a conversation before its first chat message names its
    // database, and a message kept before messages carried their database (its attribute removed).
    const organizationId = (await createOrganization({ name: 'Message databases', plan: 'professional' })).id;
    const scope = { scopeId: 'alice', tenant: '1' };
    const server: Caller = { organizationId, ...scope };
    const session: Caller = { ...server, databaseId: DATABASE };
    const id = randomUUID();
    await appendToHistory(server, { conversationId: id, role: 'user', content: 'imported' });
    const asked = await appendMessage({
      conversationId: id,
      organizationId,
      scope,
      role: 'user',
      content: 'asked',
      conversation: { userId: '', databaseId: DATABASE, tenantKey: conversationTenantKey('1') },
    });
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(organizationId, id, asked.id),
        UpdateExpression: 'REMOVE databaseId',
      }),
    );
    // History appended now carries the database the conversation has.
    await appendToHistory(server, { conversationId: id, role: 'assistant', content: 'answered' });
    const timeline = async () =>
      (await readMessages(session, { limit: 10, order: 'asc' })).messages.map((m) => m.content);
    expect(await timeline()).toEqual(['answered']);

    // Act
    const first = await migrateConversationAddresses({ organizationId });
    const second = await migrateConversationAddresses({ organizationId });

    // Assert
    expect(first).toEqual({ moved: 0, messages: 0, databases: 2 });
    expect(second).toEqual({ moved: 0, messages: 0, databases: 0 });
    expect(await timeline()).toEqual(['imported', 'asked', 'answered']);
    expect(await readMessages({ ...session, databaseId: randomUUID() }, { limit: 10, order: 'asc' })).toEqual(
      {
        messages: [],
        hasMore: false,
      },
    );
  });
});
