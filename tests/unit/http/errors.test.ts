// The error catalogue and the envelope (docs/design.md "Errors"): every kind carries the status and
// both codes docs/design.md's table gives it, every envelope has both documented shapes' fields,
// and unknown failures are reduced to a generic 500 or, for dependency outages, a 503.
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import {
  type ErrorKind,
  errorCatalogue,
  errorEnvelope,
  invalidField,
  ServiceError,
  toServiceError,
} from '#lib/errors.ts';
import { errorEnvelope as errorEnvelopeMiddleware } from '#lib/http/middleware/error-envelope.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { invoke } from '../../helpers/events.ts';

// docs/design.md's table (and "Smaller decisions" for 413 and 405), written out here rather than
// read back from the catalogue: [status, error.code (shape A), error_code (shape B)].
const expected: Record<ErrorKind, { status: number; code: string; errorCode: string }> = {
  VALIDATION: { status: 400, code: 'VALIDATION_ERROR', errorCode: 'VALIDATION_ERROR' },
  // The spec's 422 "connection test failed" (details code CONNECTION_FAILED).
  CONNECTION_TEST_FAILED: { status: 422, code: 'VALIDATION_ERROR', errorCode: 'VALIDATION_ERROR' },
  PAYLOAD_TOO_LARGE: { status: 413, code: 'VALIDATION_ERROR', errorCode: 'VALIDATION_ERROR' },
  INVALID_CREDENTIALS: { status: 401, code: 'UNAUTHORIZED', errorCode: 'AUTH_INVALID_CREDENTIALS' },
  TOKEN_EXPIRED: { status: 401, code: 'UNAUTHORIZED', errorCode: 'AUTH_TOKEN_EXPIRED' },
  TOKEN_INVALID: { status: 401, code: 'UNAUTHORIZED', errorCode: 'AUTH_TOKEN_INVALID' },
  SCOPE_REQUIRED: { status: 403, code: 'FORBIDDEN', errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS' },
  FORBIDDEN: { status: 403, code: 'FORBIDDEN', errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS' },
  PLAN_FEATURE_REQUIRED: {
    status: 403,
    code: 'PLAN_FEATURE_REQUIRED',
    errorCode: 'BUSINESS_SUBSCRIPTION_REQUIRED',
  },
  FEATURE_NOT_AVAILABLE: { status: 403, code: 'FORBIDDEN', errorCode: 'BUSINESS_FEATURE_NOT_AVAILABLE' },
  INVALID_TENANT: { status: 403, code: 'INVALID_TENANT_ID', errorCode: 'AUTH_INSUFFICIENT_PERMISSIONS' },
  NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_RESOURCE' },
  CONVERSATION_NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_RESOURCE' },
  DATABASE_NOT_FOUND: { status: 404, code: 'DATABASE_NOT_FOUND', errorCode: 'NOT_FOUND_DATABASE' },
  PERSONALITY_NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_PERSONALITY' },
  // The control plane (docs/design.md "The control plane").
  API_KEY_NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_API_KEY' },
  JOB_NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_JOB' },
  PATTERN_NOT_FOUND: { status: 404, code: 'NOT_FOUND', errorCode: 'NOT_FOUND_PATTERN' },
  DUPLICATE_ENTRY: { status: 400, code: 'DUPLICATE_ENTRY', errorCode: 'BUSINESS_DUPLICATE_ENTRY' },
  // docs/design.md fixes only the status of a wrong method ("405 with the envelope"); the codes are
  // checked against the spec's lists below.
  METHOD_NOT_ALLOWED: { status: 405, code: 'METHOD_NOT_ALLOWED', errorCode: 'VALIDATION_ERROR' },
  RATE_LIMITED: { status: 429, code: 'RATE_LIMIT_EXCEEDED', errorCode: 'QUOTA_RATE_LIMIT_EXCEEDED' },
  MONTHLY_QUOTA_EXCEEDED: {
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    errorCode: 'QUOTA_MONTHLY_LIMIT_EXCEEDED',
  },
  INDEXING_QUOTA_EXCEEDED: {
    status: 429,
    code: 'INDEXING_QUOTA_EXCEEDED',
    errorCode: 'INDEXING_QUOTA_EXCEEDED',
  },
  DB_CONNECTION_FAILED: { status: 500, code: 'DB_CONNECTION_FAILED', errorCode: 'DB_CONNECTION_FAILED' },
  DB_QUERY_FAILED: { status: 500, code: 'DB_QUERY_FAILED', errorCode: 'DB_QUERY_FAILED' },
  LLM_FAILED: { status: 500, code: 'EXTERNAL_LLM_ERROR', errorCode: 'EXTERNAL_LLM_ERROR' },
  SERVICE_UNAVAILABLE: { status: 503, code: 'SERVICE_UNAVAILABLE', errorCode: 'SYSTEM_SERVICE_UNAVAILABLE' },
  INTERNAL: { status: 500, code: 'INTERNAL_SERVER_ERROR', errorCode: 'SYSTEM_INTERNAL_ERROR' },
};

// The spec's complete shape B list, with each code's status (spec "Complete error_code list").
const specErrorCodes: Record<string, number[]> = {
  AUTH_INVALID_CREDENTIALS: [401],
  AUTH_TOKEN_EXPIRED: [401],
  AUTH_TOKEN_INVALID: [401],
  AUTH_INSUFFICIENT_PERMISSIONS: [403],
  NOT_FOUND_RESOURCE: [404],
  NOT_FOUND_DATABASE: [404],
  NOT_FOUND_PERSONALITY: [404],
  NOT_FOUND_API_KEY: [404],
  NOT_FOUND_JOB: [404],
  NOT_FOUND_PATTERN: [404],
  BUSINESS_DUPLICATE_ENTRY: [400],
  // 400 normally, 422 for business-level checks; docs/design.md adds 413 (body size) and uses it for 405.
  VALIDATION_ERROR: [400, 405, 413, 422],
  BUSINESS_SUBSCRIPTION_REQUIRED: [403],
  BUSINESS_FEATURE_NOT_AVAILABLE: [403],
  QUOTA_MONTHLY_LIMIT_EXCEEDED: [429],
  QUOTA_RATE_LIMIT_EXCEEDED: [429],
  INDEXING_QUOTA_EXCEEDED: [429],
  DB_CONNECTION_FAILED: [500],
  DB_QUERY_FAILED: [500],
  EXTERNAL_LLM_ERROR: [500],
  SYSTEM_INTERNAL_ERROR: [500],
  SYSTEM_SERVICE_UNAVAILABLE: [503],
};

const kinds = Object.keys(expected) as ErrorKind[];
const FIXED_NOW = new Date('2026-03-04T05:06:07.089Z');

describe('error catalogue', () => {
  it('has exactly the kinds this test knows (a new kind needs its row here)', () => {
    expect(Object.keys(errorCatalogue).sort()).toEqual([...kinds].sort());
  });

  it.each(kinds)('%s has the status and both codes DESIGN.md gives it', (kind) => {
    const envelope = errorEnvelope(new ServiceError(kind), 'req_test', FIXED_NOW);
    expect({
      status: envelope.status_code,
      code: envelope.error.code,
      errorCode: envelope.error_code,
    }).toEqual(expected[kind]);
    expect(new ServiceError(kind).status).toBe(expected[kind].status);
  });

  it.each(kinds)(
    '%s uses a shape B error_code from the spec’s list, with a status the spec allows',
    (kind) => {
      const envelope = errorEnvelope(new ServiceError(kind), 'req_test', FIXED_NOW);
      expect(Object.keys(specErrorCodes)).toContain(envelope.error_code);
      expect(specErrorCodes[envelope.error_code]).toContain(envelope.status_code);
    },
  );
});

describe('errorEnvelope', () => {
  it.each(kinds)('%s: carries every field of shape A and of shape B', (kind) => {
    // Arrange
    const error = new ServiceError(kind, {
      issues: [{ field: 'body.message', message: 'is required', code: 'REQUIRED' }],
    });

    // Act
    const envelope = errorEnvelope(error, 'req_abc', FIXED_NOW) as unknown as Record<string, unknown>;

    // Assert: shape A
    expect(envelope.success).toBe(false);
    expect(envelope.error).toEqual({
      code: expected[kind].code,
      message: expect.any(String),
      details: expect.any(String),
    });
    const shapeA = envelope.error as { message: string; details: string };
    expect(shapeA.message.length).toBeGreaterThan(0);
    expect(shapeA.details.length).toBeGreaterThan(0);
    // Assert: shape B
    expect(envelope.error_code).toBe(expected[kind].errorCode);
    expect(envelope.message).toBe(shapeA.message);
    expect(envelope.status_code).toBe(expected[kind].status);
    expect(envelope.details).toEqual([{ field: 'body.message', message: 'is required', code: 'REQUIRED' }]);
    expect(envelope.trace_id).toBe('req_abc');
    expect(envelope.timestamp).toBe('2026-03-04T05:06:07.089Z');
  });

  it('gives shape A details the detail code when one is set, else the issues as text, else the message', () => {
    const withDetail = errorEnvelope(
      new ServiceError('DB_QUERY_FAILED', { detail: 'QUERY_TIMEOUT' }),
      'req_1',
    );
    const withIssues = errorEnvelope(
      invalidField('cursor', 'The cursor is not valid', 'INVALID_CURSOR'),
      'req_2',
    );
    const bare = errorEnvelope(new ServiceError('NOT_FOUND'), 'req_3');
    expect(withDetail.error.details).toBe('QUERY_TIMEOUT');
    expect(withIssues.error.details).toContain('cursor');
    expect(withIssues.details).toEqual([
      { field: 'cursor', message: 'The cursor is not valid', code: 'INVALID_CURSOR' },
    ]);
    expect(bare.error.details).toBe(bare.message);
    expect(bare.details).toEqual([]);
  });

  it('timestamps in UTC ISO 8601 with three fractional digits', () => {
    const envelope = errorEnvelope(new ServiceError('RATE_LIMITED'), 'req_1');
    expect(envelope.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('never shows the message of an INTERNAL error, even one set on purpose', () => {
    const error = new ServiceError('INTERNAL', { message: 'SELECT * FROM secrets failed on db-7.internal' });
    const text = JSON.stringify(errorEnvelope(error, 'req_1'));
    expect(text).not.toContain('secrets');
    expect(text).not.toContain('db-7.internal');
  });
});

describe('toServiceError', () => {
  it('passes typed errors through unchanged', () => {
    const error = new ServiceError('DATABASE_NOT_FOUND');
    expect(toServiceError(error)).toBe(error);
  });

  it.each([
    ['an Error', () => new Error('TypeError: cannot read properties of undefined (reading "PK")')],
    ['a TypeError', () => new TypeError('x is not a function')],
    ['a thrown string', () => 'raw string failure'],
    ['a thrown object', () => ({ weird: true })],
    ['undefined', () => undefined],
    [
      'a DynamoDB validation error',
      () =>
        Object.assign(new Error('One or more parameter values were invalid'), {
          name: 'ValidationException',
        }),
    ],
  ])('turns %s into a generic 500 without its text', (_name, make) => {
    // Arrange
    const thrown = make();

    // Act
    const error = toServiceError(thrown);
    const envelope = errorEnvelope(error, 'req_x');

    // Assert
    expect(error.kind).toBe('INTERNAL');
    expect(envelope.status_code).toBe(500);
    expect(envelope.message).toBe(errorCatalogue.INTERNAL.message);
    const text = JSON.stringify(envelope);
    if (thrown instanceof Error) {
      expect(text).not.toContain(thrown.message);
      for (const line of (thrown.stack ?? '').split('\n').slice(1)) expect(text).not.toContain(line.trim());
    } else if (typeof thrown === 'string') {
      expect(text).not.toContain(thrown);
    }
    expect(error.headers['Retry-After']).toBeUndefined();
  });

  it.each([
    [
      'ProvisionedThroughputExceededException',
      () => new ProvisionedThroughputExceededException({ message: 'throughput', $metadata: {} }),
    ],
    ['ThrottlingException', () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })],
    ['RequestLimitExceeded', () => Object.assign(new Error('limit'), { name: 'RequestLimitExceeded' })],
    [
      'ECONNREFUSED',
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
    ],
    ['ECONNRESET', () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    [
      'ENOTFOUND',
      () =>
        Object.assign(new Error('getaddrinfo ENOTFOUND dynamodb.us-east-1.amazonaws.com'), {
          code: 'ENOTFOUND',
        }),
    ],
  ])('turns %s into 503 SERVICE_UNAVAILABLE with a Retry-After in seconds', (_name, make) => {
    const thrown = make();
    const error = toServiceError(thrown);
    const envelope = errorEnvelope(error, 'req_x');
    expect(error.kind).toBe('SERVICE_UNAVAILABLE');
    expect(envelope).toMatchObject({
      status_code: 503,
      error_code: 'SYSTEM_SERVICE_UNAVAILABLE',
      error: { code: 'SERVICE_UNAVAILABLE' },
    });
    expect(error.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
    expect(JSON.stringify(envelope)).not.toContain(thrown.message);
  });
});

describe('request-id and error-envelope middleware', () => {
  // The two pieces of lib/http/api.ts's chain that produce an error response, without
  // authentication in front of them.
  const chainThrowing = (thrown: unknown) =>
    middy<ApiEvent, ApiResult, Error, ApiContext>()
      .use(requestId())
      .use(errorEnvelopeMiddleware())
      .handler(async () => {
        throw thrown;
      });

  it.each(kinds)('%s: the response status, headers and body agree', async (kind) => {
    // Arrange
    const thrown = new ServiceError(kind, {
      headers: kind === 'RATE_LIMITED' ? { 'Retry-After': '60' } : {},
    });

    // Act
    const response = await invoke<Record<string, unknown>>(chainThrowing(thrown), {
      requestId: `rid-${kind}`,
    });

    // Assert
    expect(response.statusCode).toBe(expected[kind].status);
    expect(response.body.status_code).toBe(expected[kind].status);
    expect(response.headers['x-request-id']).toBe(`req_rid-${kind}`);
    expect(response.body.trace_id).toBe(response.headers['x-request-id']);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    if (kind === 'RATE_LIMITED') expect(response.headers['retry-after']).toBe('60');
  });

  it('answers an unknown Error with a 500 that carries neither its message nor its stack', async () => {
    const thrown = new Error('ECONNABORTED talking to 10.9.8.7 with password=swordfish');
    const response = await invoke<Record<string, unknown>>(chainThrowing(thrown));
    expect(response.statusCode).toBe(500);
    expect(response.raw).not.toContain('swordfish');
    expect(response.raw).not.toContain('10.9.8.7');
    for (const line of (thrown.stack ?? '').split('\n').slice(1))
      expect(response.raw).not.toContain(line.trim());
    expect(response.body.trace_id).toBe(response.headers['x-request-id']);
  });

  it('answers ECONNREFUSED with 503 and Retry-After', async () => {
    const thrown = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
    const response = await invoke<Record<string, unknown>>(chainThrowing(thrown));
    expect(response.statusCode).toBe(503);
    expect(response.body.error_code).toBe('SYSTEM_SERVICE_UNAVAILABLE');
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });
});
