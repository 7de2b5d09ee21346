// Conversations and messages against DynamoDB Local, through lib/conversations (the domain the
// functions call) and lib/store: append, list, read, delete, their ownership rules, a 10,000-message
// delete, 50 appends racing for one conversation, and pages that DynamoDB or the byte budget cut short.
import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  appendToHistory,
  type Caller,
  deleteConversation,
  listConversations,
  readConversationHistory,
  readMessages,
} from '#lib/conversations/history.ts';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, tableName } from '#lib/store/client.ts';
import {
  conversationKey,
  conversationTouchUpdate,
  markConversationDeleting,
} from '#lib/store/conversations.ts';
import { appendMessage, type MessageRecord, messageItem, messageKey } from '#lib/store/messages.ts';
import { createOrganization } from '#lib/store/organizations.ts';

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const newOrganization = async () => (await createOrganization({ name: 'History', plan: 'professional' })).id;

const rejectsWith = async (promise: Promise<unknown>, kind: string, field?: string) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).kind).toBe(kind);
  if (field) expect((error as ServiceError).issues.map((issue) => issue.field)).toEqual([field]);
};

const append = (
  caller: Caller,
  conversationId: string,
  role: 'user' | 'assistant' | 'system' | 'tool',
  content: string,
  metadata?: Record<string, unknown>,
) => appendToHistory(caller, { conversationId, role, content, metadata });

/** Every page of a list, following cursors. */
const allPages = async <T>(
  read: (
    cursor: string | undefined,
  ) => Promise<{ hasMore: boolean; cursor?: string } & Record<string, unknown>>,
  key: 'conversations' | 'messages',
): Promise<{ items: T[]; pages: number }> => {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await read(cursor);
    pages += 1;
    items.push(...(page[key] as T[]));
    expect('cursor' in page).toBe(page.hasMore);
    cursor = page.cursor;
  } while (cursor);
  return { items, pages };
};

describe('append', () => {
  it('creates the conversation in the caller’s scope and keeps count, times and title', async () => {
    // Arrange
    const caller = { organizationId: await newOrganization(), scopeId: 'user#1', userId: '42' };
    const id = randomUUID();

    // Act
    const first = await append(caller, id, 'system', 'You are helpful.');
    const second = await append(caller, id, 'user', 'How many orders shipped last week?', {
      source: 'widget',
    });
    const third = await append(caller, id, 'user', 'And this week?');

    // Assert
    for (const appended of [first, second, third]) {
      expect(appended.conversation_id).toBe(id);
      expect(appended.created_at).toMatch(iso);
    }
    expect(first.message_id < second.message_id && second.message_id < third.message_id).toBe(true);
    const { conversations } = await listConversations(caller, { limit: 20 });
    expect(conversations).toEqual([
      {
        id,
        organizationId: caller.organizationId,
        scopeId: 'user#1',
        tenantId: null,
        title: 'How many orders shipped last week?',
        lastMessageAt: third.created_at,
        messageCount: 3,
        createdAt: first.created_at,
      },
    ]);
    const history = await readConversationHistory(caller, id);
    expect(history).toEqual({
      conversation_id: id,
      messages: [
        { role: 'SYSTEM', content: 'You are helpful.', timestamp: first.created_at },
        { role: 'USER', content: 'How many orders shipped last week?', timestamp: second.created_at },
        { role: 'USER', content: 'And this week?', timestamp: third.created_at },
      ],
      organization_id: caller.organizationId,
      user_id: 42,
      truncated: false,
    });
  });

  it('titles a conversation “New conversation” until a user message exists', async () => {
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const id = randomUUID();
    await append(caller, id, 'assistant', 'Hello! Ask me anything.');
    expect((await listConversations(caller, { limit: 1 })).conversations[0]?.title).toBe('New conversation');
    await append(caller, id, 'user', `${'word '.repeat(30)}end`);
    const title = (await listConversations(caller, { limit: 1 })).conversations[0]?.title ?? '';
    expect(title).toBe(`${'word '.repeat(16).trimEnd()}…`);
  });

  it('gives user_id 0 to a conversation created with an API key, whoever appends later', async () => {
    const organizationId = await newOrganization();
    const id = randomUUID();
    await append({ organizationId, scopeId: 's' }, id, 'user', 'hi');
    await append({ organizationId, scopeId: 's', userId: '7' }, id, 'user', 'again');
    expect((await readConversationHistory({ organizationId, scopeId: 's' }, id)).user_id).toBe(0);
  });

  it('refuses a conversation of another scope as not found, and changes nothing', async () => {
    // Arrange
    const organizationId = await newOrganization();
    const owner = { organizationId, scopeId: 'alice' };
    const id = randomUUID();
    await append(owner, id, 'user', 'mine');

    // Act + Assert
    await rejectsWith(append({ organizationId, scopeId: 'bob' }, id, 'user', 'x'), 'CONVERSATION_NOT_FOUND');
    await rejectsWith(
      append({ organizationId, scopeId: undefined }, id, 'user', 'x'),
      'CONVERSATION_NOT_FOUND',
    );
    const history = await readConversationHistory(owner, id);
    expect(history.messages.map((m) => m.content)).toEqual(['mine']);
  });

  it('gives each organization its own ids: the same id elsewhere is another conversation, and tells nothing', async () => {
    // Arrange: organization A uses an id first.
    const owner = { organizationId: await newOrganization(), scopeId: 'alice' };
    const other = { organizationId: await newOrganization(), scopeId: 'alice' };
    const id = randomUUID();
    await append(owner, id, 'user', 'mine');

    // Act: organization B appends to the same id (it cannot squat it, nor learn it is taken).
    await append(other, id, 'user', 'theirs');

    // Assert: two conversations, each with its own message only.
    expect((await readConversationHistory(owner, id)).messages.map((m) => m.content)).toEqual(['mine']);
    expect((await readConversationHistory(other, id)).messages.map((m) => m.content)).toEqual(['theirs']);
    await deleteConversation(other, id);
    expect((await readConversationHistory(owner, id)).messages.map((m) => m.content)).toEqual(['mine']);
  });

  it('keeps scopes that differ only by characters used in keys apart', async () => {
    const organizationId = await newOrganization();
    const scopes = ['a#b', 'a%23b', 'a', 'a#', '%NOSCOPE', 'ü 🙂'];
    for (const scopeId of scopes) await append({ organizationId, scopeId }, randomUUID(), 'user', scopeId);
    await append({ organizationId, scopeId: undefined }, randomUUID(), 'user', '(no scope)');
    for (const scopeId of scopes) {
      const { messages } = await readMessages({ organizationId, scopeId }, { limit: 50, order: 'desc' });
      expect(messages.map((m) => m.content)).toEqual([scopeId]);
    }
  });

  it('lands 50 parallel appends to one conversation: 50 messages, messageCount 50', async () => {
    // Arrange
    const caller = { organizationId: await newOrganization(), scopeId: 'busy' };
    const id = randomUUID();

    // Act
    const appended = await Promise.all(
      Array.from({ length: 50 }, (_, index) => append(caller, id, 'user', `message ${index}`)),
    );

    // Assert
    expect(new Set(appended.map((a) => a.message_id)).size).toBe(50);
    const { conversations } = await listConversations(caller, { limit: 5 });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]?.messageCount).toBe(50);
    const history = await readConversationHistory(caller, id);
    expect(history.messages).toHaveLength(50);
    const latest = appended
      .map((a) => a.created_at)
      .sort()
      .at(-1);
    expect(conversations[0]?.lastMessageAt).toBe(latest);
  });

  it('keeps the database of whichever first message lands first when two race with different databases', async () => {
    const organizationId = await newOrganization();
    const id = randomUUID();
    const first = (databaseId: string) =>
      appendMessage({
        conversationId: id,
        organizationId,
        scope: { scopeId: 'racer' },
        role: 'user',
        content: `about ${databaseId}`,
        conversation: { userId: '', databaseId, title: `about ${databaseId}` },
      });
    const settled = await Promise.allSettled([first('db-one'), first('db-two')]);
    const landed = settled.filter((result) => result.status === 'fulfilled');
    const refused = settled.filter((result) => result.status === 'rejected');
    expect(landed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as ServiceError;
    expect(error.kind).toBe('VALIDATION');
    expect(error.issues).toEqual([
      expect.objectContaining({ field: 'body.database_id', code: 'CONVERSATION_DATABASE_MISMATCH' }),
    ]);

    const stored = await documents().send(
      new GetCommand({ TableName: tableName(), Key: conversationKey(organizationId, id) }),
    );
    const kept = stored.Item?.databaseId as string;
    expect((landed[0] as PromiseFulfilledResult<MessageRecord>).value.content).toBe(`about ${kept}`);
    // Only the landed message is stored, and the count agrees.
    expect(stored.Item?.messageCount).toBe(1);
    const messages = await readMessages(
      { organizationId, scopeId: 'racer' },
      { conversationId: id, limit: 10, order: 'asc' },
    );
    expect(messages.messages.map((message) => message.content)).toEqual([`about ${kept}`]);
  });

  it('never moves last activity backwards: an older message is counted and leaves it where it is', async () => {
    // Arrange: another process (its clock 5 s ahead) has appended a message "from the future".
    // Built by hand: this process's uuidv7 never goes back in time once it has gone forward.
    const organizationId = await newOrganization();
    const caller = { organizationId, scopeId: 's' };
    const id = randomUUID();
    const aheadMs = Date.now() + 5_000;
    const hex = `${aheadMs.toString(16).padStart(12, '0')}7000${randomUUID().replaceAll('-', '').slice(16)}`;
    const aheadId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    const ahead: MessageRecord = {
      id: aheadId,
      conversationId: id,
      organizationId,
      role: 'user',
      content: 'from the future',
      createdAt: new Date(aheadMs).toISOString(),
    };
    await documents().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: messageItem(ahead, { scopeId: 's' }) } },
          {
            Update: conversationTouchUpdate({
              id,
              organizationId,
              scope: { scopeId: 's' },
              at: ahead.createdAt,
              userId: '',
            }),
          },
        ],
      }),
    );

    // Act
    const now = await append(caller, id, 'assistant', 'now');

    // Assert
    expect(Date.parse(now.created_at)).toBeLessThan(aheadMs);
    const listed = await listConversations(caller, { limit: 1 });
    expect(listed.conversations[0]).toMatchObject({ lastMessageAt: ahead.createdAt, messageCount: 2 });
    const history = await readConversationHistory(caller, id);
    expect(history.messages.map((m) => m.content)).toEqual(['now', 'from the future']);
  });
});

describe('reading messages', () => {
  it('returns the fields of the spec, the appended ids, metadata as sent, newest first or oldest first', async () => {
    // Arrange
    const caller = { organizationId: await newOrganization(), scopeId: '1234' };
    const a = randomUUID();
    const b = randomUUID();
    const metadata = {
      query_type: 'sql',
      execution_time_ms: 12,
      nested: { list: [1, 'two', null], big: 1e300 },
    };
    const m1 = await append(caller, a, 'user', 'q1');
    const m2 = await append(caller, a, 'assistant', 'a1', metadata);
    const m3 = await append(caller, b, 'tool', '{"rows": 3}');

    // Act
    const desc = await readMessages(caller, { limit: 50, order: 'desc' });
    const asc = await readMessages(caller, { limit: 50, order: 'asc' });
    const one = await readMessages(caller, { conversationId: a, limit: 50, order: 'asc' });

    // Assert
    expect(desc).toEqual({
      messages: [
        {
          id: m3.message_id,
          content: '{"rows": 3}',
          sender: 'TOOL',
          timestamp: m3.created_at,
          type: 'text',
          metadata: {},
        },
        {
          id: m2.message_id,
          content: 'a1',
          sender: 'ASSISTANT',
          timestamp: m2.created_at,
          type: 'text',
          metadata,
        },
        {
          id: m1.message_id,
          content: 'q1',
          sender: 'USER',
          timestamp: m1.created_at,
          type: 'text',
          metadata: {},
        },
      ],
      hasMore: false,
    });
    expect(asc.messages.map((m) => m.id)).toEqual([m1.message_id, m2.message_id, m3.message_id]);
    expect(one.messages.map((m) => m.id)).toEqual([m1.message_id, m2.message_id]);
  });

  it('is 404 for an unknown conversation and for another scope’s or organization’s', async () => {
    const organizationId = await newOrganization();
    const id = randomUUID();
    await append({ organizationId, scopeId: 'alice' }, id, 'user', 'mine');
    const strangers: Caller[] = [
      { organizationId, scopeId: 'bob' },
      { organizationId: await newOrganization(), scopeId: 'alice' },
    ];
    for (const caller of strangers) {
      await rejectsWith(
        readMessages(caller, { conversationId: id, limit: 10, order: 'desc' }),
        'CONVERSATION_NOT_FOUND',
      );
      await rejectsWith(readConversationHistory(caller, id), 'CONVERSATION_NOT_FOUND');
      await rejectsWith(deleteConversation(caller, id), 'CONVERSATION_NOT_FOUND');
      expect((await readMessages(caller, { limit: 10, order: 'desc' })).messages).toEqual([]);
    }
    await rejectsWith(
      readMessages(
        { organizationId, scopeId: 'alice' },
        { conversationId: randomUUID(), limit: 10, order: 'asc' },
      ),
      'CONVERSATION_NOT_FOUND',
    );
    await rejectsWith(
      readConversationHistory({ organizationId, scopeId: 'alice' }, randomUUID()),
      'CONVERSATION_NOT_FOUND',
    );
  });

  it('pages with hasMore read ahead: no empty last page, no cursor at the end', async () => {
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const id = randomUUID();
    for (let index = 0; index < 6; index += 1) await append(caller, id, 'user', `m${index}`);
    const full = await readMessages(caller, { conversationId: id, limit: 3, order: 'asc' });
    expect(full.hasMore).toBe(true);
    const last = await readMessages(caller, {
      conversationId: id,
      limit: 3,
      order: 'asc',
      cursor: full.cursor,
    });
    expect(last.messages.map((m) => m.content)).toEqual(['m3', 'm4', 'm5']);
    expect(last).not.toHaveProperty('cursor');
    expect(last.hasMore).toBe(false);
  });

  it('refuses a cursor replayed on another scope, conversation, order or list, on field cursor', async () => {
    const organizationId = await newOrganization();
    const caller = { organizationId, scopeId: 'alice' };
    const other = { organizationId, scopeId: 'bob' };
    const a = randomUUID();
    const b = randomUUID();
    for (let index = 0; index < 3; index += 1) {
      await append(caller, a, 'user', `a${index}`);
      await append(caller, b, 'user', `b${index}`);
      await append(other, randomUUID(), 'user', `x${index}`);
    }
    const { cursor } = await readMessages(caller, { conversationId: a, limit: 1, order: 'desc' });
    const { cursor: listCursor } = await listConversations(caller, { limit: 1 });
    expect(cursor && listCursor).toBeTruthy();
    const replays = [
      readMessages(other, { conversationId: a, limit: 1, order: 'desc', cursor }),
      readMessages(caller, { conversationId: b, limit: 1, order: 'desc', cursor }),
      readMessages(caller, { conversationId: a, limit: 1, order: 'asc', cursor }),
      readMessages(caller, { limit: 1, order: 'desc', cursor }),
      listConversations(caller, { limit: 1, cursor }),
      listConversations(other, { limit: 1, cursor: listCursor }),
      readMessages(caller, { limit: 1, order: 'desc', cursor: listCursor }),
    ];
    for (const replay of replays) await rejectsWith(replay, 'VALIDATION', 'cursor');
  });

  it('continues a page that DynamoDB’s 1 MB limit and the response byte budget cut short', async () => {
    // Arrange: 48 messages of 100,000 characters (4.8 MB): more than one Query returns, and more
    // than the 4 MB a page may hold.
    const caller = { organizationId: await newOrganization(), scopeId: 'big' };
    const id = randomUUID();
    const seeded = [];
    for (let index = 0; index < 48; index += 1)
      seeded.push((await append(caller, id, 'user', `${index}`.padEnd(100_000, '.'))).message_id);

    // Act
    const scope = await allPages<{ id: string }>(
      (cursor) => readMessages(caller, { limit: 200, order: 'asc', cursor }),
      'messages',
    );
    const conversation = await allPages<{ id: string }>(
      (cursor) => readMessages(caller, { conversationId: id, limit: 48, order: 'desc', cursor }),
      'messages',
    );

    // Assert
    expect(scope.pages).toBe(2);
    expect(scope.items.map((m) => m.id)).toEqual(seeded);
    expect(conversation.pages).toBe(2);
    expect(conversation.items.map((m) => m.id)).toEqual([...seeded].reverse());
  });
});

describe('listing conversations', () => {
  it('lists newest activity first and moves a conversation up when it gets a message', async () => {
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await append(caller, id, 'user', id);
    const before = await listConversations(caller, { limit: 20 });
    expect(before.conversations.map((c) => c.id)).toEqual([...ids].reverse());

    await append(caller, ids[0]!, 'assistant', 'later');
    const after = await allPages<{ id: string }>(
      (cursor) => listConversations(caller, { limit: 2, cursor }),
      'conversations',
    );
    expect(after.items.map((c) => c.id)).toEqual([ids[0], ids[2], ids[1]]);
  });

  it('continues after a cursor whose conversation has moved since (the key is a position, not an item)', async () => {
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await append(caller, id, 'user', id);
    const first = await listConversations(caller, { limit: 1 });
    expect(first.conversations[0]?.id).toBe(ids[2]);
    await append(caller, ids[2]!, 'user', 'moves to the top again');
    const second = await listConversations(caller, { limit: 5, cursor: first.cursor });
    expect(second.conversations.map((c) => c.id)).toEqual([ids[1], ids[0]]);
  });
});

describe('deleting', () => {
  it('removes the conversation and its messages from every read; the id is free afterwards', async () => {
    // Arrange
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const gone = randomUUID();
    const kept = randomUUID();
    await append(caller, gone, 'user', 'bye');
    await append(caller, gone, 'assistant', 'bye bye');
    const keptMessage = await append(caller, kept, 'user', 'stay');

    // Act
    expect(await deleteConversation(caller, gone)).toEqual({ message: 'Conversation deleted' });

    // Assert
    await rejectsWith(readConversationHistory(caller, gone), 'CONVERSATION_NOT_FOUND');
    await rejectsWith(
      readMessages(caller, { conversationId: gone, limit: 5, order: 'asc' }),
      'CONVERSATION_NOT_FOUND',
    );
    await rejectsWith(deleteConversation(caller, gone), 'CONVERSATION_NOT_FOUND');
    expect((await readMessages(caller, { limit: 50, order: 'asc' })).messages.map((m) => m.id)).toEqual([
      keptMessage.message_id,
    ]);
    expect((await listConversations(caller, { limit: 20 })).conversations.map((c) => c.id)).toEqual([kept]);
    const partition = await documents().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': conversationKey(caller.organizationId, gone).PK },
      }),
    );
    expect(partition.Items).toEqual([]);
    const again = await append(caller, gone, 'user', 'new start');
    expect((await readConversationHistory(caller, gone)).messages).toEqual([
      { role: 'USER', content: 'new start', timestamp: again.created_at },
    ]);
  });

  it('finishes a delete that stopped half-way when it is repeated; appends meanwhile are refused', async () => {
    // Arrange: step 1 done and some messages deleted, as if the first DELETE timed out.
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const id = randomUUID();
    const appended = [];
    for (let index = 0; index < 5; index += 1) appended.push(await append(caller, id, 'user', `m${index}`));
    expect(await markConversationDeleting(caller, id)).toBe(true);
    await documents().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: appended
            .slice(0, 2)
            .map((a) => ({ DeleteRequest: { Key: messageKey(caller.organizationId, id, a.message_id) } })),
        },
      }),
    );

    // Act + Assert
    await rejectsWith(append(caller, id, 'user', 'too late'), 'CONVERSATION_NOT_FOUND');
    await rejectsWith(readConversationHistory(caller, id), 'CONVERSATION_NOT_FOUND');
    expect((await listConversations(caller, { limit: 5 })).conversations).toEqual([]);
    await rejectsWith(deleteConversation({ ...caller, scopeId: 'other' }, id), 'CONVERSATION_NOT_FOUND');
    expect(await deleteConversation(caller, id)).toEqual({ message: 'Conversation deleted' });
    expect((await readMessages(caller, { limit: 50, order: 'asc' })).messages).toEqual([]);
    const { Item } = await documents().send(
      new GetCommand({ TableName: tableName(), Key: conversationKey(caller.organizationId, id) }),
    );
    expect(Item).toBeUndefined();
  });

  it('deletes a conversation of 10,000 messages', async () => {
    // Arrange: seeded with BatchWriteItem, items built by the store's own builders.
    const organizationId = await newOrganization();
    const caller = { organizationId, scopeId: 'heavy' };
    const id = randomUUID();
    const first = await append(caller, id, 'user', 'the first of many');
    const start = Date.parse(first.created_at) + 1;
    const items = Array.from({ length: 9_999 }, (_, index) => {
      const messageId = uuidv7(start + index);
      const message: MessageRecord = {
        id: messageId,
        conversationId: id,
        organizationId,
        role: index % 2 ? 'assistant' : 'user',
        content: `message ${index}`,
        createdAt: new Date(start + index).toISOString(),
      };
      return messageItem(message, caller);
    });
    const batches: (typeof items)[] = [];
    for (let offset = 0; offset < items.length; offset += 25) batches.push(items.slice(offset, offset + 25));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < batches.length) {
          const batch = batches[next++]!;
          await documents().send(
            new BatchWriteCommand({
              RequestItems: { [tableName()]: batch.map((Item) => ({ PutRequest: { Item } })) },
            }),
          );
        }
      }),
    );
    const before = await readConversationHistory(caller, id);
    // The history shows the latest 1,000 (HISTORY_MAX_MESSAGES) and says there are more.
    expect(before.messages).toHaveLength(1_000);
    expect(before.truncated).toBe(true);

    // Act
    const started = performance.now();
    await deleteConversation(caller, id);
    const seconds = (performance.now() - started) / 1000;

    // Assert
    expect(seconds).toBeLessThan(20);
    await rejectsWith(readConversationHistory(caller, id), 'CONVERSATION_NOT_FOUND');
    const scope = await readMessages(caller, { limit: 200, order: 'asc' });
    expect(scope).toEqual({ messages: [], hasMore: false });
  }, 60_000);

  it('stops with 503 and Retry-After when the request runs out of time, and a repeat finishes', async () => {
    const caller = { organizationId: await newOrganization(), scopeId: 's' };
    const id = randomUUID();
    await append(caller, id, 'user', 'x');
    const error = await deleteConversation(caller, id, { remainingMs: () => 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).kind).toBe('SERVICE_UNAVAILABLE');
    expect((error as ServiceError).headers['Retry-After']).toBeDefined();
    await deleteConversation(caller, id, { remainingMs: () => 20_000 });
    await rejectsWith(readConversationHistory(caller, id), 'CONVERSATION_NOT_FOUND');
  });
});

describe('a conversation without messages', () => {
  it('reads as an empty page when it exists, and 404 otherwise', async () => {
    // The store never creates one, but the read path must not turn it into a 404.
    const organizationId = await newOrganization();
    const id = randomUUID();
    const now = new Date().toISOString();
    await documents().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...conversationKey(organizationId, id),
          type: 'conversation',
          id,
          organizationId,
          scopeId: 's',
          scopeKey: 's',
          userId: '',
          messageCount: 0,
          createdAt: now,
          lastMessageAt: now,
        },
      }),
    );
    expect(
      await readMessages({ organizationId, scopeId: 's' }, { conversationId: id, limit: 5, order: 'desc' }),
    ).toEqual({
      messages: [],
      hasMore: false,
    });
    await rejectsWith(
      readMessages({ organizationId, scopeId: 't' }, { conversationId: id, limit: 5, order: 'desc' }),
      'CONVERSATION_NOT_FOUND',
    );
  });
});
