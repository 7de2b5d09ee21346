// CloudWatch metrics as EMF (Embedded Metric Format) lines on stdout, from one Powertools
// `Metrics`: namespace `tabletalk`, dimensions `service` (tabletalk) and `stage`. CloudWatch Logs
// turns each line into metric data points; nothing calls the CloudWatch API.
//
// Every event is published on its own line, at once and synchronously (metrics, dimensions and
// metadata added, then `publishStoredMetrics()`, with no await in between): what one request
// records can never mix with another's, even where several requests share a process (the local
// gateway) or a streamed answer ends after its handler returned. Per line:
//   request   Requests, Latency                   [service, stage] and [service, stage, function]
//   error     Errors (4xx and 5xx)                [service, stage, code]   (the envelope's error.code)
//   answer    AnswerLatency, Answer{Load,Engine,Guard,Database,Storage}Latency, RowsReturned,
//             ModelInputTokens, ModelOutputTokens  [service, stage]
//             Answers                              [service, stage, query_type]
//   limiter   LimiterRejections                    [service, stage, limit]  (REQUESTS_PER_MINUTE, …)
//   cold start ColdStart                          [service, stage, function_name]  (Powertools)
// Lines carry `trace_id` (the request's X-Request-ID) as a property, so a metric's data point
// leads to the request's log lines. docs/observability.md "Metrics".
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { fromSettings } from '#lib/config.ts';
import type { Phase, Timings } from './timing.ts';

export const NAMESPACE = 'tabletalk';
export const SERVICE = 'tabletalk';

/**
 * The container's Metrics, created on first use; undefined while metrics are off (the default
 * unless POWERTOOLS_METRICS_DISABLED=false, which serverless.yml sets in deployed stages), so
 * scripts, tools and tests that write their own output to stdout stay clean.
 */
export const metricsSink = fromSettings(({ stage, observability }) =>
  observability.metricsEnabled
    ? new Metrics({ namespace: NAMESPACE, serviceName: SERVICE, defaultDimensions: { stage } })
    : undefined,
);

/** The request being served, for the properties of lines recorded outside the chain (answers). */
let currentTraceId: string | undefined;

export const setCurrentTraceId = (traceId: string | undefined): void => {
  currentTraceId = traceId;
};

const withTraceId = (metrics: Metrics, traceId = currentTraceId): void => {
  if (traceId) metrics.addMetadata('trace_id', traceId);
};

export interface RequestRecord {
  /** The function's short name (`branding`, `stream`, …). */
  functionName: string;
  status: number;
  latencyMs: number;
  traceId?: string | undefined;
  /** The envelope's `error.code` of a 4xx or 5xx response. */
  errorCode?: string | undefined;
}

/** One request, when its response has gone out (a streamed one: when the stream ended). */
export const recordRequest = (record: RequestRecord): void => {
  const metrics = metricsSink();
  if (!metrics) return;
  // Every request, in total and per function.
  metrics.addDimensions({});
  metrics.addDimensions({ function: record.functionName });
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.addMetric('Latency', MetricUnit.Milliseconds, round(record.latencyMs));
  metrics.addMetadata('status', String(record.status));
  withTraceId(metrics, record.traceId);
  metrics.publishStoredMetrics();
  if (record.status < 400) return;
  metrics.addDimension('code', record.errorCode ?? `HTTP_${record.status}`);
  metrics.addMetric('Errors', MetricUnit.Count, 1);
  metrics.addMetadata('status', String(record.status));
  metrics.addMetadata('function', record.functionName);
  withTraceId(metrics, record.traceId);
  metrics.publishStoredMetrics();
};

/** The answer-side metric of each timing phase (lib/observability/timing.ts). */
export const PHASE_METRICS: Readonly<Record<Phase, string>> = {
  load: 'AnswerLoadLatency',
  engine: 'AnswerEngineLatency',
  guard: 'AnswerGuardLatency',
  db: 'AnswerDatabaseLatency',
  store: 'AnswerStorageLatency',
};

/** What recordAnswer reads of an answer's outcome (lib/answer/orchestrator.ts AnswerOutcome). */
export interface AnsweredOutcome {
  answer: { query_type: string; row_count: number };
  timings: Pick<Timings, 'get' | 'elapsed'>;
  /** The model's token usage, when a model engine answered. */
  tokens?: { input?: number | undefined; output?: number | undefined } | undefined;
}

/**
 * One answer: its time per phase (a phase that did not run, such as the guard of a clarification,
 * records nothing), the rows it returned when a query ran, the model's tokens, and its kind.
 * Returns the outcome, so that a caller can record and return in one expression.
 */
export const recordAnswer = <T extends AnsweredOutcome>(outcome: T): T => {
  const { answer, timings, tokens } = outcome;
  const metrics = metricsSink();
  if (!metrics) return outcome;
  metrics.addMetric('AnswerLatency', MetricUnit.Milliseconds, round(timings.elapsed()));
  for (const [phase, name] of Object.entries(PHASE_METRICS) as [Phase, string][]) {
    const ms = timings.get(phase);
    if (ms > 0) metrics.addMetric(name, MetricUnit.Milliseconds, round(ms));
  }
  if (answer.query_type === 'sql') metrics.addMetric('RowsReturned', MetricUnit.Count, answer.row_count);
  if (tokens?.input !== undefined) metrics.addMetric('ModelInputTokens', MetricUnit.Count, tokens.input);
  if (tokens?.output !== undefined) metrics.addMetric('ModelOutputTokens', MetricUnit.Count, tokens.output);
  metrics.addMetadata('query_type', answer.query_type);
  withTraceId(metrics);
  metrics.publishStoredMetrics();
  metrics.addDimension('query_type', answer.query_type);
  metrics.addMetric('Answers', MetricUnit.Count, 1);
  withTraceId(metrics);
  metrics.publishStoredMetrics();
  return outcome;
};

/** A request the rate limiter refused (429), by the window or limit that was full. */
export const recordLimiterRejection = (limit: string, traceId?: string): void => {
  const metrics = metricsSink();
  if (!metrics) return;
  metrics.addDimension('limit', limit);
  metrics.addMetric('LimiterRejections', MetricUnit.Count, 1);
  withTraceId(metrics, traceId);
  metrics.publishStoredMetrics();
};

const round = (ms: number): number => Math.round(ms * 100) / 100;
