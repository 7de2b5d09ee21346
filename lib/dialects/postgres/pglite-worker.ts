// The child process that owns one in-memory PGlite database (lib/dialects/postgres/pglite.ts).
// PGlite has no working statement_timeout and runs queries on the thread that calls it, so the
// connector keeps it here and kills the whole process when a query overruns; a new worker
// rebuilds the database from the seed file. Its options come as the first argument (JSON).
//
// Protocol (IPC): after loading the seed it sends {type: 'ready'} (or {type: 'failed', error});
// then each request {id, sql, params, pin, maxCost} is answered by
// {id, ok: true, fields, rows, cost} or {id, ok: false, error}. Requests are handled one at a
// time (the connector never sends a second before the first is answered).
// Nothing here writes to stdout: the admin command's stdout carries JSON only.
//
// Start-up: creating a PGlite database runs initdb (most of the ~1.5 s a start costs), so after
// loading a seed the worker saves the data directory as a snapshot, keyed by the seed's and
// PGlite's content, and later workers (any process of the same user) load that instead
// (~0.5 s). The cache is best-effort: in a private directory (TABLETALK_PGLITE_CACHE, default
// <tmpdir>/tabletalk-pglite-<uid>; `off` disables it), written atomically, ignored when unusable.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { GUARDED_WORK_MEM, genericCost } from './generic-cost.ts';

export interface WorkerRequest {
  id: number;
  sql: string;
  params: unknown[];
  /** Guarded SQL: `SET LOCAL search_path = pg_catalog`. Introspection runs unpinned. */
  pin: boolean;
  maxCost?: number;
  /** The statement whose generic plan the ceiling reads (lib/dialects/postgres/generic-cost.ts). */
  costStatement?: { sql: string; typedSql: string; parameters: number };
}

export interface WorkerFailure {
  name: string;
  message: string;
  code?: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: WorkerFailure }
  | { type: 'result'; id: number; ok: true; fields: string[]; rows: unknown[][]; cost?: number }
  | { type: 'result'; id: number; ok: false; error: WorkerFailure; cost?: number };

export interface WorkerOptions {
  seedFile?: string;
  /** TABLETALK_PGLITE_CACHE of the parent's settings: the snapshot directory, or `off`. */
  snapshotCache?: string;
}

if (!process.send) throw new Error('pglite-worker.ts runs as a child process with an IPC channel');
const send = (message: WorkerMessage): void => {
  process.send?.(message);
};
const workerData = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
// The connector's process has gone: so has the reason to exist.
process.on('disconnect', () => process.exit(0));

const failure = (error: unknown): WorkerFailure => {
  const e = error as { name?: unknown; message?: unknown; code?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  };
};

// Values as lib/connectors/rows.ts describes them: dates and timestamps as the server's text
// (no time-zone shift), int8 as a number when it fits.
const raw = (text: string) => text;
const parsers = {
  20: (text: string) => (Number.isSafeInteger(Number(text)) ? Number(text) : text),
  1082: raw,
  1114: raw,
};
const quiet = () => true;

// Bump when what a snapshot holds changes (e.g. the statements run after the seed).
const SNAPSHOT_FORMAT = 1;

/** The snapshot cache directory, or undefined when disabled or not private to this user. */
const cacheDirectory = (): string | undefined => {
  const configured = workerData.snapshotCache;
  if (configured === 'off') return undefined;
  const directory = configured || join(tmpdir(), `tabletalk-pglite-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stats = statSync(directory);
    if (process.getuid && stats.uid !== process.getuid()) return undefined;
    if ((stats.mode & 0o077) !== 0) chmodSync(directory, 0o700);
    return directory;
  } catch {
    return undefined;
  }
};

/** What names this PGlite build: its package.json, or in a packaged function this worker bundle (PGlite inside). */
const pgliteBuild = async (): Promise<string> => {
  try {
    const pglite = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    return await readFile(join(pglite, '..', 'package.json'), 'utf8');
  } catch {
    const self = await readFile(fileURLToPath(import.meta.url)).catch(() => undefined);
    return self ? createHash('sha256').update(self).digest('hex') : 'unknown';
  }
};

/** The snapshot file of this seed under this PGlite build. */
const snapshotFile = async (seed: string): Promise<string | undefined> => {
  const directory = cacheDirectory();
  if (!directory) return undefined;
  const build = await pgliteBuild();
  const key = createHash('sha256').update(`${SNAPSHOT_FORMAT}\n${build}\n${seed}`).digest('hex');
  return join(directory, `${key.slice(0, 32)}.tgz`);
};

const fromSnapshot = async (file: string | undefined): Promise<PGlite | undefined> => {
  if (!file) return undefined;
  try {
    const snapshot = await readFile(file);
    return await PGlite.create({ loadDataDir: new Blob([snapshot]), onStdout: quiet, onStderr: quiet });
  } catch {
    return undefined; // absent or unusable: seed from scratch
  }
};

const saveSnapshot = async (database: PGlite, file: string | undefined): Promise<void> => {
  if (!file) return;
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const dump = await database.dumpDataDir('gzip');
    await writeFile(temporary, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    await unlink(temporary).catch(() => undefined);
  }
};

const open = async (seedFile: string | undefined): Promise<PGlite> => {
  const seed = seedFile ? await readFile(seedFile, 'utf8') : '';
  const file = await snapshotFile(seed);
  const cached = await fromSnapshot(file);
  if (cached) return cached;
  const database = await PGlite.create({ onStdout: quiet, onStderr: quiet });
  if (seed) await database.exec(seed);
  // Planner statistics: row estimates for the index and sensible plans for the cost ceiling.
  await database.exec('ANALYZE');
  await saveSnapshot(database, file);
  return database;
};

const { seedFile } = workerData;
let db: PGlite;
try {
  db = await open(seedFile);
  send({ type: 'ready' });
} catch (error) {
  // Exit only once the message is out of this process.
  await new Promise<void>((resolve) =>
    process.send?.({ type: 'failed', error: failure(error) } satisfies WorkerMessage, () => resolve()),
  );
  process.exit(1);
}

process.on('message', async (request: WorkerRequest) => {
  let cost: number | undefined;
  try {
    await db.exec(
      request.pin
        ? `BEGIN READ ONLY; SET LOCAL search_path = pg_catalog; SET LOCAL work_mem = '${GUARDED_WORK_MEM}'`
        : 'BEGIN READ ONLY',
    );
    try {
      if (request.maxCost !== undefined) {
        cost = await genericCost(request.costStatement, {
          exec: (text) => db.exec(text),
          plan: async (text) => (await db.query<{ 'QUERY PLAN'?: unknown }>(text)).rows[0]?.['QUERY PLAN'],
        });
        if (cost > request.maxCost) {
          send({
            type: 'result',
            id: request.id,
            ok: false,
            error: { name: 'CostCeiling', message: 'cost above the ceiling', code: 'QUERY_TOO_EXPENSIVE' },
            cost,
          });
          return;
        }
      }
      const result = await db.query<unknown[]>(request.sql, request.params, { rowMode: 'array', parsers });
      send({
        type: 'result',
        id: request.id,
        ok: true,
        fields: result.fields.map((field) => field.name),
        rows: result.rows,
        ...(cost !== undefined ? { cost } : {}),
      });
    } finally {
      await db.exec('ROLLBACK');
    }
  } catch (error) {
    send({
      type: 'result',
      id: request.id,
      ok: false,
      error: failure(error),
    });
  }
});
