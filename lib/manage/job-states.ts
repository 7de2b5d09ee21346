// An indexing job as it is read (lib/manage/jobs.ts queues one, ./job-runner.ts runs it): how long
// it may take before it is read as failed, its view in the API and the admin command, and the
// payload the indexer function is invoked with. Both read it here, so the only import between
// them is the queue's on-demand load of the runner.

import { settings } from '#lib/config.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import type { SchemaIndexPointer } from '#lib/store/databases.ts';
import type { JobRecord } from '#lib/store/jobs.ts';

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
