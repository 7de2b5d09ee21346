// The server side of bench/chat.ts, in a fresh process: DynamoDB Local in memory on a free port,
// its own table, an enterprise organization whose own limits no benchmark reaches (the limiter
// counts every request, message limits and lease included, and refuses none) with an sk_ key,
// the demo shop (PGlite from local/demo/shop.sql) registered and indexed as `npm start` does it,
// and the local gateway serving every route of the resolved config on a free port. Over IPC it
// reports `ready`, answers `count` with the DynamoDB calls (all, the limiter's, and the GetItems) and
// finished requests so far, and shuts down on `stop` or when the parent goes away. It never
// touches .local/demo.json or the developer's DynamoDB data.

import { closeConnectors } from '#lib/connectors/index.ts';
import { addDemoShop } from '../local/demo/seed.ts';
import type { RunningDynamoDb } from '../local/dynamodb.ts';
import { type RunningGateway, startGateway } from '../local/gateway.ts';
import { createUnlimitedOrganization, startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';
import { countDynamoDbCalls } from './call-counter.ts';

export type ChatChildMessage =
  | { type: 'ready'; url: string; apiKey: string; databaseId: string }
  | { type: 'count'; calls: number; limiterCalls: number; itemReads: number; requests: number };
export type ChatParentMessage = { type: 'count' } | { type: 'stop' };

const TABLE = 'tabletalk-bench-chat';

let dynamodb: RunningDynamoDb | undefined;
let gateway: RunningGateway | undefined;
let stopping = false;
const shutdown = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await gateway?.close();
  await closeConnectors();
  await dynamodb?.stop();
  if (process.connected) process.disconnect();
  process.exitCode = code;
};
process.on('disconnect', () => void shutdown(0));

try {
  const stack = await startScratchStack(TABLE);
  dynamodb = stack.dynamodb;

  const { organizationId, apiKey } = await createUnlimitedOrganization('Bench Chat');
  // The demo shop, registered like local/demo/seed.ts does (without the indexing quota).
  const { id: databaseId } = await addDemoShop(organizationId);

  const count = countDynamoDbCalls();

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
    if (message.type === 'count') send({ type: 'count', ...count, requests });
    else void shutdown(0);
  });
  send({ type: 'ready', url: gateway.url, apiKey, databaseId });
} catch (error) {
  console.error('[bench] chat setup failed:', error);
  await shutdown(1);
}
