// Streaming an answer (lib/routes/stream.ts; `?message=…`): answers a question in a conversation as
// server-sent events (spec endpoint 8; docs/design.md "Streaming"), from a response-streaming Lambda.
// The chain is the chat endpoints' (authentication, scope, message limits and a concurrency lease
// held until the stream ends); everything that can be refused is refused before the first byte,
// as an ordinary JSON error envelope with its status: an unknown conversation (404; it supplies
// the database — unless `database_id` is given, which creates it as the chat endpoints do), a
// missing or empty `message` (400), the tenant.
// Then `event: status` with {step, message} as each step starts (reading_question,
// writing_query, running_query, writing_answer), until the first piece; then
// `data: {"content": …}` for each piece of the answer as it is produced (a model engine's
// tokens as they arrive, the builtin's sentence then its summary of the rows; `: ping` while
// idle), and `event: done` with {conversation_id, sources, query_type, execution_time_ms,
// row_count} and the rows (results, results_truncated); a failure after that point (the database, a model that breaks off mid-answer) is
// `event: error` with the envelope, and the stream ends. A client that goes away stops the
// answer, which is stored as far as it went with `metadata.incomplete: true`.
import type { Readable } from 'node:stream';
import { prepareChatAnswer } from '#lib/answer/chat.ts';
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import { errorEnvelope, toServiceError } from '#lib/errors.ts';
import { api } from '#lib/http/api.ts';
import type { ApiResult } from '#lib/http/types.ts';
import { logger } from '#lib/log.ts';
import * as routes from '#lib/routes/stream.ts';
import {
  PING_INTERVAL_MS,
  SSE_HEADERS,
  sseData,
  sseDone,
  sseError,
  sseEvent,
  sseStream,
} from '#lib/stream/sse.ts';

/**
 * Test seams: a pause after each piece (a slow stream of the builtin engine's instant answer), a
 * hold after each piece until a test has seen it on screen (however busy the machine), and how
 * long the stream may stay idle before a `: ping` (15 s as deployed).
 */
export const pacing: { pieceDelayMs: number; pingIntervalMs: number; hold?: Promise<void> | undefined } = {
  pieceDelayMs: 0,
  pingIntervalMs: PING_INTERVAL_MS,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const handler = api(routes.streamAnswer).handler(async (_event, context) => {
  const { path, query } = context.input;
  const request = await prepareChatAnswer({
    principal: context.principal,
    scopeId: context.scopeId,
    tenantHeader: context.headers['x-tenant-id'],
    conversationId: path.conversation_id,
    // The path names the conversation: never one under another id.
    newConversationId: () => path.conversation_id,
    question: query.message,
    databaseId: query.database_id,
    personalityId: query.personality_id,
    remainingMs: () => context.getRemainingTimeInMillis(),
    lease: context.rateLimit?.lease,
    fields: 'query',
  });
  const body = sseStream(
    async ({ send, signal }) => {
      const outcome = await answerQuestion({
        ...request,
        signal,
        // Progress before the first piece: `event: status` {step, message} per step.
        onStatus: (status) => send(sseEvent('status', status)),
        onPiece: async (piece) => {
          await send(sseData({ content: piece }));
          if (pacing.hold) await pacing.hold;
          if (pacing.pieceDelayMs > 0) await sleep(pacing.pieceDelayMs);
        },
      });
      const { answer } = outcome;
      return sseDone({
        conversation_id: answer.conversation_id,
        sources: answer.sources,
        query_type: answer.query_type,
        execution_time_ms: answer.execution_time_ms,
        row_count: answer.row_count,
        // Beyond the five fields of docs/design.md "Streaming": the rows, for a client's table.
        results: answer.results,
        results_truncated: answer.results_truncated,
        // What the engine understood, shown under the answer (docs/api.md "interpretation").
        interpretation: answer.interpretation,
        // The stored answer (for feedback), who answered, its chart and follow-up questions.
        message_id: answer.message_id,
        answered_by: answer.answered_by,
        chart: answer.chart,
        suggestions: answer.suggestions,
      });
    },
    (thrown) => {
      const error = toServiceError(thrown);
      const envelope = errorEnvelope(error, context.traceId);
      context.streamFailure = { status: envelope.status_code, code: envelope.error.code };
      // The headers are out: the error goes down the stream, as the envelope a response would carry.
      if (error.status >= 500)
        logger.error('stream failed', {
          code: error.kind,
          error: (error.cause as Error | undefined) ?? error,
        });
      else logger.info('stream ended with an error', { code: error.kind, reason: error.message });
      return sseError(envelope);
    },
    pacing.pingIntervalMs,
  );
  const response: Omit<ApiResult, 'body'> & { body: Readable } = {
    statusCode: 200,
    headers: { ...SSE_HEADERS },
    body,
  };
  // The chain's result type has a string body; a streaming function's may be a Readable (middy's
  // executionModeStreamifyResponse pipes it to the response stream).
  return response as unknown as ApiResult;
});
