// `admin database …` and `admin sql check`: connecting a database (its URL or the environment
// variable that holds it, the row policy, descriptions and glossary files), indexing it, its
// glossary and data egress, and checking SQL against its guard.
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { resolveTenant, type TenantValues } from '#lib/auth/tenant.ts';
import { type ColumnDescriptions, parseDescriptions } from '#lib/connectors/descriptions.ts';
import { closeConnectors, connectorFor } from '#lib/connectors/index.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy, RowPolicy } from '#lib/core/row-policy.ts';
import { EMBEDDED_ENGINE_NAMES as EMBEDDED_ENGINES, ENGINE_NAMES, engineNamed } from '#lib/dialects/index.ts';
import { isServiceError } from '#lib/errors.ts';
import { createDatabase, updateDatabase } from '#lib/manage/database-changes.ts';
import { indexDatabase } from '#lib/manage/databases.ts';
import { saveGlossary } from '#lib/manage/glossary.ts';
import { DatabaseUpdateBody } from '#lib/manage/inputs.ts';
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
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { AdminError, listOption, type OptionValues, organizationIdOption, UsageError } from './args.ts';
import {
  type Connect,
  databaseById,
  existingFile,
  organizationMustExist,
  type Run,
  readJsonFile,
  uuidOption,
  validated,
  warn,
} from './command.ts';

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

export const databaseAdd: Run = async (values, connect) => {
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
export const databaseGlossarySet: Run = async (values, connect) => {
  const id = uuidOption('database', values.database);
  const input = readJsonFile('file', values.file ?? '');
  await connect();
  const database = await databaseById(id);
  const glossary = await saveGlossary(database, input, { field: 'glossary' });
  return { database_id: id, glossary };
};

/** What of a database may reach a model provider, through the control plane's update (no re-index). */
export const databaseEgressSet: Run = async (values, connect) => {
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

export const databaseIndex: Run = async (values, connect) => {
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

export const sqlCheck: Run = async (values, connect, emit) => {
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

export const databaseList: Run = async (values, connect) => {
  const organizationId = organizationIdOption(values.org);
  await connect();
  await organizationMustExist(organizationId);
  return { databases: (await listDatabases(organizationId)).map(adminDatabase) };
};
