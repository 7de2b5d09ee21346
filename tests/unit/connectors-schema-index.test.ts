// The schema index store (lib/store/schema-index.ts) with the document client mocked: chunks
// under the item limit, the pointer published only after every chunk and only over the version
// the indexing started from, the old version left to expire, and a reader that never returns
// a partial index.
import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import {
  CHUNK_BYTES,
  discardSchemaIndex,
  publishSchemaIndex,
  readSchemaIndex,
  SchemaIndexConflict,
  writeSchemaIndex,
} from '#lib/store/schema-index.ts';

const ddb = mockClient(DynamoDBDocumentClient);
afterEach(() => ddb.reset());

const DATABASE = '01900000-0000-7000-8000-0000000000aa';

/** A catalog whose compressed JSON is about `bytes` long (random text does not compress). */
const catalogOf = (bytes: number): Catalog => ({
  dialect: 'postgres',
  defaultSchema: 'public',
  relations: [
    {
      schema: 'public',
      name: 'big',
      kind: 'table',
      // Descriptions are read back with the rest (the engines link and prompt with them).
      description: 'Things kept in bulk',
      columns: [{ name: 'c', kind: 'text', nativeType: 'text', nullable: true, description: 'A code' }],
      primaryKey: [],
      foreignKeys: [],
      rowEstimate: 1,
      samples: { c: [randomBytes(Math.ceil(bytes)).toString('base64')] },
    },
  ],
  userFunctions: [],
  indexedAt: '2026-01-01T00:00:00.000Z',
});

describe('writeSchemaIndex', () => {
  it('writes one small index as one chunk under the database partition', async () => {
    // Arrange
    ddb.on(PutCommand).resolves({});
    // Act
    const pointer = await writeSchemaIndex(DATABASE, catalogOf(100));
    // Assert
    expect(pointer).toMatchObject({ chunks: 1, relations: 1, indexedAt: '2026-01-01T00:00:00.000Z' });
    const puts = ddb.commandCalls(PutCommand);
    expect(puts).toHaveLength(1);
    expect(puts[0]?.args[0].input.Item).toMatchObject({
      PK: `DB#${DATABASE}`,
      SK: `INDEX#${pointer.version}#0000`,
    });
  });

  it('splits a large index into chunks no larger than CHUNK_BYTES', async () => {
    ddb.on(PutCommand).resolves({});
    const pointer = await writeSchemaIndex(DATABASE, catalogOf(CHUNK_BYTES * 2.5));
    expect(pointer.chunks).toBe(3);
    const items = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item ?? {});
    expect(items.map((item) => item.SK)).toEqual([0, 1, 2].map((n) => `INDEX#${pointer.version}#000${n}`));
    for (const item of items) expect((item.data as Uint8Array).length).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(items.reduce((sum, item) => sum + (item.data as Uint8Array).length, 0)).toBe(pointer.bytes);
  });
});

describe('readSchemaIndex', () => {
  it('reads the pointed version back with one consistent query', async () => {
    ddb.on(PutCommand).resolves({});
    const catalog = catalogOf(CHUNK_BYTES * 1.5);
    const pointer = await writeSchemaIndex(DATABASE, catalog);
    const items = ddb.commandCalls(PutCommand).map((call) => call.args[0].input.Item ?? {});
    ddb.on(QueryCommand).resolves({ Items: items });

    expect(await readSchemaIndex({ id: DATABASE, schemaIndex: pointer })).toEqual(catalog);
    const query = ddb.commandCalls(QueryCommand)[0]?.args[0].input;
    expect(query).toMatchObject({
      ConsistentRead: true,
      ExpressionAttributeValues: { ':pk': `DB#${DATABASE}`, ':prefix': `INDEX#${pointer.version}#` },
    });
  });

  it('returns undefined without a pointer, and for a version with chunks missing', async () => {
    expect(await readSchemaIndex({ id: DATABASE })).toBeUndefined();
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    ddb.on(QueryCommand).resolves({ Items: [{ data: new Uint8Array([1]) }] });
    const pointer = { version: 'v', chunks: 2, bytes: 2, relations: 1, indexedAt: 'x' };
    expect(await readSchemaIndex({ id: DATABASE, schemaIndex: pointer })).toBeUndefined();
  });
});

describe('publishSchemaIndex', () => {
  const pointer = { version: 'new', chunks: 1, bytes: 10, relations: 1, indexedAt: 'now' };
  const previous = { version: 'old', chunks: 2, bytes: 10, relations: 1, indexedAt: 'then' };

  it('sets the pointer over the previous version, then lets the old chunks expire', async () => {
    ddb.on(UpdateCommand).resolves({});
    const now = new Date('2026-03-01T00:00:00Z');
    await publishSchemaIndex({ id: DATABASE, organizationId: 4, schemaIndex: previous }, pointer, now);
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates[0]).toMatchObject({
      Key: { PK: 'ORG#4', SK: `DB#${DATABASE}` },
      ConditionExpression: 'attribute_exists(PK) AND schemaIndex.version = :previous',
      ExpressionAttributeValues: { ':pointer': pointer, ':previous': 'old' },
    });
    expect(updates.slice(1).map((u) => [u.Key?.SK, u.ExpressionAttributeValues?.[':at']])).toEqual([
      ['INDEX#old#0000', now.getTime() / 1000 + 3600],
      ['INDEX#old#0001', now.getTime() / 1000 + 3600],
    ]);
  });

  it('refuses with SchemaIndexConflict when another indexing moved the pointer', async () => {
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'no', $metadata: {} }));
    await expect(publishSchemaIndex({ id: DATABASE, organizationId: 4 }, pointer)).rejects.toBeInstanceOf(
      SchemaIndexConflict,
    );
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input.ConditionExpression).toBe(
      'attribute_exists(PK) AND attribute_not_exists(schemaIndex)',
    );
  });

  it('discards an unpublished version, retrying unprocessed deletes', async () => {
    const many = { ...pointer, chunks: 30 };
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({
        UnprocessedItems: { 'tabletalk-unit': [{ DeleteRequest: { Key: { PK: 'x', SK: 'y' } } }] },
      })
      .resolves({});
    await discardSchemaIndex(DATABASE, many);
    const batches = ddb
      .commandCalls(BatchWriteCommand)
      .map((c) => c.args[0].input.RequestItems?.['tabletalk-unit']);
    expect(batches.map((b) => b?.length)).toEqual([25, 6]);
  });
});
