// Indexing jobs (docs/design.md "The control plane"; docs/control-plane.md "Indexing jobs"): a
// connected database's schema is read in the background. Queuing a job counts one operation of
// the indexing quota (429 INDEXING_QUOTA_EXCEEDED when none is left, nothing queued); the job then
// goes queued → running → succeeded | failed, with its progress (relations read of all) visible
// while it runs. A failed job publishes nothing: the database keeps its previous index.
//
// Where a job runs: deployed (INDEXER_FUNCTION_NAME set, no DynamoDB Local), it is handed to the
// `indexer` function by an asynchronous Lambda invocation (functions/indexer.ts; at most
// MAX_EVENT_AGE_SECONDS in Lambda's queue, no retries, an on-failure destination for the record);
// on the local stack and in tests the same `runIndexJob` (./job-runner.ts, loaded on demand: a
// function that only queues jobs does not load it at cold start) runs in the process that queued
// it, after the response. A job that never finishes (its invocation was dropped, the function
// timed out or crashed) is read as failed (JOB_TIMED_OUT) once it is older than the indexer could
// possibly run, and a late delivery of it no longer starts.
import { settings } from '#lib/config.ts';
import { countIndexing } from '#lib/connectors/indexing.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import type { DatabaseRecord, SchemaIndexPointer } from '#lib/store/databases.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { createJob, findJob, finishJob, type JobRecord } from '#lib/store/jobs.ts';

/** The indexer's `maximumEventAge` in serverless.yml: how long Lambda may hold a job before running it. */
export const MAX_EVENT_AGE_SECONDS = 300;
const GRACE_SECONDS = 60;

/** How old a job may be before it is read as failed: queueing, the whole run, and a grace minute. */
export const jobDeadlineMs = (): number =>
  (settings().indexer.timeoutSeconds + MAX_EVENT_AGE_SECONDS + GRACE_SECONDS) * 1000;

/** What the indexer function is invoked with. */
export interface IndexJobPayload {
  organizationId: number;
  jobId: string;
}

export const isIndexJobPayload = (value: unknown): value is IndexJobPayload =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as IndexJobPayload).organizationId) &&
  typeof (value as IndexJobPayload).jobId === 'string';

// ---- reading -----------------------------------------------------------------------------------

/** A job as the API shows it; one that outlived the deadline unfinished is failed (JOB_TIMED_OUT). */
export const publicJob = (job: JobRecord, now = Date.now()) => {
  const deadline = Date.parse(job.createdAt) + jobDeadlineMs();
  const timedOut = (job.status === 'queued' || job.status === 'running') && now > deadline;
  return {
    id: job.id,
    kind: job.kind,
    database_id: job.databaseId,
    status: timedOut ? ('failed' as const) : job.status,
    progress: { tables_done: job.tablesDone, tables_total: job.tablesTotal },
    error: timedOut
      ? {
          code: 'JOB_TIMED_OUT',
          message:
            'The job did not finish in time; the database keeps its previous index. Start another one.',
        }
      : (job.error ?? null),
    created_at: job.createdAt,
    started_at: job.startedAt ?? null,
    finished_at: timedOut ? new Date(deadline).toISOString() : (job.finishedAt ?? null),
  };
};
export type PublicJob = ReturnType<typeof publicJob>;

export interface JobResult {
  job: PublicJob;
  /** A succeeded job's index (the admin command prints a summary of it). */
  index?: { pointer: SchemaIndexPointer; catalog: Catalog };
}

/** The runner, loaded on first use. */
const runner = () => import('./job-runner.ts');

/** One job of the organization; 404 NOT_FOUND_JOB when unknown or another organization's. */
export const getJob = async (organizationId: number, jobId: string): Promise<PublicJob> => {
  const job = await findJob(organizationId, jobId);
  if (!job) throw new ServiceError('JOB_NOT_FOUND', { message: `Job ${jobId} not found` });
  return publicJob(job);
};

// ---- queueing ----------------------------------------------------------------------------------

// The Lambda client, loaded on first use (only a deployed stage hands jobs over).
const invoker = (() => {
  let loaded: Promise<(functionName: string, payload: IndexJobPayload) => Promise<void>> | undefined;
  return () => {
    loaded ??= import('@aws-sdk/client-lambda').then(({ LambdaClient, InvokeCommand }) => {
      const client = new LambdaClient({ region: settings().region });
      return async (functionName: string, payload: IndexJobPayload) => {
        await client.send(
          new InvokeCommand({
            FunctionName: functionName,
            InvocationType: 'Event',
            Payload: new TextEncoder().encode(JSON.stringify(payload)),
          }),
        );
      };
    });
    return loaded;
  };
})();

/** How a queued job is run: handed to the indexer (deployed), in this process, or awaited. */
export type JobRun = 'dispatch' | 'inline';

/**
 * Starts a queued job. Deployed: one asynchronous invocation of the indexer (a failure to hand it
 * over fails the job at once). Local: in this process, after the caller's response.
 */
const dispatchJob = async (job: JobRecord): Promise<void> => {
  const payload = { organizationId: job.organizationId, jobId: job.id };
  const { indexer, dynamodbEndpoint } = settings();
  const functionName = indexer.functionName;
  // The local stack (DynamoDB Local, as lib/connectors/secrets.ts decides) has no indexer function.
  if (!functionName || dynamodbEndpoint !== undefined) {
    setImmediate(() => {
      runner()
        .then(({ runIndexJob }) => runIndexJob(payload))
        .catch((error) => logger.error('an indexing job failed', { error: error as Error }));
    });
    return;
  }
  try {
    await (await invoker())(functionName, payload);
  } catch (error) {
    logger.error('an indexing job could not be handed to the indexer', { error: error as Error });
    await finishJob(job, {
      status: 'failed',
      error: {
        code: 'SYSTEM_SERVICE_UNAVAILABLE',
        message: 'The job could not be started; start another one',
      },
    }).catch(() => undefined);
  }
};

export interface QueueOptions {
  /** The indexing operation was counted already (database creation counts before it stores). */
  counted?: boolean;
  /** A glossary to check against the new index and save with it (database creation). */
  glossary?: Glossary;
  /** `inline`: run it now and wait (the admin command); `dispatch` (default): in the background. */
  run?: JobRun;
}

/** Counts an indexing operation (429 when none is left), queues a job and starts it. */
export const queueIndexJob = async (
  database: DatabaseRecord,
  options: QueueOptions = {},
): Promise<JobResult> => {
  if (!options.counted) await countIndexing(database.organizationId);
  const job = await createJob({
    organizationId: database.organizationId,
    databaseId: database.id,
    ...(options.glossary ? { pendingGlossary: JSON.stringify(options.glossary) } : {}),
  });
  if (options.run === 'inline') {
    const { runIndexJob } = await runner();
    return (
      (await runIndexJob({ organizationId: job.organizationId, jobId: job.id })) ?? { job: publicJob(job) }
    );
  }
  await dispatchJob(job);
  return { job: publicJob(job) };
};
