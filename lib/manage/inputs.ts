// The control plane's inputs (docs/control-plane.md): the valibot schemas its routes validate
// with and the OpenAPI document shows (their routes: lib/routes/). Kept apart from the
// operations (lib/manage/*.ts), which connect to databases, run the SQL guard and invoke Lambda,
// so that the document's function bundles the schemas and nothing of those.
import * as v from 'valibot';
import { RowPolicy } from '#lib/core/row-policy.ts';
import { EXAMPLE_URLS, SERVER_ENGINE_NAMES } from '#lib/dialects/index.ts';
import { uuidPattern } from '#lib/ids.ts';
import { PageNumberInput } from '#lib/params.ts';
import { GlossarySchema } from '#lib/store/glossary.ts';
import { NewPattern, PatternStatus } from '#lib/store/patterns.ts';
import { Language, MAX_INSTRUCTIONS_LENGTH } from '#lib/store/personalities.ts';
import { IdPathInput, Name, pathId } from './access.ts';

// ---- databases -------------------------------------------------------------------------------------

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;

/** `{url}` or `{host, port, database, user, password, sslmode}`: one of the two forms. */
export const ConnectionInput = v.pipe(
  v.strictObject({
    url: v.optional(
      v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2_048), v.description(EXAMPLE_URLS)),
    ),
    host: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[A-Za-z0-9._:[\]-]{1,253}$/, 'host must be a host name or an IP address'),
      ),
    ),
    port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535))),
    database: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
    user: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
    password: v.optional(v.pipe(v.string(), v.maxLength(1_024))),
    sslmode: v.optional(v.picklist(SSL_MODES)),
  }),
  v.check(
    (connection) =>
      connection.url !== undefined
        ? Object.keys(connection).length === 1
        : connection.host !== undefined && connection.database !== undefined && connection.user !== undefined,
    'connection takes either url alone, or host, database and user (with port, password and sslmode when needed)',
  ),
  v.description(
    'Either `{url}` or `{host, port, database, user, password, sslmode}`. Stored in the secret store, never returned.',
  ),
);
export type ConnectionInput = v.InferOutput<typeof ConnectionInput>;

const columnName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'must be a plain column name'),
);

const MAX_DESCRIBED_TABLES = 2_000;

/** Column descriptions: `{"orders": {"total": "Order total in euros, tax included"}}` (table → column → text). */
export const DescriptionsInput = v.pipe(
  v.record(
    v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
    v.record(
      v.pipe(v.string(), v.minLength(1), v.maxLength(256)),
      v.pipe(v.string(), v.trim(), v.maxLength(500)),
    ),
  ),
  v.check(
    (tables) => Object.keys(tables).length <= MAX_DESCRIBED_TABLES,
    `descriptions may describe at most ${MAX_DESCRIBED_TABLES} tables`,
  ),
  v.description('What columns mean, table → column → text; applied at each indexing'),
);

/** A column named for redaction: `table.column` or `schema.table.column`. */
const RedactedColumn = v.pipe(
  v.string(),
  v.regex(
    /^[^.\s]{1,128}(?:\.[^.\s]{1,128}){1,2}$/,
    'a redacted column is table.column or schema.table.column',
  ),
);

/** What of a database may reach a model provider (docs/model-engines.md "Data egress"). */
const egressFields = {
  model_data: v.optional(
    v.pipe(
      v.picklist(['rows', 'aggregates', 'schema_only'], 'model_data must be rows, aggregates or schema_only'),
      v.description(
        'what may reach a model provider: rows (default) sample values and result rows; aggregates: result rows only when every column is an aggregate; schema_only: neither (the service writes the answer)',
      ),
    ),
  ),
  redacted_columns: v.optional(
    v.pipe(
      v.array(RedactedColumn),
      v.maxLength(200, 'at most 200 redacted columns'),
      v.description(
        'columns never sent to a model provider, in a prompt, a sample or a row: table.column or schema.table.column',
      ),
    ),
  ),
};

const policyFields = {
  requires_organization_scoping: v.optional(
    v.pipe(v.boolean(), v.description('true: X-Tenant-Id is required and every query is filtered by tenant')),
  ),
  policy: v.optional(RowPolicy),
  descriptions: v.optional(DescriptionsInput),
  ...egressFields,
};

/** The body of POST /api/v1/organization/databases. */
export const DatabaseCreateBody = v.strictObject({
  name: Name,
  engine: v.picklist(SERVER_ENGINE_NAMES, `engine must be ${SERVER_ENGINE_NAMES.join(' or ')}`),
  connection: ConnectionInput,
  tenant_filter_column: v.optional(columnName),
  scope_filter_column: v.optional(columnName),
  ...policyFields,
  glossary: v.optional(GlossarySchema),
});
export type DatabaseCreateBody = v.InferOutput<typeof DatabaseCreateBody>;
export const DatabaseCreateInput = v.object({ body: DatabaseCreateBody });

/** The body of PATCH /api/v1/organization/databases/{id}: any of these; `null` clears a column. */
export const DatabaseUpdateBody = v.pipe(
  v.strictObject({
    name: v.optional(Name),
    connection: v.optional(ConnectionInput),
    tenant_filter_column: v.optional(v.nullable(columnName)),
    scope_filter_column: v.optional(v.nullable(columnName)),
    ...policyFields,
  }),
  v.check((body) => Object.keys(body).length > 0, 'the body changes nothing: give at least one field'),
);
export type DatabaseUpdateBody = v.InferOutput<typeof DatabaseUpdateBody>;
export const DatabaseUpdateInput = v.object({
  path: v.object({ id: pathId('id') }),
  body: DatabaseUpdateBody,
});

// ---- indexing jobs ----------------------------------------------------------------------------

/** `{job_id}` in the path of GET /organization/jobs/{job_id}. */
export const JobPathInput = v.object({ path: v.object({ job_id: pathId('job_id') }) });

// ---- API keys -----------------------------------------------------------------------------------

export const MAX_KEY_ORIGINS = 20;

/** A bare browser origin: `https://app.example.com`, `http://localhost:5173`; no path. */
const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '').toLowerCase();
  } catch {
    return false;
  }
};

/** The body of POST /api/v1/organization/api-keys. */
export const ApiKeyCreateBody = v.pipe(
  v.strictObject({
    kind: v.pipe(
      v.picklist(['sk', 'pk'], 'kind must be sk (organization key) or pk (database key)'),
      v.description('sk: an organization key for your servers; pk: a database key for the widget'),
    ),
    name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
    database_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(uuidPattern, 'database_id must be a UUID'),
        v.toLowerCase(),
        v.description('pk keys: the one database the key may use (required)'),
      ),
    ),
    origins: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string(),
            v.trim(),
            v.check(isOrigin, 'each origin must be a bare origin like https://app.example.com'),
            v.transform((origin) => origin.replace(/\/$/, '').toLowerCase()),
          ),
        ),
        v.maxLength(MAX_KEY_ORIGINS, `origins may list at most ${MAX_KEY_ORIGINS} origins`),
        v.description('pk keys: the page origins allowed to use the key (any when absent)'),
      ),
    ),
    manage: v.optional(
      v.pipe(
        v.boolean(),
        v.description('sk keys: may change the organization through the control plane (default false)'),
      ),
    ),
  }),
  v.check((body) => body.kind === 'pk' || body.database_id === undefined, 'database_id is for pk keys only'),
  v.check((body) => body.kind === 'pk' || body.origins === undefined, 'origins is for pk keys only'),
  v.check((body) => body.kind === 'sk' || body.manage === undefined, 'manage is for sk keys only'),
  v.check((body) => body.kind === 'sk' || body.database_id !== undefined, 'a pk key needs database_id'),
);
export type ApiKeyCreateBody = v.InferOutput<typeof ApiKeyCreateBody>;
export const ApiKeyCreateInput = v.object({ body: ApiKeyCreateBody });

// ---- personalities ------------------------------------------------------------------------------

const Instructions = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'instructions must not be empty'),
  v.maxLength(MAX_INSTRUCTIONS_LENGTH, `instructions must be at most ${MAX_INSTRUCTIONS_LENGTH} characters`),
);

/** The body of POST /api/v1/organization/personalities. */
export const PersonalityCreateBody = v.strictObject({
  name: Name,
  instructions: Instructions,
  language: v.optional(Language),
});
export const PersonalityCreateInput = v.object({ body: PersonalityCreateBody });

/** The body of PATCH …/personalities/{id}: any of these; `language: null` clears it. */
export const PersonalityUpdateBody = v.pipe(
  v.strictObject({
    name: v.optional(Name),
    instructions: v.optional(Instructions),
    language: v.optional(v.nullable(Language)),
  }),
  v.check((body) => Object.keys(body).length > 0, 'the body changes nothing: give at least one field'),
);

export const PersonalityUpdateInput = v.object({
  path: IdPathInput.entries.path,
  body: PersonalityUpdateBody,
});

// ---- query patterns and the glossary ----------------------------------------------------------

/** The body of POST …/databases/{id}/patterns. */
export const PatternCreateBody = v.strictObject(NewPattern.entries);
export const PatternCreateInput = v.object({
  path: v.object({ id: pathId('id') }),
  body: PatternCreateBody,
});

/**
 * The body of PATCH …/patterns/{pattern_id}: any of these; `notes: null` clears them; `status:
 * "approved"` approves a candidate (one an answer's feedback proposed), `"candidate"` sets a
 * pattern aside.
 */
export const PatternUpdateBody = v.pipe(
  v.strictObject({
    question: v.optional(NewPattern.entries.question),
    sql: v.optional(NewPattern.entries.sql),
    notes: v.optional(v.nullable(v.unwrap(NewPattern.entries.notes))),
    status: v.optional(PatternStatus),
  }),
  v.check((body) => Object.keys(body).length > 0, 'the body changes nothing: give at least one field'),
);
export const PatternListInput = v.object({
  path: v.object({ id: pathId('id') }),
  query: v.object({
    ...PageNumberInput.entries.query.entries,
    status: v.optional(
      v.pipe(
        PatternStatus,
        v.description('only the approved patterns, or only the candidates; all when absent'),
      ),
    ),
  }),
});
export const PatternPathInput = v.object({
  path: v.object({ id: pathId('id'), pattern_id: pathId('pattern_id') }),
});
export const PatternUpdateInput = v.object({ ...PatternPathInput.entries, body: PatternUpdateBody });

export const GlossaryPathInput = v.object({ path: v.object({ id: pathId('id') }) });
export const GlossaryPutInput = v.object({ path: GlossaryPathInput.entries.path, body: GlossarySchema });
