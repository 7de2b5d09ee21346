// The schema index of a connected database (the Catalog of lib/connectors/types.ts) in
// DynamoDB, chunked under the 400 KB item limit and published atomically.
//
// Layout, in the database's own partition (beside its locator, lib/store/databases.ts):
//   PK DB#<database id>   SK INDEX#<version>#<chunk, 4 digits>   data: binary slice of the
//   gzip-compressed catalog JSON (at most CHUNK_BYTES each); version: a UUIDv7 per indexing.
// The database record carries the pointer `schemaIndex: {version, chunks, bytes, relations,
// indexedAt}`. Writing: every chunk of the new version first, then the pointer (a conditional
// update that also fails when another indexing moved it meanwhile), then the old version's
// chunks get a TTL. A reader therefore only ever follows a pointer to a complete version.
//
// Reading (one call pattern, after the record is loaded as every request does anyway):
//   Query PK = DB#<id> AND begins_with(SK, 'INDEX#<pointer.version>#'), ConsistentRead,
//   concatenate `data` in SK order, check the chunk count, gunzip, JSON.parse.
import { gunzipSync, gzipSync } from 'node:zlib';
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Catalog } from '#lib/core/catalog.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';
import {
  type DatabaseRecord,
  databaseKey,
  forgetDatabaseRecord,
  type SchemaIndexPointer,
} from './databases.ts';
import { backoffDelay, sleep, unprocessedItemsBackoff } from './retry.ts';

/** Well under DynamoDB's 400 KB item limit, leaving room for keys and attribute names. */
export const CHUNK_BYTES = 350_000;
/** How long a superseded version stays readable for requests that loaded the old pointer. */
const SUPERSEDED_TTL_SECONDS = 3_600;

const partition = (databaseId: string) => `DB#${databaseId}`;
const chunkSortKey = (version: string, chunk: number) => `INDEX#${version}#${String(chunk).padStart(4, '0')}`;

/** Writes every chunk of a new version and returns its pointer; nothing reads it until published. */
export const writeSchemaIndex = async (
  databaseId: string,
  catalog: Catalog,
  now = new Date(),
): Promise<SchemaIndexPointer> => {
  const version = uuidv7(now.getTime());
  const packed = gzipSync(JSON.stringify(catalog));
  const chunks = Math.max(1, Math.ceil(packed.length / CHUNK_BYTES));
  for (let chunk = 0; chunk < chunks; chunk++) {
    await documents().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          PK: partition(databaseId),
          SK: chunkSortKey(version, chunk),
          type: 'schemaIndexChunk',
          data: packed.subarray(chunk * CHUNK_BYTES, (chunk + 1) * CHUNK_BYTES),
        },
      }),
    );
  }
  return {
    version,
    chunks,
    bytes: packed.length,
    relations: catalog.relations.length,
    indexedAt: catalog.indexedAt,
  };
};

const chunkItems = (databaseId: string, version: string) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': partition(databaseId), ':prefix': `INDEX#${version}#` },
    ConsistentRead: true,
  });

/** The database's current schema index, or undefined when it has none (or it is unreadable). */
export const readSchemaIndex = async (
  database: Pick<DatabaseRecord, 'id' | 'schemaIndex'>,
): Promise<Catalog | undefined> => {
  const pointer = database.schemaIndex;
  if (!pointer) return undefined;
  const items = await chunkItems(database.id, pointer.version);
  if (items.length !== pointer.chunks) return undefined;
  const packed = Buffer.concat(items.map((item) => item.data as Uint8Array));
  const catalog = JSON.parse(gunzipSync(packed).toString('utf8')) as Catalog;
  return Array.isArray(catalog.relations) ? catalog : undefined;
};

/** Deletes a version's chunks (an unpublished version after a failure). */
export const discardSchemaIndex = async (databaseId: string, pointer: SchemaIndexPointer): Promise<void> => {
  let requests = Array.from({ length: pointer.chunks }, (_, chunk) => ({
    DeleteRequest: { Key: { PK: partition(databaseId), SK: chunkSortKey(pointer.version, chunk) } },
  }));
  for (let attempt = 1; requests.length > 0; attempt++) {
    const batch = requests.slice(0, 25);
    const { UnprocessedItems } = await documents().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: batch } }),
    );
    const left = (UnprocessedItems?.[tableName()] ?? []) as typeof batch;
    requests = [...left, ...requests.slice(25)];
    if (left.length > 0) {
      if (attempt >= unprocessedItemsBackoff.attempts)
        throw new Error('could not delete schema index chunks');
      await sleep(backoffDelay(unprocessedItemsBackoff, attempt));
    }
  }
};

/** The pointer moved while this indexing ran (another indexing won): try again. */
export class SchemaIndexConflict extends Error {
  override name = 'SchemaIndexConflict';
}

/**
 * Points the database record at a written version. Fails with SchemaIndexConflict when the
 * record's pointer is no longer the one this indexing started from (or the record is gone);
 * the caller discards its chunks. The superseded version's chunks expire after an hour.
 */
export const publishSchemaIndex = async (
  database: Pick<DatabaseRecord, 'id' | 'organizationId' | 'schemaIndex'>,
  pointer: SchemaIndexPointer,
  now = new Date(),
): Promise<void> => {
  const previous = database.schemaIndex;
  forgetDatabaseRecord(database.organizationId, database.id);
  try {
    await documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: databaseKey(database.organizationId, database.id),
        UpdateExpression: 'SET schemaIndex = :pointer',
        ConditionExpression: previous
          ? 'attribute_exists(PK) AND schemaIndex.version = :previous'
          : 'attribute_exists(PK) AND attribute_not_exists(schemaIndex)',
        ExpressionAttributeValues: {
          ':pointer': pointer,
          ...(previous ? { ':previous': previous.version } : {}),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) {
      throw new SchemaIndexConflict('the schema index was changed by another indexing meanwhile');
    }
    throw error;
  } finally {
    // Before and after: an answer that read the record while the update ran keeps no old copy.
    forgetDatabaseRecord(database.organizationId, database.id);
  }
  if (!previous) return;
  const expiresAt = Math.floor(now.getTime() / 1000) + SUPERSEDED_TTL_SECONDS;
  for (let chunk = 0; chunk < previous.chunks; chunk++) {
    await documents()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { PK: partition(database.id), SK: chunkSortKey(previous.version, chunk) },
          UpdateExpression: 'SET expiresAt = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':at': expiresAt },
        }),
      )
      .catch(() => undefined); // best effort: a chunk left behind costs storage, not correctness
  }
};
