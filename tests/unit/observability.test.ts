// Observability (lib/observability/): the EMF lines the functions print, read back from stdout
// as CloudWatch would read them — per request (Requests, Latency; Errors by the envelope's code
// for a 4xx or 5xx), per answer (latency by phase, rows, tokens, kind) and per limiter refusal —
// and `trace_id` (the X-Request-ID) on every log line of a request and in every error envelope,
// errors and streamed responses included. Metrics are on in this file (the tests' default is off).
import { Readable } from 'node:stream';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '#lib/auth/principal.ts';
import { type ErrorEnvelope, ServiceError } from '#lib/errors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { errorCodeOf, observability, shortFunctionName } from '#lib/http/middleware/observability.ts';
import { rateLimit } from '#lib/http/middleware/rate-limit.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { ok } from '#lib/http/response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { clearSeenCounters } from '#lib/limits/limiter.ts';
import { windowId } from '#lib/limits/windows.ts';
import { logger, logLambdaContext } from '#lib/log.ts';
import { recordAnswer } from '#lib/observability/metrics.ts';
import { Timings } from '#lib/observability/timing.ts';
import { installAwsLambdaGlobal, ResponseStreamSink } from '../../local/lambda.ts';
import { apiEvent, invoke, lambdaContext } from '../helpers/events.ts';

// Metrics on, logs at info, this stage's name (the settings read them on first use).
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
process.env.STAGE = 'test';

// ---- What the process prints ---------------------------------------------------------------

type Line = Record<string, unknown>;
interface EmfLine extends Line {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
}

let printed: string[] = [];
beforeEach(() => {
  printed = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  ddb.reset();
  clearSeenCounters();
  logger.removeKeys(['trace_id']);
});

const lines = (): Line[] =>
  printed
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
const emfLines = (): EmfLine[] => lines().filter((line): line is EmfLine => '_aws' in line);
const logLines = (): Line[] => lines().filter((line) => !('_aws' in line));
/** The EMF line that defines metric `name`. */
const emf = (name: string): EmfLine => {
  const found = emfLines().filter((line) =>
    line._aws.CloudWatchMetrics[0]?.Metrics.some((metric) => metric.Name === name),
  );
  expect(found, `one EMF line with ${name}`).toHaveLength(1);
  return found[0]!;
};
const dimensionsOf = (line: EmfLine) => line._aws.CloudWatchMetrics[0]!.Dimensions;
const unitOf = (line: EmfLine, name: string) =>
  line._aws.CloudWatchMetrics[0]!.Metrics.find((metric) => metric.Name === name)?.Unit;

// ---- Chains --------------------------------------------------------------------------------

/** lib/http/api.ts's first links: request id, the logger's Lambda context, observability, envelope. */
const chain = (handler: () => Promise<ApiResult>) =>
  middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(requestId())
    .use(logLambdaContext())
    .use(observability())
    .use(errorEnvelope())
    .handler(async () => {
      logger.info('handler ran');
      return handler();
    });

const call = async (handler: () => Promise<ApiResult>, requestIdValue = 'r-1') => {
  const result = (await chain(handler)(
    apiEvent({ path: '/api/v1/branding', requestId: requestIdValue }),
    lambdaContext({ functionName: 'tabletalk-test-branding' }) as ApiContext,
  )) as ApiResult;
  return { ...result, envelope: JSON.parse(result.body) as ErrorEnvelope };
};

describe('request metrics', () => {
  it('records a success: Requests and Latency, in total and per function, with trace_id', async () => {
    const response = await call(async () => ok({ fine: true }), 'r-ok');

    expect(response.statusCode).toBe(200);
    const line = emf('Requests');
    expect(line._aws.CloudWatchMetrics[0]?.Namespace).toBe('tabletalk');
    expect(dimensionsOf(line)).toEqual([
      ['service', 'stage'],
      ['service', 'stage', 'function'],
    ]);
    expect(line).toMatchObject({
      service: 'tabletalk',
      stage: 'test',
      function: 'branding',
      Requests: 1,
      status: '200',
      trace_id: 'req_r-ok',
    });
    expect(unitOf(line, 'Latency')).toBe('Milliseconds');
    expect(line.Latency).toEqual(expect.any(Number));
    expect(
      emfLines().some((l) => l._aws.CloudWatchMetrics[0]?.Metrics.some((m) => m.Name === 'Errors')),
    ).toBe(false);
  });

  it('records a 4xx with the envelope’s code as the Errors dimension', async () => {
    const response = await call(async () => {
      throw new ServiceError('CONVERSATION_NOT_FOUND');
    }, 'r-404');

    expect(response.statusCode).toBe(404);
    expect(emf('Requests')).toMatchObject({ status: '404', trace_id: 'req_r-404' });
    const errors = emf('Errors');
    expect(dimensionsOf(errors)).toEqual([['service', 'stage', 'code']]);
    expect(errors).toMatchObject({
      code: response.envelope.error.code,
      Errors: 1,
      status: '404',
      function: 'branding',
      trace_id: 'req_r-404',
    });
    expect(errors.code).toBe('NOT_FOUND');
  });

  it('records a 5xx as INTERNAL_SERVER_ERROR, and its log line carries the trace id', async () => {
    const response = await call(async () => {
      throw new Error('a bug');
    }, 'r-500');

    expect(response.statusCode).toBe(500);
    expect(emf('Errors')).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      status: '500',
      trace_id: 'req_r-500',
    });
    const failed = logLines().find((line) => line.message === 'request failed');
    expect(failed).toMatchObject({ level: 'ERROR', trace_id: 'req_r-500' });
  });

  it('records each request on its own lines, however many ran before', async () => {
    await call(async () => ok({}), 'r-a');
    await call(async () => {
      throw new ServiceError('INVALID_CREDENTIALS');
    }, 'r-b');

    const requests = emfLines().filter((line) => line.Requests === 1);
    expect(requests.map((line) => [line.trace_id, line.status])).toEqual([
      ['req_r-a', '200'],
      ['req_r-b', '401'],
    ]);
    expect(emf('Errors')).toMatchObject({ code: 'UNAUTHORIZED', trace_id: 'req_r-b' });
  });
});

describe('trace_id on every log line and every error', () => {
  it('tags the handler’s lines and the error envelope with the same trace id as X-Request-ID', async () => {
    const response = await call(async () => {
      throw new ServiceError('FORBIDDEN');
    }, 'r-403');

    expect(response.headers?.['X-Request-ID']).toBe('req_r-403');
    expect(response.envelope.trace_id).toBe('req_r-403');
    const requestLines = logLines().filter((line) =>
      ['handler ran', 'request rejected'].includes(line.message as string),
    );
    expect(requestLines.map((line) => line.message)).toEqual(['handler ran', 'request rejected']);
    for (const line of logLines()) expect(line.trace_id).toBe('req_r-403');
  });

  it('carries it through the whole real chain of a function (401 without credentials)', async () => {
    const { handler } = await import('../../functions/branding.ts');
    const response = await invoke<ErrorEnvelope>(handler, { path: '/api/v1/branding', requestId: 'r-401' });

    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toBe('req_r-401');
    expect(response.body.trace_id).toBe('req_r-401');
    expect(logLines().find((line) => line.message === 'request rejected')).toMatchObject({
      trace_id: 'req_r-401',
    });
    expect(emf('Errors')).toMatchObject({ code: 'UNAUTHORIZED', status: '401', trace_id: 'req_r-401' });
    expect(emf('Requests')).toMatchObject({ status: '401', trace_id: 'req_r-401' });
  });

  it('keeps it on the lines a streamed body logs, and records the request when the stream ends', async () => {
    // Arrange: a streaming chain whose body logs and answers while it is written out.
    installAwsLambdaGlobal();
    const pieceDelayMs = 30;
    const streaming = middy<ApiEvent, ApiResult, Error, ApiContext>({
      executionMode: executionModeStreamifyResponse,
    })
      .use(requestId())
      .use(logLambdaContext())
      .use(observability())
      .use(errorEnvelope())
      .handler(async () => {
        const body = Readable.from(
          (async function* () {
            for (const piece of ['one', 'two', 'three']) {
              await new Promise((resolve) => setTimeout(resolve, pieceDelayMs));
              logger.info('piece written', { piece });
              yield `data: ${piece}\n\n`;
            }
            recordAnswer({ answer: { query_type: 'sql', row_count: 3 }, timings: new Timings() });
          })(),
        );
        return {
          statusCode: 200,
          headers: { 'Content-Type': 'text/event-stream' },
          body,
        } as unknown as ApiResult;
      });
    const chunks: string[] = [];
    const sink = new ResponseStreamSink(
      () => undefined,
      (chunk) => chunks.push(chunk.toString('utf8')),
    );

    // Act
    await (streaming as unknown as (event: unknown, stream: unknown, context: unknown) => Promise<void>)(
      apiEvent({ path: '/api/v1/chat/c/stream', requestId: 'r-stream' }),
      sink,
      lambdaContext({ functionName: 'tabletalk-test-stream' }),
    );
    logger.info('after the request');

    // Assert
    expect(chunks.join('')).toBe('data: one\n\ndata: two\n\ndata: three\n\n');
    const pieces = logLines().filter((line) => line.message === 'piece written');
    expect(pieces).toHaveLength(3);
    for (const line of pieces) expect(line.trace_id).toBe('req_r-stream');
    expect(logLines().find((line) => line.message === 'after the request')?.trace_id).toBeUndefined();
    const request = emf('Requests');
    expect(request).toMatchObject({ function: 'stream', status: '200', trace_id: 'req_r-stream' });
    // Recorded once the body ended: its latency covers the three pieces.
    expect(request.Latency as number).toBeGreaterThanOrEqual(3 * pieceDelayMs - 5);
    const order = lines().map((line) => (line.Requests === 1 ? 'request' : line.message));
    expect(order.indexOf('request')).toBeGreaterThan(order.lastIndexOf('piece written'));
    expect(emf('AnswerLatency').trace_id).toBe('req_r-stream');
  });

  it('records a stream that ended with `event: error` as the error it carried, not as its 200', async () => {
    // Arrange: the body fails after its first piece, as functions/stream.ts reports it.
    installAwsLambdaGlobal();
    const streaming = middy<ApiEvent, ApiResult, Error, ApiContext>({
      executionMode: executionModeStreamifyResponse,
    })
      .use(requestId())
      .use(observability())
      .use(errorEnvelope())
      .handler(async (_event, context) => {
        const body = Readable.from(
          (async function* () {
            yield 'data: {"content":"one"}\n\n';
            context.streamFailure = { status: 500, code: 'DB_QUERY_FAILED' };
            yield 'event: error\ndata: {}\n\n';
          })(),
        );
        return {
          statusCode: 200,
          headers: { 'Content-Type': 'text/event-stream' },
          body,
        } as unknown as ApiResult;
      });
    const sink = new ResponseStreamSink(
      () => undefined,
      () => undefined,
    );

    // Act
    await (streaming as unknown as (event: unknown, stream: unknown, context: unknown) => Promise<void>)(
      apiEvent({ path: '/api/v1/chat/c/stream', requestId: 'r-failed' }),
      sink,
      lambdaContext({ functionName: 'tabletalk-test-stream' }),
    );

    // Assert
    expect(emf('Requests')).toMatchObject({ function: 'stream', status: '500', trace_id: 'req_r-failed' });
    expect(emf('Errors')).toMatchObject({ code: 'DB_QUERY_FAILED' });
  });
});

describe('answer metrics', () => {
  it('records the time of each phase that ran, the rows, the model tokens and the kind', () => {
    // Arrange: a clock the test moves; no guard phase (as for a refusal before the guard).
    let now = 1_000;
    const timings = new Timings(() => now);
    timings.add('load', 4.25);
    timings.add('engine', 120.5);
    timings.add('db', 35);
    timings.add('store', 18);
    now += 190;

    // Act
    const outcome = {
      answer: { query_type: 'sql', row_count: 42 },
      timings,
      tokens: { input: 1500, output: 80 },
    };
    expect(recordAnswer(outcome)).toBe(outcome);

    // Assert
    const line = emf('AnswerLatency');
    expect(dimensionsOf(line)).toEqual([['service', 'stage']]);
    expect(line).toMatchObject({
      AnswerLatency: 190,
      AnswerLoadLatency: 4.25,
      AnswerEngineLatency: 120.5,
      AnswerDatabaseLatency: 35,
      AnswerStorageLatency: 18,
      RowsReturned: 42,
      ModelInputTokens: 1500,
      ModelOutputTokens: 80,
      query_type: 'sql',
    });
    expect(line).not.toHaveProperty('AnswerGuardLatency');
    expect(unitOf(line, 'AnswerEngineLatency')).toBe('Milliseconds');
    expect(unitOf(line, 'RowsReturned')).toBe('Count');
    const answers = emf('Answers');
    expect(dimensionsOf(answers)).toEqual([['service', 'stage', 'query_type']]);
    expect(answers).toMatchObject({ query_type: 'sql', Answers: 1 });
  });

  it('records no rows or tokens for an answer without a query or a model', () => {
    recordAnswer({ answer: { query_type: 'clarification', row_count: 0 }, timings: new Timings() });

    const line = emf('AnswerLatency');
    expect(line).not.toHaveProperty('RowsReturned');
    expect(line).not.toHaveProperty('ModelInputTokens');
    expect(emf('Answers')).toMatchObject({ query_type: 'clarification' });
  });
});

// ---- The limiter ---------------------------------------------------------------------------

const ddb = mockClient(DynamoDBDocumentClient);
const T = Date.UTC(2026, 10, 22, 10, 15, 18);
const principal: Principal = { credential: 'sk', organizationId: 7, plan: 'professional' };

describe('limiter rejections', () => {
  it('records a 429 as LimiterRejections by the limit that was full, and as an Errors code', async () => {
    // Arrange: the message window of this minute is full.
    const full = {
      minuteId: windowId('minute', T),
      minuteCount: 1,
      hourId: windowId('hour', T),
      hourCount: 1,
      monthId: windowId('month', T),
      monthCount: 1,
      messageMinuteId: windowId('minute', T),
      messageMinuteCount: 30,
      messageHourId: windowId('hour', T),
      messageHourCount: 30,
    };
    ddb.on(UpdateCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: Object.fromEntries(Object.entries(full).map(([name, value]) => [name, { N: String(value) }])),
      }),
    );
    const limited = middy<ApiEvent, ApiResult, Error, ApiContext>()
      .use(requestId())
      .use(observability())
      .use(errorEnvelope())
      .use({
        before: (request) => {
          request.context.principal = principal;
        },
      })
      .use(rateLimit({ limits: 'answering', now: () => T }))
      .handler(async () => ok({}));

    // Act
    const response = await invoke<ErrorEnvelope>(limited, { method: 'POST', requestId: 'r-429' });

    // Assert
    expect(response.statusCode).toBe(429);
    const rejection = emf('LimiterRejections');
    expect(dimensionsOf(rejection)).toEqual([['service', 'stage', 'limit']]);
    expect(rejection).toMatchObject({
      limit: 'MESSAGES_PER_MINUTE',
      LimiterRejections: 1,
      trace_id: 'req_r-429',
    });
    expect(emf('Errors')).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: '429' });
  });
});

describe('helpers', () => {
  it('names a function as serverless.yml does', () => {
    expect(shortFunctionName('tabletalk-prod-chatMessage', 'prod')).toBe('chatMessage');
    expect(shortFunctionName('other-name', 'prod')).toBe('other-name');
    expect(shortFunctionName(undefined, 'prod')).toBe('unknown');
  });

  it('reads the envelope’s code, and nothing from a body that is not one', () => {
    expect(errorCodeOf({ statusCode: 400, body: '{"error":{"code":"VALIDATION_ERROR"}}' })).toBe(
      'VALIDATION_ERROR',
    );
    expect(errorCodeOf({ statusCode: 502, body: 'Bad gateway' })).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
  });
});
