// The indexer (docs/control-plane.md "Indexing jobs"): runs one queued indexing job, handed over
// by an asynchronous invocation (InvocationType Event) from the function that queued it. No HTTP
// route. A job's own failure is recorded on the job and the invocation succeeds; only a crash or
// the timeout fails it, and Lambda then sends the record to the on-failure destination (no
// retries: serverless.yml), while the job is read as failed once past its deadline.
import type { Context } from 'aws-lambda';
import { loggerInstance } from '#lib/log.ts';
import { runIndexJob } from '#lib/manage/job-runner.ts';
import { type IndexJobPayload, isIndexJobPayload } from '#lib/manage/job-states.ts';

export const handler = async (event: unknown, context: Context): Promise<{ job: string; status: string }> => {
  loggerInstance().addContext(context);
  if (!isIndexJobPayload(event)) throw new Error('the indexer takes {organizationId, jobId}');
  const payload: IndexJobPayload = { organizationId: event.organizationId, jobId: event.jobId };
  const result = await runIndexJob(payload);
  return { job: payload.jobId, status: result?.job.status ?? 'unknown' };
};
