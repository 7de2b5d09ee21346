// The shared SQL cache of the model engines (docs/design.md "Answers people can check and
// improve"): the SQL a model wrote for a first question on a database, kept per database and
// key (lib/answer/sql-cache.ts: the normalised question and everything the model was shown).
// Item: PK SQLCACHE#<database id>, SK <key>, `day` when the SQL serves only on that day; it expires on its own after CACHE_TTL_SECONDS
// (the table's TTL attribute `expiresAt`). It holds SQL and its reading, never rows: a hit is
// guarded and rewritten for the caller's tenant like any other SQL.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { documents, tableName } from './client.ts';

export const CACHE_TTL_SECONDS = 7 * 24 * 3600;

export const sqlCacheKey = (databaseId: string, key: string) => ({ PK: `SQLCACHE#${databaseId}`, SK: key });

export const CachedSql = v.object({
  sql: v.string(),
  description: v.string(),
  interpretation: v.optional(v.string()),
  /** The day (UTC, YYYY-MM-DD) the SQL is tied to, when it is (a date literal, the clock): it serves only then. */
  day: v.optional(v.string()),
  createdAt: v.string(),
});
export type CachedSql = v.InferOutput<typeof CachedSql>;

export const readCachedSql = async (databaseId: string, key: string): Promise<CachedSql | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: sqlCacheKey(databaseId, key) }),
  );
  const parsed = Item ? v.safeParse(CachedSql, Item) : undefined;
  return parsed?.success && Number(Item?.expiresAt) > Date.now() / 1000 ? parsed.output : undefined;
};

export const writeCachedSql = async (
  databaseId: string,
  key: string,
  entry: Omit<CachedSql, 'createdAt'>,
  now = new Date(),
): Promise<void> => {
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...sqlCacheKey(databaseId, key),
        type: 'sqlCache',
        ...entry,
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + CACHE_TTL_SECONDS,
      },
    }),
  );
};
