// npm run offline: serverless-offline for the buffered routes, against the same DynamoDB Local
// and table as npm start (reused when npm start is running, started here otherwise).
// serverless-offline cannot serve response streaming; npm start's gateway can.
//
// The functions run as packaged (serverless-esbuild's bundles, the PGlite worker of the demo
// database included) with the environment npm start gives them (local/stack.ts
// `localEnvironment`: the secrets under .local/, the table, DynamoDB Local). serverless-offline
// takes a function's environment from serverless.yml, which reads each setting from
// `TABLETALK_<NAME>` (or the variable itself), so each value is passed under both names.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isDynamoDbUp, localClient, type RunningDynamoDb, startDynamoDb } from './dynamodb.ts';
import { environmentOf, loadServerlessConfig } from './serverless-config.ts';
import {
  DEFAULT_DYNAMODB_PORT,
  LOCAL_STAGE,
  LOCAL_TABLE,
  localDir,
  localEnvironment,
  readStackInfo,
  root,
} from './stack.ts';
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

const functionEnvironment = localEnvironment(environmentOf(await loadServerlessConfig(root, LOCAL_STAGE)), {
  dynamodbEndpoint: endpoint,
  tableName: LOCAL_TABLE,
});
const serverlessInputs = Object.fromEntries(
  Object.entries(functionEnvironment).map(([name, value]) => [`TABLETALK_${name}`, value]),
);

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
      ...functionEnvironment,
      ...serverlessInputs,
      OFFLINE_PORT: port,
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
