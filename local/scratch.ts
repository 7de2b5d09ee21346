// A throwaway local stack for benchmarks and the evaluation: DynamoDB Local in memory on a free
// port, one table, and the functions' environment applied to this process. Call it before any
// lib/ import (lib/config.ts reads the environment once); it never touches the developer's
// .local/ data.
import { localClient, type RunningDynamoDb, startDynamoDb } from './dynamodb.ts';
import { environmentOf, loadServerlessConfig, type Route, routesOf } from './serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from './stack.ts';
import { ensureTable } from './table.ts';

export interface ScratchStack {
  dynamodb: RunningDynamoDb;
  /** Every route of the resolved serverless config, for startGateway. */
  routes: Route[];
}

export const startScratchStack = async (tableName: string): Promise<ScratchStack> => {
  const dynamodb = await startDynamoDb();
  try {
    const client = localClient(dynamodb.endpoint);
    await ensureTable(client, tableName);
    client.destroy();
    const config = await loadServerlessConfig(root, LOCAL_STAGE);
    applyLocalEnvironment(environmentOf(config), { dynamodbEndpoint: dynamodb.endpoint, tableName });
    return { dynamodb, routes: routesOf(config) };
  } catch (error) {
    await dynamodb.stop();
    throw error;
  }
};
