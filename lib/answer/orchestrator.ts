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
// The orchestrator knows nothing of HTTP: lib/answer/chat.ts loads what it needs.

import type { TenantValues } from '#lib/auth/tenant.ts';
import { connectorFor, defaultLimits } from '#lib/connectors/index.ts';
import type { Connector, ExecuteLimits } from '#lib/connectors/types.ts';
import type { Caller } from '#lib/conversations/history.ts';
import { titleOf } from '#lib/conversations/title.ts';
import type { DialectName } from '#lib/core/catalog.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { errorCatalogue, ServiceError, toServiceError } from '#lib/errors.ts';
import { type Lease, leaseReturn } from '#lib/limits/limiter.ts';
import { logger } from '#lib/log.ts';
import { recordAnswer } from '#lib/observability/metrics.ts';
import { Timings } from '#lib/observability/timing.ts';
import type { Guard } from '#lib/sql/types.ts';
import type { AlongsideWrite } from '#lib/store/client.ts';
import { conversationTenantKey } from '#lib/store/conversations.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { appendMessage, giveMessagesDatabase, type MessageRecord } from '#lib/store/messages.ts';
import type { Personality } from '#lib/store/personalities.ts';
import { answerCountUpdate } from '#lib/store/usage.ts';
import type { AnswerCatalog } from './catalog.ts';
import { chartFor } from './chart.ts';
import type { ChatAnswer } from './chat-answer.ts';
import { composeAnswer, sentencePieces } from './compose.ts';
import { rowsMayReachModel } from './egress.ts';
import type {
  ComposedAnswer,
  Engine,
  EngineInput,
  FoundValue,
  PieceSink,
  Proposal,
  ProposalKind,
  ResultRows,
  SqlProposal,
  TokenUsage,
  ValueProbe,
} from './engine.ts';
import { readingOf } from './reading.ts';
import { builtinEngine } from './registry.ts';
import { type AnsweredBy, rememberSql, reusableSql, type SqlSourceInput } from './sql-cache.ts';
import { suggestionsFor } from './suggestions.ts';
import { type AssistantMetadata, priorTurns } from './turns.ts';
import { lookUpValues } from './values.ts';

/** Rows an answer carries at most in `results`; the guard asks the database for one more. */
export const RESULT_ROW_CAP = 100;

export const GUARD_REFUSED_MESSAGE =
  'I can’t answer that safely: the query it needs would read data outside what this service may query. ' +
  'Try asking about the data in another way.';

/** The steps a streamed answer reports before its first piece (docs/model-engines.md "Progress"). */
export type AnswerStep = 'reading_question' | 'writing_query' | 'running_query' | 'writing_answer';

export const STEP_MESSAGES: Record<AnswerStep, string> = {
  reading_question: 'Reading the question…',
  writing_query: 'Writing the query…',
  running_query: 'Running the query…',
  writing_answer: 'Writing the answer…',
};

export interface AnswerStatus {
  step: AnswerStep;
  message: string;
}

/** A query pattern as the engines see it. */
type PatternExample = { question: string; sql: string };

export interface AnswerRequest {
  caller: Caller;
  conversationId: string;
  question: string;
  database: DatabaseRecord;
  catalog: AnswerCatalog;
  /** The validated X-Tenant-Id and scope values (lib/auth/tenant.ts resolveTenant, in ./chat.ts). */
  tenant: TenantValues;
  /** The conversation's latest messages, oldest first (lib/answer/turns.ts HISTORY_MESSAGES). */
  history: readonly MessageRecord[];
  /**
   * The conversation has messages and no database yet (history appended before its first chat
   * message): once the question's append has given it one, its earlier messages get it too, so
   * that an embed session's timeline of that database shows them (lib/store/messages.ts).
   */
  givesDatabaseToEarlierMessages?: boolean | undefined;
  personality?: Personality | undefined;
  engine: Engine;
  /** The model the engine was created with, recorded with the answer. */
  model?: string | undefined;
  /**
   * Query patterns of the database (lib/store/patterns.ts), for engines that show examples; may
   * still be loading (read once the first status is out, so a stream's progress never waits on it).
   */
  examples?: readonly PatternExample[] | Promise<readonly PatternExample[]> | undefined;
  /** The database's glossary (lib/answer/glossary.ts), for every engine. */
  glossary?: Glossary | undefined;
  timings?: Timings;
  /** The reference clock for relative periods; now when absent. */
  now?: Date;
  signal?: AbortSignal;
  /**
   * When the function must have answered (epoch ms; its remaining time, from the handler): the
   * query's statement timeout and a model's composition are cut to what is left, less the time
   * kept for storing the answer, so that an answer is stored rather than lost to the function's
   * timeout; with too little left the deterministic composition answers.
   */
  deadline?: number;
  /**
   * Streaming: told each step (reading the question, writing the query, running it, writing the
   * answer) as it starts, until the first piece of the answer goes out; never after it.
   */
  onStatus?: (status: AnswerStatus) => void | Promise<void>;
  /**
   * Streaming: receives the answer's text piece by piece as it is produced (their concatenation
   * is the stored message); awaited, so that a caller can pace the pieces to its reader.
   */
  onPiece?: PieceSink;
  /**
   * The request's concurrency lease (lib/limits/limiter.ts): given back in the transaction that
   * stores the answer, with the answer's count (docs/design.md "Round trips of a chat message").
   */
  lease?: Lease | undefined;
}

/** What the flow runs on, replaceable in tests. */
export interface AnswerDependencies {
  guardFor?: (dialect: DialectName) => Promise<Guard>;
  connectorFor?: (database: DatabaseRecord) => Promise<Connector>;
  limits?: ExecuteLimits;
}

export interface AnswerOutcome {
  answer: ChatAnswer;
  userMessageId: string;
  assistantMessageId: string;
  timings: Timings;
  /**
   * Model tokens this answer cost, summed over the engine's calls (proposal, retry, repair,
   * composition) from the provider's usage fields; absent when no call reported any (the
   * builtin engine, a provider that sends no usage).
   */
  tokens?: TokenUsage;
}

/** What one proposal became, before it is stored and returned. */
interface Produced {
  kind: ProposalKind;
  text: string;
  /** `text` in the pieces a stream sends: `text === pieces.join('')`. */
  pieces: string[];
  /** The pieces went out while they were produced (composition); otherwise they go out after. */
  sent?: boolean;
  /** The reader went away while the engine was writing: `text` is as far as it went. */
  stopped?: boolean;
  /** The query that ran (or was refused): the engine's, or its repair. */
  query?: SqlProposal;
  results: Record<string, unknown>[];
  truncated: boolean;
  fromDatabase: boolean;
  refusal?: string;
  repaired?: boolean;
}

const BUILTIN = 'builtin';

/** A model engine's unexpected failure is the provider's (EXTERNAL_LLM_ERROR); the builtin's is ours. */
const engineError = (engine: Engine, error: unknown): unknown =>
  error instanceof ServiceError || engine.name === BUILTIN
    ? error
    : new ServiceError('LLM_FAILED', {
        detail: 'PROVIDER_ERROR',
        issues: [{ field: 'provider', message: engine.name, code: 'PROVIDER_ERROR' }],
        cause: error,
      });

const engineCall = async <T>(engine: Engine, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw engineError(engine, error);
  }
};

/**
 * Hands pieces to a streaming caller as they are produced, until `signal` aborts; `handed` is
 * what the caller received. Without `onPiece` it hands nothing over.
 */
interface Emitter {
  emit: (piece: string) => Promise<void>;
  /** A step's status, only before the first piece. */
  status: (step: AnswerStep) => Promise<void>;
  readonly handed: string[];
  readonly streaming: boolean;
}

const emitter = (
  onPiece: PieceSink | undefined,
  signal: AbortSignal | undefined,
  onStatus?: AnswerRequest['onStatus'],
): Emitter => {
  const handed: string[] = [];
  let last: AnswerStep | undefined;
  return {
    handed,
    streaming: onPiece !== undefined,
    status: async (step) => {
      if (!onStatus || handed.length > 0 || step === last || signal?.aborted) return;
      last = step;
      await onStatus({ step, message: STEP_MESSAGES[step] });
      // One turn of the event loop lets the frame out to the client before the step's work,
      // which may hold the loop for a while (a model engine builds its prompt synchronously).
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    emit: async (piece) => {
      if (!onPiece || piece === '' || signal?.aborted) return;
      await onPiece(piece);
      handed.push(piece);
    },
  };
};

const messageOf = (proposal: Exclude<Proposal, SqlProposal>): string =>
  proposal.message.trim() ||
  (proposal.kind === 'refused'
    ? 'I can’t help with that request.'
    : 'Could you rephrase the question? I am not sure what you are asking for.');

const fromMessage = (proposal: Exclude<Proposal, SqlProposal>): Produced => ({
  kind: proposal.kind,
  text: messageOf(proposal),
  pieces: sentencePieces(messageOf(proposal)),
  results: [],
  truncated: false,
  fromDatabase: false,
  ...(proposal.kind === 'refused' && proposal.reason ? { refusal: proposal.reason } : {}),
});

/** Kept at the end of an answer for storing it and sending the response. */
const STORE_MARGIN_MS = 2_000;
/** A model's composition is only started with at least this long left (see AnswerRequest.deadline). */
const MIN_MODEL_COMPOSE_MS = 3_000;

/** Milliseconds left for work before the answer must be stored; undefined without a deadline. */
const workTimeLeft = (deadline: number | undefined): number | undefined =>
  deadline === undefined ? undefined : deadline - Date.now() - STORE_MARGIN_MS;

/**
 * Step 4, its pieces handed over as they are written: the engine's own composition (a model's
 * streamed tokens), else or on its failure the deterministic one. See the top of this file for
 * a failure once pieces have gone out.
 */
const composeRows = async (
  engine: Engine,
  proposal: SqlProposal,
  rows: ResultRows,
  input: EngineInput,
  out: Emitter,
  deadline: number | undefined,
): Promise<ComposedAnswer & { stopped?: boolean }> => {
  await out.status('writing_answer');
  const sendAll = async (composed: ComposedAnswer): Promise<ComposedAnswer> => {
    for (const piece of composed.pieces) await out.emit(piece);
    return composed;
  };
  const left = workTimeLeft(deadline);
  if (engine.compose && left !== undefined && left < MIN_MODEL_COMPOSE_MS) {
    logger.warn('too little time left for the engine to compose; answering with the generic composition', {
      engine: engine.name,
      leftMs: Math.round(left),
    });
  } else if (engine.compose) {
    const written: string[] = [];
    // The composition stops at the deadline as it would when the reader went away.
    const inTime =
      left === undefined
        ? input
        : {
            ...input,
            signal: input.signal
              ? AbortSignal.any([input.signal, AbortSignal.timeout(left)])
              : AbortSignal.timeout(left),
          };
    try {
      const composed = await engine.compose(proposal, rows, inTime, async (piece) => {
        if (piece === '') return;
        written.push(piece);
        await out.emit(piece);
      });
      if (written.length > 0) return { text: written.join(''), pieces: written };
      if (composed.text.trim()) {
        return sendAll(
          composed.pieces.join('') === composed.text
            ? composed
            : { text: composed.text, pieces: [composed.text] },
        );
      }
    } catch (error) {
      // The reader went away and the model stopped with it: the answer is what was written.
      if (input.signal?.aborted) return { text: written.join(''), pieces: written, stopped: true };
      // Pieces the reader already has cannot be replaced: the answer ends with the error.
      if (out.handed.length > 0) throw engineError(engine, error);
      // The rows are there: a model that cannot summarise them should not cost the answer.
      logger.warn('engine compose failed; answering with the generic composition', {
        engine: engine.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return sendAll(composeAnswer(proposal, rows));
};

/**
 * The engine that writes the answer from the rows: without its own `compose` when the rows may
 * not reach a model (lib/answer/egress.ts decides, from the SQL the guard printed).
 */
const composerFor = async (request: AnswerRequest, guardedSql: string): Promise<Engine> => {
  const { engine, database, catalog } = request;
  if (!engine.compose) return engine;
  const allowed = await rowsMayReachModel({
    sql: guardedSql,
    dialect: catalog.full.dialect,
    catalog: catalog.full,
    ...(database.modelData ? { modelData: database.modelData } : {}),
    ...(database.redactedColumns?.length ? { redactedColumns: database.redactedColumns } : {}),
  });
  return allowed ? engine : { name: engine.name, propose: engine.propose.bind(engine) };
};

/** The rows a model may read: without the database's redacted columns (by column name). */
const rowsForModel = (request: AnswerRequest, rows: ResultRows): ResultRows => {
  const redacted = new Set(
    (request.database.redactedColumns ?? []).map((name) => name.split('.').pop()?.toLowerCase() ?? ''),
  );
  if (redacted.size === 0) return rows;
  const columns = rows.columns.filter((column) => !redacted.has(column.toLowerCase()));
  return {
    columns,
    rows: rows.rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]]))),
    truncated: rows.truncated,
  };
};

/** A database error an engine may be able to fix by rewriting its query (not a time or cost limit). */
const repairable = (error: unknown): error is ServiceError =>
  error instanceof ServiceError &&
  error.kind === 'DB_QUERY_FAILED' &&
  error.detail !== 'QUERY_TIMEOUT' &&
  error.detail !== 'QUERY_TOO_EXPENSIVE';

/**
 * Guard refusals a model can fix by rewriting its query (docs/model-engines.md "Repair"): a
 * relation or column it misspelt or invented, SQL that does not parse. The guard's message
 * names only what the query itself wrote, never data.
 */
const FIXABLE_REFUSALS: ReadonlySet<string> = new Set(['UNKNOWN_RELATION', 'PARSE_ERROR']);
const MAX_REFUSAL_TEXT = 300;

type Ran =
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'rows'; sql: string; result: Awaited<ReturnType<Connector['execute']>> };

/** The connector's limits, the statement timeout cut to the time left before the deadline (at least 1 s). */
const limitsInTime = (deadline: number | undefined) => {
  const limits = defaultLimits();
  const left = workTimeLeft(deadline);
  return left === undefined
    ? limits
    : { ...limits, timeoutMs: Math.max(1_000, Math.min(limits.timeoutMs, left)) };
};

/** Guard, then run: what one proposed query comes to. */
const guardAndRun = async (
  request: AnswerRequest,
  proposal: SqlProposal,
  timings: Timings,
  deps: AnswerDependencies,
): Promise<Ran> => {
  const { catalog, tenant } = request;
  const guard = await (deps.guardFor ?? guardOf)(catalog.full.dialect);
  let outcome: Awaited<ReturnType<Guard>>;
  try {
    outcome = await timings.measure('guard', () =>
      guard({
        sql: proposal.sql,
        catalog: catalog.full,
        policy: catalog.policy,
        ...(tenant.tenant !== undefined ? { tenant: tenant.tenant } : {}),
        ...(tenant.scope !== undefined ? { scope: tenant.scope } : {}),
        rowCap: RESULT_ROW_CAP,
      }),
    );
  } catch (error) {
    // Fail closed: a guard that cannot decide has refused.
    logger.error('SQL guard failed; the query is refused', { error: error as Error });
    outcome = { allowed: false, code: 'UNSUPPORTED_SYNTAX', message: 'The guard could not check the query' };
  }
  if (!outcome.allowed) {
    logger.warn('generated SQL refused by the guard', {
      code: outcome.code,
      reason: outcome.message,
      engine: request.engine.name,
      databaseId: request.database.id,
    });
    return { kind: 'refused', code: outcome.code, message: outcome.message };
  }
  const allowed = outcome;
  const result = await timings.measure('db', async () => {
    const connector = await (deps.connectorFor ?? connectorFor)(request.database);
    return connector.execute(allowed.sql, allowed.params, deps.limits ?? limitsInTime(request.deadline));
  });
  return { kind: 'rows', sql: allowed.sql, result };
};

/**
 * The engine's value lookup (lib/answer/values.ts): one probe, guarded and run exactly as an
 * answer's query is (the asker's tenant and scope, the statement timeout cut to the deadline).
 * A probe that fails finds nothing: the question is then read as without the lookup.
 */
const findValuesAs = async (
  request: AnswerRequest,
  probe: ValueProbe,
  timings: Timings,
  deps: AnswerDependencies,
): Promise<FoundValue[]> => {
  const { catalog, tenant } = request;
  try {
    const guard = await (deps.guardFor ?? guardOf)(catalog.full.dialect);
    return await lookUpValues(
      {
        dialect: catalog.full.dialect,
        visible: catalog.visible,
        guard: async (sql, rowCap) =>
          guard({
            sql,
            catalog: catalog.full,
            policy: catalog.policy,
            ...(tenant.tenant !== undefined ? { tenant: tenant.tenant } : {}),
            ...(tenant.scope !== undefined ? { scope: tenant.scope } : {}),
            rowCap,
          }),
        run: (sql, params) =>
          timings.measure('db', async () => {
            const connector = await (deps.connectorFor ?? connectorFor)(request.database);
            return (await connector.execute(sql, params, deps.limits ?? limitsInTime(request.deadline))).rows;
          }),
      },
      probe,
    );
  } catch (error) {
    logger.warn('the value lookup failed; the question is read without it', { error: error as Error });
    return [];
  }
};

/**
 * Steps 2 to 4 for a proposed query. When the database rejects a query the guard allowed (a
 * wrong column, a type mismatch) and the engine can repair (`Engine.repair`), it gets one
 * round with the error text; the repair goes through the guard like any proposal.
 */
const runProposal = async (
  request: AnswerRequest,
  proposal: SqlProposal,
  input: EngineInput,
  timings: Timings,
  deps: AnswerDependencies,
  out: Emitter,
): Promise<Produced> => {
  const { engine } = request;
  let query = proposal;
  let repaired = false;
  let ran: Ran;
  const repair = engine.repair?.bind(engine);
  /** The one repair round: the engine's new proposal for `error`, or a message that ends the answer. */
  const askRepair = async (error: string): Promise<Produced | undefined> => {
    await out.status('writing_query');
    const next = await timings.measure('engine', () =>
      engineCall(engine, () => repair!(input, { sql: query.sql, error })),
    );
    repaired = true;
    if (next.kind !== 'sql') return { ...fromMessage(next), repaired: true };
    query = next;
    return undefined;
  };
  try {
    await out.status('running_query');
    ran = await guardAndRun(request, query, timings, deps);
  } catch (error) {
    if (!repair || !repairable(error)) throw error;
    logger.info('the database rejected the query; asking the engine to repair it', {
      engine: engine.name,
      detail: error.detail,
    });
    const ended = await askRepair(error.message);
    if (ended) return ended;
    await out.status('running_query');
    ran = await guardAndRun(request, query, timings, deps);
  }
  // A refusal the engine can fix gets the same single round, with the guard's own message.
  if (ran.kind === 'refused' && !repaired && repair && FIXABLE_REFUSALS.has(ran.code)) {
    logger.info('the guard refused a fixable query; asking the engine to repair it', {
      engine: engine.name,
      code: ran.code,
    });
    const ended = await askRepair(
      `The service refused the query before running it (${ran.code}): ${ran.message.slice(0, MAX_REFUSAL_TEXT)}`,
    );
    if (ended) return ended;
    await out.status('running_query');
    ran = await guardAndRun(request, query, timings, deps);
  }
  const flags = repaired ? { repaired } : {};
  if (ran.kind === 'refused') {
    return {
      kind: 'refused',
      text: GUARD_REFUSED_MESSAGE,
      pieces: sentencePieces(GUARD_REFUSED_MESSAGE),
      query,
      results: [],
      truncated: false,
      fromDatabase: false,
      refusal: ran.code,
      ...flags,
    };
  }
  const { result } = ran;
  const results = result.rows.slice(0, RESULT_ROW_CAP);
  const truncated = result.rows.length > RESULT_ROW_CAP;
  const rows = { columns: result.columns, rows: results, truncated };
  const composer = await composerFor(request, ran.sql);
  const { text, pieces, stopped } = await timings.measure('engine', () =>
    composeRows(
      composer,
      query,
      composer.compose ? rowsForModel(request, rows) : rows,
      input,
      out,
      request.deadline,
    ),
  );
  return {
    kind: 'sql',
    text,
    pieces,
    sent: true,
    ...(stopped ? { stopped } : {}),
    query,
    results,
    truncated,
    fromDatabase: true,
    ...flags,
  };
};

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
