// Running one indexing job to its end (./jobs.ts says where a job runs, ./job-states.ts its states):
// the indexer function imports this; a function that queues jobs loads it only to run one itself
// (the local stack, the admin command). Test the connection, introspect with the row policy
// (progress written at most once a second), apply the column descriptions, check a glossary given
// at creation against the new catalog, then write the new index beside the old one and move the
// database's pointer to it. Any failure before that last step publishes nothing. The same steps
// without a job (prepareIndex, reindexDatabase) index the local stack's demo database.
import { checkGlossaryFor } from '#lib/answer/glossary.ts';
import { testConnection } from '#lib/connectors/connection-test.ts';
import { withDescriptions } from '#lib/connectors/descriptions.ts';
import { connectorFor } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { errorCatalogue, ServiceError, toServiceError } from '#lib/errors.ts';
import { consumeIndexingQuota } from '#lib/limits/indexing.ts';
import { logger } from '#lib/log.ts';
import { type DatabaseRecord, findDatabase, type SchemaIndexPointer } from '#lib/store/databases.ts';
import { type Glossary, parseGlossary, putGlossary } from '#lib/store/glossary.ts';
import { findJob, finishJob, type JobRecord, setJobProgress, startJob } from '#lib/store/jobs.ts';
import {
  discardSchemaIndex,
  publishSchemaIndex,
  SchemaIndexConflict,
  writeSchemaIndex,
} from '#lib/store/schema-index.ts';
import { type IndexJobPayload, type JobResult, jobDeadlineMs, publicJob } from './job-states.ts';

/** Progress is written at most this often while a job runs. */
const PROGRESS_EVERY_MS = 1_000;

const failureOf = (error: unknown): { code: string; message: string } => {
  if (error instanceof SchemaIndexConflict)
    return {
      code: 'INDEX_CONFLICT',
      message: 'Another indexing of this database finished first; its index is the current one',
    };
  const failure = toServiceError(error);
  if (failure.kind === 'INTERNAL') {
    logger.error('an indexing job failed', { error: error as Error });
    return { code: errorCatalogue.INTERNAL.errorCode, message: errorCatalogue.INTERNAL.message };
  }
  return { code: failure.detail ?? errorCatalogue[failure.kind].errorCode, message: failure.message };
};

/** Builds the new index in memory: test, introspect (with progress), descriptions, glossary check. */
const buildIndex = async (
  job: JobRecord,
  database: DatabaseRecord,
): Promise<{ catalog: Catalog; glossary: Glossary | undefined }> => {
  const connector = await connectorFor(database);
  await testConnection(connector);
  let lastWrite = 0;
  const introspected = await connector.introspect({
    policy: effectivePolicy(database),
    onProgress: async (done, total) => {
      const now = Date.now();
      if (done !== 0 && done !== total && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      await setJobProgress(job, done, total).catch(() => undefined);
    },
  });
  const catalog = withDescriptions(introspected, database.descriptions);
  // A glossary given at creation is checked against the index it will be used with, before
  // anything is published: refused, the job fails and nothing changes.
  const glossary =
    job.pendingGlossary === undefined
      ? undefined
      : parseGlossary(JSON.parse(job.pendingGlossary), 'body.glossary');
  if (glossary) await checkGlossaryFor(database, glossary, catalog);
  return { catalog, glossary };
};

/** Writes the new index and moves the database's pointer to it; the chunks go if that fails. */
export const publishIndex = async (
  database: DatabaseRecord,
  catalog: Catalog,
): Promise<SchemaIndexPointer> => {
  const written = await writeSchemaIndex(database.id, catalog);
  const pointer = { ...written, policyKey: JSON.stringify(effectivePolicy(database)) };
  try {
    await publishSchemaIndex(database, pointer);
  } catch (error) {
    await discardSchemaIndex(database.id, pointer).catch(() => undefined);
    throw error;
  }
  return pointer;
};

type PolicySource = Pick<
  DatabaseRecord,
  'requiresOrganizationScoping' | 'tenantFilterColumn' | 'scopeFilterColumn' | 'policy'
>;

/**
 * Test → quota → introspect, in this process and with no job: the catalog a database is indexed
 * with where there is no control plane to queue one (the local stack's demo database).
 */
export const prepareIndex = async (
  connector: Connector,
  database: PolicySource & Pick<DatabaseRecord, 'organizationId'>,
): Promise<Catalog> => {
  await testConnection(connector);
  await consumeIndexingQuota(database.organizationId);
  return connector.introspect({ policy: effectivePolicy(database) });
};

/** Re-indexes a stored database in this process, with no job, and publishes the new index. */
export const reindexDatabase = async (
  database: DatabaseRecord,
  connector?: Connector,
): Promise<{ pointer: SchemaIndexPointer; catalog: Catalog }> => {
  // The operator's column descriptions (lib/connectors/descriptions.ts) over the database's own.
  const catalog = withDescriptions(
    await prepareIndex(connector ?? (await connectorFor(database)), database),
    database.descriptions,
  );
  return { pointer: await publishIndex(database, catalog), catalog };
};

/**
 * Runs one queued job to its end (the indexer function, or in-process). A job that is not queued
 * any more (another delivery ran it) or is past its deadline is left as it is. Never throws for
 * the job's own failure: that is recorded on the job.
 */
export const runIndexJob = async (payload: IndexJobPayload): Promise<JobResult | undefined> => {
  const job = await findJob(payload.organizationId, payload.jobId);
  if (!job) return undefined;
  const createdAfter = new Date(Date.now() - jobDeadlineMs()).toISOString();
  if (!(await startJob(job, createdAfter)))
    return { job: publicJob((await findJob(job.organizationId, job.id)) ?? job) };
  let index: JobResult['index'];
  try {
    const database = await findDatabase(job.organizationId, job.databaseId);
    if (!database)
      throw new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${job.databaseId} was deleted` });
    const { catalog, glossary } = await buildIndex(job, database);
    const pointer = await publishIndex(database, catalog);
    if (glossary) await putGlossary(database.id, glossary);
    index = { pointer, catalog };
    // Tables and views (of every kind but sequences), as the progress counted them.
    const total = catalog.relations.filter((relation) => relation.kind !== 'sequence').length;
    await finishJob(job, { status: 'succeeded', tablesDone: total, tablesTotal: total });
  } catch (error) {
    await finishJob(job, { status: 'failed', error: failureOf(error) }).catch((storeError) =>
      logger.error('an indexing job’s failure could not be stored', { error: storeError as Error }),
    );
  }
  const finished = await findJob(job.organizationId, job.id);
  return { job: publicJob(finished ?? job), ...(index ? { index } : {}) };
};
