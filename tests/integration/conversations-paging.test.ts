// Property: for any set of conversations and messages spread over a few scopes (whose names
// collide on purpose in the characters keys use), paging with any page size through the list of
// conversations, the scope's messages (either order) and one conversation's messages returns
// every item of the caller's scope exactly once, in order, and nothing of another scope.
// Each run gets a fresh organization, so runs cannot see each other's data.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendToHistory,
  type Caller,
  type CursorPage,
  listConversations,
  readMessages,
} from '#lib/conversations/history.ts';
import { createOrganization } from '#lib/store/organizations.ts';

const trickyScope = fc.oneof(
  fc.constantFrom('a', 'a#b', 'a%23b', 'A', '%NOSCOPE', '1', '01', 'ü 🙂', 'x#'),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s.length > 0),
);

const world = fc.record({
  scopes: fc.uniqueArray(trickyScope, { minLength: 2, maxLength: 4 }),
  // Per conversation: which scope it lives in, and how many messages it gets.
  conversations: fc.array(fc.record({ scope: fc.nat(), messages: fc.integer({ min: 1, max: 4 }) }), {
    minLength: 1,
    maxLength: 12,
  }),
  listLimit: fc.integer({ min: 1, max: 5 }),
  historyLimit: fc.integer({ min: 1, max: 7 }),
  order: fc.constantFrom('asc' as const, 'desc' as const),
});

/** DynamoDB orders string keys by UTF-8 bytes; for ISO times and hex ids that is code-unit order. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const pageThrough = async <K extends 'conversations' | 'messages', T>(
  key: K,
  read: (cursor: string | undefined) => Promise<CursorPage<Record<K, T[]>>>,
): Promise<T[]> => {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages += 1) {
    const page = await read(cursor);
    items.push(...page[key]);
    // A cursor exactly when there is more, and "more" is the truth: a page reached through a
    // cursor is never empty.
    expect(page.cursor !== undefined).toBe(page.hasMore);
    if (cursor !== undefined) expect(page[key].length).toBeGreaterThan(0);
    if (!page.cursor) return items;
    cursor = page.cursor;
  }
  throw new Error('paging did not end');
};

describe('paging (property)', () => {
  it('returns every item of the caller’s scope exactly once, in order, and none of another scope', async () => {
    await fc.assert(
      fc.asyncProperty(world, async ({ scopes, conversations, listLimit, historyLimit, order }) => {
        // Arrange: a fresh organization; messages appended in a random interleaving.
        const organizationId = (await createOrganization({ name: 'Paging', plan: 'professional' })).id;
        const planned = conversations.map((c) => ({
          id: randomUUID(),
          scopeId: scopes[c.scope % scopes.length]!,
          messages: c.messages,
        }));
        const appends = planned.flatMap((c) => Array.from({ length: c.messages }, () => c));
        const appended: { id: string; conversationId: string; scopeId: string; at: string }[] = [];
        for (const conversation of appends) {
          const caller: Caller = { organizationId, scopeId: conversation.scopeId };
          const result = await appendToHistory(caller, {
            conversationId: conversation.id,
            role: 'user',
            content: `${conversation.scopeId}/${conversation.id}`,
          });
          appended.push({
            id: result.message_id,
            conversationId: conversation.id,
            scopeId: conversation.scopeId,
            at: result.created_at,
          });
        }

        for (const scopeId of scopes) {
          const caller: Caller = { organizationId, scopeId };
          const mine = appended.filter((m) => m.scopeId === scopeId);

          // Act + Assert: the conversations, newest activity first (then id).
          const lastAt = new Map<string, string>();
          for (const m of mine) lastAt.set(m.conversationId, m.at);
          const expectedConversations = [...lastAt.entries()]
            .map(([id, at]) => `${at}#${id}`)
            .sort(byCodeUnits)
            .reverse()
            .map((key) => key.slice(key.indexOf('#') + 1));
          const listed = await pageThrough('conversations', (cursor) =>
            listConversations(caller, { limit: listLimit, cursor }),
          );
          expect(listed.map((c) => c.id)).toEqual(expectedConversations);
          expect(listed.every((c) => c.scopeId === scopeId)).toBe(true);

          // The scope's messages, in the order asked.
          const ids = mine.map((m) => m.id).sort(byCodeUnits);
          const expectedMessages = order === 'asc' ? ids : [...ids].reverse();
          const messages = await pageThrough('messages', (cursor) =>
            readMessages(caller, { limit: historyLimit, order, cursor }),
          );
          expect(messages.map((m) => m.id)).toEqual(expectedMessages);

          // Each conversation's messages.
          for (const conversationId of lastAt.keys()) {
            const own = mine
              .filter((m) => m.conversationId === conversationId)
              .map((m) => m.id)
              .sort(byCodeUnits);
            const read = await pageThrough('messages', (cursor) =>
              readMessages(caller, { conversationId, limit: historyLimit, order, cursor }),
            );
            expect(read.map((m) => m.id)).toEqual(order === 'asc' ? own : [...own].reverse());
            expect(read.every((m) => m.content === `${scopeId}/${conversationId}`)).toBe(true);
          }
        }
      }),
      { numRuns: 20 },
    );
  }, 60_000);
});
