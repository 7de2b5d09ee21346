// AWS X-Ray tracing with one Powertools `Tracer`, loaded only where it can trace: in a Lambda
// (AWS_EXECUTION_ENV set) unless POWERTOOLS_TRACE_ENABLED=false. The X-Ray SDK it brings is about
// 125 KB minified, most of a function's 150 KB bundle budget, so it is imported on demand: esbuild
// puts it in a chunk beside the bundle, which a Lambda loads on its first request and which
// the local stack and the tests never load.
//
// `traced(client)` registers an AWS SDK v3 client: once the Tracer is loaded, each of its calls
// is a subsegment (DynamoDB, Secrets Manager, Bedrock). The handler subsegment comes from
// Powertools' captureLambdaHandler, run by the observability middleware (./middleware.ts);
// responses are never recorded in traces (they hold customers' rows).
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj } from '@middy/core';
import { settings } from '#lib/config.ts';
import { logger } from '#lib/log.ts';

export interface LoadedTracer {
  tracer: Tracer;
  /** Powertools' captureLambdaHandler for this tracer. */
  middleware: MiddlewareObj;
}

/** Whether this process traces: the same test as the Tracer's own, minus loading it (lib/config.ts). */
export const tracingWanted = (): boolean => settings().observability.tracingEnabled;

const registered = new Set<unknown>();
let loaded: LoadedTracer | undefined;
let loading: Promise<LoadedTracer | undefined> | undefined;

const load = async (): Promise<LoadedTracer | undefined> => {
  try {
    const [{ Tracer }, { captureLambdaHandler }] = await Promise.all([
      import('@aws-lambda-powertools/tracer'),
      import('@aws-lambda-powertools/tracer/middleware'),
    ]);
    const tracer = new Tracer({ serviceName: 'tabletalk' });
    for (const client of registered) tracer.captureAWSv3Client(client);
    loaded = {
      tracer,
      middleware: captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj,
    };
    return loaded;
  } catch (error) {
    // Tracing never stands in the way of a request.
    logger.warn('tracing unavailable: the tracer could not be loaded', { error: error as Error });
    return undefined;
  }
};

/** The Tracer, loading it on first call; undefined where tracing is off. */
export const loadTracer = (): Promise<LoadedTracer | undefined> => {
  loading ??= tracingWanted() ? load() : Promise.resolve(undefined);
  return loading;
};

/** Registers an AWS SDK v3 client for tracing (a no-op where tracing is off); returns it. */
export const traced = <T>(client: T): T => {
  if (!tracingWanted()) return client;
  registered.add(client);
  if (loaded) loaded.tracer.captureAWSv3Client(client);
  return client;
};
