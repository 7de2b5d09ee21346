// The embedded demo engine: PostgreSQL in-process with PGlite, `memory:` plus a seed SQL file
// (docs/design.md "Operating it": every process builds its own in-memory copy from the seed).
//
// Worker lifecycle: the database lives in one child process (pglite-worker.ts), started on first
// use. Requests are queued and sent one at a time; the statement timeout runs from the moment a
// request is handed to the worker, and when it fires the worker is killed (PGlite has no working
// statement_timeout) and a replacement is started at once, re-seeded, for the queued and the
// next requests. The worker holds the event loop open only while a request is pending, so an
// idle connector never keeps a CLI process alive.
//
// A process, not a worker thread: cutting a query means stopping WebAssembly mid-run, and
// terminating a thread that runs WebAssembly while a new thread starts can crash the whole
// process with SIGSEGV (docs/design.md "Execution"). A
// killed process takes nothing of ours with it.
//
// Packaging: the worker is a module file of its own. In a packaged function (serverless package,
// npm run offline) it is `pglite-worker.mjs`, bundled with PGlite's .wasm and .data files beside
// the chunk that holds this connector (infra/esbuild-plugins.cjs). A stage that serves the demo
// (`embeddedDatabaseSeeds` in serverless.yml) also carries those seed files in a `seeds/` folder
// beside it: a record naming a seed file this machine does not have (the checkout path
// `npm start` or `admin database add --seed` recorded) reads the one of the same name from there
// (`seedPath`). A stage without seeds carries no PGlite at all (pglite-absent.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settings } from '#lib/config.ts';
import { ConnectTimeout, QueryTimeout, redactorFor, tooExpensive } from '#lib/connectors/errors.ts';
import { rowObjects } from '#lib/connectors/rows.ts';
import type { Connector, ExecuteLimits, IntrospectOptions, QueryResult } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { ServiceError } from '#lib/errors.ts';
import { logger } from '#lib/log.ts';
import { connectionFailed, queryFailed } from './errors.ts';
import { costStatement } from './generic-plan.ts';
import { introspectPostgres } from './introspect.ts';
import type { WorkerFailure, WorkerMessage, WorkerOptions, WorkerRequest } from './pglite-worker.ts';

export interface PgliteOptions {
  /** The seed SQL file loaded into every new in-memory copy. */
  seedFile?: string;
  /** How long a new worker may take to start and load the seed (CONNECTION_TIMEOUT after). */
  startTimeoutMs?: number;
  /** The worker module (pglite-worker.ts beside this file); tests name a missing one. */
  workerUrl?: URL;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;
const INTERNAL_TIMEOUT_MS = 30_000;
// Beside this module: the source file, or in a packaged function the worker bundle that
// infra/esbuild-plugins.cjs builds beside the output file holding this code.
const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.mjs',
  import.meta.url,
);
const redact = redactorFor(undefined);

/** The seed file to load: the one named when it exists, else the packaged seed of the same name. */
export const seedPath = (seedFile: string, packagedDir = join(import.meta.dirname, 'seeds')): string => {
  if (existsSync(seedFile)) return seedFile;
  const packaged = join(packagedDir, basename(seedFile));
  return existsSync(packaged) ? packaged : seedFile;
};

interface Job {
  request: Omit<WorkerRequest, 'id'>;
  timeoutMs: number;
  resolve: (message: Extract<WorkerMessage, { type: 'result'; ok: true }>) => void;
  reject: (error: unknown) => void;
}

interface Running {
  worker: ChildProcess;
  ready: Promise<void>;
  /** Set once the worker has gone (exit, crash, terminate): it takes no more jobs. */
  gone: boolean;
}

/**
 * The process's Node options for the worker, but for the code it was started with: a process
 * started as `node --input-type=module -e <code>` (as the packaging tests run a bundle) would
 * otherwise run that code again in the worker instead of the worker's module.
 */
export const workerNodeOptions = (execArgv: readonly string[]): string[] => {
  const options: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const option = execArgv[index] as string;
    if (['-e', '--eval', '-p', '--print'].includes(option)) {
      index++; // and its code
      continue;
    }
    if (/^(--eval|--print|--input-type)(=|$)/.test(option)) continue;
    options.push(option);
  }
  return options;
};

/** The worker keeps the event loop open while a request is pending, and only then. */
const hold = (worker: ChildProcess): void => {
  worker.ref();
  worker.channel?.ref();
};
const release = (worker: ChildProcess): void => {
  worker.unref();
  worker.channel?.unref();
};

/** A worker-side failure with its SQLSTATE, as the error mapping expects. */
const asError = (failure: WorkerFailure): Error =>
  Object.assign(new Error(failure.message), { name: failure.name, code: failure.code });

export class PgliteConnector implements Connector {
  readonly dialect = 'postgres' as const;
  readonly #seedFile: string | undefined;
  readonly #startTimeoutMs: number;
  readonly #workerUrl: URL;
  #running: Running | undefined;
  readonly #queue: Job[] = [];
  #busy = false;
  #nextId = 1;
  #closed = false;

  constructor(options: PgliteOptions = {}) {
    this.#seedFile = options.seedFile === undefined ? undefined : seedPath(options.seedFile);
    this.#startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.#workerUrl = options.workerUrl ?? workerUrl;
  }

  /** The operating-system process of the current worker, while there is one. */
  get workerProcessId(): number | undefined {
    return this.#running && !this.#running.gone ? this.#running.worker.pid : undefined;
  }

  /** The current worker, starting one when there is none (first use, or after a termination). */
  #worker(): Running {
    if (this.#running && !this.#running.gone) return this.#running;
    const { pgliteCache } = settings().database;
    const options: WorkerOptions = {
      ...(this.#seedFile ? { seedFile: this.#seedFile } : {}),
      ...(pgliteCache ? { snapshotCache: pgliteCache } : {}),
    };
    // A bundle without the worker module fails here with "Cannot find module <path>": the path
    // reaches the logs only (connectionFailed), the caller sees ENGINE_UNAVAILABLE.
    const modulePath = fileURLToPath(this.#workerUrl);
    if (!existsSync(modulePath))
      throw Object.assign(new Error(`Cannot find module '${modulePath}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    const worker = fork(modulePath, [JSON.stringify(options)], {
      execArgv: workerNodeOptions(process.execArgv),
      serialization: 'advanced',
      // stdout and stderr swallowed: stdout of the admin command is JSON only.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const running: Running = { worker, ready: Promise.resolve(), gone: false };
    // An 'error' event without a listener would crash the process; the pending request (if
    // any) is failed by its 'exit' listener.
    worker.on('error', () => {
      running.gone = true;
    });
    running.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        running.gone = true;
        worker.kill('SIGKILL');
        reject(new ConnectTimeout('the embedded database did not start in time'));
      }, this.#startTimeoutMs);
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve();
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          running.gone = true;
          // The seed's error may quote its data or a path: logs only.
          logger.warn('the embedded database could not load its seed', {
            driverMessage: redact(message.error.message).split('\n')[0],
          });
          reject(
            new ServiceError('DB_CONNECTION_FAILED', {
              message: 'Could not connect to the database: the embedded database could not load its seed',
              detail: 'SEED_FAILED',
            }),
          );
        }
      };
      worker.on('message', onMessage);
      worker.once('error', (error) => {
        clearTimeout(timer);
        running.gone = true;
        reject(error);
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        running.gone = true;
        reject(new Error('the embedded database worker exited'));
      });
    });
    running.ready.catch(() => undefined); // observed by whoever awaits it
    this.#running = running;
    return running;
  }

  #send(job: Job): void {
    this.#queue.push(job);
    void this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#busy) return;
    const job = this.#queue.shift();
    if (!job) {
      if (this.#running && !this.#running.gone) release(this.#running.worker);
      return;
    }
    this.#busy = true;
    try {
      if (this.#closed) throw new ServiceError('DB_CONNECTION_FAILED', { detail: 'CLOSED' });
      let running: Running;
      try {
        running = this.#worker();
        hold(running.worker);
        await running.ready;
      } catch (error) {
        throw connectionFailed(error, redact);
      }
      job.resolve(await this.#run(running, job));
    } catch (error) {
      job.reject(error);
    } finally {
      this.#busy = false;
      void this.#drain();
    }
  }

  /** One request on a ready worker, cut by terminating the worker when it overruns. */
  #run(running: Running, job: Job): Promise<Extract<WorkerMessage, { type: 'result'; ok: true }>> {
    const id = this.#nextId++;
    const { worker } = running;
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== 'result' || message.id !== id) return;
        cleanup();
        if (message.ok) resolve(message);
        else if (message.error.code === 'QUERY_TOO_EXPENSIVE')
          reject(tooExpensive(message.cost ?? 0, job.request.maxCost ?? 0));
        else reject(queryFailed(asError(message.error), redact, job.request.sql));
      };
      const onExit = () => {
        cleanup();
        running.gone = true;
        reject(new ServiceError('DB_QUERY_FAILED', { detail: 'WORKER_EXITED' }));
      };
      const timer = setTimeout(
        () => {
          cleanup();
          running.gone = true;
          worker.kill('SIGKILL');
          // The replacement starts loading now, so the next request waits less.
          if (!this.#closed) {
            try {
              release(this.#worker().worker);
            } catch {
              // the next request meets the same failure and reports it
            }
          }
          reject(queryFailed(new QueryTimeout('statement timeout'), redact));
        },
        Math.max(1, job.timeoutMs),
      );
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.send({ ...job.request, id } satisfies WorkerRequest);
    });
  }

  #request(request: Omit<WorkerRequest, 'id'>, timeoutMs: number) {
    return new Promise<Extract<WorkerMessage, { type: 'result'; ok: true }>>((resolve, reject) => {
      this.#send({ request, timeoutMs, resolve, reject });
    });
  }

  async test(): Promise<void> {
    await this.#request({ sql: 'SELECT 1', params: [], pin: false }, INTERNAL_TIMEOUT_MS);
  }

  async introspect(options: IntrospectOptions = {}): Promise<Catalog> {
    return introspectPostgres(async (sql, params = [], timeoutMs = INTERNAL_TIMEOUT_MS) => {
      const result = await this.#request({ sql, params: [...params], pin: false }, timeoutMs);
      return rowObjects(result.fields, result.rows).rows;
    }, options);
  }

  async execute(sql: string, params: readonly unknown[], limits: ExecuteLimits): Promise<QueryResult> {
    const started = performance.now();
    const statement = limits.maxCost === undefined ? undefined : await costStatement(sql, params.length);
    const result = await this.#request(
      {
        sql,
        params: [...params],
        pin: true,
        ...(limits.maxCost !== undefined ? { maxCost: limits.maxCost } : {}),
        ...(statement ? { costStatement: statement } : {}),
      },
      limits.timeoutMs,
    );
    return {
      ...rowObjects(result.fields, result.rows),
      executionMs: Math.round(performance.now() - started),
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#running;
    this.#running = undefined;
    if (running && !running.gone) {
      running.gone = true;
      const { worker } = running;
      if (worker.exitCode === null && worker.signalCode === null) {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        // Held until it has gone: an idle worker is unreferenced, and a process awaiting the exit
        // of an unreferenced child would end with that await unsettled.
        worker.ref();
        worker.kill('SIGKILL');
        await exited;
      }
    }
  }
}
