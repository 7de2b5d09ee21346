// Connected databases of an organization: connection reference, engine and row policy.
// Item: PK ORG#<org>, SK DB#<uuid>, so one Query lists an organization's databases.
// Locator: PK DB#<uuid>, SK DATABASE → organizationId, written in the same transaction, so a
// database is found by its id alone (`admin database index --id`, `admin sql check`). The same
// partition holds the database's schema index (lib/store/schema-index.ts).
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { uuidv7 } from '#lib/ids.ts';
import { documents, queryAll, tableName } from './client.ts';

export const databaseKey = (organizationId: number, id: string) => ({
  PK: `ORG#${organizationId}`,
  SK: `DB#${id}`,
});
const locatorKey = (id: string) => ({ PK: `DB#${id}`, SK: 'DATABASE' });

const columnName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'must be a plain column name'),
);
const relationName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/, 'must be a table name'),
);

/** Row policy (DESIGN.md "Tenant filtering"): default columns and per-relation overrides. */
export const RowPolicy = v.strictObject({
  tenant_column: v.optional(columnName),
  scope_column: v.optional(columnName),
  tables: v.optional(
    v.record(
      relationName,
      v.strictObject({
        tenant_column: v.optional(columnName),
        scope_column: v.optional(columnName),
        shared: v.optional(v.boolean()),
      }),
    ),
    {},
  ),
});
export type RowPolicy = v.InferOutput<typeof RowPolicy>;

export const Engine = v.picklist(['postgres', 'mysql', 'pglite']);
export type Engine = v.InferOutput<typeof Engine>;

/** Where the current schema index is (lib/store/schema-index.ts); absent until indexed. */
export const SchemaIndexPointer = v.object({
  version: v.string(),
  chunks: v.number(),
  bytes: v.number(),
  relations: v.number(),
  indexedAt: v.string(),
});
export type SchemaIndexPointer = v.InferOutput<typeof SchemaIndexPointer>;

export const DatabaseRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  name: v.string(),
  engine: Engine,
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
  createdAt: v.string(),
});
export type DatabaseRecord = v.InferOutput<typeof DatabaseRecord>;

export type NewDatabase = Omit<DatabaseRecord, 'id' | 'createdAt' | 'status'> & { id?: string };

export const newDatabaseId = (): string => uuidv7();

export const addDatabase = async (input: NewDatabase, now = new Date()): Promise<DatabaseRecord> => {
  const record = v.parse(DatabaseRecord, {
    ...input,
    id: input.id ?? newDatabaseId(),
    status: 'active',
    createdAt: now.toISOString(),
  });
  await documents().send(
    new TransactWriteCommand({
      TransactItems: [
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
      ],
    }),
  );
  return record;
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
