// Connecting, changing and deleting a connected database (docs/design.md "The control plane";
// docs/control-plane.md), for the control plane's routes and the admin command alike.
//
// Create: the body is checked, the name must be free, the connection is tested (422
// VALIDATION_ERROR with a details entry code CONNECTION_FAILED: nothing stored), one indexing
// operation is counted (429 INDEXING_QUOTA_EXCEEDED: nothing stored), the URL goes to the secret
// store, the record is written (its name item refuses a duplicate, 400 BUSINESS_DUPLICATE_ENTRY),
// and the first indexing job is queued. Update: a changed connection is tested again and a
// changed connection, row policy or set of descriptions counts and queues a re-index; any refusal
// leaves the database as it was. Delete: the database's pk_ keys are revoked, then the database
// and everything in its partition (index, patterns, glossary) go; later questions on it are 404.
import * as v from 'valibot';
import { forgetAnswerGlossary } from '#lib/answer/catalog.ts';
import { forgetApiKey } from '#lib/auth/principal.ts';
import { secretStore } from '#lib/connectors/secrets.ts';
import { RowPolicy } from '#lib/core/row-policy.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { consumeIndexingQuota } from '#lib/limits/indexing.ts';
import { listApiKeys, revokeApiKey } from '#lib/store/api-keys.ts';
import {
  addDatabase,
  type DatabaseChanges,
  type DatabaseRecord,
  deleteDatabase as deleteDatabaseRecord,
  findDatabase,
  listDatabases,
  newDatabaseId,
  normalisedName,
  publicDatabase,
  updateDatabase as updateDatabaseRecord,
} from '#lib/store/databases.ts';
import { connectionUrlOf, testConnectionUrl } from './connection.ts';
import { type DatabaseDetail, databaseDetail, databaseOf, jobSummary } from './databases.ts';
import type { DatabaseCreateBody, DatabaseUpdateBody } from './inputs.ts';
import type { JobResult } from './job-states.ts';
import { type JobRun, queueIndexJob } from './jobs.ts';

// ---- the row policy --------------------------------------------------------------------------------

interface PolicyInput {
  requires_organization_scoping?: boolean | undefined;
  tenant_filter_column?: string | null | undefined;
  scope_filter_column?: string | null | undefined;
  policy?: RowPolicy | undefined;
}

type PolicySettings = Pick<
  DatabaseRecord,
  'requiresOrganizationScoping' | 'tenantFilterColumn' | 'scopeFilterColumn' | 'policy'
>;

/**
 * The row policy a body asks for, over the current one (PATCH): the policy given replaces the
 * policy, the column fields set (or with null clear) its default columns, and they must agree.
 */
export const resolvePolicy = (input: PolicyInput, current?: PolicySettings): PolicySettings => {
  const base: RowPolicy = input.policy ?? current?.policy ?? { tables: {} };
  const column = (
    field: 'tenant_filter_column' | 'scope_filter_column',
    key: 'tenant_column' | 'scope_column',
  ) => {
    const given = input[field];
    const inPolicy = input.policy?.[key];
    if (given !== undefined && given !== null && inPolicy !== undefined && given !== inPolicy)
      throw invalidField(`body.${field}`, `${field} ${given} disagrees with the policy's ${key} ${inPolicy}`);
    if (given === null) return undefined;
    return given ?? base[key];
  };
  const tenant = column('tenant_filter_column', 'tenant_column');
  const scope = column('scope_filter_column', 'scope_column');
  const { tenant_column: _tenant, scope_column: _scope, ...rest } = base;
  const policy = v.parse(RowPolicy, {
    ...rest,
    ...(tenant !== undefined ? { tenant_column: tenant } : {}),
    ...(scope !== undefined ? { scope_column: scope } : {}),
  });
  const requires = input.requires_organization_scoping ?? current?.requiresOrganizationScoping ?? false;
  if (requires && policy.tenant_column === undefined)
    throw invalidField(
      'body.requires_organization_scoping',
      'requires_organization_scoping needs a tenant column: tenant_filter_column or the policy’s tenant_column',
    );
  if (
    policy.scope_required === true &&
    policy.scope_column === undefined &&
    !Object.values(policy.tables ?? {}).some((table) => table.scope_column !== undefined)
  )
    throw invalidField(
      'body.policy.scope_required',
      'scope_required needs a scope column (scope_filter_column)',
    );
  return {
    requiresOrganizationScoping: requires,
    ...(policy.tenant_column !== undefined ? { tenantFilterColumn: policy.tenant_column } : {}),
    ...(policy.scope_column !== undefined ? { scopeFilterColumn: policy.scope_column } : {}),
    policy,
  };
};

const samePolicy = (a: PolicySettings, b: PolicySettings): boolean =>
  a.requiresOrganizationScoping === b.requiresOrganizationScoping &&
  (a.tenantFilterColumn ?? null) === (b.tenantFilterColumn ?? null) &&
  (a.scopeFilterColumn ?? null) === (b.scopeFilterColumn ?? null) &&
  JSON.stringify(a.policy) === JSON.stringify(b.policy);

/** No other database of the organization has this name (compared trimmed, without case). */
const nameMustBeFree = async (organizationId: number, name: string, except?: string): Promise<void> => {
  const wanted = normalisedName(name);
  const taken = (await listDatabases(organizationId)).some(
    (database) => database.id !== except && normalisedName(database.name) === wanted,
  );
  if (taken)
    throw new ServiceError('DUPLICATE_ENTRY', {
      message: `The organization already has a database named ${JSON.stringify(name)}`,
      issues: [{ field: 'body.name', message: 'a database of this name exists', code: 'DUPLICATE_ENTRY' }],
    });
};

// ---- the operations ----------------------------------------------------------------------------

/** What the admin command may add to a body: an embedded database, its id. */
export interface CreateOptions {
  /**
   * Any engine of the registry (lib/dialects/index.ts), from the admin command: an embedded one
   * too (a seed file, `memory:`); the API takes the engines reached by URL only.
   */
  engine?: string;
  seedFile?: string;
  id?: string;
  run?: JobRun;
}

export interface CreatedDatabase {
  record: DatabaseRecord;
  result: JobResult;
}

export const createDatabase = async (
  organizationId: number,
  body: Omit<DatabaseCreateBody, 'engine'> & { engine: string },
  options: CreateOptions = {},
): Promise<CreatedDatabase> => {
  const engine = options.engine ?? body.engine;
  const settings = resolvePolicy(body);
  const url = connectionUrlOf(engine, body.connection);
  await nameMustBeFree(organizationId, body.name);
  const id = options.id ?? newDatabaseId();
  if (await findDatabase(organizationId, id))
    throw new ServiceError('DUPLICATE_ENTRY', { message: `Database ${id} already exists` });
  // Tested, then counted, before anything is stored.
  await testConnectionUrl(engine, url, options.seedFile);
  await consumeIndexingQuota(organizationId);
  const connectionRef = await secretStore().save(id, url);
  let record: DatabaseRecord;
  try {
    record = await addDatabase(
      {
        id,
        organizationId,
        name: body.name,
        engine,
        ...settings,
        connectionRef,
        ...(options.seedFile !== undefined ? { seedFile: options.seedFile } : {}),
        ...(body.descriptions && Object.keys(body.descriptions).length > 0
          ? { descriptions: body.descriptions }
          : {}),
        ...(body.model_data && body.model_data !== 'rows' ? { modelData: body.model_data } : {}),
        ...(body.redacted_columns?.length ? { redactedColumns: body.redacted_columns } : {}),
      },
      new Date(),
      { uniqueName: true },
    );
  } catch (error) {
    await secretStore()
      .remove(connectionRef)
      .catch(() => undefined);
    throw error;
  }
  const result = await queueIndexJob(record, {
    counted: true,
    ...(body.glossary ? { glossary: body.glossary } : {}),
    ...(options.run ? { run: options.run } : {}),
  });
  return { record, result };
};

/** The 201 of POST /organization/databases. */
export const createdDatabase = ({ record, result }: CreatedDatabase) => ({
  ...publicDatabase(record),
  job: jobSummary(result),
});

export const updateDatabase = async (
  organizationId: number,
  id: string,
  body: DatabaseUpdateBody,
): Promise<DatabaseDetail & { job: ReturnType<typeof jobSummary> | null }> => {
  const current = await databaseOf(organizationId, id);
  const settings = resolvePolicy(body, current);
  if (body.name !== undefined) await nameMustBeFree(organizationId, body.name, id);
  const url = body.connection ? connectionUrlOf(current.engine, body.connection) : undefined;
  const descriptionsChanged =
    body.descriptions !== undefined &&
    JSON.stringify(body.descriptions) !== JSON.stringify(current.descriptions ?? {});
  const reindex = url !== undefined || !samePolicy(settings, current) || descriptionsChanged;
  // Tested, then counted: a refusal changes nothing.
  if (url !== undefined) await testConnectionUrl(current.engine, url, current.seedFile);
  if (reindex) await consumeIndexingQuota(organizationId);
  const connectionRef = url === undefined ? undefined : await secretStore().save(`${id}/${uuidv7()}`, url);
  const changes: DatabaseChanges = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(connectionRef !== undefined ? { connectionRef } : {}),
    requiresOrganizationScoping: settings.requiresOrganizationScoping,
    tenantFilterColumn: settings.tenantFilterColumn ?? null,
    scopeFilterColumn: settings.scopeFilterColumn ?? null,
    policy: settings.policy,
    ...(body.descriptions !== undefined
      ? { descriptions: Object.keys(body.descriptions).length > 0 ? body.descriptions : null }
      : {}),
    // What reaches a model is read at each answer: no re-index.
    ...(body.model_data !== undefined
      ? { modelData: body.model_data === 'rows' ? null : body.model_data }
      : {}),
    ...(body.redacted_columns !== undefined
      ? { redactedColumns: body.redacted_columns.length > 0 ? body.redacted_columns : null }
      : {}),
  };
  let record: DatabaseRecord;
  try {
    record = await updateDatabaseRecord(current, changes);
  } catch (error) {
    if (connectionRef !== undefined)
      await secretStore()
        .remove(connectionRef)
        .catch(() => undefined);
    throw error;
  }
  if (connectionRef !== undefined)
    await secretStore()
      .remove(current.connectionRef)
      .catch(() => undefined);
  const result = reindex ? await queueIndexJob(record, { counted: true }) : undefined;
  return { ...databaseDetail(record), job: result ? jobSummary(result) : null };
};

/** Revokes the database's pk_ keys (forgotten by this container at once), then deletes it. */
export const deleteDatabase = async (organizationId: number, id: string): Promise<{ message: string }> => {
  const record = await databaseOf(organizationId, id);
  const keys = (await listApiKeys(organizationId)).filter((key) => key.databaseId === id && !key.revokedAt);
  for (const key of keys) {
    const revoked = await revokeApiKey(key.id, new Date(), organizationId);
    forgetApiKey(revoked.hash);
  }
  await deleteDatabaseRecord(record);
  forgetAnswerGlossary(id);
  await secretStore()
    .remove(record.connectionRef)
    .catch(() => undefined);
  return {
    message: `Database ${id} is deleted${keys.length > 0 ? `, with its ${keys.length} database key${keys.length > 1 ? 's' : ''}` : ''}`,
  };
};
