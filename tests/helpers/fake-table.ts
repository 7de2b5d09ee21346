// The table as the unit tests of the answering routes see it, through aws-sdk-client-mock: an
// active professional organization with an sk_ key and a pk_ key, its databases (each with a
// one-chunk schema index of the orders fixture), a personality, GetItem from the items, a
// conversation's messages from the items, and transactions that succeed.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import type { Catalog } from '#lib/core/catalog.ts';
import { clearCachedDatabases } from '#lib/store/databases.ts';

export const FAKE_ORG = 3;
export const FAKE_SK = 'sk_professionalKey000000000000000000000000000000';
export const FAKE_PK = 'pk_widgetKey00000000000000000000000000000000000000';

type Item = Record<string, unknown>;
type DocumentStub = AwsClientStub<DynamoDBDocumentClient>;

export const databaseItem = (id: string, extra: Item = {}): Item => ({
  PK: `ORG#${FAKE_ORG}`,
  SK: `DB#${id}`,
  id,
  organizationId: FAKE_ORG,
  name: 'Shop',
  engine: 'postgres',
  status: 'active',
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: {} },
  connectionRef: 'enc:v1:test',
  schemaIndex: { version: 'v1', chunks: 1, bytes: 100, relations: 1, indexedAt: '2026-01-01T00:00:00.000Z' },
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

export interface FakeTable {
  items: Map<string, Item>;
  put(item: Item): void;
}

/**
 * Fills `ddb` with the organization, its keys (the pk_ key bound to `pkDatabase`), `databases`
 * and a personality; Query answers the schema index with `catalog`, or `query` first when given.
 */
export const fakeAnsweringTable = (
  ddb: DocumentStub,
  options: {
    pkDatabase: string;
    databases: Item[];
    personality: { id: string } & Item;
    catalog: Catalog;
    query?: (values: Record<string, string>) => { Items: Item[] } | undefined;
  },
): FakeTable => {
  const items = new Map<string, Item>();
  const put = (item: Item) => items.set(`${item.PK}|${item.SK}`, item);
  // A fresh table: no database record the answering path kept from another test's.
  clearCachedDatabases();
  const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
  put({
    PK: `ORG#${FAKE_ORG}`,
    SK: 'ORG',
    id: FAKE_ORG,
    name: 'Acme',
    plan: 'professional',
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  for (const [key, kind] of [
    [FAKE_SK, 'sk'],
    [FAKE_PK, 'pk'],
  ] as const) {
    put({
      PK: `KEYHASH#${sha256(key)}`,
      SK: 'KEYHASH',
      id: `id-${kind}`,
      organizationId: FAKE_ORG,
      kind,
      hint: 'x',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...(kind === 'pk' ? { databaseId: options.pkDatabase } : {}),
    });
  }
  for (const database of options.databases) put(database);
  put({
    PK: `ORG#${FAKE_ORG}`,
    SK: `PERSONALITY#${options.personality.id}`,
    organizationId: FAKE_ORG,
    name: 'Terse',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...options.personality,
  });
  ddb.on(GetCommand).callsFake((input: { Key: { PK: string; SK: string } }) => ({
    Item: items.get(`${input.Key.PK}|${input.Key.SK}`),
  }));
  ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => {
    const values = input.ExpressionAttributeValues;
    const answered = options.query?.(values);
    if (answered) return answered;
    // A conversation's messages, newest first, those of the asking scope (the filter on GSI2PK).
    if (values[':pk']?.startsWith('CONV#') && values[':after'] === 'MSG#') {
      const scanned = [...items.values()]
        .filter((item) => item.PK === values[':pk'] && String(item.SK).startsWith('MSG#'))
        .sort((a, b) => String(b.SK).localeCompare(String(a.SK)));
      const kept = scanned.filter((item) => item.GSI2PK === values[':scope']);
      return { Items: kept, Count: kept.length, ScannedCount: scanned.length };
    }
    // The schema index: one gzipped chunk.
    return values[':prefix']?.startsWith('INDEX#')
      ? { Items: [{ data: gzipSync(JSON.stringify(options.catalog)) }] }
      : { Items: [] };
  });
  ddb.on(TransactWriteCommand).resolves({});
  return { items, put };
};
