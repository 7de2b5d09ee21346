// Figure (d), server side, in a fresh process started by bench/gateway.ts: DynamoDB Local in
// memory on a free port, its own table, one professional organization with an sk_ key and
// branding, and the local gateway serving every route of the resolved config on a free port.
// It never touches .local/demo.json or the developer's DynamoDB data. Over IPC it reports
// `ready`, answers `count` with the DynamoDB calls and finished requests so far, and shuts down on `stop` or
// when the parent goes away.
import { localClient, type RunningDynamoDb, startDynamoDb } from '../local/dynamodb.ts';
import type { RunningGateway } from '../local/gateway.ts';
import { environmentOf, loadServerlessConfig, routesOf } from '../local/serverless-config.ts';
import { applyLocalEnvironment, LOCAL_STAGE, root } from '../local/stack.ts';
import { ensureTable } from '../local/table.ts';

export type GatewayChildMessage =
  | { type: 'ready'; url: string; apiKey: string; organizationId: number }
  | { type: 'count'; calls: number; requests: number };
export type GatewayParentMessage = { type: 'count' } | { type: 'stop' };

const TABLE = 'tabletalk-bench';

let dynamodb: RunningDynamoDb | undefined;
let gateway: RunningGateway | undefined;
let stopping = false;
const shutdown = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await gateway?.close();
  await dynamodb?.stop();
  if (process.connected) process.disconnect();
  process.exitCode = code;
};
process.on('disconnect', () => void shutdown(0));

try {
  dynamodb = await startDynamoDb();
  const client = localClient(dynamodb.endpoint);
  await ensureTable(client, TABLE);
  client.destroy();

  const config = await loadServerlessConfig(root, LOCAL_STAGE);
  // Before any lib/ import: lib/config.ts reads the environment once.
  applyLocalEnvironment(environmentOf(config), { dynamodbEndpoint: dynamodb.endpoint, tableName: TABLE });

  const { documents } = await import('#lib/store/client.ts');
  const { createOrganization } = await import('#lib/store/organizations.ts');
  const { createApiKey } = await import('#lib/store/api-keys.ts');
  const { saveBranding } = await import('#lib/store/branding.ts');
  const { demoBranding } = await import('../local/demo/seed.ts');
  const { startGateway } = await import('../local/gateway.ts');

  const organization = await createOrganization({ name: 'Bench Company', plan: 'professional' });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });
  await saveBranding(organization.id, demoBranding);

  // `documents` shares its middleware stack with the underlying DynamoDBClient, so this sees
  // every command either of them sends, once per send (retries happen further down the stack).
  let calls = 0;
  documents.middlewareStack.add(
    (next) => async (args) => {
      calls++;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );

  // Requests the gateway has finished, counted here rather than by the client: a load generator
  // stopping mid-request would otherwise leave calls without a counted response.
  let requests = 0;
  gateway = await startGateway({
    root,
    routes: routesOf(config),
    stage: LOCAL_STAGE,
    onRequest: () => {
      requests++;
    },
  });
  const send = (message: GatewayChildMessage) => process.send?.(message);
  process.on('message', (message: GatewayParentMessage) => {
    if (message.type === 'count') send({ type: 'count', calls, requests });
    else void shutdown(0);
  });
  send({ type: 'ready', url: gateway.url, apiKey: sk.key, organizationId: organization.id });
} catch (error) {
  console.error('[bench] gateway setup failed:', error);
  await shutdown(1);
}
