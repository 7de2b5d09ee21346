// npm run load [-- --duration 15 --connections 10]: load on the local gateway with autocannon,
// for a bounded time per mix, on loopback only, and the figures into BENCHMARKS.md (the
// `<!-- load:start -->` block, bench/load-block.ts).
//
// A child process (this file with --serve) starts a scratch stack: DynamoDB Local in memory, its
// own table, an enterprise organization with an sk_ key, the demo shop (PGlite) registered and
// indexed, and the local gateway on a free 127.0.0.1 port, the limiter on as deployed. The
// organization's request and message limits are beyond the run's reach; its concurrency limit
// for answering requests is set below the number of connections, so that the answer mix also
// meets the concurrency limit: those 429s are intended and counted apart. This process seeds
// conversations through the API, then runs two mixes, one after the other:
//   (a) reads: branding, the database list, a scope's conversations, a conversation's history
//       and the history endpoint of one conversation, rotating over scopes and conversations;
//   (b) answers: POST /api/v1/chat/{id}/message to the demo database, alternately a question in
//       a new conversation and a follow-up in it, over tenants 1 to 3.
// Any response other than 2xx (and, in the answer mix, 429 from the answering limits), a socket
// error or a timeout is a failure: the figures are still written, and the exit code is 1.
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeConnectors } from '#lib/connectors/index.ts';
import { addDemoShop } from '../local/demo/seed.ts';
import { startGateway } from '../local/gateway.ts';
import { createUnlimitedOrganization, startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE } from '../local/stack.ts';
import { fixed, nextMessage, nodeBin, percentile, root, stopChild, table } from './common.ts';
import { toLoadBlock, withLoadBlock } from './load-block.ts';

const TABLE = 'tabletalk-bench-load';
/** Answering requests one organization may have in flight; the mixes keep more connections open. */
const ANSWER_CONCURRENCY = 8;
const SCOPES = 5;
const CONVERSATIONS_PER_SCOPE = 2;
const MESSAGES_PER_CONVERSATION = 4;
/** How long the server waits, after the last mix, for requests still in flight. */
const DRAIN_MS = 3_000;

type ServeMessage = { type: 'ready'; url: string; apiKey: string; databaseId: string };

// ---- The server (child) --------------------------------------------------------------------

const serve = async (): Promise<void> => {
  const stack = await startScratchStack(TABLE);
  let stop = async () => {
    await stack.dynamodb.stop();
  };
  try {
    const { organizationId, apiKey } = await createUnlimitedOrganization('Load', {
      concurrentRequests: ANSWER_CONCURRENCY,
    });
    const { id: databaseId } = await addDemoShop(organizationId);
    const gateway = await startGateway({ root, routes: stack.routes, stage: LOCAL_STAGE, host: '127.0.0.1' });
    stop = async () => {
      await gateway.close();
      // Requests cut off by the end of a mix are still running: let them finish before DynamoDB goes.
      await new Promise((done) => setTimeout(done, DRAIN_MS));
      await closeConnectors();
      await stack.dynamodb.stop();
    };
    process.send?.({ type: 'ready', url: gateway.url, apiKey, databaseId } satisfies ServeMessage);
    await new Promise<void>((done) => process.once('disconnect', done));
  } finally {
    await stop();
  }
};

// ---- autocannon ----------------------------------------------------------------------------

interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: CannonRequest, context: Record<string, unknown>) => CannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
}
interface CannonInstance {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    timeout: number;
    requests: CannonRequest[];
  },
  done: (error: Error | null, result: CannonResult) => void,
) => CannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface MixResult {
  name: string;
  seconds: number;
  responses: number;
  throughput: number;
  p50: number;
  p99: number;
  p50Ok: number;
  p99Ok: number;
  ok: number;
  limited: number;
  limitedBy: Record<string, number>;
  failures: number;
  failedBy: Record<string, number>;
  socketErrors: number;
  timeouts: number;
}

const runMix = (
  name: string,
  url: string,
  connections: number,
  seconds: number,
  requests: CannonRequest[],
  allow429: boolean,
): Promise<MixResult> =>
  new Promise((resolveMix, reject) => {
    const all: number[] = [];
    const ok: number[] = [];
    const limitedBy: Record<string, number> = {};
    const failedBy: Record<string, number> = {};
    const onResponse = (status: number, body: string) => {
      if (status === 429 && allow429) {
        let detail = 'unknown';
        try {
          detail = String((JSON.parse(body) as { error?: { details?: unknown } }).error?.details ?? detail);
        } catch {}
        limitedBy[detail] = (limitedBy[detail] ?? 0) + 1;
      } else if (status < 200 || status > 299) {
        const key = `${status} ${body.slice(0, 120)}`;
        failedBy[key] = (failedBy[key] ?? 0) + 1;
      }
    };
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 10,
        requests: requests.map((r) => ({ ...r, onResponse })),
      },
      (error, result) => {
        if (error) return reject(error);
        const limited = Object.values(limitedBy).reduce((sum, n) => sum + n, 0);
        const failedResponses = Object.values(failedBy).reduce((sum, n) => sum + n, 0);
        resolveMix({
          name,
          seconds: result.duration,
          responses: all.length,
          throughput: all.length / result.duration,
          p50: percentile(all, 50),
          p99: percentile(all, 99),
          p50Ok: percentile(ok, 50),
          p99Ok: percentile(ok, 99),
          ok: ok.length,
          limited,
          limitedBy,
          failures: failedResponses + result.errors,
          failedBy,
          socketErrors: result.errors - result.timeouts,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      all.push(ms);
      if (status >= 200 && status <= 299) ok.push(ms);
    });
  });

// ---- The mixes -----------------------------------------------------------------------------

interface Seeded {
  url: string;
  apiKey: string;
  databaseId: string;
  conversations: { id: string; scope: string }[];
}

const QUESTIONS = [
  'How many orders were placed in 2025?',
  'Revenue per category',
  'Top 5 customers by revenue',
  'How many orders per status?',
  'How many customers are there?',
];
const FOLLOW_UPS = ['and how many of those were cancelled?', 'what about 2024?', 'by month'];

const readMix = (seeded: Seeded): CannonRequest[] => {
  const auth = { 'X-API-Key': seeded.apiKey };
  let turn = 0;
  const next = () => seeded.conversations[turn++ % seeded.conversations.length]!;
  return [
    { method: 'GET', path: '/api/v1/branding', headers: auth },
    { method: 'GET', path: '/api/v1/organization/databases?page=1&page_size=20', headers: auth },
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: '/api/v1/chat/conversations?limit=20',
        headers: { ...auth, 'X-Scope-Id': next().scope },
      }),
    },
    {
      method: 'GET',
      setupRequest: (request) => {
        const conversation = next();
        return {
          ...request,
          path: `/api/v1/chat/${conversation.id}/history`,
          headers: { ...auth, 'X-Scope-Id': conversation.scope },
        };
      },
    },
    {
      method: 'GET',
      setupRequest: (request) => {
        const conversation = next();
        return {
          ...request,
          path: `/api/v1/chat/history?conversation_id=${conversation.id}&limit=50`,
          headers: { ...auth, 'X-Scope-Id': conversation.scope },
        };
      },
    },
  ];
};

const answerMix = (seeded: Seeded): CannonRequest[] => {
  let turn = 0;
  const headers = (tenant: number) => ({
    'X-API-Key': seeded.apiKey,
    'X-Tenant-Id': String(tenant),
    'Content-Type': 'application/json',
  });
  return [
    {
      method: 'POST',
      setupRequest: (request, context) => {
        const n = turn++;
        context.conversation = randomUUID();
        context.tenant = 1 + (n % 3);
        return {
          ...request,
          path: `/api/v1/chat/${context.conversation as string}/message`,
          headers: headers(context.tenant as number),
          body: JSON.stringify({ message: QUESTIONS[n % QUESTIONS.length], database_id: seeded.databaseId }),
        };
      },
    },
    {
      method: 'POST',
      // The database is named again: when the first message was refused (429), this one creates
      // the conversation instead of meeting a 404.
      setupRequest: (request, context) => ({
        ...request,
        path: `/api/v1/chat/${context.conversation as string}/message`,
        headers: headers(context.tenant as number),
        body: JSON.stringify({
          message: FOLLOW_UPS[turn % FOLLOW_UPS.length],
          database_id: seeded.databaseId,
        }),
      }),
    },
  ];
};

/** Conversations in several scopes, through the history append endpoint. */
const seed = async (url: string, apiKey: string): Promise<Seeded['conversations']> => {
  const conversations: Seeded['conversations'] = [];
  for (let s = 0; s < SCOPES; s++) {
    for (let c = 0; c < CONVERSATIONS_PER_SCOPE; c++) {
      const conversation = { id: randomUUID(), scope: `load-scope-${s}` };
      for (let m = 0; m < MESSAGES_PER_CONVERSATION; m++) {
        const response = await fetch(`${url}/api/v1/chat/message`, {
          method: 'POST',
          headers: {
            'X-API-Key': apiKey,
            'X-Scope-Id': conversation.scope,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({
            conversation_id: conversation.id,
            role: m % 2 === 0 ? 'user' : 'assistant',
            content: `Message ${m + 1} of conversation ${c + 1} in scope ${s}`,
          }),
        });
        if (response.status !== 201)
          throw new Error(`seeding answered ${response.status}: ${await response.text()}`);
      }
      conversations.push(conversation);
    }
  }
  return conversations;
};

/** A few requests of each kind, one at a time, so the figures do not include first loads. */
const warmUp = async (seeded: Seeded): Promise<void> => {
  for (const mix of [readMix(seeded), answerMix(seeded)]) {
    const context: Record<string, unknown> = {};
    for (let round = 0; round < 5; round++) {
      for (const step of mix) {
        const request = step.setupRequest ? step.setupRequest({ ...step }, context) : step;
        const response = await fetch(`${seeded.url}${request.path}`, {
          method: request.method ?? 'GET',
          headers: request.headers ?? {},
          ...(request.body ? { body: request.body } : {}),
        });
        if (!response.ok)
          throw new Error(`warm-up ${request.path} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
    }
  }
};

// ---- Report --------------------------------------------------------------------------------

const counts = (record: Record<string, number>): string =>
  Object.entries(record)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ') || '—';

const report = (mixes: MixResult[], connections: number, seconds: number, date: Date): string => {
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}`;
  const rows = mixes.map((mix) => [
    mix.name,
    String(mix.responses),
    fixed(mix.throughput, 0),
    fixed(mix.p50, 0),
    fixed(mix.p99, 0),
    `${fixed(mix.p50Ok, 0)} / ${fixed(mix.p99Ok, 0)}`,
    String(mix.ok),
    mix.limited > 0 ? `${mix.limited} (${counts(mix.limitedBy)})` : '0',
    `${mix.failures} (${fixed((100 * mix.failures) / Math.max(1, mix.responses), 2)} %)`,
  ]);
  return `## Load (npm run load)

Measured by \`npm run load\` (bench/load.ts) on ${date.toISOString()}: ${machine}; load average
${loadavg()
  .map((value) => fixed(value, 2))
  .join(' / ')} after the run. ${connections} connections, ${seconds} s per mix, loopback only.

${table(
  [
    'Mix',
    'Responses',
    'Throughput (req/s)',
    'p50 (ms)',
    'p99 (ms)',
    '2xx p50 / p99 (ms)',
    '2xx',
    '429 (intended)',
    'Errors (rate)',
  ],
  rows,
)}

Method: a child process serves the API through the local gateway on 127.0.0.1 (DynamoDB Local in memory, the demo
shop on PGlite, the limiter on as deployed) for one enterprise organization whose request and message limits are
beyond reach and which may have ${ANSWER_CONCURRENCY} answering requests in flight; autocannon keeps ${connections} connections busy from
this process. Reads: branding, the database list, a scope's conversations, a conversation's whole history and one
conversation through \`GET /chat/history\`, rotating over ${SCOPES * CONVERSATIONS_PER_SCOPE} conversations in ${SCOPES} scopes (seeded through the append
endpoint). Answers: \`POST /api/v1/chat/{id}/message\` on the demo database, a question in a new conversation then a
follow-up in it, over tenants 1 to 3; with more connections than the concurrency limit, some are refused with 429
\`CONCURRENT_REQUESTS\` as designed (counted apart, not errors). Errors are any other non-2xx, socket errors and
timeouts; latency is each response's time as autocannon measures it (request sent to response received), for all responses and for the 2xx alone. Everything
shares one machine: the figures compare runs of this code, not deployed Lambda capacity.
`;
};

// ---- Main ----------------------------------------------------------------------------------

const main = async (): Promise<number> => {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '15' }, connections: { type: 'string', default: '10' } },
  });
  const seconds = Math.max(1, Math.min(300, Number(values.duration) || 15));
  const connections = Math.max(1, Math.min(100, Number(values.connections) || 10));
  const date = new Date();
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    cwd: root,
    execPath: nodeBin,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await nextMessage<ServeMessage>(child);
    const target = new URL(ready.url);
    if (target.hostname !== '127.0.0.1') throw new Error(`refusing to load ${ready.url}: loopback only`);
    console.log(`local gateway on ${ready.url}; seeding conversations and warming up…`);
    const seeded: Seeded = { ...ready, conversations: await seed(ready.url, ready.apiKey) };
    await warmUp(seeded);

    const mixes: MixResult[] = [];
    for (const [name, requests, allow429] of [
      ['(a) reads', readMix(seeded), false],
      ['(b) answers', answerMix(seeded), true],
    ] as const) {
      console.log(`${name}: ${connections} connections for ${seconds} s…`);
      const mix = await runMix(name, ready.url, connections, seconds, requests, allow429);
      console.log(
        `  ${fixed(mix.throughput, 0)} req/s, p50 ${fixed(mix.p50, 0)} ms, p99 ${fixed(mix.p99, 0)} ms, ` +
          `2xx ${mix.ok}, 429 ${mix.limited}, errors ${mix.failures}`,
      );
      for (const [failure, n] of Object.entries(mix.failedBy)) console.log(`  ${n} × ${failure}`);
      if (mix.socketErrors || mix.timeouts)
        console.log(`  socket errors ${mix.socketErrors}, timeouts ${mix.timeouts}`);
      mixes.push(mix);
    }

    const file = join(root, 'BENCHMARKS.md');
    const block = toLoadBlock(report(mixes, connections, seconds, date));
    writeFileSync(file, withLoadBlock(readFileSync(file, 'utf8'), block));
    const failed = mixes.reduce((sum, mix) => sum + mix.failures, 0);
    console.log(`Wrote the load block of BENCHMARKS.md.${failed ? ` FAIL: ${failed} errors.` : ''}`);
    return failed > 0 ? 1 : 0;
  } finally {
    await stopChild(child, 'disconnect');
  }
};

if (process.argv.includes('--serve')) {
  await serve();
} else {
  process.exitCode = await main();
}
