// Figures of the PostgreSQL SQL guard (lib/dialects/postgres/sql-guard.ts), for bench/run.ts or on its own:
//   node_modules/.bin/node bench/sql.ts
//   - guard + rewrite per query, warm, over the corpus (tests/corpus/queries.jsonl): p50 / p99;
//   - cold load of the parser in fresh processes: import of the minified bundle + WASM
//     initialisation + first guarded query;
//   - what the parser adds to a minified esbuild bundle (and the .wasm it loads beside it);
//   - the planner check: EXPLAIN (FORMAT JSON) of rewritten corpus queries shows each tenant
//     filter inside the scan of its table, and beside it nothing but leakproof conditions (the
//     fence, docs/design.md; a Subquery Scan above it is the fence at work, its cost is
//     bench/fence.ts) (the real server when TABLETALK_TEST_POSTGRES_URL is set, PGlite otherwise).
// The cold-load child is this same file, started with TABLETALK_SQL_BENCH_CHILD set; static
// imports stay light so that the child measures the guard's bundle, not this script.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  type Figure,
  fixed,
  kb,
  median,
  percentile,
  printFigure,
  root,
  runBenchChild,
  type Section,
  table,
} from './common.ts';

const GUARD_P50_TARGET_MS = 1;
const COLD_TARGET_MS = 150;
const COLD_RUNS = 10;
const WARM_PASSES = 20;
const ROW_CAP = 1_000;

const cacheDir = join(root, 'node_modules', '.cache', 'tabletalk-bench', 'sql');
const corpusPath = (name: string): string => join(root, 'tests', 'corpus', name);

interface ColdTimes {
  importMs: number;
  initMs: number;
  firstGuardMs: number;
  totalMs: number;
}

// ---- Child: one cold load in a fresh process ----------------------------------------------

if (process.env.TABLETALK_SQL_BENCH_CHILD) {
  const bundle = process.env.TABLETALK_SQL_BENCH_CHILD;
  const catalog = JSON.parse(readFileSync(corpusPath('catalog.json'), 'utf8'));
  const policy = {
    requiresScoping: true,
    tenantColumn: 'org_id',
    scopeColumn: 'scope_id',
    scopeRequired: false,
    tables: {},
  };
  const started = performance.now();
  const guard = (await import(
    pathToFileURL(bundle).href
  )) as typeof import('#lib/dialects/postgres/sql-guard.ts');
  const imported = performance.now();
  await guard.loadPostgresParser();
  const ready = performance.now();
  const outcome = await guard.guardPostgres({
    sql: 'SELECT c.name, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name',
    catalog,
    policy,
    tenant: 1,
    rowCap: 100,
  });
  const done = performance.now();
  if (!outcome.allowed) throw new Error(`the cold-load query was refused: ${outcome.code}`);
  process.send?.({
    importMs: imported - started,
    initMs: ready - imported,
    firstGuardMs: done - ready,
    totalMs: done - started,
  } satisfies ColdTimes);
  process.exit(0);
}

// ---- Warm guard + rewrite ----------------------------------------------------------------

interface CorpusLine {
  id: string;
  sql: string;
}

const corpus = (): CorpusLine[] =>
  readFileSync(corpusPath('queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusLine);

const corpusPolicy = async () => {
  const { effectivePolicy } = await import('#lib/core/row-policy.ts');
  return effectivePolicy({
    requiresOrganizationScoping: true,
    policy: JSON.parse(readFileSync(corpusPath('policy.json'), 'utf8')),
  });
};

/** The guard as the warm figure calls it: the corpus catalog and policy, one tenant and scope, the parser loaded. */
export const corpusGuard = async () => {
  const { guardPostgres, loadPostgresParser } = await import('#lib/dialects/postgres/sql-guard.ts');
  await loadPostgresParser();
  const catalog = JSON.parse(readFileSync(corpusPath('catalog.json'), 'utf8'));
  const policy = await corpusPolicy();
  return (sql: string) => guardPostgres({ sql, catalog, policy, tenant: 1, scope: 'alice', rowCap: ROW_CAP });
};

const measureWarm = async (): Promise<{
  p50: number;
  p99: number;
  max: number;
  samples: number;
  queries: number;
}> => {
  const guard = await corpusGuard();
  const queries = corpus();
  const times: number[] = [];
  for (let pass = 0; pass < WARM_PASSES + 2; pass++) {
    for (const { sql } of queries) {
      const started = performance.now();
      const outcome = await guard(sql);
      const elapsed = performance.now() - started;
      if (!outcome.allowed) throw new Error(`corpus query refused: ${outcome.code} ${sql}`);
      if (pass >= 2) times.push(elapsed); // two warm-up passes
    }
  }
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: Math.max(...times),
    samples: times.length,
    queries: queries.length,
  };
};

// ---- Bundle size and cold load -----------------------------------------------------------

interface Bundles {
  withGuard: string;
  withGuardBytes: number;
  withGuardGzip: number;
  baselineBytes: number;
  baselineGzip: number;
  wasmBytes: number;
  wasmGzip: number;
}

const buildBundles = async (): Promise<Bundles> => {
  const { build } = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  // As serverless.yml builds functions, plus __dirname/__filename: the parser's emscripten
  // loader finds its .wasm through __dirname, which an ESM bundle does not define.
  const banner = [
    "import { createRequire as __createRequire } from 'node:module';",
    'const require = __createRequire(import.meta.url);',
    'const __filename = import.meta.filename; const __dirname = import.meta.dirname;',
  ].join(' ');
  const bundle = async (name: string, contents: string): Promise<string> => {
    const outfile = join(cacheDir, `${name}.mjs`);
    await build({
      stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: `${name}-entry.ts` },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      mainFields: ['module', 'main'],
      banner: { js: banner },
      outfile,
      logLevel: 'error',
    });
    return outfile;
  };
  const withGuard = await bundle(
    'guard',
    "export { guardPostgres, loadPostgresParser } from './lib/dialects/postgres/sql-guard.ts';",
  );
  // The same contract without the parser: what every guard needs anyway.
  const baseline = await bundle(
    'baseline',
    "export { relationAccess, effectivePolicy } from './lib/core/row-policy.ts';",
  );
  const wasmSource = join(root, 'node_modules', 'libpg-query', 'wasm', 'libpg-query.wasm');
  copyFileSync(wasmSource, join(cacheDir, 'libpg-query.wasm'));
  const gzip = (file: string) => gzipSync(readFileSync(file)).length;
  return {
    withGuard,
    withGuardBytes: statSync(withGuard).size,
    withGuardGzip: gzip(withGuard),
    baselineBytes: statSync(baseline).size,
    baselineGzip: gzip(baseline),
    wasmBytes: statSync(wasmSource).size,
    wasmGzip: gzip(wasmSource),
  };
};

const measureCold = async (bundle: string): Promise<ColdTimes[]> => {
  const runs: ColdTimes[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    runs.push(
      await runBenchChild<ColdTimes>('sql.ts', { ...process.env, TABLETALK_SQL_BENCH_CHILD: bundle }),
    );
  }
  return runs;
};

// ---- Planner check -------------------------------------------------------------------------

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Filter?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

type Explain = (sql: string, params: readonly unknown[], pinned: boolean) => Promise<PlanNode>;

interface PlannerResult {
  engine: string;
  checked: number;
  pushed: number;
  fenced: number;
  both: number;
  failures: string[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

const SCAN_TYPES = new Set([
  'Seq Scan',
  'Index Scan',
  'Index Only Scan',
  'Bitmap Heap Scan',
  'Bitmap Index Scan',
]);

/** Tenant column per filtered table name of the sample schema (from the guard's policy). */
const tenantColumns = async (): Promise<Map<string, string>> => {
  const { relationAccess } = await import('#lib/core/row-policy.ts');
  const { postgres } = await import('#lib/dialects/postgres/index.ts');
  const catalog = JSON.parse(readFileSync(corpusPath('catalog.json'), 'utf8'));
  const policy = await corpusPolicy();
  const columns = new Map<string, string>();
  for (const relation of catalog.relations as { schema: string; name: string; kind: string }[]) {
    if (relation.kind !== 'table') continue;
    const access = relationAccess(catalog, policy, relation.schema, relation.name, postgres);
    if (access.kind === 'filtered') columns.set(relation.name, access.tenantColumn);
  }
  return columns;
};

const plannerCheck = async (engine: string, explain: Explain): Promise<PlannerResult> => {
  const { guardPostgres } = await import('#lib/dialects/postgres/sql-guard.ts');
  const catalog = JSON.parse(readFileSync(corpusPath('catalog.json'), 'utf8'));
  const policy = await corpusPolicy();
  const tenant = await tenantColumns();
  const { postgresPlanProblems } = await import('../tests/corpus/fence.ts');
  const result: PlannerResult = { engine, checked: 0, pushed: 0, fenced: 0, both: 0, failures: [] };
  for (const { id, sql } of corpus()) {
    const outcome = await guardPostgres({ sql, catalog, policy, tenant: 1, rowCap: ROW_CAP });
    if (!outcome.allowed || outcome.params.length === 0) continue; // nothing filtered
    const plan = await explain(outcome.sql, outcome.params, true);
    const rewritten = nodes(plan);
    result.checked++;
    // Each scan of a tenant table carries its tenant condition itself (as filter or index condition).
    const scans = rewritten.filter(
      (node) => SCAN_TYPES.has(node['Node Type']) && tenant.has(node['Relation Name'] ?? ''),
    );
    const pushed = scans.every((node) => {
      const column = tenant.get(node['Relation Name']!)!;
      const conditions = [node.Filter, node['Index Cond'], node['Recheck Cond']].join(' ');
      return new RegExp(`\\b${column} = `).test(conditions);
    });
    // No outer condition evaluated beside the tenant filter (tests/corpus/fence.ts).
    const fenced = postgresPlanProblems([{ Plan: plan }], { tenant: 1 }).length === 0;
    if (pushed) result.pushed++;
    if (fenced) result.fenced++;
    if (pushed && fenced) result.both++;
    else
      result.failures.push(
        `${id}${pushed ? '' : ' (filter not in scan)'}${fenced ? '' : ' (outer condition beside the filter)'}`,
      );
  }
  return result;
};

const planOf = (value: unknown): PlanNode => {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return (parsed as { Plan: PlanNode }[])[0]!.Plan;
};

const plannerOnPglite = async (): Promise<PlannerResult> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  try {
    await db.exec(readFileSync(corpusPath('schema.sql'), 'utf8'));
    await db.exec('ANALYZE');
    return await plannerCheck('PGlite', async (sql, params, pinned) => {
      await db.exec(pinned ? 'BEGIN READ ONLY; SET LOCAL search_path = pg_catalog' : 'BEGIN READ ONLY');
      try {
        const result = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, [...params]);
        return planOf(result.rows[0]!['QUERY PLAN']);
      } finally {
        await db.exec('ROLLBACK');
      }
    });
  } finally {
    await db.close();
  }
};

const plannerOnServer = async (url: string): Promise<PlannerResult> => {
  const { default: pg } = await import('pg');
  const name = `guard_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  try {
    await client.connect();
    await client.query(readFileSync(corpusPath('schema.sql'), 'utf8'));
    await client.query('ANALYZE');
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]
      ?.server_version;
    return await plannerCheck(`PostgreSQL ${version?.split(' ')[0]}`, async (sql, params, pinned) => {
      await client.query(pinned ? 'BEGIN READ ONLY; SET LOCAL search_path = pg_catalog' : 'BEGIN READ ONLY');
      try {
        const result = await client.query({ text: `EXPLAIN (FORMAT JSON) ${sql}`, values: [...params] });
        return planOf(result.rows[0]['QUERY PLAN']);
      } finally {
        await client.query('ROLLBACK');
      }
    });
  } finally {
    await client.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
};

// ---- The section ---------------------------------------------------------------------------

export const measureSqlGuard = async (): Promise<Section> => {
  const figures: Figure[] = [];
  const add = (figure: Figure) => {
    figures.push(figure);
    printFigure(figure);
  };

  const warm = await measureWarm();
  add({
    name: 'SQL guard + rewrite, warm, p50',
    measured: `${fixed(warm.p50, 3)} ms (${warm.queries} corpus queries × ${WARM_PASSES})`,
    target: `≤ ${GUARD_P50_TARGET_MS} ms`,
    pass: warm.p50 <= GUARD_P50_TARGET_MS,
  });
  add({
    name: 'SQL guard + rewrite, warm, p99',
    measured: `${fixed(warm.p99, 3)} ms (max ${fixed(warm.max, 2)} ms)`,
    target: '—',
  });

  const bundles = await buildBundles();
  const added = bundles.withGuardBytes - bundles.baselineBytes;
  add({
    name: 'SQL parser + guard, bundle size added',
    measured: `${kb(added)} minified (${kb(bundles.withGuardGzip - bundles.baselineGzip)} gzip)`,
    target: '—',
  });
  add({
    name: 'SQL parser .wasm beside the bundle',
    measured: `${kb(bundles.wasmBytes)} (${kb(bundles.wasmGzip)} gzip)`,
    target: '—',
  });

  const cold = await measureCold(bundles.withGuard);
  const coldMedian = median(cold.map((run) => run.totalMs));
  add({
    name: 'SQL parser cold load (import+WASM+1st query)',
    measured: `${fixed(coldMedian, 1)} ms median of ${COLD_RUNS} fresh processes`,
    target: `≤ ${COLD_TARGET_MS} ms`,
    pass: coldMedian <= COLD_TARGET_MS,
  });

  const serverUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
  const planner = serverUrl ? await plannerOnServer(serverUrl) : await plannerOnPglite();
  add({
    name: 'Tenant filter in the scans, fenced (EXPLAIN)',
    measured: `${planner.both} of ${planner.checked} corpus queries (${planner.engine})`,
    target: '—',
  });

  const markdown = `## (g) SQL guard (PostgreSQL)

Guard + rewrite (parse, check, rewrite, print, re-parse and compare) of the ${warm.queries} queries of
tests/corpus/queries.jsonl for one tenant and scope, ${WARM_PASSES} warm passes (${warm.samples} calls):
p50 ${fixed(warm.p50, 3)} ms, p99 ${fixed(warm.p99, 3)} ms, max ${fixed(warm.max, 2)} ms.

Cold load in ${COLD_RUNS} fresh processes of the minified bundle of lib/dialects/postgres/sql-guard.ts (esbuild, as the
functions are built; the parser's .wasm beside it):

${table(
  ['', 'median', 'max'],
  (['importMs', 'initMs', 'firstGuardMs', 'totalMs'] as const).map((key) => [
    {
      importMs: 'import',
      initMs: 'WASM initialisation',
      firstGuardMs: 'first guarded query',
      totalMs: 'total',
    }[key],
    `${fixed(median(cold.map((run) => run[key])), 1)} ms`,
    `${fixed(Math.max(...cold.map((run) => run[key])), 1)} ms`,
  ]),
)}

Bundle: ${kb(bundles.withGuardBytes)} minified with the guard vs ${kb(bundles.baselineBytes)} for the policy
module alone (+${kb(added)}; gzip +${kb(bundles.withGuardGzip - bundles.baselineGzip)}), plus
libpg-query.wasm ${kb(bundles.wasmBytes)} (${kb(bundles.wasmGzip)} gzip), loaded from the bundle's
directory (\`__dirname\`), so a function that guards SQL must ship the .wasm beside its .mjs.

Planner (${planner.engine}, sample schema after ANALYZE): of ${planner.checked} rewritten corpus
queries that read a tenant table, ${planner.pushed} have the tenant condition inside every scan of a
tenant table, ${planner.fenced} have nothing but leakproof conditions beside it (no outer condition
below the fence), ${planner.both} both.${
    planner.failures.length > 0 ? ` Not both: ${planner.failures.slice(0, 20).join(', ')}.` : ''
  }
`;
  return { figures, markdown };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log('SQL guard (PostgreSQL)…');
  const section = await measureSqlGuard();
  console.log(`\n${section.markdown}`);
}
