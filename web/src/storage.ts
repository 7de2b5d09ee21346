// What survives a page reload: the conversation id and the messages shown, per database and
// scope, in localStorage. History endpoints need an organization key, so a `pk_` widget keeps
// its own transcript; the conversation itself (and its context for follow-ups) lives on the
// server under the id.

import type { Row } from './api.ts';
import type { ChartSpec } from './chart-spec.ts';

export interface StoredMessage {
  role: 'user' | 'assistant' | 'error';
  text: string;
  queryType?: string;
  results?: Row[];
  rowCount?: number;
  truncated?: boolean;
  interpretation?: string;
  /** The answer's chart spec, its stored id (for feedback) and its follow-up questions. */
  chart?: ChartSpec;
  messageId?: string;
  suggestions?: string[];
  /** The rating given, once given. */
  rating?: 'up' | 'down';
}

export interface StoredConversation {
  conversationId: string;
  messages: StoredMessage[];
}

/** Messages kept; older ones are dropped first. */
const MAX_MESSAGES = 40;

/** One conversation per database, tenant and scope: a shared browser never shows one tenant another's rows. */
export const storageKey = (
  databaseId: string,
  tenantId: string | undefined,
  scopeId: string | undefined,
): string => `tabletalk:conversation:${databaseId}:${tenantId ?? ''}:${scopeId ?? ''}`;

const storage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined; // blocked (sandboxed frames, privacy settings): the widget works without it
  }
};

export const loadConversation = (key: string): StoredConversation | undefined => {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<StoredConversation>;
    if (typeof parsed.conversationId !== 'string' || !Array.isArray(parsed.messages)) return undefined;
    return { conversationId: parsed.conversationId, messages: parsed.messages };
  } catch {
    return undefined;
  }
};

export const saveConversation = (key: string, conversation: StoredConversation): void => {
  const store = storage();
  if (!store) return;
  const messages = conversation.messages.slice(-MAX_MESSAGES);
  try {
    store.setItem(key, JSON.stringify({ ...conversation, messages }));
  } catch {
    // Over the quota: keep the conversation and its text, without the tables.
    const slim = messages.map(({ results: _results, ...rest }) => rest);
    try {
      store.setItem(key, JSON.stringify({ ...conversation, messages: slim }));
    } catch {
      // Nothing more to drop; the conversation is not kept across reloads.
    }
  }
};

export const forgetConversation = (key: string): void => {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing stored
  }
};
