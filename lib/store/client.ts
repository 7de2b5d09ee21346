// The one DynamoDB document client, created on first use and kept for the container's life so
// warm invocations reuse its connections. Against DynamoDB Local (DYNAMODB_ENDPOINT set) it uses
// static dummy credentials. Each attempt is bounded by DYNAMODB_TIMEOUT_MS (lib/config.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { fromSettings, settings } from '#lib/config.ts';
import { traced } from '#lib/observability/tracer.ts';

const clients = fromSettings(({ region, dynamodbEndpoint: endpoint, dynamodbTimeoutMs }) => {
  // Traced: each call is an X-Ray subsegment where tracing is on (lib/observability/tracer.ts).
  const dynamodb = traced(
    new DynamoDBClient({
      region,
      maxAttempts: 3,
      requestHandler: {
        connectionTimeout: Math.min(1_000, dynamodbTimeoutMs),
        requestTimeout: dynamodbTimeoutMs,
        throwOnRequestTimeout: true,
      },
      ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  const documents = DynamoDBDocumentClient.from(dynamodb, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { dynamodb, documents };
});

/** The DynamoDB client (created on first use). */
export const dynamodb = (): DynamoDBClient => clients().dynamodb;

/** The document client every store module sends its commands through (created on first use). */
export const documents = (): DynamoDBDocumentClient => clients().documents;

export const tableName = (): string => settings().tableName;

/** The attribute names of the table's key and indexes (infra/table.yml). */
export type ItemKey = { PK: string; SK: string };

/** One Update of a TransactWriteItems, as the document client takes it. */
export type TransactionUpdate = NonNullable<
  NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update']
>;

/**
 * A write of another module that rides in a message append's transaction (lib/store/messages.ts
 * appendMessage): an answer's count, a concurrency lease given back. It commits with the message
 * or not at all.
 */
export interface AlongsideWrite {
  update: TransactionUpdate;
  /**
   * Left out of the transaction when its own condition fails, and the append made without it
   * (a lease that lapsed and was pruned meanwhile is already given back).
   */
  droppable?: boolean;
  /**
   * Called once the append has committed: `written` false when this write was dropped (its
   * condition failed) and the append made without it.
   */
  settled?: (written: boolean) => void;
}

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'ConditionalCheckFailedException' ||
    (error.name === 'TransactionCanceledException' && error.message.includes('ConditionalCheckFailed')));

/** Every item a query matches, following LastEvaluatedKey page by page. For bounded sets only. */
export const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents().send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};
