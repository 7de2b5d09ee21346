// Connected databases of an organization: connection reference, engine and row policy.
// Item: PK ORG#<org>, SK DB#<uuid>, so one Query lists an organization's databases.
// Locator: PK DB#<uuid>, SK DATABASE → organizationId, written in the same transaction, so a
// database is found by its id alone (`admin database index --id`, `admin sql check`). The same
// partition holds the database's schema index (lib/store/schema-index.ts).
// Name: PK ORG#<org>, SK DBNAME#<name, trimmed, lower case> → the database id, written in the
// same transaction by the control plane (`uniqueName`), so that a second database of the same
// name is refused (400 BUSINESS_DUPLICATE_ENTRY) however many requests race (docs/design.md
// "The control plane"); lib/manage/databases.ts also compares the names listed, which covers
// databases stored without the item (tests, tools).
import {
  BatchWriteCommand,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { settings } from '#lib/config.ts';
import { RowPolicy } from '#lib/core/row-policy.ts';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { TtlCache } from '#lib/ttl-cache.ts';
import { documents, queryAll, tableName } from './client.ts';
import { backoffDelay, cancellationReasons, sleep, unprocessedItemsBackoff } from './retry.ts';

export const databaseKey = (organizationId: number, id: string) => ({
  PK: `ORG#${organizationId}`,
  SK: `DB#${id}`,
});
const locatorKey = (id: string) => ({ PK: `DB#${id}`, SK: 'DATABASE' });
/** How names compare: trimmed, case-insensitive, Unicode-normalised. */
export const normalisedName = (name: string): string => name.trim().normalize('NFC').toLowerCase();
const nameKey = (organizationId: number, name: string) => ({
  PK: `ORG#${organizationId}`,
  SK: `DBNAME#${normalisedName(name)}`,
});

/** Where the current schema index is (lib/store/schema-index.ts); absent until indexed. */
export const SchemaIndexPointer = v.object({
  version: v.string(),
  chunks: v.number(),
  bytes: v.number(),
  relations: v.number(),
  indexedAt: v.string(),
  /**
   * The row policy the index was sampled under (JSON of its effective policy). When the database's
   * policy has changed since, answering uses the index without its sampled values until the
   * re-index (lib/answer/catalog.ts): values kept under a laxer policy may be one tenant's.
   */
  policyKey: v.optional(v.string()),
});
export type SchemaIndexPointer = v.InferOutput<typeof SchemaIndexPointer>;

export const DatabaseRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  name: v.string(),
  /**
   * The engine the database runs: one of the registry's (lib/dialects/index.ts), checked where a
   * database is added (the management API's and the admin command's picklists).
   */
  engine: v.string(),
  status: v.picklist(['active', 'disabled']),
  requiresOrganizationScoping: v.boolean(),
  tenantFilterColumn: v.optional(v.string()),
  scopeFilterColumn: v.optional(v.string()),
  policy: RowPolicy,
  /** Secrets Manager ARN (deployed) or locally encrypted value; never returned by an endpoint. */
  connectionRef: v.string(),
  /** pglite only: the seed SQL file every process loads into its own in-memory copy. */
  seedFile: v.optional(v.string()),
  allowedOrigins: v.optional(v.array(v.string())),
  schemaIndex: v.optional(SchemaIndexPointer),
  /**
   * Column descriptions given by the operator or the control plane (lib/connectors/descriptions.ts
   * ColumnDescriptions: table → column → text), applied to the catalog at each indexing.
   */
  descriptions: v.optional(v.record(v.string(), v.record(v.string(), v.string()))),
  /**
   * What may reach a model provider (docs/model-engines.md "Data egress"): `rows` (the default)
   * sample values and result rows; `aggregates` result rows only when every column is an
   * aggregate; `schema_only` neither.
   */
  modelData: v.optional(v.picklist(['rows', 'aggregates', 'schema_only'])),
  /** Columns (`table.column` or `schema.table.column`) never sent to a model, nor their values. */
  redactedColumns: v.optional(v.array(v.string())),
  createdAt: v.string(),
  updatedAt: v.optional(v.string()),
});
export type DatabaseRecord = v.InferOutput<typeof DatabaseRecord>;

export type NewDatabase = Omit<DatabaseRecord, 'id' | 'createdAt' | 'status' | 'updatedAt'> & { id?: string };

export const newDatabaseId = (): string => uuidv7();

export const addDatabase = async (
  input: NewDatabase,
  now = new Date(),
  options: { uniqueName?: boolean } = {},
): Promise<DatabaseRecord> => {
  const record = v.parse(DatabaseRecord, {
    ...input,
    id: input.id ?? newDatabaseId(),
    status: 'active',
    createdAt: now.toISOString(),
  });
  await writeOrDuplicate(
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...databaseKey(record.organizationId, record.id), type: 'database', ...record },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...locatorKey(record.id),
            type: 'databaseLocator',
            organizationId: record.organizationId,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...(options.uniqueName ? [namePut(record.organizationId, record.name, record.id)] : []),
    ],
    record.name,
  );
  return record;
};

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const namePut = (organizationId: number, name: string, id: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...nameKey(organizationId, name), type: 'databaseName', databaseId: id },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

const duplicateName = (name: string) =>
  new ServiceError('DUPLICATE_ENTRY', {
    message: `The organization already has a database named ${JSON.stringify(name.trim())}`,
    issues: [{ field: 'body.name', message: 'a database of this name exists', code: 'DUPLICATE_ENTRY' }],
  });

const databaseNotFound = (id: string) =>
  new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${id} not found` });

const isNamePut = (item: TransactItem | undefined): boolean => item?.Put?.Item?.type === 'databaseName';

/** One transaction that may end with a name item: its failed condition is a duplicate name. */
const writeOrDuplicate = async (items: TransactItem[], name: string, id?: string): Promise<void> => {
  try {
    await documents().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const reasons = cancellationReasons(error);
    const failed = (index: number) => reasons?.[index]?.Code === 'ConditionalCheckFailed';
    if (failed(items.length - 1) && isNamePut(items.at(-1))) throw duplicateName(name);
    if (id !== undefined && failed(0)) throw databaseNotFound(id);
    throw error;
  }
};

/** What the control plane may change of a database (lib/manage/databases.ts). */
export interface DatabaseChanges {
  name?: string;
  connectionRef?: string;
  requiresOrganizationScoping?: boolean;
  tenantFilterColumn?: string | null;
  scopeFilterColumn?: string | null;
  policy?: RowPolicy;
  descriptions?: Record<string, Record<string, string>> | null;
  modelData?: 'rows' | 'aggregates' | 'schema_only' | null;
  redactedColumns?: string[] | null;
}

/**
 * Applies changes to a database record in one transaction (a rename moves its name item: 400
 * BUSINESS_DUPLICATE_ENTRY when the new name is taken). 404 DATABASE_NOT_FOUND when it is gone.
 */
export const updateDatabase = async (
  current: DatabaseRecord,
  changes: DatabaseChanges,
  now = new Date(),
): Promise<DatabaseRecord> => {
  const set: string[] = ['#updatedAt = :updatedAt'];
  const remove: string[] = [];
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now.toISOString() };
  // What is stored, as stored: the new updated_at included.
  const next: Record<string, unknown> = { ...current, updatedAt: now.toISOString() };
  for (const [field, value] of Object.entries(changes) as [keyof DatabaseChanges, unknown][]) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) {
      remove.push(`#${field}`);
      delete next[field];
    } else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
      next[field] = value;
    }
  }
  const record = v.parse(DatabaseRecord, next);
  const renamed = changes.name !== undefined && normalisedName(changes.name) !== normalisedName(current.name);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: databaseKey(current.organizationId, current.id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (renamed) {
    items.push({ Delete: { TableName: tableName(), Key: nameKey(current.organizationId, current.name) } });
    items.push(namePut(current.organizationId, record.name, current.id));
  }
  forgetDatabaseRecord(current.organizationId, current.id);
  await writeOrDuplicate(items, record.name, current.id);
  forgetDatabaseRecord(current.organizationId, current.id);
  return record;
};

/**
 * Deletes a database: its record, locator and name item in one transaction, then everything in
 * its own partition (schema index chunks, query patterns, glossary) in batches.
 */
export const deleteDatabase = async (record: DatabaseRecord): Promise<void> => {
  forgetDatabaseRecord(record.organizationId, record.id);
  try {
    await documents().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: databaseKey(record.organizationId, record.id),
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          { Delete: { TableName: tableName(), Key: locatorKey(record.id) } },
          { Delete: { TableName: tableName(), Key: nameKey(record.organizationId, record.name) } },
        ],
      }),
    );
  } catch (error) {
    if (cancellationReasons(error)?.[0]?.Code === 'ConditionalCheckFailed') throw databaseNotFound(record.id);
    throw error;
  }
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': `DB#${record.id}` },
    ProjectionExpression: 'PK, SK',
  });
  let requests = items.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } }));
  for (let attempt = 1; requests.length > 0; ) {
    const batch = requests.slice(0, 25);
    const { UnprocessedItems } = await documents().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: batch } }),
    );
    const left = (UnprocessedItems?.[tableName()] ?? []) as typeof batch;
    requests = [...left, ...requests.slice(25)];
    if (left.length > 0) {
      if (attempt >= unprocessedItemsBackoff.attempts)
        throw new Error('could not delete the database’s items');
      await sleep(backoffDelay(unprocessedItemsBackoff, attempt));
      attempt += 1;
    }
  }
};

/** A database by its id alone, through its locator item (admin commands). */
export const findDatabaseById = async (id: string): Promise<DatabaseRecord | undefined> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: locatorKey(id) }));
  return typeof Item?.organizationId === 'number' ? findDatabase(Item.organizationId, id) : undefined;
};

export const findDatabase = async (
  organizationId: number,
  id: string,
): Promise<DatabaseRecord | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: databaseKey(organizationId, id) }),
  );
  return Item ? v.parse(DatabaseRecord, Item) : undefined;
};

/**
 * Database records as the answering path reads them, kept per container for up to
 * KEY_CACHE_TTL_SECONDS (60 s, the key and organization cache's time; docs/api.md "Caching"), so
 * that a chat message costs no read of its database (docs/design.md "Round trips of a chat
 * message"). This container's own writes (update, delete, a new schema index) forget the record
 * at once; a database that is not found is not kept (one added elsewhere answers at once).
 */
const MAX_CACHE_MS = 60_000;
const answeringRecords = new TtlCache<string, { record: DatabaseRecord; at: number }>(MAX_CACHE_MS, 1_000);
const recordKey = (organizationId: number, id: string): string => `${organizationId}#${id}`;

/** Tests: forget every cached database record. */
export const clearCachedDatabases = (): void => answeringRecords.clear();

/** Forgets this container's copy of a database record (its writers call it). */
export const forgetDatabaseRecord = (organizationId: number, id: string): void =>
  answeringRecords.delete(recordKey(organizationId, id));

/** findDatabase through the per-container cache above: the answering path's read. */
export const findDatabaseCached = async (
  organizationId: number,
  id: string,
): Promise<DatabaseRecord | undefined> => {
  const key = recordKey(organizationId, id);
  const cached = answeringRecords.get(key);
  if (cached && Date.now() - cached.at < settings().keyCacheTtlSeconds * 1000) return cached.record;
  const record = await findDatabase(organizationId, id);
  if (record) answeringRecords.set(key, { record, at: Date.now() });
  return record;
};

export const listDatabases = async (organizationId: number): Promise<DatabaseRecord[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :org AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':org': `ORG#${organizationId}`, ':prefix': 'DB#' },
  });
  return items.map((item) => v.parse(DatabaseRecord, item));
};

/** What endpoints and the admin command show of a database: never a URL, host, user or password. */
export const publicDatabase = (record: DatabaseRecord) => ({
  id: record.id,
  name: record.name,
  engine: record.engine,
  status: record.status,
  requires_organization_scoping: record.requiresOrganizationScoping,
  tenant_filter_column: record.tenantFilterColumn ?? null,
  scope_filter_column: record.scopeFilterColumn ?? null,
  created_at: record.createdAt,
});
export type PublicDatabase = ReturnType<typeof publicDatabase>;

/** One page of an organization's databases, oldest first, as shown by the databases endpoint. */
export const listDatabasePage = async (
  organizationId: number,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ items: PublicDatabase[]; totalItems: number }> => {
  const all = await listDatabases(organizationId);
  const start = (page - 1) * pageSize;
  return { items: all.slice(start, start + pageSize).map(publicDatabase), totalItems: all.length };
};
