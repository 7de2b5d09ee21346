// npm run bench:versus -- <other checkout> [--rounds 3] [--tolerance 5] [--only a,g,i,c] [--cold-runs 15]
//
// The figures a restructuring could move, for two checkouts side by side: A is the other checkout
// (with its own node_modules), B this one. Every measurement runs in a fresh child process of the
// checkout it measures (its node_modules/.bin/node, its directory as working directory, its own
// code), and the two checkouts take turns (A, B, then B, A in the next round, …), so that the
// load of a shared machine falls on both alike. Per figure it prints A's and B's median over the
// rounds, the ratio B / A and whether that is within the tolerance, for wall-clock time and for
// CPU time (user + system of the child), which other work on the machine inflates far less.
//   (a) middleware-chain overhead per request: the checkout's bench/chain-child.ts
//   (g) SQL guard + rewrite per corpus query, PostgreSQL and MySQL: bench/versus-child.ts guard
//   (i) builtin engine per question, demo and 50-table schema: bench/versus-child.ts builtin
//   (c) cold import of the answering functions: each checkout packaged
//       (serverless package --stage prod, with the settings CI packages with), then
//       bench/cold-compare.ts on both packages
// A checkout without bench/versus-child.ts, or whose bench/chain-child.ts does not report CPU
// time, gets this checkout's copy in a temporary folder inside it (removed at the end); the copy
// times that checkout's own modules. Nothing else in the other checkout is written to.
import { type ChildProcess, execFile, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { demoQuestions } from './builtin.ts';
import type { ChainResult } from './chain-child.ts';
import { type ColdComparison, compareCold, DEFAULT_FUNCTIONS } from './cold-compare.ts';
import { exited, fixed, median, nextMessage, percentile, root, table } from './common.ts';
import type { Timing, VersusChildResult, VersusInput } from './versus-child.ts';

const run = promisify(execFile);

const usage =
  'usage: npm run bench:versus -- <other checkout> [--rounds 3] [--tolerance 5] [--only a,g,i,c] [--cold-runs 15] [--guard-passes 20] [--builtin-rounds 30]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    tolerance: { type: 'string', default: '5' },
    only: { type: 'string', default: 'a,g,i,c' },
    'cold-runs': { type: 'string', default: '15' },
    'guard-passes': { type: 'string', default: '20' },
    'builtin-rounds': { type: 'string', default: '30' },
  },
});
if (positionals.length !== 1) throw new Error(usage);
const rounds = Number(values.rounds);
const tolerance = Number(values.tolerance) / 100;
const only = new Set(values.only.split(','));
const coldRuns = Number(values['cold-runs']);

interface Checkout {
  label: 'A' | 'B';
  dir: string;
  node: string;
  /** The child entries this checkout runs: its own, or copies in `scratch`. */
  chainChild: string;
  /** This checkout's own chain child, when `chainChild` is a copy that could not run there. */
  ownChainChild?: string;
  versusChild: string;
  scratch?: string;
}

const checkoutOf = (label: 'A' | 'B', dir: string): Checkout => {
  const node = join(dir, 'node_modules/.bin/node');
  if (!existsSync(node)) throw new Error(`${dir} has no node_modules/.bin/node (npm ci there first)`);
  return {
    label,
    dir,
    node,
    chainChild: join(dir, 'bench/chain-child.ts'),
    versusChild: join(dir, 'bench/versus-child.ts'),
  };
};

/** A folder at the depth of bench/, so the copies' `../` imports reach the checkout's own files. */
const scratchOf = (checkout: Checkout): string => {
  checkout.scratch ??= join(checkout.dir, `.versus-${randomBytes(4).toString('hex')}`);
  mkdirSync(checkout.scratch, { recursive: true });
  return checkout.scratch;
};

/** Copies this checkout's child entries into a checkout that lacks them (or a chain child without CPU time). */
const provideChildren = (checkout: Checkout): void => {
  if (!existsSync(checkout.versusChild)) {
    checkout.versusChild = join(scratchOf(checkout), 'versus-child.ts');
    copyFileSync(join(root, 'bench/versus-child.ts'), checkout.versusChild);
  }
  if (!readFileSync(checkout.chainChild, 'utf8').includes('fullCpuUs')) {
    checkout.ownChainChild = checkout.chainChild;
    checkout.chainChild = join(scratchOf(checkout), 'chain-child.ts');
    copyFileSync(join(root, 'bench/chain-child.ts'), checkout.chainChild);
  }
};

const children = new Set<ChildProcess>();

/** Runs `script` in a fresh process of `checkout`'s Node, in its directory; returns its one IPC message. */
const runChild = async <T>(checkout: Checkout, script: string, args: string[] = [], env = {}): Promise<T> => {
  const child = fork(script, args, {
    cwd: checkout.dir,
    execPath: checkout.node,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  try {
    const message = await nextMessage<T>(child);
    const code = await exited(child);
    if (code !== 0) throw new Error(`${script} exited with code ${code}`);
    return message;
  } finally {
    clearTimeout(timer);
    children.delete(child);
  }
};

// ---- Figures -------------------------------------------------------------------------------

/** One figure's value per round, per checkout: wall clock and (where measured) CPU. */
interface Series {
  name: string;
  unit: 'µs' | 'ms';
  wall: Record<'A' | 'B', number[]>;
  cpu: Record<'A' | 'B', number[]>;
  notes: Set<string>;
}

const series = new Map<string, Series>();
const record = (name: string, unit: Series['unit'], label: 'A' | 'B', wall: number, cpu?: number): void => {
  const entry = series.get(name) ?? {
    name,
    unit,
    wall: { A: [], B: [] },
    cpu: { A: [], B: [] },
    notes: new Set<string>(),
  };
  series.set(name, entry);
  entry.wall[label].push(wall);
  if (cpu !== undefined && Number.isFinite(cpu)) entry.cpu[label].push(cpu);
};
const note = (name: string, text: string) => series.get(name)?.notes.add(text);

const measureChain = async (checkout: Checkout): Promise<string> => {
  let result: ChainResult;
  try {
    result = await runChild<ChainResult>(checkout, checkout.chainChild);
  } catch (error) {
    if (!checkout.ownChainChild) throw error;
    // The copy imports paths this checkout does not have: its own chain child, wall clock only.
    console.log(
      `  ${checkout.label}: the copied chain child failed (${(error as Error).message}); its own instead`,
    );
    checkout.chainChild = checkout.ownChainChild;
    delete checkout.ownChainChild;
    result = await runChild<ChainResult>(checkout, checkout.chainChild);
  }
  const overhead = median(result.fullUs) - median(result.bareUs);
  const cpuOverhead = result.fullCpuUs ? median(result.fullCpuUs) - median(result.bareCpuUs) : undefined;
  const full = median(result.fullUs);
  record('(a) middleware-chain overhead per request', 'µs', checkout.label, overhead, cpuOverhead);
  record(
    '(a) full chain per request',
    'µs',
    checkout.label,
    full,
    result.fullCpuUs && median(result.fullCpuUs),
  );
  return `(a) +${fixed(overhead)} µs`;
};

const recordTiming = (name: string, label: 'A' | 'B', timing: Timing): void => {
  record(name, 'ms', label, timing.wallP50, timing.cpuP50);
  if (timing.refused > 0)
    note(name, `${label} refused ${timing.refused} of the queries (timed all the same)`);
};

const measureGuard = async (checkout: Checkout, env: Record<string, string>): Promise<string> => {
  const result = await runChild<VersusChildResult>(checkout, checkout.versusChild, ['guard'], env);
  if (result.group !== 'guard') throw new Error('unexpected reply');
  recordTiming('(g) SQL guard + rewrite p50, PostgreSQL corpus', checkout.label, result.postgres);
  recordTiming('(g) SQL guard + rewrite p50, MySQL corpus', checkout.label, result.mysql);
  return `(g) ${fixed(result.postgres.wallP50, 3)} / ${fixed(result.mysql.wallP50, 3)} ms`;
};

const measureBuiltin = async (checkout: Checkout, env: Record<string, string>): Promise<string> => {
  const result = await runChild<VersusChildResult>(checkout, checkout.versusChild, ['builtin'], env);
  if (result.group !== 'builtin') throw new Error('unexpected reply');
  recordTiming('(i) builtin engine p50, demo schema', checkout.label, result.demo);
  recordTiming('(i) builtin engine p50, 50-table schema', checkout.label, result.wide);
  note(
    '(i) builtin engine p50, 50-table schema',
    `${checkout.label}: ${result.wide.calls / builtinRounds} questions`,
  );
  note(
    '(i) builtin engine p50, demo schema',
    `${checkout.label}: ${result.demo.sql} of ${result.demo.calls / builtinRounds} SQL`,
  );
  return `(i) ${fixed(result.demo.wallP50, 3)} / ${fixed(result.wide.wallP50, 3)} ms`;
};
const builtinRounds = Number(values['builtin-rounds']);

// ---- (c): packaging and cold import --------------------------------------------------------

/** `serverless package --stage prod` of `checkout` into a new folder, with the settings CI packages with (.ci/run). */
const packageCheckout = async (checkout: Checkout): Promise<string> => {
  const out = mkdtempSync(join(tmpdir(), `tabletalk-versus-${checkout.label}-`));
  const workFolders = join(checkout.dir, '.esbuild-runs');
  const hadWorkFolders = existsSync(workFolders);
  const workFolder = join('.esbuild-runs', `versus-${randomBytes(4).toString('hex')}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(checkout.dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    TABLETALK_JWT_ISSUER: 'https://portal.ci.example',
    TABLETALK_JWT_AUDIENCE: 'tabletalk:prod',
    TABLETALK_SECRETS_ARN: `arn:aws:secretsmanager:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:secret:tabletalk/prod/service-CiTest`,
    TABLETALK_ALARM_EMAIL: 'alarms@ci.example',
    // A build folder of its own (serverless.yml `outputWorkFolder`), removed afterwards.
    TABLETALK_ESBUILD_WORK_FOLDER: workFolder,
  };
  // Each checkout's default way of shipping the AWS SDK; no secrets of this machine in a package.
  for (const name of [
    'TABLETALK_AWS_SDK',
    'TABLETALK_JWT_SECRET',
    'TABLETALK_CURSOR_SECRET',
    'TABLETALK_EMBED_SESSION_SECRET',
    'TABLETALK_OPENAI_API_KEY',
    'TABLETALK_JWT_JWKS_URL',
  ])
    delete env[name];
  try {
    await run(
      join(checkout.dir, 'node_modules/.bin/serverless'),
      ['package', '--stage', 'prod', '--package', out],
      {
        cwd: checkout.dir,
        env,
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(join(checkout.dir, workFolder), { recursive: true, force: true });
    if (!hadWorkFolders && existsSync(workFolders) && readdirSync(workFolders).length === 0)
      rmSync(workFolders, { recursive: true, force: true });
  }
  return out;
};

const measureCold = async (checkouts: [Checkout, Checkout]): Promise<void> => {
  const packages: string[] = [];
  try {
    // Both at once: nothing is timed while packaging, and two builds get more of a busy machine.
    const started = performance.now();
    const built = await Promise.allSettled(checkouts.map((checkout) => packageCheckout(checkout)));
    for (const outcome of built) if (outcome.status === 'fulfilled') packages.push(outcome.value);
    for (const outcome of built) if (outcome.status === 'rejected') throw outcome.reason;
    console.log(`  both packaged (${fixed((performance.now() - started) / 1000, 0)} s)`);
    await compareCold({
      dirs: [packages[0]!, packages[1]!],
      runs: coldRuns,
      functions: DEFAULT_FUNCTIONS,
      checkouts: [checkouts[0].dir, checkouts[1].dir],
      onResult: ({ functionName, wall, cpu }: ColdComparison) => {
        const name = `(c) cold import, ${functionName}`;
        // Each fresh process is one sample: the medians are over the runs.
        for (const [index, label] of (['A', 'B'] as const).entries())
          for (const [run, value] of wall[index]!.entries())
            record(name, 'ms', label, value, cpu[index]![run]);
        console.log(`  ${name}: A ${fixed(median(wall[0]))} ms, B ${fixed(median(wall[1]))} ms`);
      },
    });
  } finally {
    for (const dir of packages) rmSync(dir, { recursive: true, force: true });
  }
};

// ---- Report --------------------------------------------------------------------------------

/** The middle half of a checkout's samples (nearest rank: the smallest and largest of three). */
const spread = (values: number[]): [number, number] => [percentile(values, 25), percentile(values, 75)];

/**
 * B / A of the medians against the tolerance. Outside it while the middle halves of A's and B's
 * samples overlap, the verdict carries a "?": the difference is within the noise of this run, and
 * more rounds tell.
 */
const verdictOf = (a: number[], b: number[]): string => {
  const ratio = median(b) / median(a);
  if (a.length === 0 || b.length === 0 || !Number.isFinite(ratio)) return '—';
  if (Math.abs(ratio - 1) <= tolerance) return 'within';
  const [aLow, aHigh] = spread(a);
  const [bLow, bHigh] = spread(b);
  const unsure = aLow <= bHigh && bLow <= aHigh ? '?' : '';
  return ratio > 1
    ? `SLOWER${unsure} (+${fixed((ratio - 1) * 100, 0)} %)`
    : `faster${unsure} (−${fixed((1 - ratio) * 100, 0)} %)`;
};

const report = (): string => {
  // µs and cold imports to a tenth; per-call milliseconds to the microsecond.
  const number = (value: number, unit: Series['unit']) => fixed(value, unit === 'µs' || value >= 10 ? 1 : 3);
  const cell = (values: number[], unit: Series['unit']) => {
    if (values.length === 0) return '—';
    const [low, high] = spread(values);
    return `${number(median(values), unit)} ${unit} (${number(low, unit)}–${number(high, unit)})`;
  };
  const ratio = (a: number[], b: number[]) =>
    a.length > 0 && b.length > 0 ? fixed(median(b) / median(a), 3) : '—';
  const rows = [...series.values()].map((entry) => [
    entry.name,
    cell(entry.wall.A, entry.unit),
    cell(entry.wall.B, entry.unit),
    ratio(entry.wall.A, entry.wall.B),
    verdictOf(entry.wall.A, entry.wall.B),
    cell(entry.cpu.A, entry.unit),
    cell(entry.cpu.B, entry.unit),
    ratio(entry.cpu.A, entry.cpu.B),
    verdictOf(entry.cpu.A, entry.cpu.B),
    `${entry.wall.A.length} / ${entry.wall.B.length}`,
  ]);
  return table(
    [
      'Figure',
      'A median (middle half)',
      'B median (middle half)',
      'B / A',
      `±${values.tolerance} %`,
      'CPU A',
      'CPU B',
      'CPU B / A',
      `CPU ±${values.tolerance} %`,
      'samples A / B',
    ],
    rows,
  );
};

// ---- Main ----------------------------------------------------------------------------------

const loadLine = () =>
  `load average ${loadavg()
    .map((value) => fixed(value, 2))
    .join(' / ')} (1 / 5 / 15 min)`;

const main = async (): Promise<void> => {
  const started = performance.now();
  const a = checkoutOf('A', resolve(positionals[0]!));
  const b = checkoutOf('B', root);
  if (a.dir === b.dir) throw new Error('the other checkout is this one');
  const checkouts: [Checkout, Checkout] = [a, b];
  const commit = async (dir: string) =>
    (
      await run('git', ['log', '-1', '--format=%h %s'], { cwd: dir }).catch(() => ({ stdout: '?' }))
    ).stdout.trim();
  console.log(`A = ${a.dir} (${await commit(a.dir)})`);
  console.log(`B = ${b.dir} (${await commit(b.dir)})`);
  console.log(`${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores; ${loadLine()}`);
  console.log(`${rounds} rounds, tolerance ±${values.tolerance} %, figures ${[...only].join(', ')}\n`);

  const inputDir = mkdtempSync(join(tmpdir(), 'tabletalk-versus-input-'));
  const cleanUp = () => {
    for (const child of children) child.kill('SIGKILL');
    for (const checkout of checkouts)
      if (checkout.scratch) rmSync(checkout.scratch, { recursive: true, force: true });
    rmSync(inputDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  try {
    for (const checkout of checkouts) provideChildren(checkout);
    // The same inputs for both: this checkout's corpora and demo questions.
    const lines = (file: string) =>
      readFileSync(join(root, 'tests/corpus', file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => (JSON.parse(line) as { sql: string }).sql);
    const input: VersusInput = {
      postgresQueries: lines('queries.jsonl'),
      mysqlQueries: lines('mysql-queries.jsonl').map((sql) => sql.replaceAll('{db}', 'shop')),
      demoQuestions,
      guardPasses: Number(values['guard-passes']),
      builtinRounds,
    };
    const inputFile = join(inputDir, 'input.json');
    writeFileSync(inputFile, JSON.stringify(input));
    const env = { TABLETALK_VERSUS_INPUT: inputFile };

    const groups: [string, (checkout: Checkout) => Promise<string>][] = [
      ['a', measureChain],
      ['g', (checkout) => measureGuard(checkout, env)],
      ['i', (checkout) => measureBuiltin(checkout, env)],
    ];
    const timedInRounds = groups.some(([key]) => only.has(key));
    for (let round = 0; timedInRounds && round < rounds; round++) {
      const roundStarted = performance.now();
      const order = round % 2 === 0 ? checkouts : ([b, a] as const);
      const line: string[] = [];
      for (const [key, measure] of groups) {
        if (!only.has(key)) continue;
        for (const checkout of order) line.push(`${checkout.label} ${await measure(checkout)}`);
      }
      console.log(
        `round ${round + 1}/${rounds} (${fixed((performance.now() - roundStarted) / 1000, 0)} s): ${line.join('; ')}`,
      );
    }
    if (only.has('c')) {
      console.log(`\n(c) packaging both checkouts, then ${coldRuns} cold imports each, interleaved…`);
      await measureCold(checkouts);
    }
  } finally {
    cleanUp();
  }

  console.log(
    `\nA = ${a.dir}, B = ${b.dir}; medians over the rounds (cold import: over the fresh processes)\n`,
  );
  console.log(report());
  for (const entry of series.values())
    if (entry.notes.size > 0) console.log(`  ${entry.name}: ${[...entry.notes].join('; ')}`);
  console.log(
    '\n(a): per process, the median round of the full chain minus that of the bare handler; (g), (i): per process, the p50 per call.\n' +
      'A verdict with "?": outside the tolerance, but the middle halves of A and B overlap (noise of this run; more rounds tell).',
  );
  console.log(`${loadLine()}; ${fixed((performance.now() - started) / 1000, 0)} s in all.`);
  if (loadavg()[0]! > availableParallelism())
    console.log(
      'The machine is busier than its cores: wall-clock time waits for them, read the CPU columns.',
    );
};

await main();
