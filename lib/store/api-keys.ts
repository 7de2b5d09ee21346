// API keys. Two items per key, written in one transaction:
//   PK APIKEY#<id>      SK APIKEY   the record (listing by organization through GSI1)
//   PK KEYHASH#<sha256> SK KEYHASH  the lookup by hash that authentication reads
// The plaintext is never stored, nor seen here: lib/auth/api-keys.ts mints a key and gives its hash
// and hint. Revoking (the control plane's DELETE) marks both items.
// `lastUsedAt` is written on both when authentication resolves the key from the table and the
// stored value is older than LAST_USED_RESOLUTION_MS (never on a warm request served from the key
// cache), so it tells the last use to within that time.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';

const recordKey = (id: string) => ({ PK: `APIKEY#${id}`, SK: 'APIKEY' });
const hashKey = (hash: string) => ({ PK: `KEYHASH#${hash}`, SK: 'KEYHASH' });

/** `sk_` organization keys and `pk_` database keys. */
export const KeyKind = v.picklist(['sk', 'pk']);
export type KeyKind = v.InferOutput<typeof KeyKind>;

export const ApiKeyRecord = v.object({
  id: v.string(),
  organizationId: v.number(),
  kind: KeyKind,
  databaseId: v.optional(v.string()),
  allowedOrigins: v.optional(v.array(v.string())),
  hint: v.string(),
  /** A label the creator gave the key (control plane `name`). */
  name: v.optional(v.string()),
  /** sk keys: may change the organization through the control plane (docs/design.md "The control plane"). */
  manage: v.optional(v.boolean()),
  createdAt: v.string(),
  lastUsedAt: v.optional(v.string()),
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
  name?: string;
  /** `sk` keys: may write through the control plane. */
  manage?: boolean;
}

/** A minted key's material: the SHA-256 hash and the non-secret hint (lib/auth/api-keys.ts). */
export interface KeyMaterial {
  hash: string;
  hint: string;
}

/** Stores a new key's two items in one transaction. */
export const putApiKey = async (
  input: NewApiKey,
  { hash, hint }: KeyMaterial,
  now = new Date(),
): Promise<ApiKeyRecord> => {
  const record: ApiKeyRecord = {
    id: uuidv7(now.getTime()),
    organizationId: input.organizationId,
    kind: input.kind,
    ...(input.databaseId ? { databaseId: input.databaseId } : {}),
    ...(input.allowedOrigins?.length ? { allowedOrigins: input.allowedOrigins } : {}),
    hint,
    ...(input.name ? { name: input.name } : {}),
    ...(input.manage ? { manage: true } : {}),
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
  return record;
};

/** The lookup authentication makes: one GetItem by hash. */
export const findApiKeyByHash = async (hash: string): Promise<ApiKeyRecord | undefined> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: hashKey(hash) }));
  return Item ? v.parse(ApiKeyRecord, Item) : undefined;
};

const keyNotFound = (id: string) =>
  new ServiceError('API_KEY_NOT_FOUND', { message: `API key ${id} not found` });

/** A key by id; undefined when unknown or (with `organizationId`) another organization's. */
export const findApiKey = async (
  id: string,
  organizationId?: number,
): Promise<(ApiKeyRecord & { hash: string }) | undefined> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: recordKey(id) }));
  if (!Item || (organizationId !== undefined && Item.organizationId !== organizationId)) return undefined;
  return { ...v.parse(ApiKeyRecord, Item), hash: String(Item.hash) };
};

/**
 * Revokes a key (both items). With `organizationId`, a key of another organization is not
 * found. Returns the record and its hash (to forget it in the key cache).
 */
export const revokeApiKey = async (
  id: string,
  now = new Date(),
  organizationId?: number,
): Promise<ApiKeyRecord & { hash: string }> => {
  const { Item } = await documents().send(new GetCommand({ TableName: tableName(), Key: recordKey(id) }));
  if (!Item || (organizationId !== undefined && Item.organizationId !== organizationId))
    throw keyNotFound(id);
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
    if (isConditionFailure(error)) throw keyNotFound(id);
    throw error;
  }
  return {
    ...v.parse(ApiKeyRecord, { ...Item, revokedAt: Item.revokedAt ?? revokedAt }),
    hash: String(Item.hash),
  };
};

/** A key's last use is written at most this often (per key, on a key-cache miss). */
export const LAST_USED_RESOLUTION_MS = 10 * 60_000;

/**
 * Records a use of the key resolved from the table, when the stored `lastUsedAt` is older than
 * LAST_USED_RESOLUTION_MS: two conditional UpdateItems (the lookup item and the record), never on
 * a revoked key. Best effort: the caller does not wait for it.
 */
export const touchApiKey = async (
  record: Pick<ApiKeyRecord, 'id' | 'lastUsedAt'>,
  hash: string,
  now = new Date(),
): Promise<void> => {
  if (record.lastUsedAt && now.getTime() - Date.parse(record.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  const touch = (Key: Record<string, string>) =>
    documents().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  await Promise.allSettled([touch(hashKey(hash)), touch(recordKey(record.id))]);
};

export const listApiKeys = async (organizationId: number): Promise<ApiKeyRecord[]> => {
  const items = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :org AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':org': `ORG#${organizationId}`, ':prefix': 'APIKEY#' },
  });
  return items.map((item) => v.parse(ApiKeyRecord, item));
};
