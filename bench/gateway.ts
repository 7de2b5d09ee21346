// Figure (d): warm GET /api/v1/branding through the local gateway, client side, with the limiter on
// (its calls are reported apart from the branding read's: bench/limits.ts measures it on its own). The server
// (DynamoDB Local + gateway, bench/gateway-child.ts) runs in its own process; this process is the
// client, so the load generator does not share an event loop with the code it measures.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  exited,
  type Figure,
  fixed,
  forkBench,
  mean,
  nextMessage,
  nodeBin,
  percentile,
  printFigure,
  root,
  type Section,
  table,
  verdict,
} from './common.ts';
import type { GatewayChildMessage, GatewayParentMessage } from './gateway-child.ts';

const run = promisify(execFile);

const WARMUP = 50;
const REQUESTS = 1_000;
const AUTOCANNON_SECONDS = 5;
const AUTOCANNON_CONNECTIONS = 10;
/** DynamoDB calls of the branding read itself (the key and organization are cached). */
const CALLS_TARGET = 1;
/** The limiter's one UpdateItem per request (docs/limits.md). */
const LIMITER_CALLS_TARGET = 1;

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  latency: { average: number; p50: number; p99: number };
  requests: { average: number; total: number };
}

export const measureGateway = async (): Promise<Section> => {
  const child = forkBench('gateway-child.ts');
  const request = async (message: GatewayParentMessage): Promise<GatewayChildMessage> => {
    const reply = nextMessage<GatewayChildMessage>(child);
    child.send(message);
    return reply;
  };
  const countsSoFar = async (): Promise<{ calls: number; limiterCalls: number; requests: number }> => {
    const reply = await request({ type: 'count' });
    if (reply.type !== 'count') throw new Error(`unexpected reply ${reply.type}`);
    return reply;
  };
  /** The counts once the server has finished what it still had in flight. */
  const settledCounts = async () => {
    let last = await countsSoFar();
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await countsSoFar();
      if (now.requests === last.requests && now.calls === last.calls) return now;
      last = now;
    }
    return last;
  };
  /** Calls per request between two counts: the branding read's own, and the limiter's. */
  const perRequest = (
    from: { calls: number; limiterCalls: number; requests: number },
    to: { calls: number; limiterCalls: number; requests: number },
  ) => {
    const requests = to.requests - from.requests;
    const limiter = to.limiterCalls - from.limiterCalls;
    const own = to.calls - from.calls - limiter;
    return { requests, own, limiter, ownPerRequest: own / requests, limiterPerRequest: limiter / requests };
  };
  try {
    const ready = await nextMessage<GatewayChildMessage>(child);
    if (ready.type !== 'ready') throw new Error(`unexpected message ${ready.type}`);
    const url = `${ready.url}/api/v1/branding`;
    const headers = { 'X-API-Key': ready.apiKey, Accept: 'application/json' };

    // fetch (undici) keeps the connection alive between these sequential requests.
    const get = async (): Promise<void> => {
      const response = await fetch(url, { headers });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body}`);
    };
    for (let i = 0; i < WARMUP; i++) await get();

    const before = await settledCounts();
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await get();
      latencies.push(performance.now() - started);
    }
    const afterSequential = await settledCounts();
    const sequential = perRequest(before, afterSequential);

    const { stdout } = await run(
      nodeBin,
      [
        join(root, 'node_modules/autocannon/autocannon.js'),
        '--json',
        '--connections',
        String(AUTOCANNON_CONNECTIONS),
        '--duration',
        String(AUTOCANNON_SECONDS),
        '--headers',
        `X-API-Key=${ready.apiKey}`,
        url,
      ],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    );
    const load = JSON.parse(stdout) as AutocannonResult;
    const afterLoad = await settledCounts();
    const underLoad = perRequest(afterSequential, afterLoad);

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const average = mean(latencies);
    const callsFigure = (
      name: string,
      measured: { own: number; requests: number; ownPerRequest: number },
    ) => ({
      name,
      measured: `${fixed(measured.ownPerRequest, 3)} (${measured.own} calls / ${measured.requests} requests)`,
      target: `≤ ${CALLS_TARGET}`,
      pass: measured.ownPerRequest <= CALLS_TARGET,
    });
    const limiterFigure = (
      name: string,
      measured: { limiter: number; requests: number; limiterPerRequest: number },
    ) => ({
      name,
      measured: `${fixed(measured.limiterPerRequest, 3)} (${measured.limiter} calls / ${measured.requests} requests)`,
      target: `≤ ${LIMITER_CALLS_TARGET}`,
      pass: measured.limiterPerRequest <= LIMITER_CALLS_TARGET,
    });
    const figures: Figure[] = [
      {
        name: '(d) gateway warm GET /api/v1/branding',
        measured: `p50 ${fixed(p50, 2)} ms, p99 ${fixed(p99, 2)} ms, mean ${fixed(average, 2)} ms`,
        target: '— (reported)',
      },
      callsFigure('(d) DynamoDB calls per warm request, limiter excluded', sequential),
      limiterFigure('(d) limiter calls per warm request', sequential),
      {
        name: `(d) autocannon ${AUTOCANNON_CONNECTIONS} conns × ${AUTOCANNON_SECONDS} s`,
        measured: `${fixed(load.requests.average, 0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, non-2xx ${load.non2xx + load.errors + load.timeouts}`,
        target: 'no errors',
        pass: load.non2xx + load.errors + load.timeouts === 0,
      },
      callsFigure('(d) DynamoDB calls per request under load, limiter excluded', underLoad),
      limiterFigure('(d) limiter calls per request under load', underLoad),
    ];
    for (const figure of figures) printFigure(figure);

    const markdown = `## (d) Warm GET /api/v1/branding through the local gateway

${table(
  ['Measure', 'Value', 'Target', 'Result'],
  [
    [
      `Sequential latency, ${REQUESTS.toLocaleString('en-US')} requests: p50`,
      `${fixed(p50, 2)} ms`,
      '—',
      '—',
    ],
    ['Sequential latency: p99', `${fixed(p99, 2)} ms (×${fixed(p99 / p50, 1)} p50)`, '—', '—'],
    ['Sequential latency: mean', `${fixed(average, 2)} ms`, '—', '—'],
    [
      'DynamoDB calls / warm request (sequential), limiter excluded',
      `${fixed(sequential.ownPerRequest, 3)} (${sequential.own} / ${sequential.requests})`,
      `≤ ${CALLS_TARGET}`,
      verdict(figures[1]!.pass),
    ],
    [
      'Limiter calls / warm request (sequential)',
      `${fixed(sequential.limiterPerRequest, 3)} (${sequential.limiter} / ${sequential.requests})`,
      `≤ ${LIMITER_CALLS_TARGET}`,
      verdict(figures[2]!.pass),
    ],
    [
      `autocannon: ${AUTOCANNON_CONNECTIONS} connections, ${AUTOCANNON_SECONDS} s`,
      `${fixed(load.requests.average, 0)} req/s (${load.requests.total.toLocaleString('en-US')} requests), latency p50 ${load.latency.p50} ms / p99 ${load.latency.p99} ms / mean ${fixed(load.latency.average, 2)} ms`,
      'no errors or non-2xx',
      figures[3]!.pass
        ? verdict(true)
        : `FAIL (${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts)`,
    ],
    [
      'DynamoDB calls / request under load, limiter excluded',
      `${fixed(underLoad.ownPerRequest, 3)} (${underLoad.own} / ${underLoad.requests})`,
      `≤ ${CALLS_TARGET}`,
      verdict(figures[4]!.pass),
    ],
    [
      'Limiter calls / request under load',
      `${fixed(underLoad.limiterPerRequest, 3)} (${underLoad.limiter} / ${underLoad.requests})`,
      `≤ ${LIMITER_CALLS_TARGET}`,
      verdict(figures[5]!.pass),
    ],
  ],
)}

Method: a child process starts DynamoDB Local in memory on a free port, creates its own table from infra/table.yml,
applies the local environment (\`applyLocalEnvironment\` with the resolved \`serverless print\` config of the local stage),
creates an enterprise organization with an sk_ key and the demo branding through lib/store — its own limits set
beyond reach, so the limiter counts every request (one UpdateItem each, counted apart) and refuses none — and starts the local
gateway (\`local/gateway.ts\`) on a free 127.0.0.1 port with every route of the config. The client is this process:
${WARMUP} warm-up requests, then ${REQUESTS.toLocaleString('en-US')} sequential \`fetch\` requests over one keep-alive connection, each timed from
send to the end of the body. DynamoDB calls are counted by a middleware added at the \`initialize\` step of the shared
document client's middleware stack (\`lib/store/client.ts\` \`documents\`) and divided by the requests the gateway
finished (its \`onRequest\` hook), both read over IPC once the server is idle before and after each phase — so requests
autocannon abandons in flight at the end are still matched with their calls.
Throughput: autocannon (its own process) with ${AUTOCANNON_CONNECTIONS} keep-alive connections for ${AUTOCANNON_SECONDS} s against 127.0.0.1; its latencies are whole
milliseconds. Everything — client, gateway, the function code and DynamoDB Local (a JVM) — shares this machine, so these
figures show the code path's cost and its DynamoDB round trips, not deployed API Gateway + Lambda latency.
`;
    return { figures, markdown };
  } finally {
    if (child.connected) child.send({ type: 'stop' } satisfies GatewayParentMessage);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
  }
};
