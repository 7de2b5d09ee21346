// The admin commands, run by admin/main.ts once the target is in the settings. Each command
// validates its whole input first (UsageError, nothing touched), then calls `connect()` once and
// works through lib/store.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as v from 'valibot';
import { resolveTenant, type TenantValues } from '#lib/auth/tenant.ts';
import { type ColumnDescriptions, parseDescriptions } from '#lib/connectors/descriptions.ts';
import { closeConnectors, connectorFor } from '#lib/connectors/index.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy, RowPolicy } from '#lib/core/row-policy.ts';
import { EMBEDDED_ENGINE_NAMES as EMBEDDED_ENGINES, ENGINE_NAMES, engineNamed } from '#lib/dialects/index.ts';
import { isServiceError } from '#lib/errors.ts';
import { uuidPattern } from '#lib/ids.ts';
import { effectiveLimits } from '#lib/limits/plans.ts';
import { createKey, publicApiKey, revokeKey } from '#lib/manage/api-keys.ts';
import { createDatabase, updateDatabase } from '#lib/manage/database-changes.ts';
import { indexDatabase } from '#lib/manage/databases.ts';
import { saveGlossary } from '#lib/manage/glossary.ts';
import { ApiKeyCreateBody, DatabaseUpdateBody } from '#lib/manage/inputs.ts';
import { type ApiKeyRecord, listApiKeys } from '#lib/store/api-keys.ts';
import { BrandingUpdate, saveBranding } from '#lib/store/branding.ts';
import { migrateConversationAddresses } from '#lib/store/conversation-addresses.ts';
import {
  type DatabaseRecord,
  findDatabase,
  findDatabaseById,
  listDatabases,
  newDatabaseId,
  publicDatabase,
  type SchemaIndexPointer,
} from '#lib/store/databases.ts';
import { parseGlossary } from '#lib/store/glossary.ts';
import {
  createOrganization,
  findOrganization,
  type LimitOverrides,
  NewOrganization,
  type Organization,
  PlanName,
  setOrganizationLimits,
  setOrganizationPlan,
} from '#lib/store/organizations.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import {
  AdminError,
  type CommandName,
  listOption,
  type OptionValues,
  organizationIdOption,
  originsOption,
  UsageError,
} from './args.ts';
import { patternAdd, patternList } from './patterns.ts';
import { personalityCreate, personalityList } from './personalities.ts';

export type Connect = () => Promise<void>;
/** Writes one JSON line to stdout at once (commands that print a line per item, like sql check). */
export type Emit = (line: unknown) => Promise<void>;
/** A command's result is printed as one JSON document; a command that emitted lines returns undefined. */
type Run = (values: OptionValues, connect: Connect, emit: Emit) => Promise<unknown>;

// ---- input helpers -------------------------------------------------------------------------

/** Relative paths are relative to where the user ran `npm run admin` (npm itself runs in the project root). */
const inputPath = (path: string): string =>
  isAbsolute(path)
    ? path
    : resolve(
        process.env.npm_lifecycle_event === 'admin' ? (process.env.INIT_CWD ?? process.cwd()) : process.cwd(),
        path,
      );

const existingFile = (option: string, path: string): string => {
  const absolute = inputPath(path);
  let isFile = false;
  try {
    isFile = statSync(absolute).isFile();
  } catch {
    throw new UsageError(`--${option}: no such file ${absolute}`);
  }
  if (!isFile) throw new UsageError(`--${option}: ${absolute} is not a file`);
  return absolute;
};

const readJsonFile = (option: string, path: string): unknown => {
  const absolute = existingFile(option, path);
  try {
    return JSON.parse(readFileSync(absolute, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--${option}: ${absolute} is not valid JSON (${(error as Error).message.split('\n')[0]})`,
    );
  }
};

/** A warning: one line on stderr, so that stdout stays the command's JSON. */
const warn = (text: string): Promise<void> =>
  new Promise((done) => {
    process.stderr.write(`admin: warning: ${text}\n`, () => done());
  });

/** One line naming every invalid field, e.g. `colors.primary: must be a hex color like #1a2b3c`. */
export const describeIssues = (issues: readonly v.BaseIssue<unknown>[]): string =>
  issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      const message =
        issue.type === 'strict_object' && issue.expected === 'never' ? 'unknown field' : issue.message;
      return `${path ?? '(top level)'}: ${message}`;
    })
    .join('; ');

const validated = <S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> => {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new UsageError(`invalid ${what}: ${describeIssues(result.issues)}`);
  return result.output;
};

const planOption = (value: string | undefined): PlanName => {
  const result = v.safeParse(PlanName, value);
  if (!result.success) throw new UsageError(`--plan must be one of ${PlanName.options.join(', ')}`);
  return result.output;
};

const uuidOption = (option: string, value: string | undefined): string => {
  if (!value || !uuidPattern.test(value)) throw new UsageError(`--${option} must be a UUID`);
  return value.toLowerCase();
};

const organizationMustExist = async (id: number) => {
  const organization = await findOrganization(id);
  if (!organization) throw new AdminError(`organization ${id} not found`);
  return organization;
};

// ---- output ----------------------------------------------------------------------------------
// What the commands print uses the API's field names (snake_case: created_at, prefix,
// organization_id…), so that a record reads the same from the admin command and the API.

/** `requestsPerMinute` → `requests_per_minute`. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Limits (or overrides) with the API's names. */
const limitsOutput = (limits: object): Record<string, number> =>
  Object.fromEntries(Object.entries(limits).map(([name, value]) => [snakeCase(name), value as number]));

const organizationOutput = (organization: Organization) => ({
  id: organization.id,
  name: organization.name,
  plan: organization.plan,
  status: organization.status,
  created_at: organization.createdAt,
  ...(organization.limits ? { limits: limitsOutput(organization.limits) } : {}),
});

/** A key as GET /organization/api-keys shows it, with its organization and, once revoked, when. */
const keyOutput = (key: ApiKeyRecord) => ({
  ...publicApiKey(key),
  organization_id: key.organizationId,
  revoked_at: key.revokedAt ?? null,
});

// ---- org -----------------------------------------------------------------------------------

const orgCreate: Run = async (values, connect) => {
  const input = validated(
    NewOrganization,
    { name: values.name, plan: planOption(values.plan ?? 'free') },
    '--name',
  );
  await connect();
  return organizationOutput(await createOrganization(input));
};

const orgSetPlan: Run = async (values, connect) => {
  const id = organizationIdOption(values.org);
  const plan = planOption(values.plan);
  await connect();
  await organizationMustExist(id);
  return organizationOutput(await setOrganizationPlan(id, plan));
};

/** `org set-limits` options and the override each one sets. */
const limitOptions = {
  'per-minute': 'requestsPerMinute',
  'per-hour': 'requestsPerHour',
  concurrent: 'concurrentRequests',
  monthly: 'monthlyRequests',
  indexing: 'indexingOperations',
  'messages-per-minute': 'messagesPerMinute',
  'messages-per-hour': 'messagesPerHour',
} as const satisfies Partial<Record<keyof OptionValues, keyof LimitOverrides>>;

const orgSetLimits: Run = async (values, connect) => {
  const id = organizationIdOption(values.org);
  const changes: Partial<Record<keyof LimitOverrides, number | 'default'>> = {};
  for (const [option, field] of Object.entries(limitOptions) as [
    keyof typeof limitOptions,
    keyof LimitOverrides,
  ][]) {
    const value = values[option];
    if (value === undefined) continue;
    if (value === 'default') changes[field] = 'default';
    else if (/^[1-9][0-9]{0,8}$/.test(value)) changes[field] = Number(value);
    else throw new UsageError(`--${option} must be a positive whole number (at most 999999999) or default`);
  }
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      `org set-limits needs at least one of ${Object.keys(limitOptions)
        .map((option) => `--${option}`)
        .join(', ')}`,
    );
  }
  await connect();
  const organization = await organizationMustExist(id);
  if (organization.plan !== 'enterprise') {
    throw new AdminError(
      `organization ${id} is on the ${organization.plan} plan: limit overrides apply to enterprise organizations only (org set-plan --org ${id} --plan enterprise first)`,
    );
  }
  const overrides: LimitOverrides = { ...organization.limits };
  for (const [field, value] of Object.entries(changes) as [keyof LimitOverrides, number | 'default'][]) {
    if (value === 'default') delete overrides[field];
    else overrides[field] = value;
  }
  const updated = await setOrganizationLimits(id, overrides);
  return {
    ...organizationOutput(updated),
    effective_limits: limitsOutput(effectiveLimits(updated.plan, updated.limits)),
  };
};

// ---- key -----------------------------------------------------------------------------------

const keyCreate: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  const kind = values.kind;
  if (kind !== 'sk' && kind !== 'pk')
    throw new UsageError('--kind must be sk (organization key) or pk (database key)');
  if (kind === 'sk' && values.database !== undefined)
    throw new UsageError('an sk key belongs to the organization: leave out --database');
  if (kind === 'sk' && values.origins !== undefined)
    throw new UsageError('--origins applies to pk keys only');
  if (kind === 'pk' && values.database === undefined)
    throw new UsageError('a pk key needs --database <uuid> (a database of the organization)');
  if (kind === 'pk' && values.manage !== undefined)
    throw new UsageError('--manage applies to sk keys only (a pk key never changes the organization)');
  const databaseId = kind === 'pk' ? uuidOption('database', values.database) : undefined;
  const allowedOrigins = originsOption(values.origins);
  const body = validated(
    ApiKeyCreateBody,
    {
      kind,
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(databaseId ? { database_id: databaseId } : {}),
      ...(allowedOrigins.length ? { origins: allowedOrigins } : {}),
      ...(values.manage ? { manage: true } : {}),
    },
    'key',
  );

  await connect();
  await organizationMustExist(organizationId);
  // The control plane's operation (lib/manage/api-keys.ts), with the command's messages.
  const created = await createKey(organizationId, body).catch((error: unknown) => {
    if (isServiceError(error) && error.kind === 'DATABASE_NOT_FOUND')
      throw new AdminError(`database ${databaseId} not found in organization ${organizationId}`);
    throw error;
  });
  // The API's answer (POST /organization/api-keys), with the organization it belongs to.
  return { ...created, organization_id: organizationId };
};

const keyRevoke: Run = async (values, connect) => {
  const id = uuidOption('id', values.id);
  await connect();
  return keyOutput(await revokeKey(id));
};

const keyList: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  await connect();
  await organizationMustExist(organizationId);
  return { keys: (await listApiKeys(organizationId)).map(keyOutput) };
};

// ---- branding ------------------------------------------------------------------------------

const brandingSet: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  const file = values.file ?? '';
  const branding = validated(BrandingUpdate, readJsonFile('file', file), `branding in ${file}`);
  await connect();
  await organizationMustExist(organizationId);
  return saveBranding(organizationId, branding);
};

// ---- database ------------------------------------------------------------------------------

/** `--engine`: one of the registry's engines (lib/dialects/index.ts). */
const Engine = v.picklist(ENGINE_NAMES);

/** The option that gave the connection URL (messages name it) and the URL it gave. */
interface GivenUrl {
  option: 'url' | 'url-file' | 'url-env';
  url: string | undefined;
}

const environmentName = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * The connection URL from whichever one of --url-file, --url-env and --url was given. The first
 * two keep a password off the command line, where the shell's history and the process list
 * (`ps`, /proc/<pid>/cmdline, readable by other users) would show it. Messages never include
 * the URL or the file's content.
 */
const givenUrl = (values: OptionValues): GivenUrl => {
  const given = (['url-file', 'url-env', 'url'] as const).filter((option) => values[option] !== undefined);
  if (given.length > 1) throw new UsageError('database add takes one of --url-file, --url-env or --url');
  const [option = 'url'] = given;
  if (option === 'url-file') {
    const path = existingFile('url-file', values['url-file'] ?? '');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      throw new UsageError(`--url-file: ${path} cannot be read`);
    }
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (lines.length !== 1) {
      throw new UsageError(
        `--url-file: ${path} must hold the URL on one line${lines.length === 0 ? ' (it is empty)' : ''}`,
      );
    }
    return { option, url: lines[0] };
  }
  if (option === 'url-env') {
    const name = values['url-env'] ?? '';
    if (!environmentName.test(name)) {
      throw new UsageError('--url-env takes the name of an environment variable, like DATABASE_URL');
    }
    const url = process.env[name]?.trim();
    if (!url) throw new UsageError(`--url-env: the environment variable ${name} is not set or is empty`);
    return { option, url };
  }
  return { option, url: values.url };
};

/** A password in the URL's user part or, as libpq and mysql2 also read it, its query string. */
const hasPassword = (url: URL): boolean =>
  url.password !== '' || [...url.searchParams.keys()].some((key) => key.toLowerCase() === 'password');

/** Checks the URL's scheme against the engine. Messages never include the URL. */
const connectionUrl = (engine: string, { option, url }: GivenUrl): string => {
  const { urlSchemes, embedded, databaseInUrl } = engineNamed(engine).engine;
  if (embedded) {
    if (url !== undefined && url !== 'memory:')
      throw new UsageError(
        `engine ${engine} takes --url memory: (with --seed file.sql)${option === 'url' ? '' : `, not the URL of --${option}`}`,
      );
    return 'memory:';
  }
  const expected = urlSchemes.map((scheme) => `${scheme}//`).join(' or ');
  if (!url)
    throw new UsageError(
      `engine ${engine} needs its URL: --url-file FILE or --url-env NAME holding ${urlSchemes[0]}//user:password@host:port/database (or --url for a URL without a password)`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--${option} is not a valid URL (expected ${expected})`);
  }
  if (!urlSchemes.includes(parsed.protocol) || !url.slice(parsed.protocol.length).startsWith('//')) {
    throw new UsageError(`--${option} for engine ${engine} must start with ${expected}`);
  }
  if (!parsed.hostname) throw new UsageError(`--${option} names no host`);
  if (databaseInUrl && parsed.pathname.length <= 1) {
    throw new UsageError(
      `--${option} for engine ${engine} must name the database: ${urlSchemes[0]}//user:password@host:port/database`,
    );
  }
  return url;
};

/** Stands in for the password wherever a message might still carry it (besides admin/main.ts's redaction). */
const withoutUrl = (error: unknown, url: string): unknown => {
  if (!(error instanceof Error) || url === 'memory:') return error;
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL: nothing more to cut than the text itself.
  }
  for (const secret of [url, password]) {
    if (secret.length > 3) error.message = error.message.split(secret).join('<redacted>');
  }
  return error;
};

/** What the admin command shows of a database: the public fields and where its index stands. */
const adminDatabase = (record: DatabaseRecord) => ({
  ...publicDatabase(record),
  schema_index: record.schemaIndex
    ? { relations: record.schemaIndex.relations, indexed_at: record.schemaIndex.indexedAt }
    : null,
});

/** The row policy's names that the catalog does not have: worth a warning, not a failure. */
const policyWarnings = (catalog: Catalog, policy: RowPolicy, requiresScoping: boolean): string[] => {
  const warnings: string[] = [];
  const names = new Set(catalog.relations.flatMap((r) => [r.name, `${r.schema}.${r.name}`]));
  for (const table of Object.keys(policy.tables ?? {})) {
    if (!names.has(table)) warnings.push(`the policy lists ${table}, which the database does not have`);
  }
  const tenantColumn = policy.tenant_column;
  if (
    requiresScoping &&
    tenantColumn &&
    !catalog.relations.some((r) => r.columns.some((c) => c.name === tenantColumn))
  ) {
    warnings.push(
      `no table has the tenant column ${tenantColumn}: every table without an override is refused`,
    );
  }
  return warnings;
};

const indexSummary = (record: DatabaseRecord, pointer: SchemaIndexPointer, catalog: Catalog) => ({
  id: record.id,
  name: record.name,
  engine: record.engine,
  schema_index: {
    version: pointer.version,
    relations: pointer.relations,
    chunks: pointer.chunks,
    bytes: pointer.bytes,
    indexed_at: pointer.indexedAt,
  },
  relations: catalog.relations.map((relation) => ({
    name: `${relation.schema}.${relation.name}`,
    kind: relation.kind,
    ...(relation.description ? { description: relation.description } : {}),
    columns: relation.columns.length,
    rows: relation.rowEstimate,
  })),
});

const databaseById = async (id: string): Promise<DatabaseRecord> => {
  const database = await findDatabaseById(id);
  if (!database) throw new AdminError(`database ${id} not found`);
  return database;
};

const databaseAdd: Run = async (values, connect) => {
  const given = givenUrl(values);
  try {
    return await addDatabaseFrom(given, values, connect);
  } catch (error) {
    throw given.url === undefined ? error : withoutUrl(error, given.url);
  }
};

const addDatabaseFrom = async (given: GivenUrl, values: OptionValues, connect: Connect): Promise<unknown> => {
  const organizationId = organizationIdOption(values.org);
  const name = (values.name ?? '').trim();
  if (!name || name.length > 200) throw new UsageError('--name must be 1 to 200 characters');
  const engineResult = v.safeParse(Engine, values.engine);
  if (!engineResult.success) throw new UsageError(`--engine must be one of ${Engine.options.join(', ')}`);
  const engine = engineResult.output;
  const url = connectionUrl(engine, given);
  const { embedded } = engineNamed(engine).engine;
  if (given.option === 'url' && !embedded && hasPassword(new URL(url))) {
    await warn(
      '--url holds a password, which the shell keeps in its history and other users can see in the process list: give the URL with --url-file FILE or --url-env NAME instead',
    );
  }
  if (embedded && values.seed === undefined) throw new UsageError(`engine ${engine} needs --seed file.sql`);
  if (!embedded && values.seed !== undefined)
    throw new UsageError(
      `--seed applies to ${EMBEDDED_ENGINES.map((name) => `engine ${name}`).join(', ')} only`,
    );
  const seedFile = values.seed === undefined ? undefined : existingFile('seed', values.seed);
  const id = values.id === undefined ? newDatabaseId() : uuidOption('id', values.id);

  // The row policy: the --policy file, then the column options, then --shared-tables.
  const fromFile: RowPolicy =
    values.policy === undefined
      ? { tables: {} }
      : validated(RowPolicy, readJsonFile('policy', values.policy), `policy in ${values.policy}`);
  const column = (option: 'tenant-column' | 'scope-column', field: 'tenant_column' | 'scope_column') => {
    const given = values[option];
    const inFile = fromFile[field];
    if (given !== undefined && inFile !== undefined && given !== inFile) {
      throw new UsageError(`--${option} ${given} disagrees with the policy's ${field} ${inFile}`);
    }
    return given ?? inFile;
  };
  const tenantColumn = column('tenant-column', 'tenant_column');
  const scopeColumn = column('scope-column', 'scope_column');
  // No prototype: `--shared-tables __proto__` is then a key the policy's check refuses, never
  // the object's prototype, and `constructor` is not found on it.
  const tables: Record<string, unknown> = Object.assign(Object.create(null), fromFile.tables);
  for (const table of listOption(values['shared-tables'])) {
    tables[table] = { ...(tables[table] as object | undefined), shared: true };
  }
  const policy = validated(
    RowPolicy,
    {
      ...fromFile,
      ...(tenantColumn !== undefined ? { tenant_column: tenantColumn } : {}),
      ...(scopeColumn !== undefined ? { scope_column: scopeColumn } : {}),
      ...(values['scope-required'] === true ? { scope_required: true } : {}),
      tables,
    },
    'row policy (--tenant-column, --scope-column, --scope-required, --shared-tables, --policy)',
  );
  if (
    policy.scope_required === true &&
    policy.scope_column === undefined &&
    !Object.values(policy.tables ?? {}).some((table) => table.scope_column !== undefined)
  ) {
    throw new UsageError(
      '--scope-required needs a scope column: --scope-column COL, scope_column in --policy, or a table’s scope_column',
    );
  }
  const requiresScoping = values['requires-scoping'] === true;
  if (requiresScoping && policy.tenant_column === undefined) {
    throw new UsageError(
      '--requires-scoping needs a tenant column: --tenant-column COL or tenant_column in --policy',
    );
  }

  await connect();
  await organizationMustExist(organizationId);
  if ((await findDatabase(organizationId, id)) || (await findDatabaseById(id)))
    throw new AdminError(`database ${id} already exists in organization ${organizationId}`);

  // Column descriptions and a glossary (docs/databases.md), read and checked before connecting.
  const descriptions =
    values.descriptions === undefined ? undefined : descriptionsOption(values.descriptions);
  const glossary =
    values.glossary === undefined
      ? undefined
      : parseGlossary(readJsonFile('glossary', values.glossary), 'glossary');
  // The control plane's operation (lib/manage/databases.ts): tested before anything is stored (a
  // database that cannot be reached leaves no record and no secret behind), counted, stored, and
  // indexed by its first job, run here rather than in the background.
  const { result } = await createDatabase(
    organizationId,
    {
      name,
      engine,
      connection: { url },
      requires_organization_scoping: requiresScoping,
      policy,
      ...(descriptions ? { descriptions } : {}),
      ...(glossary ? { glossary } : {}),
    },
    { engine, id, run: 'inline', ...(seedFile !== undefined ? { seedFile } : {}) },
  );
  const record = await databaseById(id);
  if (!result.index) throw indexingFailed(record, result.job.error);
  const warnings = policyWarnings(result.index.catalog, policy, requiresScoping);
  return { ...adminDatabase(record), ...(warnings.length > 0 ? { warnings } : {}) };
};

/** A job that failed, as the command reports it: the database stays, to be indexed again. */
const indexingFailed = (record: DatabaseRecord, error: { code: string; message: string } | null) =>
  new AdminError(
    `indexing ${record.id} failed: ${error?.code ?? 'UNKNOWN'}: ${error?.message ?? 'the job did not finish'} (the database is stored: fix the cause, then run database index --id ${record.id})`,
  );

/** A descriptions file (docs/databases.md "Column descriptions"), as table → column → text. */
const descriptionsOption = (path: string): ColumnDescriptions => {
  try {
    return parseDescriptions(readJsonFile('descriptions', path));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--descriptions: ${path} is not a descriptions file ({"table_metadata": {"<table>": [{"column_name", "column_description"}]}}): ${(error as Error).message}`,
    );
  }
};

/** Checks a glossary against the database's schema index and SQL guard, then replaces it. */
const databaseGlossarySet: Run = async (values, connect) => {
  const id = uuidOption('database', values.database);
  const input = readJsonFile('file', values.file ?? '');
  await connect();
  const database = await databaseById(id);
  const glossary = await saveGlossary(database, input, { field: 'glossary' });
  return { database_id: id, glossary };
};

/** What of a database may reach a model provider, through the control plane's update (no re-index). */
const databaseEgressSet: Run = async (values, connect) => {
  const id = uuidOption('database', values.database);
  if (values['model-data'] === undefined && values.redact === undefined)
    throw new UsageError('database egress set takes --model-data, --redact or both');
  const body = v.safeParse(DatabaseUpdateBody, {
    ...(values['model-data'] !== undefined ? { model_data: values['model-data'] } : {}),
    ...(values.redact !== undefined
      ? {
          redacted_columns: values.redact
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        }
      : {}),
  });
  if (!body.success) throw new UsageError(body.issues.map((issue) => issue.message).join('; '));
  await connect();
  const database = await databaseById(id);
  const updated = await updateDatabase(database.organizationId, id, body.output);
  return { database_id: id, model_data: updated.model_data, redacted_columns: updated.redacted_columns };
};

const databaseIndex: Run = async (values, connect) => {
  const id = uuidOption('id', values.id);
  await connect();
  const database = await databaseById(id);
  try {
    // The control plane's re-index (lib/manage/databases.ts), its job run here.
    const { job, index } = await indexDatabase(database.organizationId, id, 'inline');
    if (!index) throw indexingFailed(database, job.error);
    return {
      ...indexSummary(database, index.pointer, index.catalog),
      job: { id: job.id, status: job.status },
    };
  } finally {
    await closeConnectors();
  }
};

const MAX_TIMEOUT_MS = 300_000;

const sqlCheck: Run = async (values, connect, emit) => {
  const databaseId = uuidOption('database', values.database);
  if ((values.sql === undefined) === (values.jsonl === undefined)) {
    throw new UsageError('sql check takes one of --sql "SELECT ..." or --jsonl queries.jsonl');
  }
  const timeoutText = values['timeout-ms'];
  if (timeoutText !== undefined && !values.execute)
    throw new UsageError('--timeout-ms applies with --execute');
  const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText);
  if (
    timeoutText !== undefined &&
    (!/^[1-9][0-9]*$/.test(timeoutText) || Number(timeoutMs) > MAX_TIMEOUT_MS)
  ) {
    throw new UsageError(`--timeout-ms must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  }
  if (values.sql !== undefined && values.sql.trim() === '') throw new UsageError('--sql must not be empty');
  const { readQueries, runSqlCheck } = await import('./sql-check.ts');
  // A bad --jsonl line is answered in its place (INVALID_INPUT); only a missing or empty file
  // stops the command here.
  const queries =
    values.sql !== undefined
      ? [{ id: 'sql', sql: values.sql }]
      : readQueries(existingFile('jsonl', values.jsonl ?? ''));

  await connect();
  const database = await databaseById(databaseId);
  let summary: Awaited<ReturnType<typeof runSqlCheck>>;
  try {
    const catalog =
      (await readSchemaIndex(database)) ??
      (await (await connectorFor(database)).introspect({ policy: effectivePolicy(database) }));
    // A missing --tenant on a scoped database is left to the guard, which refuses every tenant
    // relation (TENANT_REQUIRED) and shows what shared tables stay readable.
    const tenantMissing = values.tenant === undefined && database.requiresOrganizationScoping;
    let tenantValues: TenantValues;
    try {
      tenantValues = resolveTenant(
        tenantMissing ? { ...database, requiresOrganizationScoping: false } : database,
        catalog,
        values.tenant,
        values.scope,
      );
    } catch (error) {
      if (!isServiceError(error)) throw error;
      const option = error.issues[0]?.field === 'X-Scope-Id' ? '--scope' : '--tenant';
      throw new AdminError(`${option}: ${error.message}`);
    }
    summary = await runSqlCheck({
      database,
      catalog,
      queries,
      tenantValues,
      ...(values.execute ? { connector: () => connectorFor(database) } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      emit,
    });
  } finally {
    await closeConnectors();
  }
  // Every line has its answer on stdout by now; exit 1 says some of them are failures
  // (a refusal is an answer: exit 0).
  const failures = [
    [summary.invalid, 'invalid input line'],
    [summary.guardErrors, 'guard error'],
    [summary.queryErrors, 'query error'],
  ] as const;
  const failed = failures.reduce((sum, [count]) => sum + count, 0);
  if (failed > 0) {
    const counts = failures
      .filter(([count]) => count > 0)
      .map(([count, what]) => `${count} ${what}${count > 1 ? 's' : ''}`)
      .join(', ');
    throw new AdminError(
      `sql check: ${failed} of ${summary.lines} ${summary.lines > 1 ? 'lines' : 'line'} failed (${counts}); each has its answer on stdout`,
    );
  }
  return undefined;
};

const databaseList: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  await connect();
  await organizationMustExist(organizationId);
  return { databases: (await listDatabases(organizationId)).map(adminDatabase) };
};

export const runners: Record<CommandName, Run> = {
  'org create': orgCreate,
  'org set-plan': orgSetPlan,
  'org set-limits': orgSetLimits,
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'key list': keyList,
  'branding set': brandingSet,
  'database add': databaseAdd,
  'database list': databaseList,
  'database index': databaseIndex,
  'database glossary set': databaseGlossarySet,
  'database egress set': databaseEgressSet,
  'sql check': sqlCheck,
  'personality create': personalityCreate,
  'personality list': personalityList,
  'pattern add': patternAdd,
  'pattern list': patternList,
  'conversations migrate-addresses': async (_values, connect) => {
    await connect();
    return migrateConversationAddresses();
  },
};
