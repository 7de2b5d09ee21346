// Figures (d) and (f), server side, in a fresh process started by bench/gateway.ts and
// bench/limits.ts: DynamoDB Local in memory on a free port, its own table, an enterprise
// organization whose own limits no benchmark reaches (the limiter counts every request and
// refuses none) with an sk_ key and branding, a second one allowed 5 requests a minute (to
// measure refusals), and the local gateway serving every route of the resolved config, plus
// POST /bench/answer (bench/answering-route.ts), on a free port. LIMITS_ENABLED in its
// environment turns the limiter on (default) or off. It never touches .local/demo.json or the
// developer's DynamoDB data. Over IPC it reports `ready`, answers `count` with the DynamoDB
// calls (all, and the limiter's alone) and finished requests so far, and shuts down on `stop`
// or when the parent goes away.
import { createApiKey } from '#lib/auth/api-keys.ts';
import { saveBranding } from '#lib/store/branding.ts';
import { createOrganization, setOrganizationLimits } from '#lib/store/organizations.ts';
import { demoBranding } from '../local/demo/seed.ts';
import type { RunningDynamoDb } from '../local/dynamodb.ts';
import { type RunningGateway, startGateway } from '../local/gateway.ts';
import { createUnlimitedOrganization, startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE, root } from '../local/stack.ts';
import { countDynamoDbCalls } from './call-counter.ts';

export type GatewayChildMessage =
  | { type: 'ready'; url: string; apiKey: string; organizationId: number; tightApiKey: string }
  | { type: 'count'; calls: number; limiterCalls: number; requests: number };
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
  const stack = await startScratchStack(TABLE);
  dynamodb = stack.dynamodb;

  const { organizationId, apiKey } = await createUnlimitedOrganization('Bench Company');
  await saveBranding(organizationId, demoBranding);
  const tight = await createOrganization({ name: 'Bench Tight', plan: 'enterprise' });
  await setOrganizationLimits(tight.id, { requestsPerMinute: 5 });
  const tightSk = await createApiKey({ organizationId: tight.id, kind: 'sk' });

  const count = countDynamoDbCalls();

  // Requests the gateway has finished, counted here rather than by the client: a load generator
  // stopping mid-request would otherwise leave calls without a counted response.
  let requests = 0;
  gateway = await startGateway({
    root,
    routes: [
      ...stack.routes,
      {
        functionName: 'benchAnswering',
        handler: 'bench/answering-route.handler',
        method: 'POST',
        path: '/bench/answer',
        streaming: false,
        timeoutSeconds: 29,
      },
    ],
    stage: LOCAL_STAGE,
    onRequest: () => {
      requests++;
    },
  });
  const send = (message: GatewayChildMessage) => process.send?.(message);
  process.on('message', (message: GatewayParentMessage) => {
    if (message.type === 'count') send({ type: 'count', ...count, requests });
    else void shutdown(0);
  });
  send({
    type: 'ready',
    url: gateway.url,
    apiKey,
    organizationId,
    tightApiKey: tightSk.key,
  });
} catch (error) {
  console.error('[bench] gateway setup failed:', error);
  await shutdown(1);
}
