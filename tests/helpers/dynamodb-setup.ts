// Vitest global setup of the integration and e2e suites: one DynamoDB Local in memory on a
// free port, one table, torn down after the run. Workers inherit the environment set here.
import { localClient, startDynamoDb } from '../../local/dynamodb.ts';
import { ensureTable } from '../../local/table.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const dynamodb = await startDynamoDb();
  const tableName = 'tabletalk-test';
  const client = localClient(dynamodb.endpoint);
  await ensureTable(client, tableName);
  client.destroy();
  process.env.DYNAMODB_ENDPOINT = dynamodb.endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.LOCAL_SECRET_KEY_FILE = `${process.cwd()}/.local/test-credentials.key`;
  return () => dynamodb.stop();
}
