// Cold import of the same functions from two packaged builds, side by side: fresh Node processes,
// interleaved (A, B, A, B, …) so that the machine's load falls on both alike, as bench (c) imports
// one bundle (source maps enabled, the function's environment from the packaged template).
//
//   serverless package --stage prod --package <dirA>     (one build, e.g. before a change)
//   serverless package --stage prod --package <dirB>     (the other)
//   node bench/cold-compare.ts <dirA> <dirB> [--runs 21] [--functions chatMessage,stream]
//
// Prints, per function, each build's median and p90 import time and the ratio B / A of medians,
// for wall-clock time and for the CPU time the import used (user + system), which a machine busy
// with other work inflates far less. bench/versus.ts runs `compareCold` on builds of two checkouts,
// each imported by its own checkout's Node.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { fixed, median, nodeBin, percentile, projectPath, root } from './common.ts';

const run = promisify(execFile);

const probeSource = `
globalThis.awslambda ??= { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } };
const cpu = process.cpuUsage();
const started = performance.now();
await import(process.argv[1]);
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify([performance.now() - started, (used.user + used.system) / 1000]));
`;

interface Build {
  label: string;
  dir: string;
  extracted: string;
  template: { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
  /** The checkout whose Node imports the bundles, as their working directory (this one by default). */
  checkout: string;
}

const environmentOf = (build: Build, functionName: string): Record<string, string> => {
  const lambda = Object.values(build.template.Resources).find(
    (resource) =>
      resource.Type === 'AWS::Lambda::Function' &&
      String((resource.Properties.Code as { S3Key?: string } | undefined)?.S3Key ?? '').endsWith(
        `/${functionName}.zip`,
      ),
  );
  const variables = (lambda?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
    ?.Variables;
  return Object.fromEntries(
    Object.entries(variables ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
};

const bundleOf = async (build: Build, functionName: string): Promise<string> => {
  const dir = join(build.extracted, functionName);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    await run('unzip', ['-q', '-o', join(build.dir, `${functionName}.zip`), '-d', dir]);
  }
  const functions = join(dir, 'functions');
  const entry = readdirSync(functions).find((name) => name.endsWith('.mjs'));
  if (!entry) throw new Error(`${functionName}.zip of ${build.label} holds no bundle`);
  return join(functions, entry);
};

/** Wall-clock and CPU milliseconds (user + system) of one import in a fresh process of `checkout`'s Node. */
const importMs = async (
  file: string,
  environment: Record<string, string>,
  checkout: string,
): Promise<[number, number]> => {
  const { stdout } = await run(
    checkout === root ? nodeBin : join(checkout, 'node_modules/.bin/node'),
    ['--input-type=module', '-e', probeSource, pathToFileURL(file).href],
    {
      cwd: checkout,
      timeout: 30_000,
      env: {
        PATH:
          checkout === root
            ? projectPath()
            : `${join(checkout, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME ?? '/tmp',
        ...environment,
      },
    },
  );
  return JSON.parse(stdout) as [number, number];
};

/** One function's imports: wall-clock and CPU ms of each fresh process, per build (A, B). */
export interface ColdComparison {
  functionName: string;
  wall: [number[], number[]];
  cpu: [number[], number[]];
}

export const DEFAULT_FUNCTIONS = ['chatMessage', 'conversationMessage', 'stream'];

/**
 * Imports `functions` of two packaged builds (`serverless package --package <dir>` folders) in
 * `runs` fresh processes each, interleaved, after one unmeasured import each. `checkouts` name
 * whose Node imports each build (this checkout's by default).
 */
export const compareCold = async (options: {
  dirs: [string, string];
  runs: number;
  functions?: string[];
  checkouts?: [string, string];
  onResult?: (comparison: ColdComparison) => void;
}): Promise<ColdComparison[]> => {
  const scratch = join(root, 'node_modules', '.cache', `tabletalk-cold-compare-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  const builds: Build[] = options.dirs.map((dir, index) => ({
    label: index === 0 ? 'A' : 'B',
    dir,
    extracted: join(scratch, String(index)),
    template: JSON.parse(readFileSync(join(dir, 'cloudformation-template-update-stack.json'), 'utf8')),
    checkout: options.checkouts?.[index] ?? root,
  }));
  const comparisons: ColdComparison[] = [];
  try {
    for (const functionName of options.functions ?? DEFAULT_FUNCTIONS) {
      const targets = await Promise.all(
        builds.map(async (build) => ({
          build,
          file: await bundleOf(build, functionName),
          environment: environmentOf(build, functionName),
          samples: [] as number[],
          cpu: [] as number[],
        })),
      );
      const once = (target: (typeof targets)[number]) =>
        importMs(target.file, target.environment, target.build.checkout);
      // One unmeasured import each: the files are in the page cache for both.
      for (const target of targets) await once(target);
      for (let index = 0; index < options.runs; index += 1) {
        const order = index % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          const [wall, cpu] = await once(target);
          target.samples.push(wall);
          target.cpu.push(cpu);
        }
      }
      const comparison: ColdComparison = {
        functionName,
        wall: [targets[0]!.samples, targets[1]!.samples],
        cpu: [targets[0]!.cpu, targets[1]!.cpu],
      };
      options.onResult?.(comparison);
      comparisons.push(comparison);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return comparisons;
};

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: 'string', default: '21' },
      functions: { type: 'string', default: DEFAULT_FUNCTIONS.join(',') },
    },
  });
  if (positionals.length !== 2) throw new Error('usage: node bench/cold-compare.ts <dirA> <dirB> [--runs N]');
  const runs = Number(values.runs);
  console.log(`A = ${positionals[0]}\nB = ${positionals[1]}\n${runs} fresh processes each, interleaved\n`);
  console.log('| function | A median (p90) | B median (p90) | B / A | CPU A | CPU B | CPU B / A |');
  console.log('|---|---|---|---|---|---|---|');
  await compareCold({
    dirs: [positionals[0]!, positionals[1]!],
    runs,
    functions: values.functions.split(','),
    onResult: ({ functionName, wall: [a, b], cpu }) => {
      const [cpuA, cpuB] = cpu.map((samples) => median(samples));
      console.log(
        `| ${functionName} | ${fixed(median(a), 1)} ms (${fixed(percentile(a, 90), 1)}) | ${fixed(median(b), 1)} ms (${fixed(percentile(b, 90), 1)}) | ${fixed(median(b) / median(a), 2)} | ${fixed(cpuA!, 1)} ms | ${fixed(cpuB!, 1)} ms | ${fixed(cpuB! / cpuA!, 2)} |`,
      );
    },
  });
};

if (import.meta.main) await main();
