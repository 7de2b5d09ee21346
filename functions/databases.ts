// The organization's connected databases and their indexing jobs (docs/design.md "The control
// plane"; docs/control-plane.md): one function for the resource's routes (lib/routes/databases.ts),
// each with its own chain: list, page by page (spec endpoint 10); connect (tested first), with a
// first indexing job; read one, with its index and row policy; change (a changed connection is
// tested again); delete, with its pk_ keys; re-index in the background (202); follow a job.
import { api } from '#lib/http/api.ts';
import { ok, paginated } from '#lib/http/response.ts';
import { routeTable } from '#lib/http/route-table.ts';
import { getDatabase, indexDatabase, listDatabasePage } from '#lib/manage/databases.ts';
import { getJob } from '#lib/manage/jobs.ts';
import * as routes from '#lib/routes/databases.ts';
import type {
  DatabaseCreated,
  DatabaseDetailBody,
  DatabaseUpdated,
  Deleted,
  Job,
} from '#lib/routes/manage-schemas.ts';
import type { Database } from '#lib/routes/schemas.ts';

// Connecting, changing and deleting (the connection test, the secret store, the drivers) are
// loaded by the requests that do them, not at every cold start of the function.
const changes = () => import('#lib/manage/database-changes.ts');

const list = api(routes.listDatabases).handler(async (_event, context) => {
  const { page, page_size: pageSize } = context.input.query;
  const { items, totalItems } = await listDatabasePage(context.principal.organizationId, page, pageSize);
  return paginated<Database>(items, { page, pageSize, totalItems });
});

const create = api(routes.createDatabase).handler(async (_event, context) => {
  const { createDatabase, createdDatabase } = await changes();
  const created = await createDatabase(context.principal.organizationId, context.input.body);
  return ok<DatabaseCreated>(createdDatabase(created), { status: 201 });
});

const read = api(routes.getDatabase).handler(async (_event, context) =>
  ok<DatabaseDetailBody>(await getDatabase(context.principal.organizationId, context.input.path.id)),
);

const update = api(routes.updateDatabase).handler(async (_event, context) => {
  const { updateDatabase } = await changes();
  const { organizationId } = context.principal;
  return ok<DatabaseUpdated>(await updateDatabase(organizationId, context.input.path.id, context.input.body));
});

const remove = api(routes.deleteDatabase).handler(async (_event, context) => {
  const { deleteDatabase } = await changes();
  return ok<Deleted>(await deleteDatabase(context.principal.organizationId, context.input.path.id));
});

const reindex = api(routes.indexDatabase).handler(async (_event, context) => {
  const { job } = await indexDatabase(context.principal.organizationId, context.input.path.id);
  return ok<Job>(job, { status: 202 });
});

const job = api(routes.getJob).handler(async (_event, context) =>
  ok<Job>(await getJob(context.principal.organizationId, context.input.path.job_id)),
);

export const handler = routeTable([
  [routes.listDatabases, list],
  [routes.createDatabase, create],
  [routes.getDatabase, read],
  [routes.updateDatabase, update],
  [routes.deleteDatabase, remove],
  [routes.indexDatabase, reindex],
  [routes.getJob, job],
]);
