// "A conversation keeps its tenant" in the store, against DynamoDB Local (docs/design.md "Tenant
// filtering and the SQL guard"): the first answered message's tenant is stored with the
// conversation, and the append transaction's condition refuses a message under another tenant
// (or none, when it had one) as CONVERSATION_NOT_FOUND — also when two first messages race, where
// the check before answering (lib/answer/chat.ts) cannot see the other one yet. History appends
// (no tenant) are per organization and scope, as before.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendToHistory } from '#lib/conversations/history.ts';
import { ServiceError } from '#lib/errors.ts';
import { conversationTenantKey, findConversation, tenantMatches } from '#lib/store/conversations.ts';
import { appendMessage } from '#lib/store/messages.ts';
import { createOrganization } from '#lib/store/organizations.ts';

const answered = (organizationId: number, conversationId: string, tenant: string | number | undefined) =>
  appendMessage({
    conversationId,
    organizationId,
    scope: { scopeId: 'alice' },
    role: 'user',
    content: `question under ${String(tenant)}`,
    conversation: {
      userId: '',
      databaseId: '01900000-0000-7000-8000-000000000001',
      tenantKey: conversationTenantKey(tenant),
    },
  });

const kindOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'stored',
    (error: unknown) => (error instanceof ServiceError ? error.kind : String(error)),
  );

describe('conversationTenantKey / tenantMatches', () => {
  it('tells tenants, and no tenant, apart; a conversation without one yet matches any', () => {
    expect(conversationTenantKey(1)).toBe('tenant:1');
    expect(conversationTenantKey('acme')).toBe('tenant:acme');
    expect(conversationTenantKey(undefined)).toBe('none');
    expect(tenantMatches({ tenantKey: 'tenant:1' }, 1)).toBe(true);
    expect(tenantMatches({ tenantKey: 'tenant:1' }, 2)).toBe(false);
    expect(tenantMatches({ tenantKey: 'tenant:1' }, undefined)).toBe(false);
    expect(tenantMatches({ tenantKey: 'none' }, 1)).toBe(false);
    expect(tenantMatches({}, 7)).toBe(true);
  });
});

describe('the append condition', () => {
  it('stores the tenant of the first answered message and refuses another tenant, or none', async () => {
    // Arrange
    const organizationId = (await createOrganization({ name: 'Tenants', plan: 'professional' })).id;
    const id = randomUUID();
    await answered(organizationId, id, 1);

    // Act / Assert
    expect(await kindOf(answered(organizationId, id, 2))).toBe('CONVERSATION_NOT_FOUND');
    expect(await kindOf(answered(organizationId, id, undefined))).toBe('CONVERSATION_NOT_FOUND');
    expect(await kindOf(answered(organizationId, id, 1))).toBe('stored');
    const conversation = await findConversation(organizationId, id);
    expect(conversation).toMatchObject({ tenantKey: 'tenant:1', messageCount: 2 });
  });

  it('lets exactly one tenant win two racing first messages', async () => {
    const organizationId = (await createOrganization({ name: 'Race', plan: 'professional' })).id;
    const id = randomUUID();
    const outcomes = await Promise.all([
      kindOf(answered(organizationId, id, 1)),
      kindOf(answered(organizationId, id, 2)),
    ]);
    expect(outcomes.sort()).toEqual(['CONVERSATION_NOT_FOUND', 'stored']);
    expect((await findConversation(organizationId, id))?.messageCount).toBe(1);
  });

  it('sets the tenant on a conversation made by history appends, which go on without one', async () => {
    const organizationId = (await createOrganization({ name: 'Imported', plan: 'professional' })).id;
    const id = randomUUID();
    const caller = { organizationId, scopeId: 'alice' };
    await appendToHistory(caller, { conversationId: id, role: 'user', content: 'imported' });
    expect((await findConversation(organizationId, id))?.tenantKey).toBeUndefined();
    await answered(organizationId, id, 'acme');
    expect((await findConversation(organizationId, id))?.tenantKey).toBe('tenant:acme');
    expect(await kindOf(answered(organizationId, id, 'globex'))).toBe('CONVERSATION_NOT_FOUND');
    await appendToHistory(caller, { conversationId: id, role: 'assistant', content: 'imported answer' });
    expect((await findConversation(organizationId, id))?.messageCount).toBe(3);
  });
});
