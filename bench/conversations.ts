// Conversation history figures, measured over HTTP through a running gateway:
//   - list and history latency at page 1 and page 200 of the same scope (cursor pages must not
//     get slower the deeper they go: DynamoDB starts at the cursor's key, no offset is skipped);
//   - DynamoDB calls per warm request of list, history (scope and conversation) and append, with
//     the limiter's one UpdateItem per request counted apart;
//   - append throughput and p99 with 20 concurrent clients on ONE conversation (every append is
//     a transaction on the same conversation item, so this is the contended case).
// bench/run.ts wires it to its gateway; `node bench/conversations.ts` runs it on its own against
// a fresh in-memory DynamoDB Local and an in-process gateway.

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway } from '../local/gateway.ts';
import { createUnlimitedOrganization, startScratchStack } from '../local/scratch.ts';
import { LOCAL_STAGE } from '../local/stack.ts';
import { countDynamoDbCalls } from './call-counter.ts';
import {
  type Figure,
  fixed,
  median,
  nodeBin,
  percentile,
  printFigure,
  projectPath,
  root,
  type Section,
  table,
  verdict,
} from './common.ts';

export interface ConversationsBenchOptions {
  baseUrl: string;
  /** An sk_ key of an organization whose plan has custom_api_access. */
  skKey: string;
  /** DynamoDB calls so far, the limiter's included. */
  countDynamoCalls: () => number;
  /** The limiter's calls so far (its partition, lib/store/limit-counters.ts). */
  countLimiterCalls: () => number;
  resetDynamoCalls: () => void;
}

export interface BenchFigure {
  name: string;
  value: string;
  target?: string;
  pass?: boolean;
}

const PAGE_SIZE = 5;
const DEEP_PAGE = 200;
const REPETITIONS = 100;
/** Rounds run first and discarded: JIT and connection warm-up. */
const WARMUP_ROUNDS = 10;
const SEED_CONCURRENCY = 20;
const APPEND_CLIENTS = 20;
const APPEND_REQUESTS = 1_000;
const RATIO_TARGET = 1.2;

/** Runs `work(i)` for i in 0..count-1 with at most `concurrency` in flight. */
const pool = async (
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
};

export async function benchConversations(opts: ConversationsBenchOptions): Promise<BenchFigure[]> {
  const scopeId = `bench-${randomUUID()}`;
  const headers = { 'X-API-Key': opts.skKey, 'X-Scope-Id': scopeId };

  const send = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${opts.baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const append = (conversationId: string, content: string) =>
    send('POST', '/api/v1/chat/message', { conversation_id: conversationId, role: 'user', content });
  const timed = async (path: string): Promise<number> => {
    const started = performance.now();
    await send('GET', path);
    return performance.now() - started;
  };

  // Seed: one conversation per message, so both lists are DEEP_PAGE pages of PAGE_SIZE.
  const items = (DEEP_PAGE + 1) * PAGE_SIZE;
  await pool(items, SEED_CONCURRENCY, async (index) => {
    await append(randomUUID(), `Seeded question number ${index}`);
  });

  // The cursor of page DEEP_PAGE of each list, by walking there.
  const cursorOfPage = async (
    path: string,
    key: 'conversations' | 'messages',
    page: number,
  ): Promise<string> => {
    let cursor = '';
    for (let current = 1; current < page; current += 1) {
      const { data } = (await send('GET', `${path}${cursor ? `&cursor=${cursor}` : ''}`)) as {
        data: Record<string, unknown> & { cursor?: string };
      };
      if (!data.cursor) throw new Error(`${path}: only ${current} pages of ${key}`);
      cursor = data.cursor;
    }
    return cursor;
  };
  const listPath = `/api/v1/chat/conversations?limit=${PAGE_SIZE}`;
  const historyPath = `/api/v1/chat/history?limit=${PAGE_SIZE}`;
  const deepList = await cursorOfPage(listPath, 'conversations', DEEP_PAGE);
  const deepHistory = await cursorOfPage(historyPath, 'messages', DEEP_PAGE);
  const secondList = await cursorOfPage(listPath, 'conversations', 2);
  const secondHistory = await cursorOfPage(historyPath, 'messages', 2);

  // Page 1 and page DEEP_PAGE, alternating so drift affects both alike.
  const latency = {
    list1: [] as number[],
    list2: [] as number[],
    listDeep: [] as number[],
    history1: [] as number[],
    history2: [] as number[],
    historyDeep: [] as number[],
  };
  for (let rep = 0; rep < WARMUP_ROUNDS; rep += 1) {
    for (const path of [listPath, historyPath]) await timed(path);
    await timed(`${listPath}&cursor=${deepList}`);
    await timed(`${historyPath}&cursor=${deepHistory}`);
  }
  for (let rep = 0; rep < REPETITIONS; rep += 1) {
    latency.listDeep.push(await timed(`${listPath}&cursor=${deepList}`));
    latency.list2.push(await timed(`${listPath}&cursor=${secondList}`));
    latency.list1.push(await timed(listPath));
    latency.historyDeep.push(await timed(`${historyPath}&cursor=${deepHistory}`));
    latency.history2.push(await timed(`${historyPath}&cursor=${secondHistory}`));
    latency.history1.push(await timed(historyPath));
  }

  // DynamoDB calls of one warm request (the key and organization are cached after the first).
  const conversationId = randomUUID();
  await append(conversationId, 'A conversation to read and append to');
  const callsOf = async (request: () => Promise<unknown>): Promise<{ own: number; limiter: number }> => {
    await request();
    opts.resetDynamoCalls();
    await request();
    const limiter = opts.countLimiterCalls();
    return { own: opts.countDynamoCalls() - limiter, limiter };
  };
  const calls = {
    list: await callsOf(() => send('GET', listPath)),
    history: await callsOf(() => send('GET', historyPath)),
    conversationMessages: await callsOf(() =>
      send('GET', `/api/v1/chat/history?limit=${PAGE_SIZE}&conversation_id=${conversationId}`),
    ),
    append: await callsOf(() => append(conversationId, 'one more')),
  };

  // Appends to one conversation from APPEND_CLIENTS concurrent clients.
  const contended = randomUUID();
  await append(contended, 'start');
  const appendLatencies: number[] = [];
  const started = performance.now();
  await pool(APPEND_REQUESTS, APPEND_CLIENTS, async (index) => {
    const begun = performance.now();
    await append(contended, `message ${index}`);
    appendLatencies.push(performance.now() - begun);
  });
  const seconds = (performance.now() - started) / 1000;
  // The conversation's count, kept in the same transaction as each message (GET /chat/{id}/history
  // returns only the latest 1,000 messages).
  const { data: listed } = (await send('GET', '/api/v1/chat/conversations?limit=1')) as {
    data: { conversations: { id: string; messageCount: number }[] };
  };
  const stored = (listed.conversations.find((c) => c.id === contended)?.messageCount ?? 0) - 1;

  const ms = (values: number[]) => `${fixed(median(values), 2)} ms`;
  const ratio = (deep: number[], first: number[]) => median(deep) / median(first);
  const listRatio = ratio(latency.listDeep, latency.list1);
  const historyRatio = ratio(latency.historyDeep, latency.history1);
  // One call of the endpoint's own, plus the limiter's one UpdateItem (docs/limits.md).
  const exactlyOne = ({ own, limiter }: { own: number; limiter: number }) => ({
    value: `${own} (+ ${limiter} limiter)`,
    target: '= 1 (+ ≤ 1 limiter)',
    pass: own === 1 && limiter <= 1,
  });
  return [
    { name: 'list p50, page 1', value: ms(latency.list1) },
    { name: 'list p50, page 2', value: ms(latency.list2) },
    { name: `list p50, page ${DEEP_PAGE}`, value: ms(latency.listDeep) },
    {
      name: `list p50 page ${DEEP_PAGE} / page 1`,
      value: `×${fixed(listRatio, 2)}`,
      target: `≤ ${RATIO_TARGET}`,
      pass: listRatio <= RATIO_TARGET,
    },
    { name: 'history p50, page 1', value: ms(latency.history1) },
    { name: 'history p50, page 2', value: ms(latency.history2) },
    { name: `history p50, page ${DEEP_PAGE}`, value: ms(latency.historyDeep) },
    {
      name: `history p50 page ${DEEP_PAGE} / page 1`,
      value: `×${fixed(historyRatio, 2)}`,
      target: `≤ ${RATIO_TARGET}`,
      pass: historyRatio <= RATIO_TARGET,
    },
    { name: 'DynamoDB calls per warm list request', ...exactlyOne(calls.list) },
    { name: 'DynamoDB calls per warm scope history request', ...exactlyOne(calls.history) },
    {
      name: 'DynamoDB calls per warm conversation history request',
      ...exactlyOne(calls.conversationMessages),
    },
    { name: 'DynamoDB calls per warm append (1 transaction)', ...exactlyOne(calls.append) },
    {
      name: `append throughput, ${APPEND_CLIENTS} clients, one conversation`,
      value: `${fixed(APPEND_REQUESTS / seconds, 0)} req/s (${APPEND_REQUESTS} appends, ${stored} stored)`,
      target: `all ${APPEND_REQUESTS} stored`,
      pass: stored === APPEND_REQUESTS,
    },
    {
      name: `append p99, ${APPEND_CLIENTS} clients, one conversation`,
      value: `${fixed(percentile(appendLatencies, 99), 1)} ms`,
    },
    {
      name: `append p50, ${APPEND_CLIENTS} clients, one conversation`,
      value: `${fixed(percentile(appendLatencies, 50), 1)} ms`,
    },
  ];
}

// ---- On its own: node bench/conversations.ts ------------------------------------------------

const runAlone = async (): Promise<void> => {
  // The stack's environment keeps LOG_LEVEL as the functions' log level.
  process.env.LOG_LEVEL = 'SILENT';
  const { dynamodb, routes } = await startScratchStack('tabletalk-bench-conversations');
  let gateway: { url: string; close(): Promise<void> } | undefined;
  try {
    // Thousands of requests in a few minutes: limits beyond reach, so the limiter counts every
    // request and refuses none.
    const { apiKey } = await createUnlimitedOrganization('Bench');
    const count = countDynamoDbCalls();
    gateway = await startGateway({ root, routes, stage: LOCAL_STAGE });
    const figures = await benchConversations({
      baseUrl: gateway.url,
      skKey: apiKey,
      countDynamoCalls: () => count.calls,
      countLimiterCalls: () => count.limiterCalls,
      resetDynamoCalls: () => {
        count.calls = 0;
        count.limiterCalls = 0;
      },
    });
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(figures));
    } else {
      for (const figure of figures) printFigure(asFigure(figure));
    }
  } finally {
    await gateway?.close();
    await dynamodb.stop();
  }
};

const asFigure = (figure: BenchFigure): Figure => ({
  name: figure.name,
  measured: figure.value,
  target: figure.target ?? '— (reported)',
  ...(figure.pass === undefined ? {} : { pass: figure.pass }),
});

/** Section (e) of npm run bench: this file on its own in a fresh process, figures over stdout. */
export const measureConversations = async (): Promise<Section> => {
  const { stdout } = await promisify(execFile)(nodeBin, [join(root, 'bench/conversations.ts'), '--json'], {
    cwd: root,
    env: { ...process.env, PATH: projectPath() },
    maxBuffer: 16 * 1024 * 1024,
  });
  const figures = (JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as BenchFigure[]).map(asFigure);
  for (const figure of figures) printFigure(figure);
  return {
    figures: figures.map((figure) => ({ ...figure, name: `(e) ${figure.name}` })),
    markdown: `## (e) Conversations: cursor pages, DynamoDB calls, contended appends

${table(
  ['Figure', 'Measured', 'Target', 'Result'],
  figures.map((figure) => [figure.name, figure.measured, figure.target, verdict(figure.pass)]),
)}

Method: a fresh process with DynamoDB Local in memory and the local gateway in-process (bench/conversations.ts).
One enterprise organization (its own limits beyond reach: the limiter counts every request, its one UpdateItem per
request shown apart as "+ 1 limiter"); one scope seeded with ${DEEP_PAGE} pages × ${PAGE_SIZE} conversations/messages; page 1 and
page ${DEEP_PAGE} (reached by following cursors) are each timed over ${REPETITIONS} interleaved repetitions over HTTP after ${WARMUP_ROUNDS} warm-up rounds (p50, ratio deep/first).
DynamoDB calls are counted by an SDK middleware on the shared document client, per warm request. Appends: ${APPEND_CLIENTS}
concurrent clients, ${APPEND_REQUESTS} appends in all to one conversation (every append one transaction on that item).
DynamoDB Local runs transactions one at a time, so contention here is queueing, not conflicts.
`,
  };
};

if (import.meta.main) await runAlone();
