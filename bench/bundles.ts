// Figures (b) and (c): what `serverless package --stage prod` builds for each function, and how
// long a fresh Node process takes to import it. The bundles are extracted inside the project,
// so their externals (@aws-sdk/*, which the nodejs24.x runtime provides) resolve from
// node_modules as they would from the runtime.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parse } from 'yaml';
import {
  type Figure,
  fixed,
  kb,
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

const run = promisify(execFile);

const SIZE_TARGET_BYTES = 150_000; // 150 KB minified, non-answering functions
const WASM_ENTRY = 'libpg-query.wasm';

/**
 * The functions that answer questions (`custom.answeringFunctions` in serverless.yml): they bundle
 * the SQL guard's parsers and the PostgreSQL parser's .wasm, so the size budget does not apply to
 * them; their sizes are reported as measured.
 */
export const answeringFunctions = (): Set<string> => {
  const config = parse(readFileSync(join(root, 'serverless.yml'), 'utf8')) as {
    custom?: { answeringFunctions?: string[] };
  };
  return new Set(config.custom?.answeringFunctions ?? []);
};
const IMPORT_TARGET_MS = 100; // median cold import
const COLD_RUNS = 15;

// Not under .esbuild/: serverless-esbuild deletes that work folder when other runs finish.
const extractDir = join(root, 'node_modules', '.cache', 'tabletalk-bench');

export interface Bundle {
  functionName: string;
  /** The extracted .mjs (its .map beside it). */
  file: string;
  minifiedBytes: number;
  gzipBytes: number;
  zipBytes: number;
  mapBytes: number;
  /** The function's environment in the packaged CloudFormation template. */
  environment: Record<string, string>;
  /** Its imports left external (provided by the runtime). */
  externals: string[];
  /** Answers questions (serverless.yml `custom.answeringFunctions`): no size budget. */
  answering: boolean;
  /** Chunks the bundle loads on demand (`<bundle>.chunks/*.mjs`): parsers, drivers, model engines. */
  chunkBytes: number;
  /** The PostgreSQL parser's .wasm shipped in the zip (answering functions), 0 when none. */
  wasmBytes: number;
}

interface LambdaResource {
  Type: string;
  Properties: {
    FunctionName?: string;
    Code?: { S3Key?: unknown };
    Environment?: { Variables?: Record<string, unknown> };
  };
}

/** `unzip -Z1 <zip>` lists the entries, `unzip -p <zip> <entry>` writes one to stdout. */
const unzip = async (option: '-Z1' | '-p', zip: string, entry?: string): Promise<Buffer> =>
  (
    await run('unzip', [option, zip, ...(entry ? [entry] : [])], {
      encoding: 'buffer',
      maxBuffer: 256 * 1024 * 1024,
    })
  ).stdout;

/** Packages every function as the prod stage would deploy it and extracts each bundle. */
export const packageBundles = async (): Promise<Bundle[]> => {
  const out = mkdtempSync(join(tmpdir(), 'tabletalk-bench-package-'));
  try {
    await run(join(root, 'node_modules/.bin/serverless'), ['package', '--stage', 'prod', '--package', out], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        PATH: projectPath(),
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
    });
    const template = JSON.parse(
      readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'),
    ) as {
      Resources: Record<string, LambdaResource>;
    };
    const lambdas = Object.values(template.Resources).filter(
      (resource) => resource.Type === 'AWS::Lambda::Function',
    );
    rmSync(extractDir, { recursive: true, force: true });
    const answering = answeringFunctions();
    const bundles: Bundle[] = [];
    for (const zipName of readdirSync(out)
      .filter((name) => name.endsWith('.zip'))
      .sort()) {
      const zip = join(out, zipName);
      const functionName = basename(zipName, '.zip');
      const entries = (await unzip('-Z1', zip)).toString('utf8').split('\n').filter(Boolean);
      // The function's own .mjs; chunks it loads on demand sit under `<bundle>.chunks/`.
      const entry = entries.find((name) => name.endsWith('.mjs') && !name.includes('.chunks/'));
      if (!entry) throw new Error(`${zipName} holds no .mjs bundle (entries: ${entries.join(', ')})`);
      // The whole zip, as Lambda unpacks it: chunks, source maps and the parser's .wasm included.
      const functionDir = join(extractDir, functionName);
      mkdirSync(functionDir, { recursive: true });
      await run('unzip', ['-q', '-o', zip, '-d', functionDir]);
      const file = join(functionDir, entry);
      const code = readFileSync(file);
      const map = entries.includes(`${entry}.map`) ? readFileSync(`${file}.map`) : undefined;
      const wasmEntry = entries.find((name) => basename(name) === WASM_ENTRY);
      const chunkBytes = entries
        .filter((name) => name.endsWith('.mjs') && name !== entry)
        .reduce((sum, name) => sum + statSync(join(functionDir, name)).size, 0);
      const lambda = lambdas.find((resource) =>
        String(resource.Properties.Code?.S3Key ?? '').endsWith(`/${zipName}`),
      );
      const environment: Record<string, string> = {};
      for (const [name, value] of Object.entries(lambda?.Properties.Environment?.Variables ?? {})) {
        if (typeof value === 'string') environment[name] = value;
      }
      environment.AWS_LAMBDA_FUNCTION_NAME =
        lambda?.Properties.FunctionName ?? `tabletalk-prod-${functionName}`;
      const text = code.toString('utf8');
      const externals = [
        ...new Set([...text.matchAll(/from\s*"(@aws-sdk\/[^"]+)"/g)].map((match) => match[1]!)),
      ].sort();
      bundles.push({
        functionName,
        file,
        minifiedBytes: code.length,
        gzipBytes: gzipSync(code, { level: 9 }).length,
        zipBytes: readFileSync(zip).length,
        mapBytes: map?.length ?? 0,
        environment,
        externals,
        answering: answering.has(functionName),
        chunkBytes,
        wasmBytes: wasmEntry ? statSync(join(functionDir, wasmEntry)).size : 0,
      });
    }
    if (bundles.length === 0) throw new Error('serverless package produced no function zips');
    return bundles;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
};

export const sizeSection = (bundles: Bundle[]): Section => {
  const figures: Figure[] = bundles.map((bundle) =>
    bundle.answering
      ? {
          name: `(b) bundle size: ${bundle.functionName} (answering)`,
          measured: `${kb(bundle.minifiedBytes)} minified, ${kb(bundle.gzipBytes)} gzip; + ${kb(bundle.chunkBytes)} chunks, ${kb(bundle.wasmBytes)} .wasm`,
          target: 'reported',
        }
      : {
          name: `(b) bundle size: ${bundle.functionName}`,
          measured: `${kb(bundle.minifiedBytes)} minified, ${kb(bundle.gzipBytes)} gzip (${fixed((bundle.minifiedBytes / SIZE_TARGET_BYTES) * 100, 0)} % of budget)`,
          target: `≤ ${kb(SIZE_TARGET_BYTES)}`,
          pass: bundle.minifiedBytes <= SIZE_TARGET_BYTES,
        },
  );
  for (const figure of figures) printFigure(figure);
  const answering = bundles.filter((bundle) => bundle.answering).map((bundle) => bundle.functionName);
  const markdown = `## (b) Bundle size per function

${table(
  [
    'Function',
    'Kind',
    '.mjs minified',
    'gzip -9',
    'gzip / minified',
    'Share of the 150 KB budget',
    'Zip artifact (with .map, .wasm)',
    'Result',
  ],
  bundles.map((bundle, i) => [
    bundle.functionName,
    bundle.answering
      ? `answering (+ ${kb(bundle.chunkBytes)} on-demand chunks, ${kb(bundle.wasmBytes)} .wasm)`
      : 'non-answering',
    `${bundle.minifiedBytes.toLocaleString('en-US')} B (${kb(bundle.minifiedBytes)})`,
    `${bundle.gzipBytes.toLocaleString('en-US')} B (${kb(bundle.gzipBytes)})`,
    `${fixed((bundle.gzipBytes / bundle.minifiedBytes) * 100, 0)} %`,
    bundle.answering ? '— (no budget)' : `${fixed((bundle.minifiedBytes / SIZE_TARGET_BYTES) * 100, 0)} %`,
    `${kb(bundle.zipBytes)} (.map ${kb(bundle.mapBytes)})`,
    bundle.answering ? 'reported' : verdict(figures[i]!.pass),
  ]),
)}

Target: ≤ 150 KB (150,000 bytes) minified for every function that does not answer questions. The answering functions
(${answering.length > 0 ? answering.map((name) => `\`${name}\``).join(', ') : 'none'}; \`custom.answeringFunctions\` in serverless.yml) bundle the answering flow with both SQL
guards (libpg-query + pgsql-deparser for PostgreSQL, node-sql-parser for MySQL), the PostgreSQL and MySQL drivers and the
model engines, loaded on demand from chunk files (\`<bundle>.chunks/*.mjs\`, esbuild \`splitting\`), and ship the PostgreSQL
parser's \`libpg-query.wasm\` beside the chunk that loads it; their sizes are reported as measured, without a budget. The
.mjs column is what Lambda imports at cold start; the chunks load when a request first needs them.
Method: \`serverless package --stage prod --package <tmpdir>\` with node_modules/.bin first on the PATH
(serverless-esbuild: bundled, minified ESM, \`@aws-sdk/*\` external because the nodejs24.x runtime provides it); the
.mjs of each function zip is read with \`unzip -p\` and gzipped in memory with zlib level 9. The zip also carries the
linked source map; (c) imports each bundle with that map (and the .wasm) beside it and \`--enable-source-maps\`, as deployed.
`;
  return { figures, markdown };
};

// ---- Cold import ---------------------------------------------------------------------------

/**
 * Runs in each fresh process: optionally preload some modules, then time one import. The Lambda
 * runtime defines the \`awslambda\` global that response-streaming bundles call at import; the
 * probe defines the two members they use, as the runtime does before loading a function.
 */
const importProbe = `
globalThis.awslambda ??= { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };
const [target, preloadJson] = process.argv.slice(1);
for (const name of JSON.parse(preloadJson)) await import(name);
const started = performance.now();
await import(target);
const importMs = performance.now() - started;
process.stdout.write(JSON.stringify({ importMs, sinceStartMs: performance.now() }));
`;

interface ProbeTarget {
  label: string;
  file: string;
  preload: string[];
  environment: Record<string, string>;
}

interface ProbeSamples {
  importMs: number[];
  sinceStartMs: number[];
  wallMs: number[];
}

const probe = async (
  target: ProbeTarget,
): Promise<{ importMs: number; sinceStartMs: number; wallMs: number }> => {
  const started = performance.now();
  const { stdout } = await run(
    nodeBin,
    [
      '--input-type=module',
      '-e',
      importProbe,
      pathToFileURL(target.file).href,
      JSON.stringify(target.preload),
    ],
    {
      cwd: root,
      timeout: 30_000,
      env: { PATH: projectPath(), HOME: process.env.HOME ?? '/tmp', ...target.environment },
    },
  );
  const wallMs = performance.now() - started;
  return { ...(JSON.parse(stdout) as { importMs: number; sinceStartMs: number }), wallMs };
};

const summary = (values: number[]) => ({
  median: median(values),
  p90: percentile(values, 90),
  min: Math.min(...values),
});

export const coldImportSection = async (bundles: Bundle[]): Promise<Section> => {
  mkdirSync(extractDir, { recursive: true });
  const emptyFile = join(extractDir, 'empty.mjs');
  writeFileSync(emptyFile, 'export {};\n');
  const baseEnvironment = bundles[0]?.environment ?? {};
  const targets: ProbeTarget[] = [
    { label: 'baseline: empty .mjs', file: emptyFile, preload: [], environment: baseEnvironment },
    ...bundles.map((bundle) => ({
      label: bundle.functionName,
      file: bundle.file,
      preload: [],
      environment: bundle.environment,
    })),
    // Only where there is something to split off: a bundle without externals is all own code.
    ...bundles
      .filter((bundle) => bundle.externals.length > 0)
      .map((bundle) => ({
        label: `${bundle.functionName}, own code only (SDK preloaded)`,
        file: bundle.file,
        preload: bundle.externals,
        environment: bundle.environment,
      })),
  ];
  const samples = new Map<ProbeTarget, ProbeSamples>(
    targets.map((t) => [t, { importMs: [], sinceStartMs: [], wallMs: [] }]),
  );
  // Round-robin over the targets so machine drift spreads evenly over them.
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const target of targets) {
      const result = await probe(target);
      const bucket = samples.get(target)!;
      bucket.importMs.push(result.importMs);
      bucket.sinceStartMs.push(result.sinceStartMs);
      bucket.wallMs.push(result.wallMs);
    }
  }

  const baseline = summary(samples.get(targets[0]!)!.importMs);
  const figures: Figure[] = [];
  const rows: string[][] = [];
  for (const target of targets) {
    const bucket = samples.get(target)!;
    const imports = summary(bucket.importMs);
    const isBundle = bundles.some((bundle) => bundle.functionName === target.label);
    const row = [
      target.label,
      fixed(imports.median),
      fixed(imports.p90),
      fixed(imports.min),
      target === targets[0] ? '—' : `+${fixed(imports.median - baseline.median)}`,
      fixed(median(bucket.sinceStartMs)),
      fixed(median(bucket.wallMs)),
    ];
    if (isBundle) {
      const figure: Figure = {
        name: `(c) cold import: ${target.label}`,
        measured: `median ${fixed(imports.median)} ms (${fixed((imports.median / IMPORT_TARGET_MS) * 100, 0)} % of target), p90 ${fixed(imports.p90)} ms, baseline ${fixed(baseline.median, 2)} ms`,
        target: `≤ ${IMPORT_TARGET_MS} ms`,
        pass: imports.median <= IMPORT_TARGET_MS,
      };
      figures.push(figure);
      printFigure(figure);
      row.push(
        `${verdict(figure.pass)} (${fixed((imports.median / IMPORT_TARGET_MS) * 100, 0)} % of target)`,
      );
    } else {
      console.log(
        `  ${`(c) ${target.label}`.padEnd(44)} median ${fixed(imports.median, 2)} ms, p90 ${fixed(imports.p90, 2)} ms`,
      );
      row.push('—');
    }
    rows.push(row);
  }

  const markdown = `## (c) Cold module load per bundle

${table(
  [
    'Module',
    'import() median (ms)',
    'p90 (ms)',
    'min (ms)',
    'median − baseline (ms)',
    'process start → imported, median (ms)',
    'spawn → exit, median (ms)',
    'Result (median ≤ 100 ms)',
  ],
  rows,
)}

Method: ${COLD_RUNS} fresh \`node_modules/.bin/node\` processes per row (rows interleaved round-robin), each running
\`await import(<bundle>)\` and timing it inside the child with \`performance.now()\`; the process runs with the function's
environment from the packaged CloudFormation template (\`NODE_OPTIONS=--enable-source-maps\`, \`POWERTOOLS_LOG_LEVEL=INFO\`,
\`TABLE_NAME\`, …) and nothing else but \`PATH\`/\`HOME\`. The bundles are the ones from (b), extracted with their .map to
\`node_modules/.cache/tabletalk-bench/<function>/\`, so \`@aws-sdk/*\` (external, provided by the Lambda runtime) loads from node_modules. The
baseline imports an empty .mjs the same way: what every import costs regardless of content. The "own code only" rows
preload the bundle's \`@aws-sdk/*\` externals (${[...new Set(bundles.flatMap((b) => b.externals))].join(', ')}) before starting the clock, which splits each import into the SDK's share
and the bundle's own. "process start → imported" is \`performance.now()\` after the import (Node's boot included);
"spawn → exit" is measured by the parent. Lambda's own init (runtime client, network, arm64 at 512 MB) is not modelled.
`;
  return { figures, markdown };
};
