// Figure (f): what the limiter costs (docs/limits.md). Two gateway children
// (bench/gateway-child.ts) run side by side, one with LIMITS_ENABLED=true and one with
// LIMITS_ENABLED=false, each serving GET /api/v1/branding (a read: standard limits) and
// POST /bench/answer (an answering route: message limits and a concurrency lease). This process is
// the client: it alternates rounds between the two so that drift affects both alike, counts the
// DynamoDB calls on the limiter's partition per request, and compares latencies. A last phase
// sends a burst for an organization allowed 5 requests a minute, to show what refusals cost.
import {
  askChild,
  type Figure,
  fixed,
  percentile,
  printFigure,
  type Section,
  startServerChild,
  stopChild,
  table,
  verdict,
} from './common.ts';
import type { GatewayChildMessage, GatewayParentMessage } from './gateway-child.ts';

const WARMUP = 50;
const ROUNDS = 10;
const PER_ROUND = 50;
const BURST = 40;
const READ_TARGET = 1;
const ANSWER_TARGET = 2;

interface Server {
  url: string;
  apiKey: string;
  tightApiKey: string;
  counts: () => Promise<{ calls: number; limiterCalls: number; requests: number }>;
  stop: () => Promise<void>;
}

const startServer = async (limitsEnabled: boolean): Promise<Server> => {
  const { child, ready } = await startServerChild<GatewayChildMessage>('gateway-child.ts', {
    ...process.env,
    LIMITS_ENABLED: String(limitsEnabled),
  });
  return {
    url: ready.url,
    apiKey: ready.apiKey,
    tightApiKey: ready.tightApiKey,
    counts: async () => {
      const reply = await askChild<GatewayChildMessage>(child, {
        type: 'count',
      } satisfies GatewayParentMessage);
      if (reply.type !== 'count') throw new Error(`unexpected reply ${reply.type}`);
      return reply;
    },
    stop: () => stopChild(child),
  };
};

type Route = 'read' | 'answer';

const send = async (server: Server, route: Route, apiKey = server.apiKey): Promise<number> => {
  const response =
    route === 'read'
      ? await fetch(`${server.url}/api/v1/branding`, { headers: { 'X-API-Key': apiKey } })
      : await fetch(`${server.url}/bench/answer`, { method: 'POST', headers: { 'X-API-Key': apiKey } });
  await response.arrayBuffer();
  return response.status;
};

const timedRound = async (server: Server, route: Route, into: number[]): Promise<void> => {
  for (let i = 0; i < PER_ROUND; i++) {
    const started = performance.now();
    const status = await send(server, route);
    into.push(performance.now() - started);
    if (status !== 200) throw new Error(`${route} on ${server.url} answered ${status}`);
  }
};

export const measureLimits = async (): Promise<Section> => {
  const servers = await Promise.all([startServer(true), startServer(false)]);
  const [on, off] = servers;
  try {
    if (!on || !off) throw new Error('two servers expected');
    for (const server of servers) {
      for (let i = 0; i < WARMUP; i++) {
        await send(server, 'read');
        await send(server, 'answer');
      }
    }

    // Latency and limiter calls per route, rounds alternating between limits on and off.
    const latency = {
      read: { on: [] as number[], off: [] as number[] },
      answer: { on: [] as number[], off: [] as number[] },
    };
    const limiterCalls = { read: { on: 0, off: 0 }, answer: { on: 0, off: 0 } };
    const requests = { read: 0, answer: 0 };
    for (const route of ['read', 'answer'] as const) {
      for (let round = 0; round < ROUNDS; round++) {
        const order =
          round % 2 === 0
            ? ([
                ['on', on],
                ['off', off],
              ] as const)
            : ([
                ['off', off],
                ['on', on],
              ] as const);
        for (const [mode, server] of order) {
          const before = await server.counts();
          await timedRound(server, route, latency[route][mode]);
          const after = await server.counts();
          limiterCalls[route][mode] += after.limiterCalls - before.limiterCalls;
        }
        requests[route] += PER_ROUND;
      }
    }

    // A burst for an organization allowed 5 requests a minute: what each refusal costs. It must
    // fall within one clock minute.
    const leftInMinute = 60_000 - (Date.now() % 60_000);
    if (leftInMinute < 5_000) await new Promise((done) => setTimeout(done, leftInMinute + 50));
    const beforeBurst = await on.counts();
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i++) statuses.push(await send(on, 'read', on.tightApiKey));
    const burstCalls = (await on.counts()).limiterCalls - beforeBurst.limiterCalls;
    const admitted = statuses.filter((status) => status === 200).length;
    const refused = statuses.filter((status) => status === 429).length;

    const perRead = limiterCalls.read.on / requests.read;
    const perAnswer = limiterCalls.answer.on / requests.answer;
    const p50 = (values: number[]) => percentile(values, 50);
    const p99 = (values: number[]) => percentile(values, 99);
    const overhead = (route: Route) => p50(latency[route].on) - p50(latency[route].off);
    const figures: Figure[] = [
      {
        name: '(f) limiter round trips per read',
        measured: `${fixed(perRead, 3)} (${limiterCalls.read.on} / ${requests.read} GET /api/v1/branding)`,
        target: `≤ ${READ_TARGET}`,
        pass: perRead <= READ_TARGET,
      },
      {
        name: '(f) limiter round trips per answering request',
        measured: `${fixed(perAnswer, 3)} (${limiterCalls.answer.on} / ${requests.answer}: count + lease, release)`,
        target: `≤ ${ANSWER_TARGET}`,
        pass: perAnswer <= ANSWER_TARGET,
      },
      {
        name: '(f) limiter latency overhead, read (p50)',
        measured: `+${fixed(overhead('read'), 2)} ms (on ${fixed(p50(latency.read.on), 2)} / off ${fixed(p50(latency.read.off), 2)} ms)`,
        target: '— (reported)',
      },
      {
        name: '(f) limiter latency overhead, answering (p50)',
        measured: `+${fixed(overhead('answer'), 2)} ms (on ${fixed(p50(latency.answer.on), 2)} / off ${fixed(p50(latency.answer.off), 2)} ms)`,
        target: '— (reported)',
      },
      {
        name: '(f) burst of 40 at 5 requests a minute',
        measured: `${admitted} admitted, ${refused} refused, ${burstCalls} limiter calls in all`,
        target: '5 admitted',
        pass: admitted === 5 && refused === BURST - 5,
      },
    ];
    for (const figure of figures) printFigure(figure);

    const row = (route: Route, label: string) => [
      label,
      `${fixed(p50(latency[route].on), 2)} / ${fixed(p99(latency[route].on), 2)} ms`,
      `${fixed(p50(latency[route].off), 2)} / ${fixed(p99(latency[route].off), 2)} ms`,
      `+${fixed(overhead(route), 2)} ms`,
      `${fixed(limiterCalls[route].on / requests[route], 3)} (off: ${limiterCalls[route].off})`,
    ];
    const markdown = `## (f) Limits: DynamoDB round trips and latency of the limiter

${table(
  ['Figure', 'Measured', 'Target', 'Result'],
  figures.map((figure) => [figure.name, figure.measured, figure.target, verdict(figure.pass)]),
)}

${table(
  ['Route', 'limits on: p50 / p99', 'limits off: p50 / p99', 'p50 overhead', 'limiter calls / request'],
  [
    row('read', '`GET /api/v1/branding` (standard limits)'),
    row('answer', '`POST /bench/answer` (answering: message limits + lease)'),
  ],
)}

Method: two child processes (bench/gateway-child.ts), each with its own DynamoDB Local in memory and the local gateway,
one with \`LIMITS_ENABLED=true\` and one with \`LIMITS_ENABLED=false\`; the same enterprise organization setup in both,
its own limits set beyond reach so that every request is counted and none refused. ${WARMUP} warm-up requests per route and
server, then per route ${ROUNDS} rounds of ${PER_ROUND} sequential requests on each server, alternating which goes first
(${ROUNDS * PER_ROUND} timed requests per route and server). Limiter calls are the DynamoDB calls on the limiter's partition
(\`LIMITS#<org>\`), counted by an SDK middleware in the server. A read costs one UpdateItem (the counts of the minute,
hour and month windows); an answering request one UpdateItem on entry (the same plus the message windows and the
lease) and one on exit (the lease given back). The burst: ${BURST} sequential reads for an organization allowed 5 requests a
minute; once this container has seen the minute full, a refusal needs no call (a count never drops within its window).
Both DynamoDB Local and the gateways share this machine: the overhead is one local round trip to a JVM, not a
deployed DynamoDB's (single-digit milliseconds in the same region).
`;
    return { figures, markdown };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
};
