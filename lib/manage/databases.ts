// Connected databases through the control plane (docs/design.md "The control plane";
// docs/control-plane.md), and through the admin command, which calls the same functions: reading
// them and re-indexing one. Connecting, changing and deleting are ./database-changes.ts, which the
// `databases` function loads only when a request changes a database.
import { ServiceError } from '#lib/errors.ts';
import { type DatabaseRecord, findDatabase, listDatabases, publicDatabase } from '#lib/store/databases.ts';
import { pageOf } from './access.ts';
import type { JobResult } from './job-states.ts';
import { type JobRun, queueIndexJob } from './jobs.ts';

// ---- output --------------------------------------------------------------------------------------

/** GET one: the list item plus where its index stands and its row policy; never the connection. */
export const databaseDetail = (record: DatabaseRecord) => ({
  ...publicDatabase(record),
  indexed_at: record.schemaIndex?.indexedAt ?? null,
  tables: record.schemaIndex?.relations ?? null,
  policy: record.policy,
  model_data: record.modelData ?? 'rows',
  redacted_columns: record.redactedColumns ?? [],
  updated_at: record.updatedAt ?? record.createdAt,
});
export type DatabaseDetail = ReturnType<typeof databaseDetail>;

export const jobSummary = (result: JobResult) => ({ id: result.job.id, status: result.job.status });

// ---- the operations ----------------------------------------------------------------------------

/** A database of the organization; 404 DATABASE_NOT_FOUND when unknown or another organization's. */
export const databaseOf = async (organizationId: number, id: string): Promise<DatabaseRecord> => {
  const record = await findDatabase(organizationId, id);
  if (!record) throw new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${id} not found` });
  return record;
};

export const listDatabasePage = async (organizationId: number, page: number, pageSize: number) => {
  const { items, totalItems } = pageOf(await listDatabases(organizationId), page, pageSize);
  return { items: items.map(publicDatabase), totalItems };
};

export const getDatabase = async (organizationId: number, id: string): Promise<DatabaseDetail> =>
  databaseDetail(await databaseOf(organizationId, id));

/** POST /organization/databases/{id}/index: counts, queues and starts a re-index. */
export const indexDatabase = async (
  organizationId: number,
  id: string,
  run: JobRun = 'dispatch',
): Promise<JobResult> => queueIndexJob(await databaseOf(organizationId, id), { run });
