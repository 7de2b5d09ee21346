// Figure (n): DynamoDB calls per control-plane request (docs/control-plane.md), measured in a fresh
// process (bench/control-plane-child.ts) through the local gateway on DynamoDB Local; reported,
// with no target (the control plane is not on any request's hot path).
import { type Figure, fixed, printFigure, runBenchChild, type Section, table } from './common.ts';
import type { ControlPlaneChildMessage } from './control-plane-child.ts';

export const measureControlPlane = async (): Promise<Section> => {
  const { routes, notes } = await runBenchChild<ControlPlaneChildMessage>('control-plane-child.ts');
  const summary = routes.map((route) => `${route.route.replace(/ \(.*\)$/, '')} ${fixed(route.calls, 1)}`);
  const figure: Figure = {
    name: '(n) DynamoDB calls per control-plane request, limiter excluded (+ 1 limiter call each)',
    measured: `${fixed(Math.min(...routes.map((r) => r.calls)), 1)} to ${fixed(Math.max(...routes.map((r) => r.calls)), 1)} (${routes.length} routes)`,
    target: 'reported',
  };
  printFigure(figure);
  for (const line of summary) console.log(`  ${line}`);
  const markdown = `## (n) The control plane: DynamoDB calls per request

${table(
  ['Request (warm, manage sk_ key)', 'Status', 'DynamoDB calls', 'limiter calls'],
  routes.map((route) => [
    route.route,
    String(route.status),
    fixed(route.calls, 1),
    fixed(route.limiterCalls, 1),
  ]),
)}

${notes.map((note) => `- ${note}`).join('\n')}

Method: bench/control-plane-child.ts starts DynamoDB Local in memory and the local gateway, and
asks each route 5 times warm (the key and organization caches filled) with a manage key of an
organization no limit is reached on; writes get a new id or name each round. Calls are counted on
the document client (bench/call-counter.ts), the limiter's (its own partition) apart. A write
reads what it changes first (the database, the pattern, the key) and checks it belongs to the
caller's organization; a database's name is compared with the listed ones.
`;
  return { figures: [figure], markdown };
};
