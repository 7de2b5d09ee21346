// Inputs and access of the history endpoints (spec endpoints 1, 2, 3, 4 and 7): the valibot
// schemas the function files validate with, and the access rule they share.
import * as v from 'valibot';
import type { AccessRule } from '#lib/auth/principal.ts';
import { invalidField } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import { integerParam } from '#lib/params.ts';
import { Role } from '#lib/store/messages.ts';

/**
 * History endpoints, append included (docs/design.md "Smaller decisions"): an sk_ key whose plan has
 * custom_api_access, or a portal JWT; a pk_ key gets 403. X-Scope-Id is required as well.
 */
export const historyAccess = {
  credentials: ['sk', 'jwt'],
  feature: 'custom_api_access',
} as const satisfies AccessRule;

/**
 * Reading and deleting a scope's conversations (spec endpoints 1–4): the history rule, and an
 * embed session too, which names one scope (docs/design.md "Embed sessions"; the scope
 * middleware makes its scope the request's, and refuses a token without one as a missing
 * X-Scope-Id). Appending (endpoint 7) stays with `historyAccess`.
 */
export const scopeHistoryAccess = {
  credentials: ['sk', 'jwt', 'et'],
  feature: 'custom_api_access',
} as const satisfies AccessRule;

/**
 * Deleting a conversation (spec endpoint 4): the reading rule, but of portal users only `owner` and
 * `admin` may delete; a `member` reads history and gets 403 here (docs/design.md "The control plane").
 */
export const deleteConversationAccess = {
  ...scopeHistoryAccess,
  roles: ['owner', 'admin'],
} as const satisfies AccessRule;

/** A UUID in any case, read in lower case so one conversation has one key. */
export const uuid = (name: string) =>
  v.pipe(v.string(`${name} must be a UUID`), v.regex(uuidPattern, `${name} must be a UUID`), v.toLowerCase());

export const cursorParam = v.optional(
  v.pipe(
    v.string(),
    // An empty cursor is the first page, as if none was sent.
    v.transform((cursor) => (cursor === '' ? undefined : cursor)),
  ),
);

export const orderParam = v.optional(v.picklist(['asc', 'desc'], 'order must be asc or desc'), 'desc');

export const ListConversationsInput = v.object({
  query: v.object({
    limit: integerParam('limit', { min: 1, max: 100, fallback: 20 }),
    cursor: cursorParam,
  }),
});

export const HistoryInput = v.object({
  query: v.object({
    conversation_id: v.optional(uuid('conversation_id')),
    limit: integerParam('limit', { min: 1, max: 200, fallback: 50 }),
    order: orderParam,
    cursor: cursorParam,
  }),
});

export const ConversationPathInput = v.object({
  path: v.object({ conversation_id: uuid('conversation_id') }),
});

export const MAX_CONTENT_LENGTH = 100_000;
export const MAX_METADATA_BYTES = 16 * 1024;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Spec endpoint 7: the history-append variant of POST /chat/message. */
export const AppendInput = v.object({
  body: v.object({
    conversation_id: uuid('conversation_id'),
    role: v.picklist(Role.options, 'role must be one of user, assistant, system, tool'),
    content: v.pipe(
      v.string('content must be a string'),
      v.minLength(1, 'content must have at least 1 character'),
      v.maxLength(MAX_CONTENT_LENGTH, `content must be at most ${MAX_CONTENT_LENGTH} characters`),
    ),
    metadata: v.optional(
      v.pipe(
        // null is taken as "no metadata"; arrays, strings and numbers are refused.
        v.nullable(v.custom<Record<string, unknown>>(isPlainObject, 'metadata must be a JSON object')),
        v.check(
          (metadata) =>
            metadata === null || Buffer.byteLength(JSON.stringify(metadata)) <= MAX_METADATA_BYTES,
          `metadata must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
        ),
        v.transform((metadata) => metadata ?? undefined),
      ),
    ),
  }),
});
export type AppendInput = v.InferOutput<typeof AppendInput>;

const APPEND_FIELDS = 'conversation_id, role, content, metadata';
const CHAT_FIELDS = 'message, database_id, personality_id, session_id, conversation_id';

/**
 * Which variant of POST /chat/message a body is (docs/design.md "The two POST variants"): `role`
 * makes it an append, `message` a chat message; both or neither is a 400 that says which
 * fields each variant takes.
 */
export const messageVariantOf = (body: unknown): 'append' | 'chat' => {
  if (!isPlainObject(body)) {
    throw invalidField(
      'body',
      `The body must be a JSON object: {${APPEND_FIELDS}} to append to history, or {${CHAT_FIELDS}} to chat`,
      body === undefined ? 'REQUIRED' : 'INVALID_TYPE',
    );
  }
  const hasRole = 'role' in body;
  const hasMessage = 'message' in body;
  if (hasRole === hasMessage) {
    throw invalidField(
      'body',
      `${hasRole ? 'The body has both role and message' : 'The body has neither role nor message'}: ` +
        `send role to append to history (fields ${APPEND_FIELDS}) or message to chat (fields ${CHAT_FIELDS}), not both`,
      hasRole ? 'AMBIGUOUS_VARIANT' : 'MISSING_VARIANT',
    );
  }
  return hasRole ? 'append' : 'chat';
};

// ---- Feedback on an answer (lib/conversations/feedback.ts) ------------------------------------

export const MAX_COMMENT_LENGTH = 2_000;
/** As long as the guard accepts (lib/store/patterns.ts MAX_CORRECTED_SQL_LENGTH, the same bound). */
const MAX_CORRECTED_SQL_LENGTH = 20_000;

export const FeedbackBody = v.strictObject({
  rating: v.picklist(['up', 'down'], 'rating must be up or down'),
  comment: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(MAX_COMMENT_LENGTH, `comment must be at most ${MAX_COMMENT_LENGTH} characters`),
    ),
  ),
  corrected_sql: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'corrected_sql must not be empty'),
      v.maxLength(
        MAX_CORRECTED_SQL_LENGTH,
        `corrected_sql must be at most ${MAX_CORRECTED_SQL_LENGTH} characters`,
      ),
    ),
  ),
});
export type FeedbackBody = v.InferOutput<typeof FeedbackBody>;

export const FeedbackInput = v.object({
  path: v.object({ conversation_id: uuid('conversation_id'), message_id: uuid('message_id') }),
  body: FeedbackBody,
});
