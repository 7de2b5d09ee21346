// The answering flow's streaming side (lib/answer/orchestrator.ts `onPiece`): pieces reach the
// caller one by one as they are produced and before the assistant message is stored (the
// deterministic composition's sentence and summary, a model's tokens while it writes, messages
// sentence by sentence), a model that fails before or after pieces went out, a reader that goes
// away mid-answer, and the token usage of model calls in the outcome. Fakes for the engine,
// guard and connector; DynamoDB mocked with aws-sdk-client-mock.
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sentencePieces } from '#lib/answer/compose.ts';
import type { Engine, Proposal, SqlProposal } from '#lib/answer/engine.ts';
import { llmFailure } from '#lib/answer/engines/model.ts';
import { answerQuestion } from '#lib/answer/orchestrator.ts';
import type { AnswerDependencies, AnswerRequest } from '#lib/answer/request.ts';
import type { Connector, QueryResult } from '#lib/connectors/types.ts';
import { ServiceError } from '#lib/errors.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { answerRequest, storedMessages, testDatabase } from '../helpers/orchestrator.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const catalog = catalogOf(
  [
    {
      name: 'customers',
      columns: [
        col('id', 'integer', 'integer'),
        col('org_id', 'integer', 'integer'),
        col('name', 'text', 'text'),
      ],
      rowEstimate: 10,
    },
  ],
  { indexedAt: '2026-01-01T00:00:00.000Z' },
);
const database = testDatabase();

/** A top-5 ranking: the deterministic composition is a headline, then the list. */
const ranking: SqlProposal = {
  kind: 'sql',
  sql: 'SELECT name, revenue FROM customers ORDER BY revenue DESC LIMIT 5',
  description: 'Top customers by revenue',
  shape: {
    kind: 'rows',
    noun: { one: 'customer', other: 'customers' },
    labelColumns: ['name'],
    valueColumn: 'revenue',
    valueFormat: 'money',
    limit: 5,
    ranking: { one: 'top customer by revenue', other: 'top customers by revenue' },
  },
};
const result: QueryResult = {
  columns: ['name', 'revenue'],
  rows: [
    { name: 'Acme', revenue: 120 },
    { name: 'Globex', revenue: 80 },
  ],
  executionMs: 2,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What happened, in order: stores, pieces and engine milestones. */
let log: string[];

const engineOf = (proposal: Proposal, extra: Partial<Engine> = {}, name = 'openai'): Engine => ({
  name,
  propose: async () => proposal,
  ...extra,
});

const deps: AnswerDependencies = {
  guardFor: async () => async (request) => ({ allowed: true, sql: request.sql, params: [] }),
  connectorFor: async () =>
    ({
      dialect: 'postgres',
      test: async () => undefined,
      introspect: async () => catalog,
      execute: async () => result,
      close: async () => undefined,
    }) satisfies Connector,
  limits: { timeoutMs: 1_000 },
};

const request = (engine: Engine, extra: Partial<AnswerRequest> = {}): AnswerRequest =>
  answerRequest(
    { engine, database, catalog, question: 'top 5 customers by revenue' },
    {
      onPiece: async (piece) => {
        log.push(`piece:${piece}`);
      },
      ...extra,
    },
  );

const stored = () => storedMessages(ddb.commandCalls(TransactWriteCommand));

beforeEach(() => {
  log = [];
  ddb.on(TransactWriteCommand).callsFake((input) => {
    const item = input.TransactItems?.[0]?.Put?.Item as Record<string, unknown>;
    log.push(`store:${String(item.role)}`);
    return {};
  });
});
afterEach(() => {
  ddb.reset();
  vi.restoreAllMocks();
});

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );

describe('pieces as they are produced', () => {
  it('hands the deterministic composition over piece by piece, after the question and before the answer is stored', async () => {
    // Act
    const { answer } = await answerQuestion(request(engineOf(ranking, {}, 'builtin')), deps);

    // Assert
    expect(log).toEqual([
      'store:user',
      'piece:The top customers by revenue:',
      'piece: Acme (120.00) and Globex (80.00).',
      'store:assistant',
    ]);
    expect(answer.message).toBe('The top customers by revenue: Acme (120.00) and Globex (80.00).');
    expect(stored()[1]?.content).toBe(answer.message);
    expect(stored()[1]?.metadata.incomplete).toBeUndefined();
  });

  it('forwards a model’s pieces while it is still writing', async () => {
    // Arrange: the model writes three pieces 30 ms apart
    const engine = engineOf(ranking, {
      compose: async (_proposal, _rows, _input, onPiece) => {
        const pieces = ['Acme leads', ' with 120,', ' then Globex.'];
        for (const piece of pieces) {
          await sleep(30);
          await onPiece(piece);
        }
        log.push('compose:done');
        return { text: pieces.join(''), pieces };
      },
    });

    // Act
    const { answer } = await answerQuestion(request(engine), deps);

    // Assert
    expect(log).toEqual([
      'store:user',
      'piece:Acme leads',
      'piece: with 120,',
      'piece: then Globex.',
      'compose:done',
      'store:assistant',
    ]);
    expect(answer.message).toBe('Acme leads with 120, then Globex.');
  });

  it('sends a message (clarification) sentence by sentence', async () => {
    const clarification: Proposal = {
      kind: 'clarification',
      message: 'I found two amounts. Do you mean the payments or the invoices?',
    };
    await answerQuestion(request(engineOf(clarification, {}, 'builtin')), deps);
    expect(log).toEqual([
      'store:user',
      'piece:I found two amounts.',
      'piece: Do you mean the payments or the invoices?',
      'store:assistant',
    ]);
  });
});

describe('a model that fails while writing', () => {
  it('before any piece went out: the deterministic composition answers instead', async () => {
    const engine = engineOf(ranking, {
      compose: async () => {
        throw llmFailure('openai', 'UNAVAILABLE', 'the provider is unavailable (HTTP 503)');
      },
    });
    const { answer } = await answerQuestion(request(engine), deps);
    expect(answer.message).toBe('The top customers by revenue: Acme (120.00) and Globex (80.00).');
    expect(log.filter((entry) => entry.startsWith('piece:'))).toHaveLength(2);
  });

  it('after pieces went out: the answer ends with the error, stored as sent and marked', async () => {
    // Arrange
    const engine = engineOf(ranking, {
      compose: async (_proposal, _rows, _input, onPiece) => {
        await onPiece('Acme leads');
        throw llmFailure('openai', 'UNAVAILABLE', 'the provider’s stream broke off before the answer ended');
      },
    });

    // Act
    const error = await rejection(answerQuestion(request(engine), deps));

    // Assert
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).kind).toBe('LLM_FAILED');
    expect(log).toEqual(['store:user', 'piece:Acme leads', 'store:assistant']);
    expect(stored()[1]).toMatchObject({
      role: 'assistant',
      content: 'Acme leads',
      metadata: { incomplete: true, error: { code: 'EXTERNAL_LLM_ERROR', detail: 'UNAVAILABLE' } },
    });
  });

  it('without a streaming reader nothing went out: the deterministic composition answers', async () => {
    const engine = engineOf(ranking, {
      compose: async (_proposal, _rows, _input, onPiece) => {
        await onPiece('Acme leads');
        throw new Error('socket hang up');
      },
    });
    const { onPiece: _unused, ...plain } = request(engine);
    const { answer } = await answerQuestion(plain, deps);
    expect(answer.message).toBe('The top customers by revenue: Acme (120.00) and Globex (80.00).');
  });
});

describe('a reader that goes away', () => {
  it('stops the model, and the answer is stored as far as it went, marked incomplete', async () => {
    // Arrange: the model stops when the signal aborts (as the provider call does)
    const controller = new AbortController();
    const engine = engineOf(ranking, {
      compose: async (_proposal, _rows, input, onPiece) => {
        await onPiece('Acme leads');
        await sleep(20);
        input.signal?.throwIfAborted();
        await onPiece(' with 120.');
        return { text: 'Acme leads with 120.', pieces: ['Acme leads', ' with 120.'] };
      },
    });
    const onPiece = async (piece: string) => {
      log.push(`piece:${piece}`);
      controller.abort(new Error('client went away'));
    };

    // Act
    const { answer } = await answerQuestion(request(engine, { onPiece, signal: controller.signal }), deps);

    // Assert
    expect(answer.message).toBe('Acme leads');
    expect(stored()[1]).toMatchObject({ content: 'Acme leads', metadata: { incomplete: true } });
  });
});

describe('model tokens', () => {
  it('are summed over the engine’s calls into the outcome', async () => {
    const engine: Engine = {
      name: 'openai',
      propose: async (input) => {
        input.onUsage?.({ input: 1_000, output: 40 });
        input.onUsage?.({ input: 1_100, output: 35 });
        return ranking;
      },
      compose: async (_proposal, _rows, input, onPiece) => {
        await onPiece('Acme leads.');
        input.onUsage?.({ input: 600, output: 12 });
        return { text: 'Acme leads.', pieces: ['Acme leads.'] };
      },
    };
    const outcome = await answerQuestion(request(engine), deps);
    expect(outcome.tokens).toEqual({ input: 2_700, output: 87 });
  });

  it('are absent when no call reported any', async () => {
    const outcome = await answerQuestion(request(engineOf(ranking, {}, 'builtin')), deps);
    expect(outcome.tokens).toBeUndefined();
    expect('tokens' in outcome).toBe(false);
  });
});

describe('sentence pieces', () => {
  it('split a message after each sentence, keeping every character', () => {
    const text = 'Revenue was 1,234.50 in Q1. Did you mean “gross”? Or net… Ask again!';
    const pieces = sentencePieces(text);
    expect(pieces).toEqual([
      'Revenue was 1,234.50 in Q1.',
      ' Did you mean “gross”?',
      ' Or net…',
      ' Ask again!',
    ]);
    expect(pieces.join('')).toBe(text);
  });

  it('leave one sentence, or text without an ending, whole', () => {
    expect(sentencePieces('There are 42 orders.')).toEqual(['There are 42 orders.']);
    expect(sentencePieces('v1.2 is out and e.g.x stays')).toEqual(['v1.2 is out and e.g.x stays']);
    expect(sentencePieces('')).toEqual([]);
  });
});

describe('an answer against the function’s deadline', () => {
  /** A model composition that writes nothing until its signal aborts. */
  const hanging = (calls: string[]) =>
    engineOf(ranking, {
      compose: async (_proposal, _rows, input) => {
        calls.push('compose');
        await new Promise((_resolve, reject) =>
          input.signal?.addEventListener('abort', () => reject(input.signal?.reason), { once: true }),
        );
        throw new Error('unreachable');
      },
    });

  it('cuts a model composition at the deadline and answers with the deterministic one, stored', async () => {
    // Arrange: 5.4 s left, 2 s of it kept for storing the answer: the model gets 3.4 s.
    const calls: string[] = [];
    const started = Date.now();

    // Act
    const { answer } = await answerQuestion(request(hanging(calls), { deadline: Date.now() + 5_400 }), deps);

    // Assert
    expect(calls).toEqual(['compose']);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answer.message).toBe('The top customers by revenue: Acme (120.00) and Globex (80.00).');
    expect(stored().map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('does not start a model composition with too little time left', async () => {
    const calls: string[] = [];
    const { answer } = await answerQuestion(request(hanging(calls), { deadline: Date.now() + 4_000 }), deps);
    expect(calls).toEqual([]);
    expect(answer.message).toBe('The top customers by revenue: Acme (120.00) and Globex (80.00).');
  });

  it('cuts the statement timeout to the time left (at least 1 s)', async () => {
    const timeouts: number[] = [];
    const timed: AnswerDependencies = {
      ...(deps.guardFor ? { guardFor: deps.guardFor } : {}),
      connectorFor: async () =>
        ({
          dialect: 'postgres',
          test: async () => undefined,
          introspect: async () => catalog,
          execute: async (_sql, _params, limits) => {
            timeouts.push(limits.timeoutMs);
            return result;
          },
          close: async () => undefined,
        }) satisfies Connector,
    };
    await answerQuestion(request(engineOf(ranking, {}, 'builtin'), { deadline: Date.now() + 12_000 }), timed);
    await answerQuestion(request(engineOf(ranking, {}, 'builtin'), { deadline: Date.now() + 1_000 }), timed);
    expect(timeouts[0]).toBeGreaterThan(9_000);
    expect(timeouts[0]).toBeLessThanOrEqual(10_000);
    expect(timeouts[1]).toBe(1_000);
  });
});
