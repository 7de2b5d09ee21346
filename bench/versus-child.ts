// The child of bench/versus.ts: one fresh process, started with a checkout's Node and that checkout
// as its working directory, times one group of figures of that checkout's code and reports them
// over IPC:
//   guard    (g) the SQL guard + rewrite per corpus query, PostgreSQL and MySQL
//   builtin  (i) the builtin engine per question, on the demo and the 50-table schema
// Each call is timed on its own, wall clock and CPU (user + system) of this process.
//
// What is timed comes from the checkout itself: its bench/versus-subjects.ts when it has one (the
// functions under test from where that checkout keeps them, section code reused), otherwise the
// module paths of the code before the restructuring of routes, dialects, guard and builtin engine
// (`legacySubjects` below). The inputs (corpus queries, demo questions) come from bench/versus.ts,
// the same for both checkouts. This file imports nothing of the project statically, so
// bench/versus.ts can copy it into a temporary folder of an older checkout that lacks it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface GuardVerdict {
  allowed: boolean;
}

export interface BuiltinSubject {
  /** The demo schema's catalog (local/demo/shop.sql, introspected under the demo's row policy). */
  demo: unknown;
  /** The generated 50-table catalog and its questions (tests/fixtures/catalogs/wide.ts). */
  wide: unknown;
  wideQuestions: string[];
  /** One question, as bench/builtin.ts asks it; returns the proposal's kind. */
  ask: (question: string, catalog: unknown) => { kind: string };
}

/** The functions a restructuring could make slower, bound to their fixtures. */
export interface VersusSubjects {
  /** Section (g)'s guard: the PostgreSQL corpus catalog and policy, tenant 1, scope `alice`. */
  postgresGuard: () => Promise<(sql: string) => GuardVerdict | Promise<GuardVerdict>>;
  /** The MySQL guard on its sample catalog (schema `shop`) and policy, tenant 1, scope `alice`. */
  mysqlGuard: () => Promise<(sql: string) => GuardVerdict | Promise<GuardVerdict>>;
  /** Section (i)'s engine, WordNet and the word vectors loaded. */
  builtin: () => Promise<BuiltinSubject>;
}

export interface VersusInput {
  postgresQueries: string[];
  /** With `{db}` already replaced by `shop`. */
  mysqlQueries: string[];
  demoQuestions: string[];
  /** Timed passes over each corpus, after two warm-up passes (section (g): 20). */
  guardPasses: number;
  /** Timed rounds over each question list, after one warm-up pass (section (i): 30). */
  builtinRounds: number;
}

/** Per-call times in ms: the median and p99 of wall clock, the median of CPU. */
export interface Timing {
  wallP50: number;
  wallP99: number;
  cpuP50: number;
  calls: number;
  /** Guard only: corpus queries this checkout refused (their times are included). */
  refused: number;
  /** Builtin only: proposals that were SQL. */
  sql?: number;
}

export type VersusChildResult =
  | { group: 'guard'; subjects: string; postgres: Timing; mysql: Timing }
  | { group: 'builtin'; subjects: string; demo: Timing; wide: Timing };

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Calls `call` on every input, `warmup` untimed passes then `passes` timed ones. */
const timeCalls = async <T>(
  inputs: readonly T[],
  call: (input: T) => unknown,
  warmup: number,
  passes: number,
): Promise<{ wall: number[]; cpu: number[] }> => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let pass = 0; pass < warmup + passes; pass++) {
    for (const input of inputs) {
      const cpuStarted = cpuMs();
      const started = performance.now();
      const returned = call(input);
      if (returned instanceof Promise) await returned; // the builtin engine answers synchronously
      const elapsed = performance.now() - started;
      const used = cpuMs() - cpuStarted;
      if (pass >= warmup) {
        wall.push(elapsed);
        cpu.push(used);
      }
    }
  }
  return { wall, cpu };
};

const timing = (times: { wall: number[]; cpu: number[] }, extra: Partial<Timing> = {}): Timing => ({
  wallP50: percentile(times.wall, 50),
  wallP99: percentile(times.wall, 99),
  cpuP50: percentile(times.cpu, 50),
  calls: times.wall.length,
  refused: 0,
  ...extra,
});

// ---- Subjects ------------------------------------------------------------------------------

const root = process.cwd();
/** A module of another layout: no file of this one declares its types. */
// biome-ignore lint/suspicious/noExplicitAny: see above
type UntypedModule = Record<string, any>;
/** A module of the checkout by its path; the specifier is computed, so no layout is assumed here. */
const load = (path: string): Promise<UntypedModule> => import(pathToFileURL(join(root, path)).href);
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));
const ASKED_AT = new Date('2026-03-15T10:00:00.000Z'); // bench/builtin.ts's `now`

/** The layout before the restructuring (lib/sql/*, lib/answer/builtin/*, lib/connectors/pglite.ts). */
const legacySubjects = (): VersusSubjects => ({
  postgresGuard: async () => {
    const { guardPostgres, loadPostgresParser } = await load('lib/sql/postgres.ts');
    const { effectivePolicy } = await load('lib/sql/policy.ts');
    await loadPostgresParser();
    const catalog = readJson('tests/corpus/catalog.json');
    const policy = effectivePolicy({
      requiresOrganizationScoping: true,
      policy: readJson('tests/corpus/policy.json'),
    });
    return (sql) => guardPostgres({ sql, catalog, policy, tenant: 1, scope: 'alice', rowCap: 1_000 });
  },
  mysqlGuard: async () => {
    const { guardMysql } = await load('lib/sql/mysql.ts');
    const { sampleCatalog, samplePolicy } = await load('tests/unit/sql-mysql-corpus.ts');
    const catalog = sampleCatalog();
    const policy = samplePolicy();
    return (sql) => guardMysql({ sql, catalog, policy, tenant: 1, scope: 'alice', rowCap: 1_000 });
  },
  builtin: async () => {
    const { proposeBuiltin } = await load('lib/answer/builtin/index.ts');
    (await load('lib/answer/builtin/wordnet.ts')).lexicalDatabase();
    (await load('lib/answer/builtin/vectors.ts')).wordVectors();
    const { PgliteConnector } = await load('lib/connectors/pglite.ts');
    const { effectivePolicy } = await load('lib/sql/policy.ts');
    const { demoPolicy, demoSeedFile } = await load('local/demo/seed.ts');
    const { wideCatalog, wideQuestions } = await load('tests/fixtures/catalogs/wide.ts');
    const connector = new PgliteConnector({ seedFile: demoSeedFile });
    let demo: unknown;
    try {
      demo = await connector.introspect({
        policy: effectivePolicy({
          requiresOrganizationScoping: true,
          tenantFilterColumn: 'org_id',
          policy: demoPolicy,
        }),
      });
    } finally {
      await connector.close();
    }
    return {
      demo,
      wide: wideCatalog,
      wideQuestions: wideQuestions(),
      ask: (question, catalog) =>
        proposeBuiltin({
          question,
          catalog,
          dialect: 'postgres',
          history: [],
          now: ASKED_AT,
          tenantColumn: 'org_id',
        }),
    };
  },
});

const SUBJECTS_FILE = 'bench/versus-subjects.ts';

const subjectsOf = async (): Promise<{ subjects: VersusSubjects; from: string }> =>
  existsSync(join(root, SUBJECTS_FILE))
    ? { subjects: (await load(SUBJECTS_FILE)).subjects as VersusSubjects, from: SUBJECTS_FILE }
    : { subjects: legacySubjects(), from: 'the module paths before the restructuring' };

// ---- Run -----------------------------------------------------------------------------------

// Set before the settings are first read (lib/config.ts reads them on first use).
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const input = JSON.parse(readFileSync(process.env.TABLETALK_VERSUS_INPUT ?? '', 'utf8')) as VersusInput;
const group = process.argv[2];
const { subjects, from } = await subjectsOf();

const guardTiming = async (
  guard: (sql: string) => GuardVerdict | Promise<GuardVerdict>,
  queries: string[],
): Promise<Timing> => {
  let refused = 0;
  for (const sql of queries) if (!(await guard(sql)).allowed) refused++;
  return timing(await timeCalls(queries, guard, 2, input.guardPasses), { refused });
};

let result: VersusChildResult;
if (group === 'guard') {
  const postgres = await guardTiming(await subjects.postgresGuard(), input.postgresQueries);
  const mysql = await guardTiming(await subjects.mysqlGuard(), input.mysqlQueries);
  result = { group, subjects: from, postgres, mysql };
} else if (group === 'builtin') {
  const builtin = await subjects.builtin();
  const measure = async (catalog: unknown, questions: string[]): Promise<Timing> => {
    let sql = 0;
    for (const question of questions) if (builtin.ask(question, catalog).kind === 'sql') sql++;
    const times = await timeCalls(
      questions,
      (question) => builtin.ask(question, catalog),
      0,
      input.builtinRounds,
    );
    return timing(times, { sql });
  };
  const demo = await measure(builtin.demo, input.demoQuestions);
  const wide = await measure(builtin.wide, builtin.wideQuestions);
  result = { group, subjects: from, demo, wide };
} else {
  throw new Error(`unknown figure group ${group} (guard or builtin)`);
}
process.send?.(result);
