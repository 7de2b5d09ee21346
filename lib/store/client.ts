// The one DynamoDB document client, created at module level so warm invocations reuse its
// connections. Against DynamoDB Local (DYNAMODB_ENDPOINT set) it uses static dummy credentials.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/config.ts';
import { traced } from '#lib/observability/tracer.ts';

const endpoint = config.dynamodbEndpoint;

/**
 * Bound of one attempt (DYNAMODB_TIMEOUT_MS, default 3000 ms; the connection phase gets at most
 * 1000 ms of it): DynamoDB answers in milliseconds, so a call that hangs is an outage, and with
 * three attempts a request fails with 503 well inside the function's 29 s instead of waiting
 * for it to time out.
 */
const attemptTimeoutMs = (() => {
  const value = Number(process.env.DYNAMODB_TIMEOUT_MS);
  return Number.isInteger(value) && value >= 100 && value <= 20_000 ? value : 3_000;
})();

// Traced: each call is an X-Ray subsegment where tracing is on (lib/observability/tracer.ts).
export const dynamodb = traced(
  new DynamoDBClient({
    region: config.region,
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: Math.min(1_000, attemptTimeoutMs),
      requestTimeout: attemptTimeoutMs,
      throwOnRequestTimeout: true,
    },
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }),
);

export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

export const tableName = (): string => config.tableName;

/** The attribute names of the table's key and indexes (infra/table.yml). */
export type ItemKey = { PK: string; SK: string };

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'ConditionalCheckFailedException' ||
    (error.name === 'TransactionCanceledException' && error.message.includes('ConditionalCheckFailed')));

/** Every item a query matches, following LastEvaluatedKey page by page. For bounded sets only. */
export const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};
