// The control plane's response bodies (docs/design.md "The control plane") as valibot schemas: the
// OpenAPI document's response schemas and, through `v.InferOutput`, the types the function files
// give their bodies, checked against the domain functions' results below.
import * as v from 'valibot';
import type { PublicApiKey } from '#lib/manage/api-keys.ts';
import type { createdDatabase } from '#lib/manage/database-changes.ts';
import type { DatabaseDetail as DetailOfDomain } from '#lib/manage/databases.ts';
import type { PublicJob } from '#lib/manage/job-states.ts';
import type { PublicPersonality } from '#lib/manage/personalities.ts';
import type { Usage as UsageOfDomain } from '#lib/manage/usage.ts';
import type { PublicPattern } from '#lib/store/patterns.ts';
import { Database, Pagination } from './schemas.ts';

const uuid = v.pipe(v.string(), v.uuid());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const dataResponse = <S extends v.GenericSchema>(data: S, description: string) =>
  v.pipe(v.object({ success: v.literal(true), data }), v.description(description));
const pageResponse = <S extends v.GenericSchema>(item: S, description: string) =>
  v.pipe(
    v.object({ success: v.literal(true), data: v.array(item), pagination: Pagination }),
    v.description(description),
  );

// ---- Databases and jobs ---------------------------------------------------------------------------

export const JobSummary = v.pipe(
  v.object({ id: uuid, status: v.picklist(['queued', 'running', 'succeeded', 'failed']) }),
  v.description('The indexing job: follow it at GET /api/v1/organization/jobs/{job_id}'),
);

export const DatabaseCreated = v.pipe(
  v.object({ ...Database.entries, job: JobSummary }),
  v.description('The connected database (201): its connection was tested; its first indexing job is queued'),
);
export type DatabaseCreated = v.InferOutput<typeof DatabaseCreated>;
export const DatabaseCreatedResponse = dataResponse(DatabaseCreated, 'The database is connected (201)');

const PolicyTable = v.object({
  tenant_column: v.optional(v.string()),
  scope_column: v.optional(v.string()),
  shared: v.optional(v.boolean()),
});
export const RowPolicyDoc = v.pipe(
  v.object({
    tenant_column: v.optional(v.string()),
    scope_column: v.optional(v.string()),
    scope_required: v.optional(v.boolean()),
    tables: v.optional(v.record(v.string(), PolicyTable)),
  }),
  v.description('The row policy: default tenant and scope columns, and per-table overrides'),
);

export const DatabaseDetail = v.pipe(
  v.object({
    ...Database.entries,
    indexed_at: v.pipe(
      v.nullable(timestamp),
      v.description('when the current schema index was read; null: never'),
    ),
    tables: v.pipe(
      v.nullable(count),
      v.description('relations in the current schema index; null: not indexed'),
    ),
    policy: RowPolicyDoc,
    model_data: v.pipe(
      v.picklist(['rows', 'aggregates', 'schema_only']),
      v.description(
        'what may reach a model provider: rows (sample values and result rows), aggregates (result rows only when every column is an aggregate), schema_only (neither; the service writes the answer)',
      ),
    ),
    redacted_columns: v.pipe(
      v.array(v.string()),
      v.description('columns never sent to a model provider (table.column or schema.table.column)'),
    ),
    updated_at: timestamp,
  }),
  v.description('A connected database with its index and row policy: never its URL, host, user or password'),
);
export type DatabaseDetailBody = v.InferOutput<typeof DatabaseDetail>;
export const DatabaseDetailResponse = dataResponse(DatabaseDetail, 'The database');

export const DatabaseUpdated = v.pipe(
  v.object({
    ...DatabaseDetail.entries,
    job: v.pipe(
      v.nullable(JobSummary),
      v.description('the re-index a changed connection, row policy or descriptions queued; null when none'),
    ),
  }),
  v.description('The database as changed'),
);
export type DatabaseUpdated = v.InferOutput<typeof DatabaseUpdated>;
export const DatabaseUpdatedResponse = dataResponse(DatabaseUpdated, 'The database is changed');

export const Job = v.pipe(
  v.object({
    id: uuid,
    kind: v.literal('index'),
    database_id: uuid,
    status: v.pipe(
      v.picklist(['queued', 'running', 'succeeded', 'failed']),
      v.description('queued → running → succeeded | failed; a failed job leaves the previous index in place'),
    ),
    progress: v.object({
      tables_done: count,
      tables_total: v.pipe(count, v.description('0 until the job has listed the relations')),
    }),
    error: v.pipe(
      v.nullable(v.object({ code: v.string(), message: v.string() })),
      v.description('why a failed job failed, e.g. CONNECTION_FAILED or JOB_TIMED_OUT; null otherwise'),
    ),
    created_at: timestamp,
    started_at: v.nullable(timestamp),
    finished_at: v.nullable(timestamp),
  }),
  v.description('A background indexing job'),
);
export type Job = v.InferOutput<typeof Job>;
export const JobResponse = dataResponse(Job, 'The job');
export const JobQueuedResponse = dataResponse(Job, 'The job is queued (202)');

// ---- API keys ---------------------------------------------------------------------------------------

export const ApiKey = v.pipe(
  v.object({
    id: uuid,
    kind: v.picklist(['sk', 'pk']),
    name: v.nullable(v.string()),
    prefix: v.pipe(v.string(), v.description('the kind and the last four characters, e.g. sk_…a1b2')),
    database_id: v.pipe(v.nullable(uuid), v.description('pk keys: the database the key is bound to')),
    origins: v.pipe(v.array(v.string()), v.description('pk keys: allowed page origins ([] = any)')),
    manage: v.pipe(v.boolean(), v.description('sk keys: may change the organization (the control plane)')),
    created_at: timestamp,
    last_used_at: v.pipe(
      v.nullable(timestamp),
      v.description('the last request made with the key, to within 10 minutes; null: never used'),
    ),
  }),
  v.description('An API key, without its value'),
);
export type ApiKey = v.InferOutput<typeof ApiKey>;
export const ApiKeysPage = pageResponse(ApiKey, "One page of the organization's keys, oldest first");

export const ApiKeyCreated = v.pipe(
  v.object({
    ...ApiKey.entries,
    key: v.pipe(v.string(), v.regex(/^(sk|pk)_/), v.description('the key itself: shown in this answer only')),
  }),
  v.description('A new API key with its value, shown once'),
);
export type ApiKeyCreated = v.InferOutput<typeof ApiKeyCreated>;
export const ApiKeyCreatedResponse = dataResponse(
  ApiKeyCreated,
  'The key is created (201): keep its value now',
);

// ---- Personalities --------------------------------------------------------------------------------

export const Personality = v.pipe(
  v.object({
    id: uuid,
    name: v.string(),
    instructions: v.nullable(v.string()),
    language: v.pipe(v.nullable(v.string()), v.description('a language tag such as en or de-CH')),
    engine: v.pipe(
      v.nullable(v.string()),
      v.description('set by an operator; null: the organization’s engine'),
    ),
    model: v.nullable(v.string()),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  v.description('An AI personality, named by personality_id in chat messages'),
);
export type Personality = v.InferOutput<typeof Personality>;
export const PersonalityResponse = dataResponse(Personality, 'The personality');
export const PersonalitiesPage = pageResponse(Personality, "One page of the organization's personalities");

// ---- Query patterns and the glossary ------------------------------------------------------------

export const QueryPattern = v.pipe(
  v.object({
    id: uuid,
    database_id: uuid,
    question: v.string(),
    sql: v.pipe(v.string(), v.description('as given; the SQL guard accepted it when it was saved')),
    notes: v.nullable(v.string()),
    status: v.pipe(
      v.picklist(['approved', 'candidate']),
      v.description(
        'approved: used by the answering engines; candidate: proposed by an answer’s feedback, used once approved',
      ),
    ),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  v.description('A question → SQL pair of one database, approved or a candidate'),
);
export type QueryPattern = v.InferOutput<typeof QueryPattern>;
export const QueryPatternResponse = dataResponse(QueryPattern, 'The query pattern');
export const QueryPatternsPage = pageResponse(
  QueryPattern,
  "One page of the database's query patterns, oldest first",
);

export const Glossary = v.pipe(
  v.object({
    synonyms: v.record(v.string(), v.string()),
    metrics: v.record(v.string(), v.string()),
    filters: v.record(v.string(), v.string()),
  }),
  v.description('Synonyms (word → table or table.column), metrics and named filters (word → SQL expression)'),
);
export type Glossary = v.InferOutput<typeof Glossary>;
export const GlossaryResponse = dataResponse(Glossary, "The database's glossary");

// ---- Usage and deletions ------------------------------------------------------------------------

const UsageWindow = v.object({ used: count, limit: count, resets_at: timestamp });
export const Usage = v.pipe(
  v.object({
    plan: v.picklist(['free', 'starter', 'professional', 'business', 'enterprise']),
    rate: v.object({ minute: UsageWindow, hour: UsageWindow }),
    monthly: v.pipe(UsageWindow, v.description('the monthly API quota (calendar month, UTC)')),
    indexing: v.pipe(UsageWindow, v.description('indexing operations this calendar month (UTC)')),
    answers: v.pipe(
      v.object({ builtin: count, model: count, pattern: count, cache: count }),
      v.description('answers this calendar month by who answered'),
    ),
    model: v.pipe(
      v.object({ calls: count, input_tokens: count, output_tokens: count, repairs: count }),
      v.description(
        'calls to model providers this calendar month, their input and output tokens as the providers reported them, and repair rounds',
      ),
    ),
  }),
  v.description("The organization's plan, current windows and quotas"),
);
export type Usage = v.InferOutput<typeof Usage>;
export const UsageResponse = dataResponse(Usage, 'The usage');

export const Deleted = v.object({ message: v.string() });
export type Deleted = v.InferOutput<typeof Deleted>;
export const DeletedResponse = dataResponse(Deleted, 'Deleted');

// ---- The domain's results match the schemas (compile-time checks only) ---------------------------

type Assignable<From extends To, To> = [From, To];
export type DatabaseCreatedMatches = Assignable<ReturnType<typeof createdDatabase>, DatabaseCreated>;
export type DatabaseDetailMatches = Assignable<DetailOfDomain, DatabaseDetailBody>;
export type JobMatches = Assignable<PublicJob, Job>;
export type ApiKeyMatches = Assignable<PublicApiKey, ApiKey>;
export type PersonalityMatches = Assignable<PublicPersonality, Personality>;
export type PatternMatches = Assignable<PublicPattern, QueryPattern>;
export type UsageMatches = Assignable<UsageOfDomain, Usage>;
