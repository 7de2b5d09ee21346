// The organization's connected databases and their indexing jobs (functions/databases.ts;
// docs/control-plane.md).
import { DIALECTS } from '#lib/dialects/index.ts';
import type { Route } from '#lib/http/route.ts';
import { IdPathInput } from '#lib/manage/access.ts';
import { DatabaseCreateInput, DatabaseUpdateInput, JobPathInput } from '#lib/manage/inputs.ts';
import { PageNumberInput } from '#lib/params.ts';
import {
  authenticated,
  connectionTested,
  controlPlaneRead,
  controlPlaneWrite,
  indexingQuota,
  withBody,
} from './common.ts';
import {
  DatabaseCreatedResponse,
  DatabaseDetailResponse,
  DatabaseUpdatedResponse,
  DeletedResponse,
  JobQueuedResponse,
  JobResponse,
} from './manage-schemas.ts';
import { DatabasesPage } from './schemas.ts';

export const listDatabases = {
  method: 'GET',
  path: '/api/v1/organization/databases',
  functionName: 'databases',
  operationId: 'listDatabases',
  summary: 'List connected databases',
  description:
    "The organization's connected databases, oldest first, page by page (the Paginated response " +
    'wrapper). A database is shown without its URL, host, user or password. Any sk_ key or portal ' +
    'token may read it (spec endpoint 10: the way to check that a database still exists).',
  ...controlPlaneRead,
  input: PageNumberInput,
  responses: [{ status: 200, schema: DatabasesPage, description: 'One page of databases' }],
  errors: authenticated,
} satisfies Route;

export const createDatabase = {
  method: 'POST',
  path: '/api/v1/organization/databases',
  functionName: 'databases',
  operationId: 'createDatabase',
  summary: 'Connect a database',
  description:
    `Connects a ${DIALECTS.map((dialect) => dialect.productName).join(' or ')} database. ${connectionTested} Then the URL (or the ` +
    'parts, made into one) goes to the secret store, never to be returned, and the first ' +
    `indexing job is queued: follow it at GET /api/v1/organization/jobs/{job_id}. ${indexingQuota} ` +
    'A second database of the same name is 400 BUSINESS_DUPLICATE_ENTRY. `glossary` is checked ' +
    'against the new index by the job (a refused entry fails it).',
  ...controlPlaneWrite,
  input: DatabaseCreateInput,
  responses: [{ status: 201, schema: DatabaseCreatedResponse, description: 'The database is connected' }],
  errors: [...withBody, 'DUPLICATE_ENTRY', 'CONNECTION_TEST_FAILED', 'INDEXING_QUOTA_EXCEEDED'],
} satisfies Route;

export const getDatabase = {
  method: 'GET',
  path: '/api/v1/organization/databases/{id}',
  functionName: 'databases',
  operationId: 'getDatabase',
  summary: 'Get a connected database',
  description:
    'The database with where its schema index stands (`indexed_at`, `tables`) and its row policy; ' +
    'never its URL, host, user or password.',
  ...controlPlaneRead,
  input: IdPathInput,
  responses: [{ status: 200, schema: DatabaseDetailResponse, description: 'The database' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND'],
} satisfies Route;

export const updateDatabase = {
  method: 'PATCH',
  path: '/api/v1/organization/databases/{id}',
  functionName: 'databases',
  operationId: 'updateDatabase',
  summary: 'Change a connected database',
  description:
    `Changes the name, the connection, the row policy or the column descriptions. ${connectionTested} ` +
    'A changed connection, row policy or set of descriptions queues a re-index (`job`); until it ' +
    `succeeds, answers use the previous index without its sample values. ${indexingQuota}`,
  ...controlPlaneWrite,
  input: DatabaseUpdateInput,
  responses: [{ status: 200, schema: DatabaseUpdatedResponse, description: 'The database is changed' }],
  errors: [
    ...withBody,
    'DATABASE_NOT_FOUND',
    'DUPLICATE_ENTRY',
    'CONNECTION_TEST_FAILED',
    'INDEXING_QUOTA_EXCEEDED',
  ],
} satisfies Route;

export const deleteDatabase = {
  method: 'DELETE',
  path: '/api/v1/organization/databases/{id}',
  functionName: 'databases',
  operationId: 'deleteDatabase',
  summary: 'Delete a connected database',
  description:
    'Deletes the database with its schema index, query patterns, glossary and connection secret, ' +
    'and revokes its database (pk_) keys. Later questions on it are 404 DATABASE_NOT_FOUND; its ' +
    'conversations stay readable.',
  ...controlPlaneWrite,
  input: IdPathInput,
  responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND'],
} satisfies Route;

export const indexDatabase = {
  method: 'POST',
  path: '/api/v1/organization/databases/{id}/index',
  functionName: 'databases',
  operationId: 'indexDatabase',
  summary: 'Re-index a connected database',
  description:
    'Queues a background job that reads the database’s schema again (tables, views, columns, ' +
    `keys, row estimates, sample values) and answers 202 with it. ${indexingQuota} A failed job leaves ` +
    'the previous index in place.',
  ...controlPlaneWrite,
  input: IdPathInput,
  responses: [{ status: 202, schema: JobQueuedResponse, description: 'The job is queued' }],
  errors: [...authenticated, 'DATABASE_NOT_FOUND', 'INDEXING_QUOTA_EXCEEDED'],
} satisfies Route;

export const getJob = {
  method: 'GET',
  path: '/api/v1/organization/jobs/{job_id}',
  functionName: 'databases',
  operationId: 'getJob',
  summary: 'Follow a job',
  description:
    'An indexing job: `status` queued → running → succeeded | failed, `progress` (relations read ' +
    'of all) while it runs, `error` when it failed. A job that never finished is failed ' +
    '(JOB_TIMED_OUT) once older than the indexer could run. Jobs are kept 30 days.',
  ...controlPlaneRead,
  input: JobPathInput,
  responses: [{ status: 200, schema: JobResponse, description: 'The job' }],
  errors: [...authenticated, 'JOB_NOT_FOUND'],
} satisfies Route;
