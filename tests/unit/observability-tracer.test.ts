// Tracing (lib/observability/tracer.ts): on only in a Lambda and unless POWERTOOLS_TRACE_ENABLED
// is false; the Tracer is loaded on demand, captures the AWS SDK clients registered before and
// after it loaded, and its handler middleware leaves a request's answer alone. This file runs
// as if in a Lambda (AWS_EXECUTION_ENV set), without an X-Ray daemon or trace header.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { describe, expect, it, vi } from 'vitest';
import { readSettings } from '#lib/config.ts';
import { errorEnvelope } from '#lib/http/middleware/error-envelope.ts';
import { observability } from '#lib/http/middleware/observability.ts';
import { requestId } from '#lib/http/middleware/request-id.ts';
import { ok } from '#lib/http/response.ts';
import type { ApiContext, ApiEvent, ApiResult } from '#lib/http/types.ts';
import { loadTracer, traced, tracingWanted } from '#lib/observability/tracer.ts';
import { invoke } from '../helpers/events.ts';

vi.hoisted(() => {
  process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs24.x';
  process.env.POWERTOOLS_TRACE_ENABLED = 'true';
  // Without a trace header the X-Ray SDK would log a missing context on each call.
  process.env.AWS_XRAY_CONTEXT_MISSING = 'IGNORE_ERROR';
});

const xrayMiddleware = (client: DynamoDBClient) =>
  client.middlewareStack.identify().filter((name) => /xray/i.test(name));

describe('tracingWanted', () => {
  it('traces in a Lambda unless POWERTOOLS_TRACE_ENABLED turns it off', () => {
    const tracing = (env: Record<string, string>) => readSettings(env).observability.tracingEnabled;
    expect(tracing({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' })).toBe(true);
    expect(tracing({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(
      false,
    );
    expect(tracing({})).toBe(false); // the local stack, the tests, the admin command
    expect(tracing({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', AWS_SAM_LOCAL: 'true' })).toBe(false);
    // This process is set up as a Lambda (above).
    expect(tracingWanted()).toBe(true);
  });
});

describe('the lazily loaded Tracer', () => {
  it('captures clients registered while and after it loads', async () => {
    // Registered before the Tracer is loaded (on the first request).
    const before = traced(new DynamoDBClient({ region: 'us-east-1' }));

    const loaded = await loadTracer();

    expect(loaded?.tracer.isTracingEnabled()).toBe(true);
    expect(xrayMiddleware(before).length).toBeGreaterThan(0);
    const after = traced(new DynamoDBClient({ region: 'us-east-1' }));
    expect(xrayMiddleware(after).length).toBeGreaterThan(0);
    // Outside tracing nothing is added.
    expect(xrayMiddleware(new DynamoDBClient({ region: 'us-east-1' }))).toEqual([]);
  });

  it('runs in the chain without changing the answer, for successes and errors', async () => {
    const chain = (fail: boolean) =>
      middy<ApiEvent, ApiResult, Error, ApiContext>()
        .use(requestId())
        .use(observability())
        .use(errorEnvelope())
        .handler(async () => {
          if (fail) throw new Error('a bug');
          return ok({ traced: true });
        });

    const success = await invoke(chain(false), { requestId: 'r-traced' });
    const failure = await invoke(chain(true), { requestId: 'r-failed' });

    expect(success).toMatchObject({ statusCode: 200, body: { success: true, data: { traced: true } } });
    expect(success.headers['x-request-id']).toBe('req_r-traced');
    expect(failure).toMatchObject({ statusCode: 500, body: { trace_id: 'req_r-failed' } });
  });
});
