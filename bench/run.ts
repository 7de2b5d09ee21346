// npm run bench: measures the figures docs/design.md sets targets for, prints each as it is measured,
// and rewrites BENCHMARKS.md with them, the date and the machine.
//   (a) middleware-chain overhead per request (mocked SDK, fresh process)
//   (b) bundle size of each function (serverless package --stage prod), packaged twice: the AWS
//       SDK bundled (deployed) and from the runtime; the PGlite worker of the answering functions
//   (c) cold module load of each bundle, both packages side by side (fresh processes, with an
//       empty-module baseline)
//   (d) warm GET /api/v1/branding through the local gateway on DynamoDB Local
//   (e) conversations: page 1 vs page 200, DynamoDB calls per request, contended appends
//   (f) limits: the limiter's DynamoDB round trips per request and its latency, limits on vs off
//   (g) the SQL guard: rewrite time over the corpus, parser cold load and bundle, planner check
//   (h) connectors: execute overhead per engine (real servers when their URLs are set)
//   (i) the builtin answering engine: time per question on the demo and a 50-table schema
//   (j) a chat message end to end through the local gateway on the demo database, with its split
//   (k) streaming answers through the local gateway: first event and whole stream, unbuffered events
//   (l) the chat widget's script: gzipped size against its 30 KB budget
//   (m) the tenant fence: the corpus at 100,000 rows per table, fenced vs the old rewrite
//   (n) the control plane: DynamoDB calls per management request through the local gateway
// A figure that misses its target is printed and recorded as FAIL; the run still completes.
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { measureBuiltin } from './builtin.ts';
import { coldImportSection, packageBundles, sizeSection } from './bundles.ts';
import { measureChain } from './chain.ts';
import { measureChat } from './chat.ts';
import { type Figure, fixed, printFigure, root, type Section, table, verdict } from './common.ts';
import { measureConnectors } from './connectors.ts';
import { measureControlPlane } from './control-plane.ts';
import { measureConversations } from './conversations.ts';
import { evalBlock, withEvalBlock } from './eval-block.ts';
import { measureFence } from './fence.ts';
import { measureGateway } from './gateway.ts';
import { measureLimits } from './limits.ts';
import { loadBlock, withLoadBlock } from './load-block.ts';
import { measureSqlGuard } from './sql.ts';
import { measureStream } from './stream.ts';
import { measureWidget } from './widget.ts';

const started = performance.now();
const date = new Date();
const machine = {
  cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
  cores: availableParallelism(),
  memoryGiB: totalmem() / 1024 ** 3,
  os: `${type()} ${release()} ${process.arch}`,
  node: process.version,
};
const machineLine = `${machine.cpu}, ${machine.cores} cores, ${fixed(machine.memoryGiB, 0)} GiB RAM, ${machine.os}, Node ${machine.node}`;
// Other work on the machine skews every figure (cold imports most): the load average tells.
const loadLine = (): string =>
  `load average ${loadavg()
    .map((value) => fixed(value, 2))
    .join(' / ')} (1 / 5 / 15 min)`;
const loadAtStart = loadLine();

console.log(`tabletalk benchmarks — ${date.toISOString()}`);
console.log(`machine: ${machineLine}`);
console.log(`${loadAtStart}\n`);

const step = async <T>(title: string, work: () => Promise<T>): Promise<T> => {
  console.log(title);
  const stepStarted = performance.now();
  const result = await work();
  console.log(`  (${fixed((performance.now() - stepStarted) / 1000, 1)} s)\n`);
  return result;
};

const sections: Section[] = [];
sections.push(await step('(a) middleware-chain overhead, mocked SDK, fresh process…', measureChain));
const bundles = await step('(b) serverless package --stage prod…', async () => {
  const packaged = await packageBundles();
  sections.push(sizeSection(packaged));
  return packaged;
});
sections.push(
  await step('(c) cold import of each bundle, fresh processes…', () => coldImportSection(bundles)),
);
sections.push(await step('(d) warm GET /api/v1/branding through the local gateway…', measureGateway));
sections.push(
  await step('(e) conversations: cursor pages, calls per request, appends…', measureConversations),
);
sections.push(await step('(f) limits: limiter round trips and latency, limits on vs off…', measureLimits));
sections.push(
  await step('(g) SQL guard: rewrite time, parser cold load, bundle, planner check…', measureSqlGuard),
);
sections.push(await step('(h) connectors: execute overhead per engine…', measureConnectors));
sections.push(
  await step('(i) builtin engine: time per question, demo and 50-table schemas…', measureBuiltin),
);
sections.push(await step('(j) chat message end to end through the local gateway…', measureChat));
{
  // The chart and follow-ups every answer now carries, against the chat p50 of this same run.
  const extras = sections.find((section) => section.values?.extrasP50Ms !== undefined)?.values?.extrasP50Ms;
  const chat = sections.find((section) => section.values?.chatP50Ms !== undefined)?.values?.chatP50Ms;
  if (extras !== undefined && chat !== undefined && chat > 0) {
    const share = extras / chat;
    const figure: Figure = {
      name: '(j) chart + follow-ups, share of the chat p50',
      measured: `${fixed(share * 100, 1)} % (${fixed(extras, 2)} of ${fixed(chat, 1)} ms)`,
      target: '≤ 10 %',
      pass: share <= 0.1,
    };
    printFigure(figure);
    sections.push({ figures: [figure], markdown: '' });
  }
}
sections.push(await step('(k) streaming answers through the local gateway…', measureStream));
sections.push(await step('(l) widget script: gzipped size…', measureWidget));
sections.push(
  await step('(m) the tenant fence: its cost against the old rewrite, 100,000 rows per table…', measureFence),
);
sections.push(
  await step('(n) the control plane: DynamoDB calls per management request…', measureControlPlane),
);

const figures: Figure[] = sections.flatMap((section) => section.figures);
const checked = figures.filter((figure) => figure.pass !== undefined);
const failed = checked.filter((figure) => !figure.pass);
const seconds = (performance.now() - started) / 1000;
const loadAtEnd = loadLine();

const report = `# Benchmarks

Generated by \`npm run bench\` (bench/run.ts) on ${date.toISOString()}; every run rewrites this file.

Machine: ${machineLine}.
Before the run: ${loadAtStart}; after: ${loadAtEnd}. Total run time ${fixed(seconds, 0)} s.

## Summary

${table(
  ['Figure', 'Measured', 'Target', 'Result'],
  figures.map((figure) => [figure.name, figure.measured, figure.target, verdict(figure.pass)]),
)}

${sections.map((section) => section.markdown).join('\n')}`;

// The eval and load blocks are carried over from the file this run replaces.
writeFileSync(
  join(root, 'BENCHMARKS.md'),
  withLoadBlock(withEvalBlock(report, evalBlock(root)), loadBlock(root)),
);
console.log(
  `${checked.length - failed.length}/${checked.length} checked figures within target${failed.length ? ` — FAIL: ${failed.map((f) => f.name).join('; ')}` : ''}.`,
);
console.log(`Wrote BENCHMARKS.md (${fixed(seconds, 0)} s).`);
