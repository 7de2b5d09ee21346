// The limiter in the middy chain, with DynamoDB mocked: X-RateLimit-* on successes and errors,
// the 429 envelope, the lease given back after success, after errors and after a streamed body,
// and the failure policy (answering fails closed with 503, everything else fails open).
import { Readable } from 'node:stream';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '#lib/auth/principal.ts';
import { type ErrorEnvelope, ServiceError } from '#lib/errors.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { headerNormaliser } from '#lib/http/middleware/headers.ts';
import { type LimitSelector, rateLimit, rateLimitHeaders } from '#lib/http/middleware/rate-limit.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { ok } from '#lib/http/response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { clearSeenCounters } from '#lib/limits/limiter.ts';
import { windowId } from '#lib/limits/windows.ts';
import { logger } from '#lib/log.ts';
import { apiEvent, invoke, lambdaContext } from '../../helpers/events.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  ddb.reset();
  clearSeenCounters();
  vi.restoreAllMocks();
});

const T = Date.UTC(2026, 10, 22, 10, 15, 18);
const NEXT_MINUTE = String(Date.UTC(2026, 10, 22, 10, 16) / 1000);
const principal: Principal = { credential: 'sk', organizationId: 7, plan: 'professional' };

const counted = (counts: { minute?: number; messages?: number } = {}) => ({
  Attributes: {
    minuteId: windowId('minute', T),
    minuteCount: counts.minute ?? 1,
    hourId: windowId('hour', T),
    hourCount: counts.minute ?? 1,
    monthId: windowId('month', T),
    monthCount: counts.minute ?? 1,
    messageMinuteId: windowId('minute', T),
    messageMinuteCount: counts.messages ?? 1,
    messageHourId: windowId('hour', T),
    messageHourCount: counts.messages ?? 1,
  },
});

/** lib/http/api.ts's order, with authentication replaced by a fixed principal. */
const chain = (limits: LimitSelector, handler: () => Promise<ApiResult>) =>
  middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(requestId())
    .use(rateLimitHeaders())
    .use(errorEnvelope())
    .use(headerNormaliser())
    .use({
      before: (request) => {
        request.context.principal = principal;
      },
    })
    .use(rateLimit({ limits, now: () => T }))
    .handler(handler);

const releases = (): UpdateCommandInput[] =>
  ddb
    .commandCalls(UpdateCommand)
    .map((call) => call.args[0].input)
    .filter((input) => input.UpdateExpression?.startsWith('REMOVE #lease'));

describe('rate limit in the chain', () => {
  it('admits and adds the tightest window’s headers beside X-Request-ID', async () => {
    ddb.on(UpdateCommand).resolves(counted({ minute: 3 }));
    const response = await invoke(
      chain('standard', async () => ok({ fine: true })),
      { path: '/api/v1/branding' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '500',
      'x-ratelimit-remaining': '497',
      'x-ratelimit-reset': NEXT_MINUTE,
      'x-request-id': expect.stringMatching(/^req_/),
    });
  });

  it('refuses with 429 in the envelope, Retry-After and the headers, before the handler runs', async () => {
    // Arrange
    const handler = vi.fn(async () => ok({}));
    const full = counted({ messages: 30 }).Attributes;
    ddb.on(UpdateCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: Object.fromEntries(Object.entries(full).map(([name, value]) => [name, { N: String(value) }])),
      }),
    );
    // Act
    const response = await invoke<ErrorEnvelope>(chain('answering', handler), { method: 'POST' });
    // Assert
    expect(handler).not.toHaveBeenCalled();
    expect(response.statusCode).toBe(429);
    expect(response.body).toMatchObject({
      error: {
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Rate limit exceeded: 30 requests per minute; retry in 42 seconds',
      },
      error_code: 'QUOTA_RATE_LIMIT_EXCEEDED',
      status_code: 429,
    });
    expect(response.headers).toMatchObject({
      'retry-after': '42',
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': NEXT_MINUTE,
    });
    expect(releases()).toHaveLength(0); // no lease was taken
  });

  it('gives the lease back after a success and after an error, and keeps the headers on the error', async () => {
    ddb.on(UpdateCommand).resolves(counted({ messages: 4 }));
    const success = await invoke(
      chain('answering', async () => ok({})),
      { method: 'POST' },
    );
    const failure = await invoke(
      chain('answering', async () => {
        throw new ServiceError('CONVERSATION_NOT_FOUND');
      }),
      { method: 'POST' },
    );
    expect(success.statusCode).toBe(200);
    expect(failure.statusCode).toBe(404);
    expect(failure.headers).toMatchObject({ 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '26' });
    expect(releases()).toHaveLength(2);
  });

  it('gives a streamed answer’s lease back when the stream ends, not when the handler returns', async () => {
    // Arrange
    ddb.on(UpdateCommand).resolves(counted());
    const handler = chain(
      'answering',
      async () =>
        ({ statusCode: 200, body: Readable.from(['data: a\n\n', 'data: b\n\n']) }) as unknown as ApiResult,
    );
    // Act
    const result = (await handler(apiEvent({}), lambdaContext())) as unknown as { body: Readable };
    const beforeReading = releases().length;
    const chunks: string[] = [];
    for await (const chunk of result.body) chunks.push(String(chunk));
    // Assert
    expect(beforeReading).toBe(0);
    expect(chunks.join('')).toBe('data: a\n\ndata: b\n\n');
    expect(releases()).toHaveLength(1);
  });

  it('lets one route choose per request: the chat variant answers, the append variant does not', async () => {
    ddb.on(UpdateCommand).resolves(counted());
    const selector: LimitSelector = (event) => (event.body?.includes('"message"') ? 'answering' : 'standard');
    const handler = chain(selector, async () => ok({}));
    await invoke(handler, { method: 'POST', body: { role: 'user', content: 'hi' } });
    await invoke(handler, { method: 'POST', body: { message: 'How many orders?' } });
    const [append, chat] = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(append?.ExpressionAttributeValues).not.toHaveProperty(':leaseMax');
    expect(chat?.ExpressionAttributeValues).toHaveProperty(':leaseMax', 50);
  });
});

describe('failure policy', () => {
  const outage = () => Object.assign(new Error('DynamoDB is down'), { name: 'ServiceUnavailable' });

  it('serves a read when the counters cannot be reached, without headers, and warns', async () => {
    ddb.on(UpdateCommand).rejects(outage());
    const warn = vi.spyOn(logger, 'warn');
    const response = await invoke(chain('standard', async () => ok({ served: true })));
    expect(response.statusCode).toBe(200);
    expect(response.headers).not.toHaveProperty('x-ratelimit-limit');
    expect(warn).toHaveBeenCalledWith(
      'rate limiter unavailable: request served without counting',
      expect.objectContaining({ organizationId: 7 }),
    );
  });

  it('refuses an answering request with 503 SYSTEM_SERVICE_UNAVAILABLE and Retry-After', async () => {
    ddb.on(UpdateCommand).rejects(outage());
    const handler = vi.fn(async () => ok({}));
    const response = await invoke<ErrorEnvelope>(chain('answering', handler), { method: 'POST' });
    expect(handler).not.toHaveBeenCalled();
    expect(response.statusCode).toBe(503);
    expect(response.body).toMatchObject({
      error: { code: 'SERVICE_UNAVAILABLE' },
      error_code: 'SYSTEM_SERVICE_UNAVAILABLE',
    });
    expect(response.headers['retry-after']).toBe('2');
  });

  it('serves the answer when only giving the lease back fails (the lease lapses on its own)', async () => {
    ddb.on(UpdateCommand).resolvesOnce(counted()).rejects(outage());
    const warn = vi.spyOn(logger, 'warn');
    const response = await invoke(
      chain('answering', async () => ok({ answered: true })),
      { method: 'POST' },
    );
    expect(response.statusCode).toBe(200);
    expect(warn).toHaveBeenCalledWith(
      'concurrency lease not given back; it lapses on its own',
      expect.anything(),
    );
  });
});
