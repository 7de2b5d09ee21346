// Joins along foreign keys: the shortest path from the relation a question is about to each
// relation it also names. Two shortest paths (orders → addresses by billing_address_id and by
// shipping_address_id) are an ambiguity to ask about, never a guess, unless only one of them
// follows keys up all the way. A path that goes from a
// parent to its children multiplies rows ("fans out"): counts then count distinct keys and
// sums are refused, since they would add the same row more than once.
import type { Edge, Lexicon } from './types.ts';

export interface JoinStep {
  edge: Edge;
  /** The relation already in the query. */
  from: string;
  /** The relation this step adds. */
  to: string;
  /** From a parent to its children: more rows than before. */
  toMany: boolean;
}

export type PathResult =
  | { kind: 'path'; steps: JoinStep[] }
  | { kind: 'ambiguous'; paths: JoinStep[][] }
  | { kind: 'none' };

export const MAX_HOPS = 4;

const idColumn = (name: string): boolean => /(^|_)id$/i.test(name) || /^[a-z]{1,2}id$/i.test(name);

const stepsFrom = (lexicon: Lexicon, relation: string): JoinStep[] =>
  (lexicon.edges.get(relation) ?? []).map((edge) =>
    edge.child === relation
      ? { edge, from: relation, to: edge.parent, toMany: false }
      : { edge, from: relation, to: edge.child, toMany: true },
  );

/** Shortest paths from any of `sources` to `to` (breadth first, at most two kept per relation). */
const shortestPaths = (lexicon: Lexicon, sources: Iterable<string>, to: string): PathResult => {
  let frontier = new Map<string, JoinStep[][]>();
  for (const source of sources) frontier.set(source, [[]]);
  if (frontier.has(to)) return { kind: 'path', steps: [] };
  const seen = new Set(frontier.keys());
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const next = new Map<string, JoinStep[][]>();
    for (const [relation, paths] of frontier) {
      for (const step of stepsFrom(lexicon, relation)) {
        if (seen.has(step.to)) continue;
        const reached = next.get(step.to) ?? [];
        for (const path of paths) if (reached.length < 2) reached.push([...path, step]);
        next.set(step.to, reached);
      }
    }
    const found = next.get(to);
    if (found) {
      if (found.length === 1) return { kind: 'path', steps: found[0]! };
      // Declared keys before inferred ones, and among inferred ones, ids before names
      // (location.restaurant_id before location.city_name).
      const byId = found.filter((path) =>
        path.every((step) => !step.edge.inferred || step.edge.childColumns.every(idColumn)),
      );
      if (byId.length === 1) return { kind: 'path', steps: byId[0]! };
      // Then the one path that only follows keys up, each row to the one row it names
      // (placements → vacancies → clients), over a path through another relation's many rows
      // (placements ← invoices → clients).
      const upward = found.filter((path) => path.every((step) => !step.toMany));
      return upward.length === 1 ? { kind: 'path', steps: upward[0]! } : { kind: 'ambiguous', paths: found };
    }
    if (next.size === 0) break;
    for (const relation of next.keys()) seen.add(relation);
    frontier = next;
  }
  return { kind: 'none' };
};

/** Shortest paths from `from` to `to`. */
export const pathBetween = (lexicon: Lexicon, from: string, to: string): PathResult =>
  shortestPaths(lexicon, [from], to);

/**
 * The one shortest path from `subject` down to rows of `related` along keys that each point back
 * towards the subject (appointments → pets → owners), at most three steps: what "owners who never
 * booked an appointment" looks through. Undefined when there is none or more than one.
 */
export const pointingPath = (lexicon: Lexicon, subject: string, related: string): JoinStep[] | undefined => {
  if (subject === related) return undefined;
  const found = pathBetween(lexicon, subject, related);
  const paths = found.kind === 'path' ? [found.steps] : found.kind === 'ambiguous' ? found.paths : [];
  // "products never ordered": products ← order items → orders; an order item is an order of the
  // product, so the rows to look for are the ones the keys pointing back reach (order items).
  // A path that reaches the related rows themselves wins over one cut short.
  const whole = paths.filter((steps) => steps.every((step) => step.toMany));
  const pointing = (whole.length > 0 ? whole : paths)
    .map((steps) => {
      const end = steps.findIndex((step) => !step.toMany);
      return end < 0 ? steps : steps.slice(0, end);
    })
    .filter(
      (steps) =>
        steps.length > 0 &&
        steps.length <= 3 &&
        steps.every((step) => step.toMany && step.edge.childColumns.length === 1),
    );
  const distinct = [
    ...new Map(pointing.map((steps) => [steps.map((step) => step.to).join('>'), steps])).values(),
  ];
  return distinct.length === 1 ? distinct[0] : undefined;
};

export interface JoinPlan {
  base: string;
  /** In join order: each step's `from` is the base or an earlier step's `to`. */
  steps: JoinStep[];
  fansOut: boolean;
}

export type PlanResult =
  | { kind: 'plan'; plan: JoinPlan }
  | { kind: 'ambiguous'; target: string; paths: JoinStep[][] }
  | { kind: 'unreachable'; target: string };

/**
 * The joins that bring every one of `targets` into a query over `base`. Nearest targets join
 * first, and each later one joins to the nearest relation already in the query: "orders of
 * customers in Spain" reaches countries through customers, which the question named, although
 * orders also reach countries through stores.
 */
export const planJoins = (lexicon: Lexicon, base: string, targets: Iterable<string>): PlanResult => {
  const distance = new Map<string, number>();
  for (const target of new Set(targets)) {
    if (target === base) continue;
    const path = pathBetween(lexicon, base, target);
    if (path.kind === 'none') return { kind: 'unreachable', target };
    distance.set(target, path.kind === 'path' ? path.steps.length : (path.paths[0]?.length ?? 0));
  }
  const order = [...distance.keys()].sort(
    (a, b) => distance.get(a)! - distance.get(b)! || a.localeCompare(b),
  );
  const steps: JoinStep[] = [];
  const joined = new Set([base]);
  for (const target of order) {
    if (joined.has(target)) continue;
    const path = shortestPaths(lexicon, joined, target);
    if (path.kind === 'none') return { kind: 'unreachable', target };
    if (path.kind === 'ambiguous') return { kind: 'ambiguous', target, paths: path.paths };
    for (const step of path.steps) {
      joined.add(step.to);
      steps.push(step);
    }
  }
  return { kind: 'plan', plan: { base, steps, fansOut: steps.some((step) => step.toMany) } };
};

/** Whether `to` can be reached from `from` along one unambiguous path. */
export const reachable = (lexicon: Lexicon, from: string, to: string): boolean =>
  pathBetween(lexicon, from, to).kind === 'path';
