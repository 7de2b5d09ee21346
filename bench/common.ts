// Shared pieces of the benchmark (bench/run.ts): the project's Node binary, child processes that
// report over IPC, simple statistics, and the figure type every measurement returns.
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** The Node the project pins (the `node` devDependency), not whatever `node` is on the PATH. */
export const nodeBin = resolve(root, 'node_modules/.bin/node');

/** `node_modules/.bin` first, so tools started from the bench (serverless, esbuild) use that Node too. */
export const projectPath = (): string => `${resolve(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`;

/** Starts `bench/<script>` in a fresh process of the project's Node, with an IPC channel. */
export const forkBench = (script: string, env: NodeJS.ProcessEnv = process.env): ChildProcess =>
  fork(resolve(root, 'bench', script), [], {
    cwd: root,
    execPath: nodeBin,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

/** The next IPC message of `child`, or an error when it exits first. */
export const nextMessage = <T>(child: ChildProcess): Promise<T> =>
  new Promise((resolveMessage, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`benchmark child exited (code ${code}) before reporting`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolveMessage(message as T);
    });
  });

export const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
    child.once('exit', (code) => done(code));
  });

/** Sends `message` to `child` and returns the child's next message. */
export const askChild = <T>(child: ChildProcess, message: unknown): Promise<T> => {
  const reply = nextMessage<T>(child);
  child.send(message as Parameters<ChildProcess['send']>[0]);
  return reply;
};

/**
 * Stops a server child: `{ type: 'stop' }` over IPC (with `disconnect`, the IPC channel closed
 * instead), then waits for it to exit, killing it after 10 s.
 */
export const stopChild = async (child: ChildProcess, how: 'stop' | 'disconnect' = 'stop'): Promise<void> => {
  if (child.connected) {
    if (how === 'stop') child.send({ type: 'stop' });
    else child.disconnect();
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited(child);
  clearTimeout(timer);
};

/** Starts a server child (`bench/<script>`) and waits for its `ready` message; stops it when that fails. */
export const startServerChild = async <M extends { type: string }>(
  script: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; ready: Extract<M, { type: 'ready' }> }> => {
  const child = forkBench(script, env);
  try {
    const ready = await nextMessage<M>(child);
    if (ready.type !== 'ready') throw new Error(`unexpected message ${ready.type}`);
    return { child, ready: ready as Extract<M, { type: 'ready' }> };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
};

/** Runs a child that sends one result message and exits. */
export const runBenchChild = async <T>(script: string, env?: NodeJS.ProcessEnv): Promise<T> => {
  const child = forkBench(script, env);
  const result = await nextMessage<T>(child);
  const code = await exited(child);
  if (code !== 0) throw new Error(`bench/${script} exited with code ${code}`);
  return result;
};

// ---- Statistics ----------------------------------------------------------------------------

const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** Nearest-rank percentile (p in 0..100). */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = ascending(values);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
};

export const median = (values: readonly number[]): number => {
  const sorted = ascending(values);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

// ---- Figures -------------------------------------------------------------------------------

/** One figure: shown on stdout as it is measured and in the summary of BENCHMARKS.md. Figures
 *  without a target (`pass` undefined) are reported only. */
export interface Figure {
  name: string;
  measured: string;
  target: string;
  pass?: boolean;
}

export const verdict = (pass: boolean | undefined): string =>
  pass === undefined ? 'n/a' : pass ? 'PASS' : 'FAIL';

export const printFigure = (figure: Figure): void => {
  console.log(
    `  ${figure.name.padEnd(44)} ${figure.measured.padEnd(46)} target ${figure.target.padEnd(12)} ${verdict(figure.pass)}`,
  );
};

/** A measurement's part of the report: its checked figures and its Markdown section. */
export interface Section {
  figures: Figure[];
  markdown: string;
  /** Numbers a later figure of the same run compares with (e.g. `extrasP50Ms`, `chatP50Ms`). */
  values?: Record<string, number>;
}

export const fixed = (value: number, digits = 1): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const bytes = (value: number): string => `${value.toLocaleString('en-US')} B`;

export const kb = (value: number): string => `${fixed(value / 1000, 1)} KB`;

/** A Markdown table from a header row and body rows. */
export const table = (header: string[], rows: string[][]): string =>
  [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
