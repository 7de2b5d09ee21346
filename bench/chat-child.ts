// The server side of bench/chat.ts, in a fresh process: DynamoDB Local in memory on a free port,
// its own table, an enterprise organization whose own limits no benchmark reaches (the limiter
// counts every request, message limits and lease included, and refuses none) with an sk_ key,
// the demo shop (PGlite from local/demo/shop.sql) registered and indexed as `npm start` does it,
// and the local gateway serving every route of the resolved config on a free port. Over IPC it
// reports `ready`, answers `count` with the DynamoDB calls (all, and the limiter's alone) and
// finished requests so far, and shuts down on `stop` or when the parent goes away. It never
// touches .local/demo.json or the developer's DynamoDB data.
import type { RunningDynamoDb } from '../local/dynamodb.ts';
import type { RunningGateway } from '../local/gateway.ts';
import { startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';

export type ChatChildMessage =
  | { type: 'ready'; url: string; apiKey: string; databaseId: string }
  | { type: 'count'; calls: number; limiterCalls: number; requests: number };
export type ChatParentMessage = { type: 'count' } | { type: 'stop' };

const TABLE = 'tabletalk-bench-chat';

let dynamodb: RunningDynamoDb | undefined;
let gateway: RunningGateway | undefined;
let closeConnectors: (() => Promise<void>) | undefined;
let stopping = false;
const shutdown = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await gateway?.close();
  await closeConnectors?.();
  await dynamodb?.stop();
  if (process.connected) process.disconnect();
  process.exitCode = code;
};
process.on('disconnect', () => void shutdown(0));

try {
  // Before any lib/ import: lib/config.ts reads the environment once.
  const stack = await startScratchStack(TABLE);
  dynamodb = stack.dynamodb;

  const { documents } = await import('#lib/store/client.ts');
  const { createOrganization, setOrganizationLimits } = await import('#lib/store/organizations.ts');
  const { isLimitsPartition } = await import('#lib/store/limit-counters.ts');
  const { createApiKey } = await import('#lib/store/api-keys.ts');
  const { addDatabase, newDatabaseId } = await import('#lib/store/databases.ts');
  const { writeSchemaIndex } = await import('#lib/store/schema-index.ts');
  const { secretStore } = await import('#lib/connectors/secrets.ts');
  const connectors = await import('#lib/connectors/index.ts');
  closeConnectors = connectors.closeConnectors;
  const { effectivePolicy } = await import('#lib/sql/policy.ts');
  const { demoPolicy, demoSeedFile } = await import('../local/demo/seed.ts');
  const { startGateway } = await import('../local/gateway.ts');

  const organization = await createOrganization({ name: 'Bench Chat', plan: 'enterprise' });
  const unreachable = 1_000_000_000;
  await setOrganizationLimits(organization.id, {
    requestsPerMinute: unreachable,
    requestsPerHour: unreachable,
    monthlyRequests: unreachable,
    concurrentRequests: unreachable,
    messagesPerMinute: unreachable,
    messagesPerHour: unreachable,
  });
  const sk = await createApiKey({ organizationId: organization.id, kind: 'sk' });

  // The demo shop, registered like local/demo/seed.ts does (without the indexing quota).
  const settings = {
    organizationId: organization.id,
    requiresOrganizationScoping: true,
    tenantFilterColumn: demoPolicy.tenant_column,
    policy: demoPolicy,
  };
  const connector = await connectors.createConnector({
    engine: 'pglite',
    url: 'memory:',
    seedFile: demoSeedFile,
  });
  const catalog = await connector.introspect({ policy: effectivePolicy(settings) });
  await connector.close();
  const databaseId = newDatabaseId();
  await addDatabase({
    id: databaseId,
    name: 'Demo shop',
    engine: 'pglite',
    ...settings,
    connectionRef: await secretStore().save(databaseId, 'memory:'),
    seedFile: demoSeedFile,
    schemaIndex: await writeSchemaIndex(databaseId, catalog),
  });

  // Every command of the shared document client, once per send; the limiter's are those on its partition.
  let calls = 0;
  let limiterCalls = 0;
  documents.middlewareStack.add(
    (next) => async (args) => {
      calls++;
      const pk = (args.input as { Key?: { PK?: string | { S?: string } } }).Key?.PK;
      const partition = typeof pk === 'string' ? pk : pk?.S;
      if (partition !== undefined && isLimitsPartition(partition)) limiterCalls++;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );

  let requests = 0;
  gateway = await startGateway({
    root,
    routes: stack.routes,
    stage: LOCAL_STAGE,
    onRequest: () => {
      requests++;
    },
  });
  const send = (message: ChatChildMessage) => process.send?.(message);
  process.on('message', (message: ChatParentMessage) => {
    if (message.type === 'count') send({ type: 'count', calls, limiterCalls, requests });
    else void shutdown(0);
  });
  send({ type: 'ready', url: gateway.url, apiKey: sk.key, databaseId });
} catch (error) {
  console.error('[bench] chat setup failed:', error);
  await shutdown(1);
}
