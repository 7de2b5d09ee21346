// The observability middleware of every chain (lib/http/api.ts), right after the request id and
// the logger's Lambda context: X-Ray's handler subsegment (lib/observability/tracer.ts) and, once
// the response has gone out, the request's metrics (lib/observability/metrics.ts): Requests and Latency, and Errors by the
// envelope's code for a 4xx or 5xx. Its `after` and `onError` run after those of every later
// middleware, so it sees the final response, the error envelope included.
//
// A streamed response (functions/stream.ts) is still being produced when the handler returns:
// the request ends when its body ends. The body is passed through a stream that records the
// request (and closes the handler subsegment) then, and that puts `trace_id` back on the logger
// for the stream's own log lines while the body is written out (the request-id middleware takes
// it off when the chain returns).
import { Readable } from 'node:stream';
import type { MiddlewareObj, Request } from '@middy/core';
import { settings } from '#lib/config.ts';
import { logger } from '#lib/log.ts';
import { metricsSink, recordRequest, setCurrentTraceId } from '#lib/observability/metrics.ts';
import { type LoadedTracer, loadTracer } from '#lib/observability/tracer.ts';
import { onStreamEnd } from '../stream-end.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../types.ts';

type ApiRequest = Request<ApiEvent, ApiResult, Error, ApiContext>;

interface Observed {
  startedAt: number;
  functionName: string;
  tracer: LoadedTracer | undefined;
  done: boolean;
}

/** `tabletalk-prod-branding` → `branding`: the name serverless.yml gives the function. */
export const shortFunctionName = (lambdaName: string | undefined, stage: string | undefined): string => {
  if (!lambdaName) return 'unknown';
  const prefix = `tabletalk-${stage ?? ''}-`;
  return stage && lambdaName.startsWith(prefix) ? lambdaName.slice(prefix.length) : lambdaName;
};

/** The envelope's `error.code` of an error response (lib/errors.ts builds every one). */
export const errorCodeOf = (response: ApiResult | null | undefined): string | undefined => {
  const body: unknown = response?.body;
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
};

/** `body` passed through, `onStart` called when it starts flowing and `done` when it has ended, failed or been dropped. */
const endingWith = (body: Readable, onStart: () => void, done: () => void): Readable => {
  const out = onStreamEnd(body, done);
  // Flowing starts when the response stream reads the body, after the whole chain has returned.
  out.once('resume', onStart);
  return out;
};

export const observability = (): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => {
  const observed = new WeakMap<ApiRequest, Observed>();

  const finish = (request: ApiRequest, state: Observed): void => {
    if (state.done) return;
    state.done = true;
    const failed = request.context.streamFailure;
    const status = failed?.status ?? request.response?.statusCode ?? 500;
    try {
      recordRequest({
        functionName: state.functionName,
        status,
        latencyMs: performance.now() - state.startedAt,
        traceId: request.context.traceId,
        ...(status >= 400 ? { errorCode: failed?.code ?? errorCodeOf(request.response) } : {}),
      });
    } catch (error) {
      logger.warn('request metrics not recorded', { error: error as Error });
    }
  };

  const observabilityBefore = async (request: ApiRequest): Promise<void> => {
    const functionName = shortFunctionName(request.context.functionName, settings().stage);
    const state: Observed = { startedAt: performance.now(), functionName, tracer: undefined, done: false };
    observed.set(request, state);
    setCurrentTraceId(request.context.traceId);
    metricsSink()?.captureColdStartMetric(functionName);
    state.tracer = await loadTracer();
    await state.tracer?.middleware.before?.(request as Request);
  };

  const observabilityAfter = async (request: ApiRequest): Promise<void> => {
    const state = observed.get(request);
    if (!state) return;
    const body: unknown = request.response?.body;
    if (request.response && body instanceof Readable) {
      const { traceId } = request.context;
      const ended = endingWith(
        body,
        () => {
          setCurrentTraceId(traceId);
          logger.appendKeys({ trace_id: traceId });
        },
        () => {
          finish(request, state);
          void state.tracer?.middleware.after?.(request as Request);
          logger.removeKeys(['trace_id']);
        },
      );
      (request.response as { body: unknown }).body = ended;
      return;
    }
    await state.tracer?.middleware.after?.(request as Request);
    finish(request, state);
  };

  const observabilityOnError = async (request: ApiRequest): Promise<void> => {
    const state = observed.get(request);
    if (!state) return;
    // A client's mistake (4xx) is no fault of the function: the trace records it as an answer.
    const status = request.response?.statusCode ?? 500;
    if (status >= 500) await state.tracer?.middleware.onError?.(request as Request);
    else await state.tracer?.middleware.after?.(request as Request);
    finish(request, state);
  };

  return { before: observabilityBefore, after: observabilityAfter, onError: observabilityOnError };
};
