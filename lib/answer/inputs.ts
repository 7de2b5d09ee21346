// Inputs of the two chat endpoints (spec endpoints 5 and 6): the valibot schemas the function
// files validate with, the conversation id a chat-variant body names, and which limits a request
// to the shared POST /chat/message route counts toward.
import * as v from 'valibot';
import { invalidField } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import type { LimitClass } from '#lib/limits/limiter.ts';

export const MAX_QUESTION_LENGTH = 4_000;
/** "4,000", written out: toLocaleString here would load ICU's locale data at every cold start. */
const MAX_QUESTION_LENGTH_TEXT = String(MAX_QUESTION_LENGTH).replace(/\B(?=(\d{3})+$)/g, ',');

/** A UUID read in lower case; null is taken as absent (clients often send every field). */
const optionalUuid = (name: string) =>
  v.pipe(
    v.nullish(
      v.pipe(
        v.string(`${name} must be a UUID`),
        v.regex(uuidPattern, `${name} must be a UUID`),
        v.toLowerCase(),
      ),
    ),
    v.transform((value) => value ?? undefined),
  );

const question = v.pipe(
  v.string('message must be a string'),
  v.check((text) => text.trim().length > 0, 'message must not be empty'),
  v.check(
    (text) => [...text].length <= MAX_QUESTION_LENGTH,
    `message must be at most ${MAX_QUESTION_LENGTH_TEXT} characters`,
  ),
  v.transform((text) => text.trim()),
);

/** Spec endpoint 5: POST /api/v1/chat/{conversation_id}/message. */
export const ConversationMessageInput = v.object({
  path: v.object({
    conversation_id: v.pipe(
      v.string('conversation_id must be a UUID'),
      v.regex(uuidPattern, 'conversation_id must be a UUID'),
      v.toLowerCase(),
    ),
  }),
  body: v.object({
    message: question,
    database_id: optionalUuid('database_id'),
    personality_id: optionalUuid('personality_id'),
  }),
});

/**
 * Spec endpoint 8: GET /api/v1/chat/{conversation_id}/stream?message=… (the query, URL-decoded).
 * `database_id` (and `personality_id`) follow the chat endpoints' rule for an id that does not
 * exist yet: with them it is created by this message, without them it is a 404 (docs/design.md
 * "Unknown ids"). That lets a client stream its first answer too.
 */
export const StreamMessageInput = v.object({
  path: ConversationMessageInput.entries.path,
  query: v.object({
    message: question,
    database_id: optionalUuid('database_id'),
    personality_id: optionalUuid('personality_id'),
  }),
});

/** Spec endpoint 6, the chat variant of POST /api/v1/chat/message. */
export const ChatMessageInput = v.object({
  body: v.object({
    message: question,
    database_id: optionalUuid('database_id'),
    personality_id: optionalUuid('personality_id'),
    session_id: optionalUuid('session_id'),
    conversation_id: optionalUuid('conversation_id'),
  }),
});
export type ChatMessageInput = v.InferOutput<typeof ChatMessageInput>;

/**
 * The conversation a chat-variant body names: `conversation_id`, or `session_id` (a session is a
 * conversation); both and different is a 400; neither → undefined (a new conversation).
 */
export const conversationIdOf = (body: ChatMessageInput['body']): string | undefined => {
  const { conversation_id: conversationId, session_id: sessionId } = body;
  if (conversationId !== undefined && sessionId !== undefined && conversationId !== sessionId) {
    throw invalidField(
      'body.session_id',
      'session_id and conversation_id name the same thing (a session is a conversation): send one, or the same id in both',
      'CONFLICTING_IDS',
    );
  }
  return conversationId ?? sessionId;
};

/**
 * Which limits a request to POST /chat/message counts toward, read cheaply from the raw body
 * before the chain parses it: a body with `message` and no `role` is the chat variant (message
 * limits and a concurrency lease); anything else is standard (an append, or a 400 to come).
 */
export const chatMessageLimits = (event: { body: string | null; isBase64Encoded: boolean }): LimitClass => {
  if (!event.body) return 'standard';
  try {
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && 'message' in body && !('role' in body)
      ? 'answering'
      : 'standard';
  } catch {
    return 'standard';
  }
};
