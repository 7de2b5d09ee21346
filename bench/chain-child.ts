// Figure (a), in a fresh process started by bench/chain.ts: what the standard middy chain
// (lib/http/api.ts) costs per request. The same GET /api/v1/branding work is timed through
// functions/branding.ts `handler` (the whole chain, the limiter included) and bare (readBranding +
// ok), with the DynamoDB document client mocked, so the difference is the chain and nothing else.
import {
  DynamoDBDocumentClient,
  GetCommand,
  type GetCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { hashApiKey, keyHint } from '#lib/auth/api-keys.ts';
import { ok } from '#lib/http/response.ts';
import { windowId } from '#lib/limits/windows.ts';
import { readBranding } from '#lib/store/branding.ts';
import { handler } from '../functions/branding.ts';
import { demoBranding } from '../local/demo/seed.ts';
import { lambdaContext, restEvent } from '../local/lambda.ts';

// The settings (lib/config.ts) are read on first use, after these lines.
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.TABLE_NAME = 'tabletalk-bench';
process.env.AWS_REGION ??= 'us-east-1';
delete process.env.DYNAMODB_ENDPOINT;

export interface ChainResult {
  warmup: number;
  rounds: number;
  iterationsPerRound: number;
  /** µs per request of each round. */
  bareUs: number[];
  fullUs: number[];
  /** CPU µs (user + system) per request of each round, which other work on the machine inflates less. */
  bareCpuUs: number[];
  fullCpuUs: number[];
  /** GetCommand calls per request through the full chain once warm. */
  callsPerRequest: number;
  /** The limiter's UpdateCommand calls per request through the full chain. */
  limiterCallsPerRequest: number;
}

const WARMUP = 5_000; // enough for V8 to finish optimising both paths
const ROUNDS = 5;
const ITERATIONS = 4_000; // per round and variant: 20,000 requests each in all

// The three items the warm-up reads: key by hash, organization, branding. Once the key cache
// holds the principal, only the branding lookup remains.
const organizationId = 7;
const apiKey = `sk_${'b'.repeat(43)}`;
const createdAt = new Date().toISOString();
const items = new Map<string, Record<string, unknown>>([
  [
    `KEYHASH#${hashApiKey(apiKey)}/KEYHASH`,
    {
      id: '01936b6e-0000-7000-8000-000000000001',
      organizationId,
      kind: 'sk',
      hint: keyHint(apiKey),
      createdAt,
    },
  ],
  [
    `ORG#${organizationId}/ORG`,
    { id: organizationId, name: 'Bench', plan: 'professional', status: 'active', createdAt },
  ],
  [`ORG#${organizationId}/BRANDING`, { branding: demoBranding }],
]);
const dynamo = mockClient(DynamoDBDocumentClient);
dynamo
  .on(GetCommand)
  .callsFake((input: GetCommandInput) => ({ Item: items.get(`${input.Key?.PK}/${input.Key?.SK}`) }));
// The limiter's UpdateItem: the counters as DynamoDB returns them, far from any limit.
dynamo.on(UpdateCommand).callsFake(() => {
  const now = Date.now();
  const minute = windowId('minute', now);
  const hour = windowId('hour', now);
  return {
    Attributes: {
      minuteId: minute,
      minuteCount: 1,
      hourId: hour,
      hourCount: 1,
      monthId: windowId('month', now),
      monthCount: 1,
    },
  };
});

// The headers API Gateway (edge-optimised) passes along with the caller's own.
const event = restEvent({
  method: 'GET',
  path: '/api/v1/branding',
  resource: '/api/v1/branding',
  stage: 'prod',
  headers: {
    Accept: 'application/json',
    'Accept-Encoding': 'gzip, deflate, br',
    'CloudFront-Forwarded-Proto': 'https',
    'CloudFront-Is-Desktop-Viewer': 'true',
    'CloudFront-Is-Mobile-Viewer': 'false',
    'CloudFront-Is-SmartTV-Viewer': 'false',
    'CloudFront-Is-Tablet-Viewer': 'false',
    'CloudFront-Viewer-Country': 'DE',
    Host: 'abc123.execute-api.us-east-1.amazonaws.com',
    'User-Agent': 'bench/1.0',
    Via: '2.0 0123456789abcdef.cloudfront.net (CloudFront)',
    'X-Amz-Cf-Id': 'bench-cf-id',
    'X-Amzn-Trace-Id': 'Root=1-00000000-000000000000000000000000',
    'X-API-Key': apiKey,
    'X-Forwarded-For': '203.0.113.10, 130.176.0.1',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
  },
});
const context = lambdaContext('tabletalk-prod-branding');
type HandlerContext = Parameters<typeof handler>[1];

// Bare: the body of functions/branding.ts with the principal already known, called the way
// the runtime calls a handler. Each call gets its own copy of the context (middy writes into
// it, and the runtime makes a new one per invocation), in both variants alike.
const bareHandler = async (_event: typeof event, _context: typeof context) =>
  ok(await readBranding(organizationId));
const bare = () => bareHandler(event, { ...context });
const full = () => handler(event, { ...context } as HandlerContext);

const check = await full();
if (check.statusCode !== 200) throw new Error(`branding handler answered ${check.statusCode}: ${check.body}`);
const checkBare = await bare();
if (checkBare.body !== check.body) throw new Error('bare and full responses differ');

/** Wall-clock and CPU µs per call of `iterations` sequential awaited calls. */
const timeLoop = async (fn: () => Promise<unknown>, iterations: number): Promise<[number, number]> => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return [(wall * 1000) / iterations, (used.user + used.system) / iterations];
};

await timeLoop(bare, WARMUP);
await timeLoop(full, WARMUP);

const bareUs: number[] = [];
const fullUs: number[] = [];
const bareCpuUs: number[] = [];
const fullCpuUs: number[] = [];
let fullCalls = 0;
let limiterCalls = 0;
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so drift (GC, CPU frequency) does not favour one variant.
  const order = round % 2 === 0 ? (['bare', 'full'] as const) : (['full', 'bare'] as const);
  for (const variant of order) {
    dynamo.resetHistory(); // the mock records every call; keep that memory flat
    if (variant === 'bare') {
      const [wall, cpu] = await timeLoop(bare, ITERATIONS);
      bareUs.push(wall);
      bareCpuUs.push(cpu);
    } else {
      const [wall, cpu] = await timeLoop(full, ITERATIONS);
      fullUs.push(wall);
      fullCpuUs.push(cpu);
      fullCalls += dynamo.commandCalls(GetCommand).length;
      limiterCalls += dynamo.commandCalls(UpdateCommand).length;
    }
  }
}

const result: ChainResult = {
  warmup: WARMUP,
  rounds: ROUNDS,
  iterationsPerRound: ITERATIONS,
  bareUs,
  fullUs,
  bareCpuUs,
  fullCpuUs,
  callsPerRequest: fullCalls / (ROUNDS * ITERATIONS),
  limiterCallsPerRequest: limiterCalls / (ROUNDS * ITERATIONS),
};
process.send?.(result);
dynamo.restore();
