// The answering flow (docs/design.md "Chat answers: one superset shape", "Tenant filtering and
// the SQL guard"). For one question in one conversation:
//   1. the user message is stored (it creates the conversation, with the database, personality,
//      tenant and title) while the engine reads the question against the catalog the row policy leaves
//      readable, with the conversation's prior turns;
//   2. a proposed query passes the SQL guard of the database's dialect (PostgreSQL grammar for
//      postgres and pglite, MySQL for mysql), which rewrites it for the tenant and scope and caps
//      it at RESULT_ROW_CAP + 1 rows; a refusal becomes a plain `refused` answer, never an error;
//   3. the printed query runs through the database's connector, read-only and within limits; when
//      the database rejects it and the engine can repair (`Engine.repair`), one repair round,
//      whose query goes through the guard again;
//   4. the rows become the answer's text (the engine's own `compose`, else composeAnswer);
//   5. the assistant message is stored with what a follow-up needs (lib/answer/turns.ts).
// A streaming caller (functions/stream.ts) passes `onPiece`: the answer's text is handed over
// piece by piece as it is produced, before the assistant message is stored: a model engine's
// tokens as the provider streams them (`Engine.compose`), the deterministic composition in its
// pieces (a sentence, then the summary of the rows), a message (clarification, conversational,
// refusal) sentence by sentence. When `signal` aborts meanwhile (the client went away), the
// pieces stop, so does the model, and the message is stored with what was handed over, marked
// `metadata.incomplete: true`. A model that fails while composing is replaced by the
// deterministic composition when nothing was handed over yet; once pieces have gone out the
// answer cannot be taken back, so it ends there: the message is stored with what was sent,
// `metadata.incomplete` and `metadata.error`, and the error goes out (an `event: error`).
// Model engines report their token usage, summed in `AnswerOutcome.tokens`.
// No data lost: the question is stored before anything runs. When answering fails after that
// (the engine, the database, a bug), an assistant message recording the failure (metadata.error)
// is stored too, so the history shows what was asked and what became of it, and the error then
// goes out as its envelope (DB_QUERY_FAILED / DB_CONNECTION_FAILED / EXTERNAL_LLM_ERROR, 500).
// The orchestrator knows nothing of HTTP: lib/answer/chat.ts loads what it needs. What it is asked
// and returns is lib/answer/request.ts; steps 2 to 4 are lib/answer/query-run.ts; a stream's
// statuses and pieces go through lib/answer/progress.ts.

import { titleOf } from '#lib/conversations/title.ts';
import { errorCatalogue, type ServiceError, toServiceError } from '#lib/errors.ts';
import { leaseReturn } from '#lib/limits/limiter.ts';
import { logger } from '#lib/log.ts';
import { recordAnswer } from '#lib/observability/metrics.ts';
import { Timings } from '#lib/observability/timing.ts';
import type { AlongsideWrite } from '#lib/store/client.ts';
import { conversationTenantKey } from '#lib/store/conversations.ts';
import { appendMessage, giveMessagesDatabase } from '#lib/store/messages.ts';
import { answerCountUpdate } from '#lib/store/usage.ts';
import { chartFor } from './chart.ts';
import type { EngineInput, Proposal, TokenUsage } from './engine.ts';
import { emitter } from './progress.ts';
import { BUILTIN, engineCall, findValuesAs, fromMessage, type Produced, runProposal } from './query-run.ts';
import { readingOf } from './reading.ts';
import { builtinEngine } from './registry.ts';
import type { AnswerDependencies, AnswerOutcome, AnswerRequest } from './request.ts';
import { type AnsweredBy, rememberSql, reusableSql, type SqlSourceInput } from './sql-cache.ts';
import { suggestionsFor } from './suggestions.ts';
import { type AssistantMetadata, priorTurns } from './turns.ts';

/** The assistant message's content when answering failed: the envelope's message, never internals. */
const failureText = (error: ServiceError): string => {
  const message = error.kind === 'INTERNAL' ? errorCatalogue.INTERNAL.message : error.message;
  const detail = error.detail && !message.includes(error.detail) ? ` (${error.detail})` : '';
  return `I could not answer this question: ${message.replace(/\.$/, '')}${detail}.`;
};

/** Answers one question and stores both messages; see the top of this file. */
export const answerQuestion = async (
  request: AnswerRequest,
  deps: AnswerDependencies = {},
): Promise<AnswerOutcome> => {
  const timings = request.timings ?? new Timings();
  const { caller, conversationId, question, database, catalog, engine, personality } = request;
  // The first status goes out before anything else is awaited (docs/model-engines.md "Progress
  // while the model works").
  const out = emitter(request.onPiece, request.signal, request.onStatus);
  await out.status('reading_question');
  const examples = await request.examples;
  let tokens: TokenUsage | undefined;
  let modelCalls = 0;
  const input: EngineInput = {
    question,
    catalog: catalog.visible,
    dialect: catalog.full.dialect,
    history: priorTurns(request.history),
    now: request.now ?? new Date(),
    ...(personality?.instructions ? { instructions: personality.instructions } : {}),
    ...(catalog.policy.tenantColumn ? { tenantColumn: catalog.policy.tenantColumn } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(examples?.length ? { examples: [...examples] } : {}),
    ...(request.glossary ? { glossary: request.glossary } : {}),
    onUsage: (usage) => {
      tokens = { input: (tokens?.input ?? 0) + usage.input, output: (tokens?.output ?? 0) + usage.output };
    },
    onModelCall: () => {
      modelCalls += 1;
    },
    ...(database.modelData ? { modelData: database.modelData } : {}),
    ...(database.redactedColumns?.length ? { redactedColumns: database.redactedColumns } : {}),
    findValues: (probe) => findValuesAs(request, probe, timings, deps),
  };
  const conversation = {
    userId: caller.userId ?? '',
    databaseId: database.id,
    personalityId: personality?.id,
    // docs/design.md "A conversation keeps its tenant": set by the first answered message, and
    // the condition of every later append (another tenant's append is CONVERSATION_NOT_FOUND).
    tenantKey: conversationTenantKey(request.tenant.tenant),
  };
  const append = (
    role: 'user' | 'assistant',
    content: string,
    metadata?: AssistantMetadata,
    alongside: AlongsideWrite[] = [],
  ) =>
    timings.measure('store', () =>
      appendMessage(
        {
          conversationId,
          organizationId: caller.organizationId,
          scope: { scopeId: caller.scopeId, tenant: caller.tenant },
          role,
          content,
          ...(metadata ? { metadata: { ...metadata } } : {}),
          conversation: role === 'user' ? { ...conversation, title: titleOf(question) } : conversation,
        },
        { alongside },
      ),
    );
  // docs/design.md "Round trips of a chat message": the answer's transaction also gives the
  // request's lease back (and, for a stored answer, counts it), so neither costs a round trip.
  const leaseBack = request.lease ? [leaseReturn(request.lease)] : [];

  // 1. The question is stored while the engine reads it; nothing runs before both are done.
  // A model engine's first question may be answered by an approved pattern or the shared SQL
  // cache instead (lib/answer/sql-cache.ts).
  const sqlSource: SqlSourceInput = {
    databaseId: database.id,
    question,
    followUp: request.history.length > 0,
    engineName: engine.name,
    model: request.model,
    indexedAt: catalog.full.indexedAt,
    examples,
    glossary: request.glossary,
    instructions: personality?.instructions,
    now: input.now,
  };
  const propose = async (): Promise<{ proposal: Proposal; answeredBy: AnsweredBy }> => {
    const reused = await reusableSql(sqlSource);
    if (reused) return reused;
    await out.status('writing_query');
    return {
      proposal: await engineCall(engine, () => engine.propose(input)),
      answeredBy: engine.name === BUILTIN ? 'builtin' : 'model',
    };
  };
  const [stored, proposed] = await Promise.allSettled([
    append('user', question),
    timings.measure('engine', propose),
  ]);
  if (stored.status === 'rejected') throw stored.reason;
  const userMessage = stored.value;
  if (request.givesDatabaseToEarlierMessages)
    await timings.measure('store', () =>
      giveMessagesDatabase(caller.organizationId, conversationId, database.id),
    );
  const common = {
    engine: engine.name,
    ...(request.model ? { model: request.model } : {}),
    reply_to: userMessage.id,
    ...(personality ? { personality_id: personality.id } : {}),
  };

  let proposal: Proposal | undefined;
  let produced: Produced;
  try {
    if (proposed.status === 'rejected') throw proposed.reason;
    proposal = proposed.value.proposal;
    // Reused SQL is composed and repaired without a model: it must cost no model call.
    const runner =
      proposed.value.answeredBy === 'pattern' || proposed.value.answeredBy === 'cache'
        ? { ...request, engine: await builtinEngine() }
        : request;
    produced =
      proposal.kind === 'sql'
        ? await runProposal(runner, proposal, input, timings, deps, out)
        : fromMessage(proposal);
    if (proposed.value.answeredBy === 'model' && !produced.repaired) await rememberSql(sqlSource, proposal);
  } catch (thrown) {
    const error = toServiceError(thrown);
    const entry = errorCatalogue[error.kind];
    // Pieces already sent stay the answer's content, as the reader saw it.
    const cut = out.handed.length > 0;
    try {
      await append(
        'assistant',
        cut ? out.handed.join('') : failureText(error),
        {
          query_type: proposal?.kind ?? 'error',
          execution_time_ms: Math.round(timings.elapsed()),
          ...(proposal?.kind === 'sql' ? { sql: proposal.sql, state: proposal.state } : {}),
          row_count: 0,
          sources: [],
          ...common,
          error: { code: entry.errorCode, ...(error.detail ? { detail: error.detail } : {}) },
          ...(cut ? { incomplete: true } : {}),
        },
        leaseBack,
      );
    } catch (storeError) {
      logger.error('the failure of an answer could not be stored', { error: storeError as Error });
    }
    throw error;
  }

  // A streaming caller gets the text piece by piece, until its reader goes away.
  let text = produced.text;
  let incomplete = false;
  if (out.streaming) {
    if (!produced.sent) for (const piece of produced.pieces) await out.emit(piece);
    const handed = out.handed.join('');
    incomplete = produced.stopped === true || handed !== produced.text;
    if (incomplete) text = handed;
  }

  // 5. The answer is stored, then returned.
  const executionMs = Math.round(timings.elapsed());
  const { query } = produced;
  // This month's answers by who answered, and the model work they cost (GET /organization/usage),
  // counted as the answer is stored.
  const work = {
    calls: modelCalls,
    inputTokens: tokens?.input ?? 0,
    outputTokens: tokens?.output ?? 0,
    repairs: produced.repaired ? 1 : 0,
  };
  const counted: AlongsideWrite = {
    update: answerCountUpdate(caller.organizationId, proposed.value.answeredBy, new Date(), work),
  };
  const assistant = await append(
    'assistant',
    text,
    {
      query_type: produced.kind,
      execution_time_ms: executionMs,
      ...(query ? { sql: query.sql } : {}),
      row_count: produced.results.length,
      ...(produced.truncated ? { results_truncated: true } : {}),
      sources: produced.fromDatabase ? ['database'] : [],
      ...common,
      ...(query?.state !== undefined && produced.kind === 'sql' ? { state: query.state } : {}),
      ...(query?.description ? { description: query.description } : {}),
      ...(produced.refusal ? { refusal: produced.refusal } : {}),
      ...(produced.repaired ? { repaired: true } : {}),
      ...(incomplete ? { incomplete: true } : {}),
      ...(modelCalls > 0 ? { model_calls: modelCalls } : {}),
      ...(tokens ? { tokens } : {}),
    },
    [counted, ...leaseBack],
  );

  const interpretation = query ? (query.interpretation ?? query.description ?? null) : null;
  // What the answer read (its measure, grouping, period): names the chart's axes and is what the
  // suggested follow-ups continue.
  const reading =
    produced.kind === 'sql'
      ? await builtinEngine()
          .then((builtin) =>
            readingOf({
              question,
              state: query?.state,
              catalog: catalog.visible,
              tenantColumn: catalog.policy.tenantColumn,
              now: input.now,
              builtin,
            }),
          )
          .catch(() => undefined)
      : undefined;
  // A clarification that offers readings ("Did you mean …") suggests exactly those questions.
  const offered = proposal?.kind === 'clarification' ? (proposal.suggestions ?? []).slice(0, 3) : [];
  const suggestions =
    offered.length > 0
      ? offered
      : await suggestionsFor({
          question,
          sql: query?.sql ?? null,
          reading,
          catalog: catalog.visible,
          tenantColumn: catalog.policy.tenantColumn,
          now: input.now,
        }).catch((error: unknown) => {
          logger.warn('no follow-up questions', { error: error as Error });
          return [];
        });
  recordAnswer({
    answer: { query_type: produced.kind, row_count: produced.results.length },
    timings,
    tokens,
  });
  return {
    answer: {
      message: text,
      conversation_id: conversationId,
      session_id: conversationId,
      sources: produced.fromDatabase ? ['database'] : [],
      query_type: produced.kind,
      execution_time_ms: executionMs,
      results: produced.results,
      row_count: produced.results.length,
      results_truncated: produced.truncated,
      sql: query?.sql ?? null,
      interpretation,
      message_id: assistant.id,
      answered_by: proposed.value.answeredBy,
      chart:
        produced.kind === 'sql'
          ? chartFor({
              title: interpretation ?? question,
              // Axes named from the reading: always the answering engine's own; the builtin's
              // reading of another engine's question only where the columns agree (chart.ts).
              ...(reading
                ? {
                    axes: {
                      measure: reading.measureTitle,
                      ...(reading.dimension ? { dimension: reading.dimension } : {}),
                      own: reading.source === 'answer',
                    },
                  }
                : {}),
              results: produced.results,
              resultsTruncated: produced.truncated,
            })
          : null,
      suggestions,
    },
    userMessageId: userMessage.id,
    assistantMessageId: assistant.id,
    timings,
    ...(tokens ? { tokens } : {}),
  };
};
