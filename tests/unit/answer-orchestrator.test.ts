// The answering flow (lib/answer/orchestrator.ts) with fakes for the engine, the SQL guard and
// the connector, and DynamoDB mocked with aws-sdk-client-mock: what the engine is shown, what the
// guard is asked, what runs, what is stored (the question first, then the answer with what a
// follow-up needs, or the failure), and the superset answer shape.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Engine, EngineInput, Proposal } from '#lib/answer/engine.ts';
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import { GUARD_REFUSED_MESSAGE, RESULT_ROW_CAP } from '#lib/answer/query-run.ts';
import type { AnswerDependencies, AnswerRequest } from '#lib/answer/request.ts';
import type { Connector, QueryResult } from '#lib/connectors/types.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import { Timings } from '#lib/observability/timing.ts';
import type { Guard, GuardRequest } from '#lib/sql/types.ts';
import type { MessageRecord } from '#lib/store/messages.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import {
  answerRequest,
  CONVERSATION,
  DATABASE,
  storedMessages,
  testDatabase,
} from '../helpers/orchestrator.ts';

const ddb = mockClient(DynamoDBDocumentClient);

const catalog = catalogOf(
  [
    {
      name: 'orders',
      columns: [
        col('id', 'integer', 'integer'),
        col('org_id', 'integer', 'integer'),
        col('status', 'text', 'text'),
      ],
      rowEstimate: 10,
    },
    {
      name: 'countries',
      columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text')],
      rowEstimate: 10,
    },
    // No tenant column and not shared: the guard refuses it, so the engine must not see it.
    {
      name: 'platform_admins',
      columns: [col('id', 'integer', 'integer'), col('email', 'text', 'text')],
      rowEstimate: 10,
    },
  ],
  { indexedAt: '2026-01-01T00:00:00.000Z' },
);

const database = testDatabase({ countries: { shared: true } });
const policy = effectivePolicy(database);

const countProposal: Proposal = {
  kind: 'sql',
  sql: 'SELECT count(*) AS order_count FROM orders',
  description: 'Counting orders',
  state: { intent: 'count orders' },
  shape: { kind: 'count', noun: { one: 'order', other: 'orders' }, column: 'order_count' },
};

const fakeEngine = (proposal: Proposal | (() => Promise<Proposal>), extra: Partial<Engine> = {}) => {
  const propose = vi.fn(async (_input: EngineInput) =>
    typeof proposal === 'function' ? proposal() : proposal,
  );
  return { engine: { name: 'builtin', propose, ...extra } as Engine, propose };
};

const fakeGuard = (outcome?: Awaited<ReturnType<Guard>>) =>
  vi.fn(
    async (request: GuardRequest): Promise<Awaited<ReturnType<Guard>>> =>
      outcome ?? {
        allowed: true,
        sql: `SELECT * FROM (${request.sql}) AS rewritten LIMIT ${request.rowCap + 1}`,
        params: [request.tenant],
      },
  );

const fakeConnector = (result: Partial<QueryResult> | Error = {}) => {
  const execute = vi.fn(async (): Promise<QueryResult> => {
    if (result instanceof Error) throw result;
    return { columns: ['order_count'], rows: [{ order_count: 42 }], executionMs: 3, ...result };
  });
  const connector: Connector = {
    dialect: 'postgres',
    test: async () => undefined,
    introspect: async () => catalog,
    execute,
    close: async () => undefined,
  };
  return { connector, execute };
};

const message = (
  id: string,
  role: 'user' | 'assistant',
  content: string,
  metadata?: unknown,
): MessageRecord => ({
  id,
  conversationId: CONVERSATION,
  organizationId: 7,
  role,
  content,
  ...(metadata === undefined ? {} : { metadataJson: JSON.stringify(metadata) }),
  createdAt: '2026-01-01T00:00:00.000Z',
});

const request = (engine: Engine, extra: Partial<AnswerRequest> = {}): AnswerRequest =>
  answerRequest({ engine, database, catalog, question: 'How many orders are there?' }, extra);

const deps = (guard: ReturnType<typeof fakeGuard>, connector: Connector): AnswerDependencies => ({
  guardFor: async () => guard,
  connectorFor: async () => connector,
  limits: { timeoutMs: 1_000 },
});

const stored = () => storedMessages(ddb.commandCalls(TransactWriteCommand));

beforeEach(() => {
  ddb.on(TransactWriteCommand).resolves({});
});
afterEach(() => {
  ddb.reset();
  vi.restoreAllMocks();
});

describe('a question answered from the database', () => {
  it('guards, runs and composes the query, and answers in the superset shape', async () => {
    // Arrange
    const { engine } = fakeEngine(countProposal);
    const guard = fakeGuard();
    const { connector, execute } = fakeConnector();

    // Act
    const outcome = await answerQuestion(request(engine), deps(guard, connector));

    // Assert: the guard checked the generated SQL for the tenant against the whole catalog
    expect(guard).toHaveBeenCalledWith({
      sql: countProposal.sql,
      catalog,
      policy,
      tenant: 3,
      rowCap: RESULT_ROW_CAP,
    });
    // Only what the guard printed ran, with its parameters
    expect(execute).toHaveBeenCalledWith(`SELECT * FROM (${countProposal.sql}) AS rewritten LIMIT 101`, [3], {
      timeoutMs: 1_000,
    });
    expect(outcome.answer).toEqual({
      message: 'There are 42 orders.',
      conversation_id: CONVERSATION,
      session_id: CONVERSATION,
      sources: ['database'],
      query_type: 'sql',
      execution_time_ms: expect.any(Number),
      results: [{ order_count: 42 }],
      row_count: 1,
      results_truncated: false,
      sql: countProposal.sql,
      interpretation: 'Counting orders',
      message_id: outcome.assistantMessageId,
      answered_by: 'builtin',
      // One value: no chart (lib/answer/chart.ts); follow-ups the builtin engine answers.
      chart: null,
      suggestions: expect.any(Array),
    });
    expect(outcome.answer.suggestions.length).toBeLessThanOrEqual(3);
    expect(Number.isInteger(outcome.answer.execution_time_ms)).toBe(true);
  });

  it("runs an engine's value lookup through the guard as the asker, on the connector, within the answer's limits", async () => {
    // Arrange: an engine that looks a phrase up before it proposes
    let found: unknown;
    const { engine } = fakeEngine(async () => countProposal);
    engine.propose = async (input) => {
      found = await input.findValues?.({
        phrases: ['Ada Moreno'],
        columns: [{ schema: 'public', relation: 'countries', column: 'name' }],
      });
      return countProposal;
    };
    const guard = fakeGuard();
    const { connector, execute } = fakeConnector({ columns: ['probe_column', 'probe_value'], rows: [] });
    execute.mockResolvedValueOnce({
      columns: ['probe_column', 'probe_value', 'probe_rank'],
      rows: [{ probe_column: 0, probe_value: 'Ada Moreno', probe_rank: 0 }],
      executionMs: 1,
    });

    // Act
    await answerQuestion(request(engine), deps(guard, connector));

    // Assert: one probe, guarded for tenant 3 like the answer, then run with what the guard printed
    const probe = guard.mock.calls[0]![0];
    expect(probe).toMatchObject({ catalog, policy, tenant: 3, rowCap: 24 });
    expect(probe.sql).toContain("IN ('ada moreno')");
    expect(execute.mock.calls[0]).toEqual([
      expect.stringContaining('AS rewritten LIMIT 25'),
      [3],
      { timeoutMs: 1_000 },
    ]);
    expect(found).toEqual([
      {
        phrase: 'ada moreno',
        schema: 'public',
        relation: 'countries',
        column: 'name',
        value: 'Ada Moreno',
        exact: true,
      },
    ]);
    expect(guard).toHaveBeenCalledTimes(2);
  });

  it('passes the scope value to the guard when the policy filters on a scope column', async () => {
    // Arrange
    const guard = fakeGuard();

    // Act
    await answerQuestion(
      request(fakeEngine(countProposal).engine, { tenant: { tenant: 3, scope: 'alice' } }),
      deps(guard, fakeConnector().connector),
    );

    // Assert
    expect(guard).toHaveBeenCalledWith(expect.objectContaining({ tenant: 3, scope: 'alice' }));
  });

  it('stores the question, then the answer with what a follow-up needs', async () => {
    // Arrange
    const { engine } = fakeEngine(countProposal);

    // Act
    const outcome = await answerQuestion(request(engine), deps(fakeGuard(), fakeConnector().connector));

    // Assert
    const [question, answer] = stored();
    expect(stored()).toHaveLength(2);
    expect(question).toMatchObject({
      role: 'user',
      content: 'How many orders are there?',
      metadata: undefined,
    });
    // The first message gives the conversation its database and title
    expect(question?.conversationValues).toMatchObject({
      ':databaseId': DATABASE,
      ':title': 'How many orders are there?',
    });
    expect(answer).toMatchObject({ role: 'assistant', content: 'There are 42 orders.' });
    expect(answer?.metadata).toEqual({
      query_type: 'sql',
      execution_time_ms: outcome.answer.execution_time_ms,
      sql: countProposal.sql,
      row_count: 1,
      sources: ['database'],
      engine: 'builtin',
      reply_to: question?.id,
      state: { intent: 'count orders' },
      description: 'Counting orders',
    });
    expect(outcome.userMessageId).toBe(question?.id);
    expect(outcome.assistantMessageId).toBe(answer?.id);
  });

  it('shows the engine only what the guard may read, with the tenant column, prior turns and instructions', async () => {
    // Arrange
    const { engine, propose } = fakeEngine(countProposal);
    const history = [
      message('m1', 'user', 'How many orders?'),
      message('m2', 'assistant', 'There are 40 orders.', {
        query_type: 'sql',
        engine: 'builtin',
        state: { intent: 'previous' },
        reply_to: 'm1',
      }),
    ];

    // Act
    await answerQuestion(
      request(engine, {
        history,
        personality: {
          id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a60',
          organizationId: 7,
          name: 'Terse',
          instructions: 'Be brief.',
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        examples: [{ question: 'orders?', sql: 'SELECT count(*) FROM orders' }],
      }),
      deps(fakeGuard(), fakeConnector().connector),
    );

    // Assert
    const input = propose.mock.calls[0]![0];
    expect(input.catalog.relations.map((relation) => relation.name)).toEqual(['orders', 'countries']);
    expect(input).toMatchObject({
      dialect: 'postgres',
      tenantColumn: 'org_id',
      instructions: 'Be brief.',
      history: [
        { question: 'How many orders?', kind: 'sql', engine: 'builtin', state: { intent: 'previous' } },
      ],
      examples: [{ question: 'orders?', sql: 'SELECT count(*) FROM orders' }],
      now: new Date('2026-03-15T12:00:00.000Z'),
    });
    expect(stored()[1]?.metadata.personality_id).toBe('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a60');
  });

  it('caps results at 100 rows and says so when the database had more', async () => {
    // Arrange: the guard asked for 101 rows and got them
    const rows = Array.from({ length: RESULT_ROW_CAP + 1 }, (_, i) => ({ id: i + 1 }));
    const list: Proposal = { kind: 'sql', sql: 'SELECT id FROM orders', description: 'Listing orders' };
    const { connector } = fakeConnector({ columns: ['id'], rows });

    // Act
    const { answer } = await answerQuestion(request(fakeEngine(list).engine), deps(fakeGuard(), connector));

    // Assert
    expect(answer.results).toHaveLength(100);
    expect(answer.results.at(-1)).toEqual({ id: 100 });
    expect(answer).toMatchObject({ row_count: 100, results_truncated: true });
    expect(answer.message).toMatch(/more than 100 rows/);
    expect(stored()[1]?.metadata).toMatchObject({ row_count: 100, results_truncated: true });
  });

  it('lets an engine write its own answer, and falls back to the generic one when it fails', async () => {
    // Arrange
    const writes = fakeEngine(countProposal, {
      compose: async () => ({ text: 'Forty-two orders.', pieces: ['Forty-two orders.'] }),
    }).engine;
    const fails = fakeEngine(countProposal, {
      compose: async () => {
        throw new Error('model down');
      },
    }).engine;

    // Act
    const written = await answerQuestion(request(writes), deps(fakeGuard(), fakeConnector().connector));
    const fallback = await answerQuestion(request(fails), deps(fakeGuard(), fakeConnector().connector));

    // Assert
    expect(written.answer.message).toBe('Forty-two orders.');
    expect(fallback.answer.message).toBe('There are 42 orders.');
  });
});

describe('a query the guard refuses', () => {
  it('becomes a plain refused answer: nothing runs, the refusal is logged, never a 500', async () => {
    // Arrange
    const warn = vi.spyOn(logger, 'warn');
    const guard = fakeGuard({
      allowed: false,
      code: 'RELATION_NOT_ALLOWED',
      message: 'platform_admins is not listed',
    });
    const { connector, execute } = fakeConnector();
    const sneaky: Proposal = { kind: 'sql', sql: 'SELECT email FROM platform_admins', description: 'x' };

    // Act
    const { answer } = await answerQuestion(request(fakeEngine(sneaky).engine), deps(guard, connector));

    // Assert
    expect(execute).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      message: GUARD_REFUSED_MESSAGE,
      query_type: 'refused',
      sources: [],
      results: [],
      row_count: 0,
      results_truncated: false,
      sql: 'SELECT email FROM platform_admins',
    });
    expect(warn).toHaveBeenCalledWith(
      'generated SQL refused by the guard',
      expect.objectContaining({ code: 'RELATION_NOT_ALLOWED' }),
    );
    expect(stored()[1]?.metadata).toMatchObject({ query_type: 'refused', refusal: 'RELATION_NOT_ALLOWED' });
  });

  it('fails closed when the guard itself breaks', async () => {
    // Arrange
    const guard = vi.fn(async (): Promise<Awaited<ReturnType<Guard>>> => {
      throw new Error('parser crashed');
    });
    const { connector, execute } = fakeConnector();

    // Act
    const { answer } = await answerQuestion(request(fakeEngine(countProposal).engine), {
      guardFor: async () => guard,
      connectorFor: async () => connector,
    });

    // Assert
    expect(answer.query_type).toBe('refused');
    expect(execute).not.toHaveBeenCalled();
  });
});

describe('answers without a query', () => {
  it.each([
    [{ kind: 'clarification', message: 'Which amount: payments or invoices?' }, 'clarification'],
    [{ kind: 'conversational', message: 'Hello! Ask me about orders.' }, 'conversational'],
    [{ kind: 'refused', message: 'I only read data.', reason: 'write' }, 'refused'],
  ] as const)('answers %o with its message and stores it', async (proposal, kind) => {
    // Arrange
    const guard = fakeGuard();
    const { connector, execute } = fakeConnector();

    // Act
    const { answer } = await answerQuestion(request(fakeEngine(proposal).engine), deps(guard, connector));

    // Assert
    expect(guard).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
    expect(answer).toMatchObject({
      message: proposal.message,
      query_type: kind,
      sources: [],
      results: [],
      row_count: 0,
      results_truncated: false,
      sql: null,
    });
    expect(stored().map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored()[1]?.metadata).toMatchObject({ query_type: kind, row_count: 0 });
  });

  it("suggests a clarification's readings (“Did you mean …”) instead of follow-ups", async () => {
    // Arrange: an engine that asks back with two readings of the question
    const readings = ['orders with status cancelled', 'list the countries by name'];
    const proposal: Proposal = {
      kind: 'clarification',
      message: 'Did you mean one of these?',
      suggestions: readings,
    };
    const { connector } = fakeConnector();

    // Act
    const { answer } = await answerQuestion(
      request(fakeEngine(proposal).engine),
      deps(fakeGuard(), connector),
    );

    // Assert: exactly the readings, in their order
    expect(answer).toMatchObject({ query_type: 'clarification', suggestions: readings });
  });
});

describe('failures after the question was stored', () => {
  it('stores the question and a failure answer, then reports DB_QUERY_FAILED', async () => {
    // Arrange
    const failure = new ServiceError('DB_QUERY_FAILED', {
      message: 'The query timed out after 1000 ms',
      detail: 'QUERY_TIMEOUT',
    });
    const { connector } = fakeConnector(failure);

    // Act
    const result = answerQuestion(request(fakeEngine(countProposal).engine), deps(fakeGuard(), connector));

    // Assert
    await expect(result).rejects.toBe(failure);
    const [question, answer] = stored();
    expect(question).toMatchObject({ role: 'user', content: 'How many orders are there?' });
    expect(answer?.content).toBe(
      'I could not answer this question: The query timed out after 1000 ms (QUERY_TIMEOUT).',
    );
    expect(answer?.metadata).toMatchObject({
      query_type: 'sql',
      sql: countProposal.sql,
      row_count: 0,
      sources: [],
      reply_to: question?.id,
      error: { code: 'DB_QUERY_FAILED', detail: 'QUERY_TIMEOUT' },
    });
  });

  it('reports an unreachable database as DB_CONNECTION_FAILED', async () => {
    // Arrange
    const failure = new ServiceError('DB_CONNECTION_FAILED', { detail: 'CONNECTION_REFUSED' });

    // Act
    const result = answerQuestion(request(fakeEngine(countProposal).engine), {
      guardFor: async () => fakeGuard(),
      connectorFor: async () => {
        throw failure;
      },
    });

    // Assert
    await expect(result).rejects.toMatchObject({ kind: 'DB_CONNECTION_FAILED' });
    expect(stored()[1]?.metadata.error).toEqual({
      code: 'DB_CONNECTION_FAILED',
      detail: 'CONNECTION_REFUSED',
    });
  });

  it('turns a model engine’s unexpected failure into EXTERNAL_LLM_ERROR naming the provider', async () => {
    // Arrange
    const engine: Engine = {
      name: 'openai',
      propose: async () => {
        throw new TypeError('fetch failed');
      },
    };

    // Act
    const result = answerQuestion(request(engine), deps(fakeGuard(), fakeConnector().connector));

    // Assert
    await expect(result).rejects.toMatchObject({
      kind: 'LLM_FAILED',
      issues: [{ field: 'provider', message: 'openai', code: 'PROVIDER_ERROR' }],
    });
    expect(stored().map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored()[1]?.metadata).toMatchObject({ query_type: 'error', engine: 'openai' });
  });

  it('keeps a bug a 500 without internals in the stored answer', async () => {
    // Arrange
    const { connector } = fakeConnector(new Error('secret internal detail'));

    // Act
    const result = answerQuestion(request(fakeEngine(countProposal).engine), deps(fakeGuard(), connector));

    // Assert
    await expect(result).rejects.toMatchObject({ kind: 'INTERNAL' });
    expect(stored()[1]?.content).toBe('I could not answer this question: An unexpected error occurred.');
  });

  it('runs nothing when the question cannot be stored (a conversation of another scope)', async () => {
    // Arrange
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        $metadata: {},
        message: 'Transaction cancelled',
        CancellationReasons: [
          { Code: 'None' },
          {
            Code: 'ConditionalCheckFailed',
            Item: { organizationId: { N: '7' }, scopeKey: { S: 'bob' }, lastMessageAt: { S: '2026-01-01' } },
          },
        ],
      }),
    );
    const guard = fakeGuard();

    // Act
    const result = answerQuestion(
      request(fakeEngine(countProposal).engine),
      deps(guard, fakeConnector().connector),
    );

    // Assert
    await expect(result).rejects.toMatchObject({ kind: 'CONVERSATION_NOT_FOUND', status: 404 });
    expect(guard).not.toHaveBeenCalled();
  });
});

describe('repairing a query the database rejected', () => {
  const broken: Proposal = {
    kind: 'sql',
    sql: 'SELECT count(*) FROM orders WHERE stauts = 1',
    description: 'x',
  };
  const rejected = () =>
    new ServiceError('DB_QUERY_FAILED', { message: 'column "stauts" does not exist', detail: '42703' });

  it('gives a repairing engine one round with the error, and runs the repaired query through the guard', async () => {
    // Arrange
    const repair = vi.fn(async () => countProposal);
    const { engine } = fakeEngine(broken, { repair });
    const guard = fakeGuard();
    const execute = vi
      .fn<Connector['execute']>()
      .mockRejectedValueOnce(rejected())
      .mockResolvedValueOnce({ columns: ['order_count'], rows: [{ order_count: 5 }], executionMs: 1 });
    const connector = { ...fakeConnector().connector, execute };

    // Act
    const { answer } = await answerQuestion(request(engine), deps(guard, connector));

    // Assert
    expect(repair).toHaveBeenCalledWith(expect.objectContaining({ question: 'How many orders are there?' }), {
      sql: broken.sql,
      error: 'column "stauts" does not exist',
    });
    expect(guard.mock.calls.map(([call]) => call.sql)).toEqual([broken.sql, countProposal.sql]);
    expect(answer).toMatchObject({
      query_type: 'sql',
      sql: countProposal.sql,
      message: 'There are 5 orders.',
    });
    expect(stored()[1]?.metadata).toMatchObject({ repaired: true, sql: countProposal.sql });
  });

  it('does not repair a timeout, and repairs only once', async () => {
    // Arrange
    const repair = vi.fn(async () => broken);
    const timeout = new ServiceError('DB_QUERY_FAILED', { detail: 'QUERY_TIMEOUT' });

    // Act
    const timedOut = answerQuestion(
      request(fakeEngine(broken, { repair }).engine),
      deps(fakeGuard(), fakeConnector(timeout).connector),
    );
    await expect(timedOut).rejects.toBe(timeout);
    const twice = answerQuestion(
      request(fakeEngine(broken, { repair }).engine),
      deps(fakeGuard(), fakeConnector(rejected()).connector),
    );

    // Assert
    await expect(twice).rejects.toMatchObject({ kind: 'DB_QUERY_FAILED', detail: '42703' });
    expect(repair).toHaveBeenCalledTimes(1);
  });
});

describe('Server-Timing', () => {
  it('splits the time between engine, guard, database and storage', async () => {
    // Arrange
    const timings = new Timings();

    // Act
    await answerQuestion(
      request(fakeEngine(countProposal).engine, { timings }),
      deps(fakeGuard(), fakeConnector().connector),
    );

    // Assert
    expect(timings.header()).toMatch(
      /^engine;dur=[\d.]+, guard;dur=[\d.]+, db;dur=[\d.]+, store;dur=[\d.]+, total;dur=[\d.]+$/,
    );
  });
});
