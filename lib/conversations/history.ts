// Keeping conversations: list, read, append, delete (spec endpoints 1, 2, 3, 4 and 7). Plain
// typed inputs in, response data out; ownership is "this organization and this scope", and a
// conversation that is not the caller's is reported as not found, never as forbidden.
import * as v from 'valibot';
import { settings } from '#lib/config.ts';
import { ServiceError } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import {
  type ConversationOwner,
  type ConversationRecord,
  findOwnedConversation,
  listConversationPage,
  markConversationDeleting,
  removeConversationItem,
} from '#lib/store/conversations.ts';
import { type CursorQuery, cursorCodec, invalidCursor, type SortOrder } from '#lib/store/cursor.ts';
import {
  appendMessage,
  conversationMessagePage,
  deleteConversationMessages,
  type MessageRecord,
  type Role,
  scopeMessagePage,
} from '#lib/store/messages.ts';
import { titleOf, UNTITLED } from './title.ts';

/**
 * Who asks: the organization of the credential and the conversations' address (X-Scope-Id and,
 * for conversations of a tenant-filtered database, X-Tenant-Id; an embed session's own), and for
 * an embed session its database (ConversationOwner).
 */
export interface Caller extends ConversationOwner {
  /** Portal JWT `sub`; undefined for API keys. */
  userId?: string | undefined;
  /**
   * A visitor of the integrator's page (an embed session): its key (the session's tenant and
   * scope, hashed). Its feedback's candidates have their own quota, and its refusals name no
   * relation or column (lib/conversations/feedback.ts).
   */
  visitor?: string | undefined;
}

const conversationNotFound = () => new ServiceError('CONVERSATION_NOT_FOUND');

// ---- Views ----------------------------------------------------------------------------------

/** Spec "Conversation (list item)". */
export const conversationView = (conversation: ConversationRecord) => ({
  id: conversation.id,
  organizationId: conversation.organizationId,
  scopeId: conversation.scopeId ?? null,
  tenantId: conversation.tenant ?? null,
  title: conversation.title ?? UNTITLED,
  lastMessageAt: conversation.lastMessageAt,
  messageCount: conversation.messageCount,
  createdAt: conversation.createdAt,
});

const senderOf = (role: Role) => role.toUpperCase() as Uppercase<Role>;

/** Spec "Message (returned by GET /api/v1/chat/history)". */
export const messageView = (message: MessageRecord) => ({
  id: message.id,
  content: message.content,
  sender: senderOf(message.role),
  timestamp: message.createdAt,
  type: 'text' as const,
  metadata: message.metadataJson ? (JSON.parse(message.metadataJson) as Record<string, unknown>) : {},
});

/** Endpoint 3's user_id: a numeric portal user id as an integer; 0 for API keys (no user) and other ids. */
export const userIdNumber = (userId: string | undefined): number => {
  if (!userId || !/^\d{1,15}$/.test(userId)) return 0;
  return Number(userId);
};

// ---- Cursors --------------------------------------------------------------------------------

const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const uuidString = v.pipe(v.string(), v.regex(uuidPattern));
const ConversationPosition = v.tuple([v.pipe(v.string(), v.regex(isoTime)), uuidString]);
const MessagePosition = v.tuple([uuidString]);

/** The position a cursor holds, checked against the shape its list writes. */
const positionOf = async <S extends v.GenericSchema<unknown, string[]>>(
  schema: S,
  query: CursorQuery,
  cursor: string | undefined,
): Promise<v.InferOutput<S> | undefined> => {
  // Read (and checked) before the first page too: a stage without a cursor secret fails closed.
  const codec = await cursorCodec();
  if (cursor === undefined) return undefined;
  const parsed = v.safeParse(schema, codec.decode(query, cursor));
  if (!parsed.success) throw invalidCursor();
  return parsed.output;
};

/** The spec's cursor page: the list, `cursor` only when another page exists, and `hasMore`. */
export type CursorPage<T> = T & { cursor?: string; hasMore: boolean };

const withCursor = async <T extends object>(
  data: T,
  page: { hasMore: boolean },
  query: CursorQuery,
  position: () => string[],
): Promise<CursorPage<T>> =>
  page.hasMore
    ? { ...data, cursor: (await cursorCodec()).encode(query, position()), hasMore: true }
    : { ...data, hasMore: false };

/** The identity a caller's cursor is signed for: list, address, order and an embed session's database. */
const queryOf = (
  caller: Caller,
  list: CursorQuery['list'],
  order: SortOrder,
  conversationId?: string,
): CursorQuery => ({
  list,
  organizationId: caller.organizationId,
  scopeId: caller.scopeId,
  tenant: caller.tenant,
  ...(conversationId === undefined ? {} : { conversationId }),
  order,
  ...(caller.databaseId === undefined ? {} : { databaseId: caller.databaseId }),
});

// ---- Endpoints --------------------------------------------------------------------------------

/** Endpoint 1: the caller's scope's conversations, newest activity first. */
export const listConversations = async (
  caller: Caller,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
) => {
  const query = queryOf(caller, 'conversations', 'desc');
  const after = await positionOf(ConversationPosition, query, cursor);
  const page = await listConversationPage(caller.organizationId, caller, {
    limit,
    databaseId: caller.databaseId,
    after: after && `${after[0]}#${after[1]}`,
  });
  const last = page.items.at(-1);
  return withCursor({ conversations: page.items.map(conversationView) }, page, query, () =>
    last ? [last.lastMessageAt, last.id] : [],
  );
};

/** Endpoint 2: messages of one conversation, or of the whole scope; newest first unless order=asc. */
export const readMessages = async (
  caller: Caller,
  options: {
    conversationId?: string | undefined;
    limit: number;
    order: SortOrder;
    cursor?: string | undefined;
  },
) => {
  const { conversationId, limit, order, cursor } = options;
  if (conversationId === undefined) {
    const query = queryOf(caller, 'scope-messages', order);
    const after = await positionOf(MessagePosition, query, cursor);
    const page = await scopeMessagePage(caller.organizationId, caller, {
      limit,
      databaseId: caller.databaseId,
      order,
      afterId: after?.[0],
    });
    const last = page.items.at(-1);
    return withCursor({ messages: page.items.map(messageView) }, page, query, () => (last ? [last.id] : []));
  }

  const query = queryOf(caller, 'conversation-messages', order, conversationId);
  const after = await positionOf(MessagePosition, query, cursor);
  // An embed session reads only its database's conversations: the conversation item tells, on
  // every page (its cursors are signed for its database too).
  if (caller.databaseId !== undefined && !(await findOwnedConversation(caller, conversationId)))
    throw conversationNotFound();
  const page = await conversationMessagePage(caller.organizationId, caller, conversationId, {
    limit,
    order,
    afterId: after?.[0],
  });
  // A first page decides whether the conversation is the caller's (see conversationMessagePage);
  // a later page was reached through a cursor signed for this caller and conversation.
  if (after === undefined && page.owned !== true) {
    const exists = page.owned === undefined && (await findOwnedConversation(caller, conversationId));
    if (!exists) throw conversationNotFound();
  }
  const last = page.items.at(-1);
  return withCursor({ messages: page.items.map(messageView) }, page, query, () => (last ? [last.id] : []));
};

/**
 * Endpoint 3: the conversation, oldest first: its latest HISTORY_MAX_MESSAGES messages (settings,
 * default 1,000) and at most PAGE_BYTE_BUDGET of them, so that a long conversation never outgrows a
 * Lambda response. `truncated` says earlier messages were left out; /chat/history pages through
 * all of them.
 */
export const readConversationHistory = async (caller: Caller, conversationId: string) => {
  const conversation = await findOwnedConversation(caller, conversationId);
  if (!conversation) throw conversationNotFound();
  const latest = await conversationMessagePage(caller.organizationId, caller, conversationId, {
    limit: settings().historyMaxMessages,
    order: 'desc',
  });
  return {
    conversation_id: conversationId,
    messages: latest.items.toReversed().map((message) => ({
      role: senderOf(message.role),
      content: message.content,
      timestamp: message.createdAt,
    })),
    organization_id: conversation.organizationId,
    user_id: userIdNumber(conversation.userId),
    truncated: latest.hasMore,
  };
};

/**
 * Endpoint 4. Order of the steps, so that a delete that stops half-way (timeout, throttling) is
 * finished cleanly by repeating it:
 *  1. mark the conversation (deletingAt) and take it out of its scope's list, in one conditional
 *     update that is also the ownership check. From here on readers get 404, and appends are
 *     refused by their transaction's condition, so no message can arrive behind the delete;
 *  2. delete every message (consistent Query of keys, BatchWriteItem);
 *  3. delete the conversation item LAST. Had it gone first, a failure in step 2 would leave
 *     messages that no request could find (404) yet the scope's history would still show.
 * A repeated DELETE finds the marked item, passes step 1 again and carries on.
 */
export const deleteConversation = async (
  caller: Caller,
  conversationId: string,
  options: { remainingMs?: () => number } = {},
) => {
  if (!(await markConversationDeleting(caller, conversationId))) throw conversationNotFound();
  await deleteConversationMessages(caller.organizationId, conversationId, options);
  await removeConversationItem(caller.organizationId, conversationId);
  return { message: 'Conversation deleted' };
};

/** Endpoint 7: appends one message; a new conversation id creates the conversation in the caller's scope. */
export const appendToHistory = async (
  caller: Caller,
  input: {
    conversationId: string;
    role: Role;
    content: string;
    metadata?: Record<string, unknown> | undefined;
  },
) => {
  const message = await appendMessage({
    conversationId: input.conversationId,
    organizationId: caller.organizationId,
    scope: { scopeId: caller.scopeId, tenant: caller.tenant },
    role: input.role,
    content: input.content,
    metadata: input.metadata,
    conversation: {
      title: input.role === 'user' ? titleOf(input.content) : undefined,
      userId: caller.userId ?? '',
    },
  });
  return { message_id: message.id, conversation_id: message.conversationId, created_at: message.createdAt };
};
