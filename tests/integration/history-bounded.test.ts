// GET /chat/{id}/history returns at most the latest HISTORY_MAX_MESSAGES messages (default 1,000)
// with `truncated: true`, so that a long conversation never outgrows a Lambda response; the
// paged /chat/history reads all of them. Against DynamoDB Local.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { appendToHistory, readConversationHistory, readMessages } from '#lib/conversations/history.ts';
import { createOrganization } from '#lib/store/organizations.ts';

describe('the whole-conversation history is bounded', () => {
  it('returns the latest messages, oldest first, and says that earlier ones were left out', async () => {
    // Arrange
    vi.stubEnv('HISTORY_MAX_MESSAGES', '5');
    const organizationId = (await createOrganization({ name: 'Bounded', plan: 'professional' })).id;
    const caller = { organizationId, scopeId: 'reader' };
    const conversationId = randomUUID();
    for (let i = 1; i <= 8; i++) {
      await appendToHistory(caller, {
        conversationId,
        role: i % 2 ? 'user' : 'assistant',
        content: `message ${i}`,
      });
    }

    // Act
    const history = await readConversationHistory(caller, conversationId);
    const paged = await readMessages(caller, { conversationId, limit: 50, order: 'asc' });

    // Assert
    expect(history.truncated).toBe(true);
    expect(history.messages.map((message) => message.content)).toEqual([
      'message 4',
      'message 5',
      'message 6',
      'message 7',
      'message 8',
    ]);
    expect(paged.messages).toHaveLength(8);
  });

  it('is not truncated when every message fits', async () => {
    vi.stubEnv('HISTORY_MAX_MESSAGES', '5');
    const organizationId = (await createOrganization({ name: 'Whole', plan: 'professional' })).id;
    const caller = { organizationId, scopeId: 'reader' };
    const conversationId = randomUUID();
    for (let i = 1; i <= 5; i++) {
      await appendToHistory(caller, { conversationId, role: 'user', content: `message ${i}` });
    }

    const history = await readConversationHistory(caller, conversationId);

    expect(history.truncated).toBe(false);
    expect(history.messages.map((message) => message.content)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
    ]);
  });

  it('is a 404 for another scope, as before', async () => {
    const organizationId = (await createOrganization({ name: 'Other scope', plan: 'professional' })).id;
    const conversationId = randomUUID();
    await appendToHistory(
      { organizationId, scopeId: 'owner' },
      { conversationId, role: 'user', content: 'mine' },
    );
    await expect(
      readConversationHistory({ organizationId, scopeId: 'other' }, conversationId),
    ).rejects.toMatchObject({
      kind: 'CONVERSATION_NOT_FOUND',
    });
  });
});
