// Feedback on an answer (docs/design.md "Answers people can check and improve"):
// POST /api/v1/chat/{conversation_id}/messages/{message_id}/feedback `{rating, comment?,
// corrected_sql?}`, with the credentials that read the conversation. One rating per answer (a
// second replaces it), kept on the answer's message. An up-voted answer's SQL, or a corrected
// SQL, becomes a *candidate* query pattern of the conversation's database for its question, which
// an admin approves through the control plane; nothing a visitor sends changes answers by itself.
// A corrected SQL must pass the database's SQL guard (400 on body.corrected_sql otherwise).
import * as v from 'valibot';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { findOwnedConversation } from '#lib/store/conversations.ts';
import { findDatabase } from '#lib/store/databases.ts';
import { findMessage, type MessageRecord, setMessageFeedback } from '#lib/store/messages.ts';
import {
  addPattern,
  countsAgainstLimit,
  listPatterns,
  MAX_CANDIDATES_PER_VISITOR,
  MAX_PATTERNS,
  MAX_VISITOR_CANDIDATES,
  normalisedQuestion,
  type QueryPattern,
} from '#lib/store/patterns.ts';
import type { Caller } from './history.ts';
import type { FeedbackBody } from './inputs.ts';

const AnswerMetadata = v.object({
  query_type: v.optional(v.string()),
  sql: v.optional(v.string()),
  reply_to: v.optional(v.string()),
});

const metadataOf = (message: MessageRecord): v.InferOutput<typeof AnswerMetadata> => {
  try {
    const parsed = v.safeParse(AnswerMetadata, JSON.parse(message.metadataJson ?? '{}'));
    return parsed.success ? parsed.output : {};
  } catch {
    return {};
  }
};

const messageNotFound = () => new ServiceError('NOT_FOUND', { message: 'Message not found' });

/**
 * Whether a candidate from this caller still fits. The organization's own (sk_ keys, portal
 * users) share MAX_PATTERNS with its approved patterns; a visitor's candidates never count there
 * (countsAgainstLimit): at most MAX_CANDIDATES_PER_VISITOR waiting per visitor and
 * MAX_VISITOR_CANDIDATES per database, so a page's visitors can fill neither the organization's
 * list nor the database's.
 */
const roomFor = (caller: Caller, patterns: readonly QueryPattern[]): boolean => {
  if (caller.visitor === undefined) return patterns.filter(countsAgainstLimit).length < MAX_PATTERNS;
  const waiting = patterns.filter(
    (pattern) => pattern.visitor !== undefined && pattern.status === 'candidate',
  );
  return (
    waiting.length < MAX_VISITOR_CANDIDATES &&
    waiting.filter((pattern) => pattern.visitor === caller.visitor).length < MAX_CANDIDATES_PER_VISITOR
  );
};

/** A candidate pattern for the question, unless the database has one for it (or there is no room). */
const proposeCandidate = async (
  caller: Caller,
  databaseId: string,
  question: string,
  sql: string,
  corrected: boolean,
): Promise<string | undefined> => {
  const database = await findDatabase(caller.organizationId, databaseId);
  if (!database) return undefined;
  try {
    // Loaded on demand: the SQL guard's parsers stay out of the function's start-up.
    const { checkPatternSql } = await import('#lib/sql/saved-sql.ts');
    await checkPatternSql(database, sql);
  } catch (error) {
    // A corrected SQL the guard refuses is the caller's error; an up-voted answer whose SQL no
    // longer passes (the schema changed) simply proposes nothing.
    if (!corrected || !(error instanceof ServiceError) || error.kind !== 'VALIDATION') return undefined;
    const code = error.detail ?? 'GUARD_REFUSED';
    // A visitor learns the refusal's code, never the names of relations or columns it met.
    const message =
      caller.visitor === undefined
        ? error.message
        : `The corrected SQL was refused by the SQL guard (${code})`;
    throw invalidField('body.corrected_sql', message, code);
  }
  const patterns = await listPatterns(database.id);
  const asked = normalisedQuestion(question);
  if (!roomFor(caller, patterns) || patterns.some((p) => normalisedQuestion(p.question) === asked))
    return undefined;
  const pattern = await addPattern(database.id, {
    question,
    sql,
    notes: corrected ? 'Corrected SQL from an answer’s feedback' : 'An up-voted answer',
    status: 'candidate',
    visitor: caller.visitor,
  });
  return pattern.id;
};

/** Rates one answer of the caller's conversation; 404 when either is not the caller's. */
export const rateAnswer = async (
  caller: Caller,
  conversationId: string,
  messageId: string,
  body: FeedbackBody,
  now = new Date(),
) => {
  const conversation = await findOwnedConversation(caller, conversationId);
  if (!conversation) throw new ServiceError('CONVERSATION_NOT_FOUND');
  const message = await findMessage(caller.organizationId, conversationId, messageId);
  if (!message) throw messageNotFound();
  if (message.role !== 'assistant')
    throw invalidField('message_id', 'only answers can be rated', 'NOT_AN_ANSWER');
  const metadata = metadataOf(message);
  // Candidates are checked before anything is stored: a refused corrected SQL stores nothing.
  const sql =
    body.corrected_sql ?? (body.rating === 'up' && metadata.query_type === 'sql' ? metadata.sql : undefined);
  const question = metadata.reply_to
    ? (await findMessage(caller.organizationId, conversationId, metadata.reply_to))?.content
    : undefined;
  const candidate =
    sql && question && conversation.databaseId
      ? await proposeCandidate(
          caller,
          conversation.databaseId,
          question,
          sql,
          body.corrected_sql !== undefined,
        )
      : undefined;
  const at = now.toISOString();
  const stored = await setMessageFeedback(caller.organizationId, conversationId, messageId, {
    rating: body.rating,
    comment: body.comment,
    correctedSql: body.corrected_sql,
    at,
  });
  if (!stored) throw messageNotFound();
  return {
    message_id: messageId,
    rating: body.rating,
    comment: body.comment ?? null,
    created_at: at,
    candidate_pattern_id: candidate ?? null,
  };
};
