// Steps 2 to 4 of the answering flow (lib/answer/orchestrator.ts) for a proposed query: the SQL
// guard of the database's dialect as the asker, the query run through the database's connector
// within the time left, one repair round when the database rejects the query or the guard refuses
// it fixably, and the rows composed into the answer's text (the engine's own composition when the
// rows may reach a model, else the deterministic one). Also the engine's value lookup, guarded and
// run the same way, and what a message proposal becomes.
import { connectorFor, defaultLimits } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import type { Timings } from '#lib/observability/timing.ts';
import type { Guard } from '#lib/sql/types.ts';
import { composeAnswer, sentencePieces } from './compose.ts';
import { rowsMayReachModel } from './egress.ts';
import type {
  ComposedAnswer,
  Engine,
  EngineInput,
  FoundValue,
  Proposal,
  ProposalKind,
  ResultRows,
  SqlProposal,
  ValueProbe,
} from './engine.ts';
import type { Emitter } from './progress.ts';
import type { AnswerDependencies, AnswerRequest } from './request.ts';
import { lookUpValues } from './values.ts';

/** Rows an answer carries at most in `results`; the guard asks the database for one more. */
export const RESULT_ROW_CAP = 100;

export const GUARD_REFUSED_MESSAGE =
  'I can’t answer that safely: the query it needs would read data outside what this service may query. ' +
  'Try asking about the data in another way.';

/** What one proposal became, before it is stored and returned. */
export interface Produced {
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

/** The builtin engine's name: its failures are ours, and its answers are `answered_by: builtin`. */
export const BUILTIN = 'builtin';

/** A model engine's unexpected failure is the provider's (EXTERNAL_LLM_ERROR); the builtin's is ours. */
const engineError = (engine: Engine, error: unknown): unknown =>
  error instanceof ServiceError || engine.name === BUILTIN
    ? error
    : new ServiceError('LLM_FAILED', {
        detail: 'PROVIDER_ERROR',
        issues: [{ field: 'provider', message: engine.name, code: 'PROVIDER_ERROR' }],
        cause: error,
      });

export const engineCall = async <T>(engine: Engine, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw engineError(engine, error);
  }
};

const messageOf = (proposal: Exclude<Proposal, SqlProposal>): string =>
  proposal.message.trim() ||
  (proposal.kind === 'refused'
    ? 'I can’t help with that request.'
    : 'Could you rephrase the question? I am not sure what you are asking for.');

export const fromMessage = (proposal: Exclude<Proposal, SqlProposal>): Produced => ({
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

/** The database's guard as the asker: its tenant and scope, a row cap. */
const guardAsAsker = async (request: AnswerRequest, deps: AnswerDependencies) => {
  const { catalog, tenant } = request;
  const guard = await (deps.guardFor ?? guardOf)(catalog.full.dialect);
  return async (sql: string, rowCap: number) =>
    guard({
      sql,
      catalog: catalog.full,
      policy: catalog.policy,
      ...(tenant.tenant !== undefined ? { tenant: tenant.tenant } : {}),
      ...(tenant.scope !== undefined ? { scope: tenant.scope } : {}),
      rowCap,
    });
};

/** Runs what the guard printed on the request's database, within the time left (measured as `db`). */
const runOnDatabase =
  (request: AnswerRequest, deps: AnswerDependencies, timings: Timings) =>
  (sql: string, params: readonly unknown[]) =>
    timings.measure('db', async () => {
      const connector = await (deps.connectorFor ?? connectorFor)(request.database);
      return connector.execute(sql, params, deps.limits ?? limitsInTime(request.deadline));
    });

/** Guard, then run: what one proposed query comes to. */
const guardAndRun = async (
  request: AnswerRequest,
  proposal: SqlProposal,
  timings: Timings,
  deps: AnswerDependencies,
): Promise<Ran> => {
  const guard = await guardAsAsker(request, deps);
  let outcome: Awaited<ReturnType<Guard>>;
  try {
    outcome = await timings.measure('guard', () => guard(proposal.sql, RESULT_ROW_CAP));
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
  const result = await runOnDatabase(request, deps, timings)(outcome.sql, outcome.params);
  return { kind: 'rows', sql: outcome.sql, result };
};

/**
 * The engine's value lookup (lib/answer/values.ts): one probe, guarded and run exactly as an
 * answer's query is (the asker's tenant and scope, the statement timeout cut to the deadline).
 * A probe that fails finds nothing: the question is then read as without the lookup.
 */
export const findValuesAs = async (
  request: AnswerRequest,
  probe: ValueProbe,
  timings: Timings,
  deps: AnswerDependencies,
): Promise<FoundValue[]> => {
  try {
    const run = runOnDatabase(request, deps, timings);
    return await lookUpValues(
      {
        dialect: request.catalog.full.dialect,
        visible: request.catalog.visible,
        guard: await guardAsAsker(request, deps),
        run: async (sql, params) => (await run(sql, params)).rows,
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
export const runProposal = async (
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
