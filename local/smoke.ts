// npm run smoke: the quick start as a new user meets it, checked end to end. Starts `npm start`
// exactly as the README says, with an environment that holds nothing but PATH and HOME (no AWS
// variables), waits for it, and then, with what it printed: branding with the printed sk_ key, the
// printed question (a `sql` answer), "revenue per category", the demo page `/` and `/widget.js`,
// the printed `admin sql check` line, docs/control-plane.md's walk-through (steps 3 to 7, as
// the page writes them) after the printed `export API=… AUTH=… DATABASE_ID=…` line alone, and
// the printed question through the typed client (clients/typescript). With --offline it also
// starts `npm run offline` beside it and asks serverless-offline the same of every buffered route: branding, the conversation
// list, an append, history, and a question to the demo database. Any failure prints the stacks'
// output and exits 1; both stacks are stopped either way.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '../clients/typescript/src/index.ts';
import { root } from './stack.ts';

const { values: flags } = parseArgs({
  options: {
    offline: { type: 'boolean', default: false },
    'timeout-s': { type: 'string', default: '240' },
  },
});
const timeoutMs = Number(flags['timeout-s']) * 1000;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

interface Started {
  name: string;
  child: ChildProcess;
  output: () => string;
}

/** A command in its own process group, with only PATH, HOME and `extra` in its environment. */
const startClean = (name: string, args: string[], extra: Record<string, string>): Started => {
  let output = '';
  const child = spawn('npm', args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra },
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return { name, child, output: () => output };
};

const stop = async (started: Started | undefined): Promise<void> => {
  if (!started?.child.pid || started.child.exitCode !== null) return;
  const group = -started.child.pid;
  try {
    process.kill(group, 'SIGINT');
  } catch {
    return;
  }
  const exited = once(started.child, 'exit');
  const timer = setTimeout(() => {
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
};

/** Waits until `ready` matches the output; fails when the process exits first or time runs out. */
const waitFor = async (started: Started, ready: RegExp): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!ready.test(started.output())) {
    if (started.child.exitCode !== null)
      throw new Error(`${started.name} exited (code ${started.child.exitCode})`);
    if (Date.now() > deadline) throw new Error(`${started.name} was not ready after ${timeoutMs / 1000} s`);
    await new Promise((done) => setTimeout(done, 250));
  }
};

const printed = (output: string, pattern: RegExp, what: string): string => {
  const match = pattern.exec(output);
  if (!match?.[1]) throw new Error(`npm start did not print ${what}`);
  return match[1];
};

const check = (condition: unknown, message: string): void => {
  if (!condition) throw new Error(message);
};

const request = async (
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; type: string; text: string; body: Record<string, unknown> }> => {
  const { json, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...rest.headers },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, body };
};

const step = (name: string) => console.log(`  ✓ ${name}`);

interface Demo {
  skKey: string;
  databaseId: string;
  question: string;
}

/** A question to the demo database as tenant 1 must come back as a `sql` answer with rows. */
const ask = async (api: string, demo: Demo, message: string, where: string): Promise<void> => {
  const answer = await request(`${api}/chat/message`, {
    method: 'POST',
    headers: { 'X-API-Key': demo.skKey, 'X-Tenant-Id': '1' },
    json: { message, database_id: demo.databaseId },
  });
  const data = answer.body.data as { query_type?: string; row_count?: number } | undefined;
  check(
    answer.status === 200 && data?.query_type === 'sql' && (data.row_count ?? 0) > 0,
    `${where}: "${message}" answered ${answer.status}: ${answer.text.slice(0, 300)}`,
  );
  step(`${where}: "${message}" → sql, ${data?.row_count} row(s)`);
};

/** The buffered routes with the demo keys: branding, list, append, history, a question. */
const bufferedRoutes = async (api: string, demo: Demo, where: string): Promise<void> => {
  const key = { 'X-API-Key': demo.skKey };
  const branding = await request(`${api}/branding`, { headers: key });
  check(
    branding.status === 200 && branding.body.success === true,
    `${where}: branding answered ${branding.status}`,
  );
  step(`${where}: GET /branding with the printed sk_ key → 200`);

  const scope = { ...key, 'X-Scope-Id': `smoke-${Date.now()}` };
  const conversationId = crypto.randomUUID();
  const appended = await request(`${api}/chat/message`, {
    method: 'POST',
    headers: scope,
    json: { conversation_id: conversationId, role: 'user', content: 'Hello from the smoke check' },
  });
  check(
    appended.status === 201,
    `${where}: append answered ${appended.status}: ${appended.text.slice(0, 300)}`,
  );
  step(`${where}: POST /chat/message (append) → 201`);

  const list = await request(`${api}/chat/conversations`, { headers: scope });
  const listed = (list.body.data as { conversations?: { id?: string }[] } | undefined)?.conversations ?? [];
  check(
    list.status === 200 && listed.some((c) => c.id === conversationId),
    `${where}: conversations answered ${list.status}: ${list.text.slice(0, 300)}`,
  );
  step(`${where}: GET /chat/conversations → 200, the appended conversation listed`);

  const history = await request(`${api}/chat/history?conversation_id=${conversationId}`, { headers: scope });
  check(
    history.status === 200,
    `${where}: history answered ${history.status}: ${history.text.slice(0, 300)}`,
  );
  step(`${where}: GET /chat/history → 200`);

  await ask(api, demo, demo.question, where);
};

/** Runs a shell script with only PATH and HOME in its environment; its stdout and exit code. */
const shell = async (script: string): Promise<{ code: number | null; out: string; err: string }> => {
  const child = spawn('sh', ['-c', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
};

/**
 * docs/control-plane.md's walk-through, its steps 3 to 7 as the page writes them, after the
 * `export API=… AUTH=… DATABASE_ID=…` line npm start printed and nothing else: each curl answers
 * success, except step 6's pk_ key, which the demo database (filtered by tenant) refuses.
 */
const controlPlaneWalkThrough = async (output: string): Promise<void> => {
  const exported = printed(output, /\n\s*(export API=[^\n]+)/, 'the control-plane export line');
  const page = readFileSync(join(root, 'docs/control-plane.md'), 'utf8');
  const section = page.slice(page.indexOf('## Walk-through'));
  const block = /```sh\n(API=[\s\S]*?)```/.exec(section)?.[1];
  check(block, 'docs/control-plane.md has no walk-through block');
  const steps = new Map<number, string>();
  const markers = [...(block ?? '').matchAll(/^# (\d)\. /gm)];
  markers.forEach((marker, index) => {
    steps.set(Number(marker[1]), (block ?? '').slice(marker.index, markers[index + 1]?.index));
  });
  for (const number of [3, 4, 5, 6, 7]) {
    const text = steps.get(number);
    check(text, `docs/control-plane.md's walk-through has no step ${number}`);
    const calls = (text?.match(/^curl /gm) ?? []).length;
    const { code, out, err } = await shell(`${exported}\n${text}`);
    const answered = `step ${number} exited ${code}: ${out.slice(0, 400)} ${err.slice(0, 200)}`;
    check(code === 0 && calls > 0, answered);
    if (number === 6) {
      check(/"success":false/.test(out) && out.includes('EMBED_SESSION_REQUIRED'), answered);
      step(
        'control plane: walk-through step 6 (a pk_ key for the tenant-filtered demo) → refused, EMBED_SESSION_REQUIRED',
      );
      continue;
    }
    const successes = (out.match(/"success":true/g) ?? []).length;
    check(successes === calls && !/"success":false/.test(out), answered);
    if (number === 3) check(out.includes(`"id":"${/DATABASE_ID=(\S+)/.exec(exported)?.[1]}"`), answered);
    step(`control plane: walk-through step ${number} from the printed line → ${calls} × success`);
  }
};

/** The typed client (clients/typescript), given the printed key once: the printed question. */
const typedClientCall = async (base: string, demo: Demo): Promise<void> => {
  const client = createClient({
    baseUrl: base,
    apiKey: demo.skKey,
    scope: `smoke-${Date.now()}`,
    tenant: '1',
  });
  const answer = await client.sendMessage({ message: demo.question, database_id: demo.databaseId });
  check(
    answer.ok && answer.data.data.query_type === 'sql',
    `the typed client's sendMessage: ${JSON.stringify(answer.ok ? answer.data : answer.error).slice(0, 300)}`,
  );
  step(`npm start: the typed client (clients/typescript) sendMessage → ${answer.status}, sql`);
};

let stack: Started | undefined;
let offline: Started | undefined;
let failed = false;
try {
  const port = await freePort();
  const dynamodbPort = await freePort();
  console.log(`Starting npm start on port ${port} with only PATH and HOME in its environment…`);
  stack = startClean('npm start', ['start'], { PORT: String(port), DYNAMODB_PORT: String(dynamodbPort) });
  await waitFor(stack, /Press Ctrl-C to stop/);
  const output = stack.output();
  const base = printed(output, /tabletalk is running at (http:\/\/\S+)\/api\/v1/, 'its URL');
  const api = `${base}/api/v1`;
  const demo: Demo = {
    skKey: printed(output, /Organization key\s+(sk_[A-Za-z0-9_-]+)/, 'the sk_ key'),
    databaseId: printed(output, /Demo database\s+([0-9a-f-]{36})/, 'the demo database id'),
    question: printed(output, /"message": "([^"]+)"/, 'a question'),
  };

  await bufferedRoutes(api, demo, 'npm start');
  await ask(api, demo, 'revenue per category', 'npm start');

  const page = await request(`${base}/`);
  check(page.status === 200 && page.type.includes('text/html'), `/ answered ${page.status} ${page.type}`);
  const widget = await request(`${base}/widget.js`);
  check(
    widget.status === 200 && widget.type.includes('javascript') && widget.text.length > 1000,
    `/widget.js answered ${widget.status} ${widget.type}`,
  );
  step('npm start: the demo page / and /widget.js → 200');
  // The demo database filters rows by tenant: the page holds no key and gets an embed session.
  check(!/\b(?:sk|pk)_[A-Za-z0-9_-]{20,}/.test(page.text), 'the demo page contains an API key');
  const session = await request(`${base}/demo/session`, { method: 'POST' });
  const token = (session.body.data as { token?: string } | undefined)?.token;
  check(session.status === 201 && token?.startsWith('et_'), `/demo/session answered ${session.status}`);
  step('npm start: the demo page holds no key; POST /demo/session → 201 with an et_ token');

  // The printed admin line, as printed (its backslash continuations joined).
  const adminLine = printed(
    output,
    /\n\s*(npm run --silent admin -- sql check(?:[^\n]*\\\n)*[^\n]*)/,
    'an admin line',
  )
    .replace(/\\\n\s*/g, ' ')
    .trim();
  const admin = spawn('sh', ['-c', adminLine], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  let adminOut = '';
  let adminErr = '';
  admin.stdout.on('data', (chunk: Buffer) => {
    adminOut += chunk.toString('utf8');
  });
  admin.stderr.on('data', (chunk: Buffer) => {
    adminErr += chunk.toString('utf8');
  });
  const [adminCode] = (await once(admin, 'exit')) as [number | null];
  let checked: { allowed?: boolean; rows?: unknown[] } = {};
  try {
    checked = JSON.parse(adminOut.trim().split('\n').at(-1) ?? '{}') as typeof checked;
  } catch {}
  check(
    adminCode === 0 && checked.allowed === true && (checked.rows?.length ?? 0) > 0,
    `the printed admin line exited ${adminCode}: ${adminOut.slice(0, 300)} ${adminErr.slice(0, 300)}`,
  );
  step(`npm start: the printed admin sql check line → allowed, ${checked.rows?.length} row(s)`);

  await controlPlaneWalkThrough(output);
  await typedClientCall(base, demo);

  if (flags.offline) {
    const offlinePort = await freePort();
    // serverless-offline's own Lambda port too, so that two smoke runs on one machine do not meet.
    const lambdaPort = await freePort();
    console.log(`Starting npm run offline on port ${offlinePort} beside it…`);
    offline = startClean('npm run offline', ['run', 'offline'], {
      OFFLINE_PORT: String(offlinePort),
      OFFLINE_LAMBDA_PORT: String(lambdaPort),
    });
    // "listening on" is also printed for the Lambda port before the HTTP server is up.
    await waitFor(offline, /Server ready/);
    await bufferedRoutes(`http://127.0.0.1:${offlinePort}/api/v1`, demo, 'npm run offline');
  }
  console.log('Smoke check passed.');
} catch (error) {
  failed = true;
  console.error(`\nSmoke check FAILED: ${(error as Error).message}`);
  for (const started of [stack, offline]) {
    if (started) console.error(`\n---- output of ${started.name} ----\n${started.output().slice(-6000)}`);
  }
} finally {
  await stop(offline);
  await stop(stack);
}
process.exitCode = failed ? 1 : 0;
