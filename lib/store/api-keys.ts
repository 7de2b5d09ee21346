// API keys. Two items per key, written in one transaction:
//   PK APIKEY#<id>      SK APIKEY   the record (listing by organization through GSI1)
//   PK KEYHASH#<sha256> SK KEYHASH  the lookup by hash that authentication reads
// The plaintext is never stored; revoking marks both items.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { generateApiKey, hashApiKey, type KeyKind, keyHint } from '#lib/auth/api-keys.ts';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';

const recordKey = (id: string) => ({ PK: `APIKEY#${id}`, SK: 'APIKEY' });
const hashKey = (hash: string) => ({ PK: `KEYHASH#${hash}`, SK: 'KEYHASH' });

export const ApiKeyRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  kind: v.picklist(['sk', 'pk']),
  databaseId: v.optional(v.string()),
  allowedOrigins: v.optional(v.array(v.string())),
  hint: v.string(),
  createdAt: v.string(),
  revokedAt: v.optional(v.string()),
});
export type ApiKeyRecord = v.InferOutput<typeof ApiKeyRecord>;

export interface NewApiKey {
  organizationId: number;
  kind: KeyKind;
  /** Required for `pk` keys: the one database the key may use. */
  databaseId?: string;
  /** `pk` keys: origins allowed to call the API from a browser. */
  allowedOrigins?: string[];
}

export const createApiKey = async (
  input: NewApiKey,
  now = new Date(),
): Promise<ApiKeyRecord & { key: string }> => {
  const key = generateApiKey(input.kind);
  const hash = hashApiKey(key);
  const record: ApiKeyRecord = {
    id: uuidv7(now.getTime()),
    organizationId: input.organizationId,
    kind: input.kind,
    ...(input.databaseId ? { databaseId: input.databaseId } : {}),
    ...(input.allowedOrigins?.length ? { allowedOrigins: input.allowedOrigins } : {}),
    hint: keyHint(key),
    createdAt: now.toISOString(),
  };
  await documents().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...recordKey(record.id),
              type: 'apiKey',
              GSI1PK: `ORG#${record.organizationId}`,
              GSI1SK: `APIKEY#${record.id}`,
              hash,
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...hashKey(hash), type: 'apiKeyHash', ...record },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
  return { ...record, key };
};

/** The lookup authentication makes: one GetItem by hash. */
export const findApiKeyByHash = async (hash: string): Promise<ApiKeyRecord | undefined> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: hashKey(hash) }));
  return Item ? v.parse(ApiKeyRecord, Item) : undefined;
};

export const revokeApiKey = async (id: string, now = new Date()): Promise<ApiKeyRecord> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: recordKey(id) }));
  if (!Item) throw new ServiceError('NOT_FOUND', { message: `API key ${id} not found` });
  const revokedAt = now.toISOString();
  const revoke = (Key: Record<string, string>) => ({
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': revokedAt },
    },
  });
  try {
    await documents().send(
      new TransactWriteCommand({
        TransactItems: [revoke(recordKey(id)), revoke(hashKey(String(Item.hash)))],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error))
      throw new ServiceError('NOT_FOUND', { message: `API key ${id} not found` });
    throw error;
  }
  return v.parse(ApiKeyRecord, { ...Item, revokedAt: Item.revokedAt ?? revokedAt });
};

export const listApiKeys = async (organizationId: number): Promise<ApiKeyRecord[]> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :org AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':org': `ORG#${organizationId}`, ':prefix': 'APIKEY#' },
  });
  return items.map((item) => v.parse(ApiKeyRecord, item));
};
