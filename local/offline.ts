// npm run offline: serverless-offline for the buffered routes, against the same DynamoDB Local
// and table as npm start (reused when npm start is running, started here otherwise).
// serverless-offline cannot serve response streaming; npm start's gateway can.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isDynamoDbUp, localClient, type RunningDynamoDb, startDynamoDb } from './dynamodb.ts';
import { DEFAULT_DYNAMODB_PORT, LOCAL_STAGE, LOCAL_TABLE, localDir, readStackInfo, root } from './stack.ts';
import { ensureTable } from './table.ts';

const running = readStackInfo();
let dynamodb: RunningDynamoDb | undefined;
let endpoint = running?.dynamodbEndpoint ?? `http://127.0.0.1:${DEFAULT_DYNAMODB_PORT}`;
if (await isDynamoDbUp(endpoint)) {
  console.log(`Using the running DynamoDB Local at ${endpoint}`);
} else {
  console.log('Starting DynamoDB Local (data in .local/dynamodb)…');
  dynamodb = await startDynamoDb({ port: DEFAULT_DYNAMODB_PORT, dataDir: join(localDir, 'dynamodb') });
  endpoint = dynamodb.endpoint;
}
const client = localClient(endpoint);
await ensureTable(client, LOCAL_TABLE);
client.destroy();

const port = process.env.OFFLINE_PORT ?? '3001';
console.log(`Starting serverless-offline on http://127.0.0.1:${port} (buffered routes only)…`);
const child = spawn(
  join(root, 'node_modules/.bin/serverless'),
  ['offline', 'start', '--stage', LOCAL_STAGE],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      OFFLINE_PORT: port,
      DYNAMODB_ENDPOINT: endpoint,
      TABLE_NAME: LOCAL_TABLE,
      STAGE: LOCAL_STAGE,
      LOCAL_SECRET_KEY_FILE: join(localDir, 'credentials.key'),
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
  },
);
const stop = async (): Promise<void> => {
  child.kill('SIGINT');
  await dynamodb?.stop();
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
child.on('exit', async (code) => {
  await dynamodb?.stop();
  process.exit(code ?? 0);
});
