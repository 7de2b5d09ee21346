// Background jobs of an organization (docs/design.md "The control plane": indexing jobs).
// Item: PK ORG#<org>, SK JOB#<uuidv7>, so a job is read by organization and id in one GetItem and
// another organization's id is simply not found. A job goes queued → running → succeeded | failed;
// each step is a conditional update on the status it leaves, so a job handed to the indexer twice
// (asynchronous invocations are delivered at least once) runs once. Jobs expire (TTL) after
// JOB_TTL_DAYS. Reading a job that never finished is lib/manage/job-states.ts's business (the timeout).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, tableName } from './client.ts';

const PREFIX = 'JOB#';
export const JOB_TTL_DAYS = 30;

export const jobKey = (organizationId: number, id: string) => ({
  PK: `ORG#${organizationId}`,
  SK: `${PREFIX}${id}`,
});

export const JobStatus = v.picklist(['queued', 'running', 'succeeded', 'failed']);
export type JobStatus = v.InferOutput<typeof JobStatus>;

export const JobRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  kind: v.literal('index'),
  databaseId: v.string(),
  status: JobStatus,
  tablesDone: v.number(),
  tablesTotal: v.number(),
  error: v.optional(v.object({ code: v.string(), message: v.string() })),
  /** A glossary given at database creation, checked against the new index before it is published. */
  pendingGlossary: v.optional(v.string()),
  createdAt: v.string(),
  startedAt: v.optional(v.string()),
  finishedAt: v.optional(v.string()),
});
export type JobRecord = v.InferOutput<typeof JobRecord>;

export const createJob = async (
  input: { organizationId: number; databaseId: string; pendingGlossary?: string },
  now = new Date(),
): Promise<JobRecord> => {
  const job: JobRecord = {
    id: uuidv7(now.getTime()),
    organizationId: input.organizationId,
    kind: 'index',
    databaseId: input.databaseId,
    status: 'queued',
    tablesDone: 0,
    tablesTotal: 0,
    ...(input.pendingGlossary !== undefined ? { pendingGlossary: input.pendingGlossary } : {}),
    createdAt: now.toISOString(),
  };
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...jobKey(job.organizationId, job.id),
        type: 'job',
        ...job,
        expiresAt: Math.floor(now.getTime() / 1000) + JOB_TTL_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return job;
};

export const findJob = async (organizationId: number, id: string): Promise<JobRecord | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: jobKey(organizationId, id), ConsistentRead: true }),
  );
  return Item ? v.parse(JobRecord, Item) : undefined;
};

/** One conditional step of a job; false when the job was not in `from` (or not created after `createdAfter`). */
const step = async (
  job: Pick<JobRecord, 'organizationId' | 'id'>,
  from: readonly JobStatus[],
  set: Record<string, unknown>,
  createdAfter?: string,
): Promise<boolean> => {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  from.forEach((status, i) => {
    values[`:from${i}`] = status;
  });
  const assignments = Object.entries(set).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const conditions = [`#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`];
  if (createdAfter !== undefined) {
    names['#createdAt'] = 'createdAt';
    values[':createdAfter'] = createdAfter;
    conditions.push('#createdAt > :createdAfter');
  }
  try {
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: jobKey(job.organizationId, job.id),
        UpdateExpression: `SET ${assignments.join(', ')}`,
        ConditionExpression: `attribute_exists(PK) AND ${conditions.join(' AND ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/**
 * queued → running; false when the job is not queued any more (another delivery runs it, or it
 * finished) or was created before `createdAfter` (too old: it is read as failed by then).
 */
export const startJob = (job: JobRecord, createdAfter: string, now = new Date()): Promise<boolean> =>
  step(job, ['queued'], { status: 'running', startedAt: now.toISOString() }, createdAfter);

/** The progress of a running job. */
export const setJobProgress = (job: JobRecord, tablesDone: number, tablesTotal: number): Promise<boolean> =>
  step(job, ['running'], { tablesDone, tablesTotal });

export const finishJob = (
  job: JobRecord,
  outcome:
    | { status: 'succeeded'; tablesDone: number; tablesTotal: number }
    | { status: 'failed'; error: { code: string; message: string } },
  now = new Date(),
): Promise<boolean> =>
  step(job, ['queued', 'running'], {
    ...outcome,
    finishedAt: now.toISOString(),
  });
