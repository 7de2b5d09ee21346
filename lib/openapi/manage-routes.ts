// The control plane's routes in the OpenAPI document (docs/design.md "The control plane";
// docs/control-plane.md): each with the input schema its function passes to `api()` (the same
// object), its success schema and status, and the error kinds it can answer with. routes.ts adds
// them to the route table that tests/integration/openapi.test.ts holds to serverless.yml.
import { DIALECTS } from '#lib/dialects/index.ts';
import type { ErrorKind } from '#lib/errors.ts';
import { IdPathInput } from '#lib/manage/access.ts';
import {
  ApiKeyCreateInput,
  DatabaseCreateInput,
  DatabaseUpdateInput,
  GlossaryPathInput,
  GlossaryPutInput,
  JobPathInput,
  PatternCreateInput,
  PatternListInput,
  PatternPathInput,
  PatternUpdateInput,
  PersonalityCreateInput,
  PersonalityUpdateInput,
} from '#lib/manage/inputs.ts';
import { PageNumberInput } from '#lib/params.ts';
import { BrandingPutInput } from '#lib/store/branding.ts';
import {
  ApiKeyCreatedResponse,
  ApiKeysPage,
  DatabaseCreatedResponse,
  DatabaseDetailResponse,
  DatabaseUpdatedResponse,
  DeletedResponse,
  GlossaryResponse,
  JobQueuedResponse,
  JobResponse,
  PersonalitiesPage,
  PersonalityResponse,
  QueryPatternResponse,
  QueryPatternsPage,
  UsageResponse,
} from './manage-schemas.ts';
import { authenticated } from './route-errors.ts';
import type { RouteDoc } from './routes.ts';
import { BrandingResponse } from './schemas.ts';

const withBody: readonly ErrorKind[] = [...authenticated, 'PAYLOAD_TOO_LARGE'];

const read = { credentials: ['sk', 'jwt'] as const, scope: 'optional' as const, limits: 'standard' as const };
const write = { ...read, write: true };
const tag = 'Control plane' as const;

const connectionTested =
  'The connection is tested first: a failure is 422 VALIDATION_ERROR with a details entry code ' +
  'CONNECTION_FAILED (its message names the reason: COULD_NOT_CONNECT for every network failure, ' +
  'AUTH_FAILED, …), and nothing is stored or changed.';
const quota =
  'Indexing counts one operation of the plan’s indexing quota (429 INDEXING_QUOTA_EXCEEDED, ' +
  'details code QUOTA_EXCEEDED, “N of M used”, when none is left; nothing is stored or changed).';

export const manageRoutes: readonly RouteDoc[] = [
  {
    method: 'PUT',
    path: '/api/v1/branding',
    operationId: 'putBranding',
    tag: 'Organization',
    summary: 'Replace branding',
    description:
      'Replaces the organization’s branding: the fields of GET /api/v1/branding, any subset of them ' +
      '(colours as #rgb or #rrggbb, logos as http(s) URLs); a field left out falls back to the ' +
      'default. Answers the branding as GET does.',
    ...write,
    input: BrandingPutInput,
    responses: [{ status: 200, schema: BrandingResponse, description: 'The branding' }],
    errors: withBody,
  },
  {
    method: 'POST',
    path: '/api/v1/organization/databases',
    operationId: 'createDatabase',
    tag,
    summary: 'Connect a database',
    description:
      `Connects a ${DIALECTS.map((dialect) => dialect.productName).join(' or ')} database. ${connectionTested} Then the URL (or the ` +
      'parts, made into one) goes to the secret store, never to be returned, and the first ' +
      `indexing job is queued: follow it at GET /api/v1/organization/jobs/{job_id}. ${quota} ` +
      'A second database of the same name is 400 BUSINESS_DUPLICATE_ENTRY. `glossary` is checked ' +
      'against the new index by the job (a refused entry fails it).',
    ...write,
    input: DatabaseCreateInput,
    responses: [{ status: 201, schema: DatabaseCreatedResponse, description: 'The database is connected' }],
    errors: [...withBody, 'DUPLICATE_ENTRY', 'CONNECTION_TEST_FAILED', 'INDEXING_QUOTA_EXCEEDED'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/databases/{id}',
    operationId: 'getDatabase',
    tag,
    summary: 'Get a connected database',
    description:
      'The database with where its schema index stands (`indexed_at`, `tables`) and its row policy; ' +
      'never its URL, host, user or password.',
    ...read,
    input: IdPathInput,
    responses: [{ status: 200, schema: DatabaseDetailResponse, description: 'The database' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND'],
  },
  {
    method: 'PATCH',
    path: '/api/v1/organization/databases/{id}',
    operationId: 'updateDatabase',
    tag,
    summary: 'Change a connected database',
    description:
      `Changes the name, the connection, the row policy or the column descriptions. ${connectionTested} ` +
      'A changed connection, row policy or set of descriptions queues a re-index (`job`); until it ' +
      `succeeds, answers use the previous index without its sample values. ${quota}`,
    ...write,
    input: DatabaseUpdateInput,
    responses: [{ status: 200, schema: DatabaseUpdatedResponse, description: 'The database is changed' }],
    errors: [
      ...withBody,
      'DATABASE_NOT_FOUND',
      'DUPLICATE_ENTRY',
      'CONNECTION_TEST_FAILED',
      'INDEXING_QUOTA_EXCEEDED',
    ],
  },
  {
    method: 'DELETE',
    path: '/api/v1/organization/databases/{id}',
    operationId: 'deleteDatabase',
    tag,
    summary: 'Delete a connected database',
    description:
      'Deletes the database with its schema index, query patterns, glossary and connection secret, ' +
      'and revokes its database (pk_) keys. Later questions on it are 404 DATABASE_NOT_FOUND; its ' +
      'conversations stay readable.',
    ...write,
    input: IdPathInput,
    responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/api/v1/organization/databases/{id}/index',
    operationId: 'indexDatabase',
    tag,
    summary: 'Re-index a connected database',
    description:
      'Queues a background job that reads the database’s schema again (tables, views, columns, ' +
      `keys, row estimates, sample values) and answers 202 with it. ${quota} A failed job leaves ` +
      'the previous index in place.',
    ...write,
    input: IdPathInput,
    responses: [{ status: 202, schema: JobQueuedResponse, description: 'The job is queued' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND', 'INDEXING_QUOTA_EXCEEDED'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/jobs/{job_id}',
    operationId: 'getJob',
    tag,
    summary: 'Follow a job',
    description:
      'An indexing job: `status` queued → running → succeeded | failed, `progress` (relations read ' +
      'of all) while it runs, `error` when it failed. A job that never finished is failed ' +
      '(JOB_TIMED_OUT) once older than the indexer could run. Jobs are kept 30 days.',
    ...read,
    input: JobPathInput,
    responses: [{ status: 200, schema: JobResponse, description: 'The job' }],
    errors: [...authenticated, 'JOB_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/api-keys',
    operationId: 'listApiKeys',
    tag,
    summary: 'List API keys',
    description:
      'The organization’s keys that work, oldest first, page by page: prefix, kind, database, ' +
      'origins, manage, created and last used (to within 10 minutes). Never a key’s value.',
    ...read,
    input: PageNumberInput,
    responses: [{ status: 200, schema: ApiKeysPage, description: 'One page of keys' }],
    errors: authenticated,
  },
  {
    method: 'POST',
    path: '/api/v1/organization/api-keys',
    operationId: 'createApiKey',
    tag,
    summary: 'Create an API key',
    description:
      'An organization key (`sk`, for your servers; `manage: true` lets it change the organization ' +
      'here) or a database key (`pk`, for the widget: `database_id` required, `origins` optional). ' +
      'The key’s value is in this answer only.',
    ...write,
    input: ApiKeyCreateInput,
    responses: [{ status: 201, schema: ApiKeyCreatedResponse, description: 'The key is created' }],
    errors: [...withBody, 'DATABASE_NOT_FOUND'],
  },
  {
    method: 'DELETE',
    path: '/api/v1/organization/api-keys/{id}',
    operationId: 'deleteApiKey',
    tag,
    summary: 'Delete an API key',
    description:
      'Revokes the key: its next request is 401. (A container of the service that resolved the key ' +
      'in the last 60 seconds may accept it until its key cache expires; the one that deleted it ' +
      'refuses it at once.)',
    ...write,
    input: IdPathInput,
    responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
    errors: [...authenticated, 'API_KEY_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/personalities',
    operationId: 'listPersonalities',
    tag,
    summary: 'List personalities',
    description: 'The organization’s AI personalities, oldest first, page by page.',
    ...read,
    input: PageNumberInput,
    responses: [{ status: 200, schema: PersonalitiesPage, description: 'One page of personalities' }],
    errors: authenticated,
  },
  {
    method: 'POST',
    path: '/api/v1/organization/personalities',
    operationId: 'createPersonality',
    tag,
    summary: 'Create a personality',
    description:
      'An AI personality: a name, instructions for the answering engine (tone, focus) and optionally ' +
      'the language it answers in. Name it with `personality_id` in chat messages.',
    ...write,
    input: PersonalityCreateInput,
    responses: [{ status: 201, schema: PersonalityResponse, description: 'The personality is created' }],
    errors: withBody,
  },
  {
    method: 'GET',
    path: '/api/v1/organization/personalities/{id}',
    operationId: 'getPersonality',
    tag,
    summary: 'Get a personality',
    description: 'One personality.',
    ...read,
    input: IdPathInput,
    responses: [{ status: 200, schema: PersonalityResponse, description: 'The personality' }],
    errors: [...authenticated, 'PERSONALITY_NOT_FOUND'],
  },
  {
    method: 'PATCH',
    path: '/api/v1/organization/personalities/{id}',
    operationId: 'updatePersonality',
    tag,
    summary: 'Change a personality',
    description: 'Changes the name, the instructions or the language (`null` clears it).',
    ...write,
    input: PersonalityUpdateInput,
    responses: [{ status: 200, schema: PersonalityResponse, description: 'The personality is changed' }],
    errors: [...withBody, 'PERSONALITY_NOT_FOUND'],
  },
  {
    method: 'DELETE',
    path: '/api/v1/organization/personalities/{id}',
    operationId: 'deletePersonality',
    tag,
    summary: 'Delete a personality',
    description:
      'Deletes the personality. Conversations that began with it go on without it; a message that names it is 404.',
    ...write,
    input: IdPathInput,
    responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
    errors: [...authenticated, 'PERSONALITY_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/databases/{id}/patterns',
    operationId: 'listPatterns',
    tag,
    summary: 'List query patterns',
    description:
      'The database’s question → SQL pairs, oldest first, page by page: `status=candidate` lists the ' +
      'candidates an answer’s feedback proposed, for an admin to approve; `status=approved` those in use.',
    ...read,
    input: PatternListInput,
    responses: [{ status: 200, schema: QueryPatternsPage, description: 'One page of patterns' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/api/v1/organization/databases/{id}/patterns',
    operationId: 'createPattern',
    tag,
    summary: 'Add a query pattern',
    description:
      'An approved question and the SQL that answers it, shown to the model engines as an example. ' +
      'The SQL must pass the database’s SQL guard (against its schema index and row policy): a ' +
      'refused query is 400 VALIDATION_ERROR whose details entry (field `body.sql`) carries the ' +
      'guard’s code (NOT_SELECT, FUNCTION_NOT_ALLOWED, RELATION_NOT_ALLOWED, …). A second pattern ' +
      'for the same question is 400 BUSINESS_DUPLICATE_ENTRY; a database not indexed yet is 422 ' +
      '(details code SCHEMA_NOT_INDEXED). At most 100 per database.',
    ...write,
    input: PatternCreateInput,
    responses: [{ status: 201, schema: QueryPatternResponse, description: 'The pattern is added' }],
    errors: [...withBody, 'DATABASE_NOT_FOUND', 'DUPLICATE_ENTRY', 'CONNECTION_TEST_FAILED'],
  },
  {
    method: 'PATCH',
    path: '/api/v1/organization/databases/{id}/patterns/{pattern_id}',
    operationId: 'updatePattern',
    tag,
    summary: 'Change a query pattern',
    description:
      'Changes the question, the SQL (checked by the guard again), the notes (`null` clears them) or the ' +
      'status: `approved` approves a candidate (its SQL is checked by the guard again), `candidate` sets ' +
      'a pattern aside.',
    ...write,
    input: PatternUpdateInput,
    responses: [{ status: 200, schema: QueryPatternResponse, description: 'The pattern is changed' }],
    errors: [
      ...withBody,
      'DATABASE_NOT_FOUND',
      'PATTERN_NOT_FOUND',
      'DUPLICATE_ENTRY',
      'CONNECTION_TEST_FAILED',
    ],
  },
  {
    method: 'DELETE',
    path: '/api/v1/organization/databases/{id}/patterns/{pattern_id}',
    operationId: 'deletePattern',
    tag,
    summary: 'Delete a query pattern',
    description: 'Deletes the pattern.',
    ...write,
    input: PatternPathInput,
    responses: [{ status: 200, schema: DeletedResponse, description: 'Deleted' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND', 'PATTERN_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/databases/{id}/glossary',
    operationId: 'getGlossary',
    tag,
    summary: 'Get the glossary',
    description: 'The database’s glossary (empty maps when none was saved).',
    ...read,
    input: GlossaryPathInput,
    responses: [{ status: 200, schema: GlossaryResponse, description: 'The glossary' }],
    errors: [...authenticated, 'DATABASE_NOT_FOUND'],
  },
  {
    method: 'PUT',
    path: '/api/v1/organization/databases/{id}/glossary',
    operationId: 'putGlossary',
    tag,
    summary: 'Replace the glossary',
    description:
      'Synonyms (a word → a table or table.column), metrics and named filters (a word → an SQL ' +
      'expression over qualified columns), used by every engine. Each metric and filter must pass ' +
      'the database’s SQL guard and each synonym name a table or column of its index: a refused ' +
      'entry is 400 naming it (details field and code), and nothing is saved. A database not ' +
      'indexed yet is 422 (SCHEMA_NOT_INDEXED).',
    ...write,
    input: GlossaryPutInput,
    responses: [{ status: 200, schema: GlossaryResponse, description: 'The glossary is saved' }],
    errors: [...withBody, 'DATABASE_NOT_FOUND', 'CONNECTION_TEST_FAILED'],
  },
  {
    method: 'GET',
    path: '/api/v1/organization/usage',
    operationId: 'getUsage',
    tag,
    summary: 'Get usage',
    description:
      'The plan, the current minute and hour of the plan’s request limits, the monthly API quota, ' +
      'the indexing quota of this calendar month (UTC) and this month’s answers by who answered ' +
      '(builtin engine, model engine, query pattern, shared SQL cache).',
    ...read,
    responses: [{ status: 200, schema: UsageResponse, description: 'The usage' }],
    errors: authenticated,
  },
];
