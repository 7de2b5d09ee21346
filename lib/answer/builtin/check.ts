// The checks every reading passes before it is answered: the relations it reads are joined one
// way only, not too loosely, and a sum or average does not count rows twice; a verb the question
// skipped between two relations must be able to be their link. Each failure is a clarification.
import { clarify, quoted } from './clarify.ts';
import { metricProblem } from './glossary-use.ts';
import { type Intent, relationsOf } from './intent.ts';
import { type JoinStep, pathBetween, planJoins } from './joins.ts';
import { tableName } from './lexicon.ts';
import type { Clarification, Interpretation, Lexicon } from './types.ts';
import { capitalize, joinAnd, sameStem } from './words.ts';

/** Checks an intent against the catalog: joins exist and are unambiguous, sums do not double count. */
export const checkIntent = (lexicon: Lexicon, intent: Intent): Interpretation => {
  const tables = relationsOf(intent);
  const planned = planJoins(lexicon, intent.subject, tables);
  const name = (table: string) => lexicon.relations.get(table)?.other ?? table;
  if (planned.kind === 'unreachable') {
    return {
      kind: 'clarify',
      reason: 'unreachable',
      message: `I can't find how ${name(planned.target)} relate to ${name(intent.subject)} in this database, so I can't combine them in one answer.`,
      candidates: [
        { table: tableName(lexicon, intent.subject) },
        { table: tableName(lexicon, planned.target) },
      ],
    };
  }
  if (planned.kind === 'ambiguous') {
    const routes = planned.paths.map((path) =>
      path
        .map((step) => `${tableName(lexicon, step.edge.child)}.${step.edge.childColumns.join('+')}`)
        .join(' → '),
    );
    return {
      kind: 'clarify',
      message: `${name(intent.subject)} and ${name(planned.target)} are linked in more than one way (${joinAnd(routes, 'or')}). Which link do you mean?`,
      candidates: planned.paths.map((path) => ({
        table: tableName(lexicon, path[0]!.edge.child),
        column: path[0]!.edge.childColumns.join(','),
      })),
    };
  }
  // A relation reached through a parent and then another of its children is only a sibling's
  // sibling (products … order items … orders … stores … employees): too loose to answer.
  for (const table of tables) {
    const path = pathBetween(lexicon, intent.subject, table);
    if (path.kind !== 'path') continue;
    const turns = path.steps.filter(
      (step, index) => index > 0 && step.toMany !== path.steps[index - 1]!.toMany,
    );
    if (turns.length > 1) {
      return {
        kind: 'clarify',
        reason: 'unreachable',
        message: `${capitalize(name(intent.subject))} and ${name(table)} are only loosely related (through ${joinAnd(
          path.steps.slice(0, -1).map((step) => name(step.to)),
        )}). Could you ask about them separately?`,
        candidates: [{ table: tableName(lexicon, intent.subject) }, { table: tableName(lexicon, table) }],
      };
    }
  }
  // "members who never hired a machine": rows with no related row of a relation cannot also be
  // joined through it (that answer is always empty); the relation beyond it is asked back.
  const joined = new Set(planned.plan.steps.map((step) => step.to));
  for (const filter of intent.filters) {
    if (filter.kind !== 'absent' || filter.ref.table === intent.subject || !joined.has(filter.ref.table))
      continue;
    const beyond = [...tables].filter((table) => table !== filter.ref.table && table !== intent.subject);
    return {
      kind: 'clarify',
      message: `${capitalize(name(intent.subject))} with no ${name(filter.ref.table)} have none to link them to ${beyond.length > 0 ? joinAnd(beyond.map(name)) : 'anything else'}. Could you ask about ${name(intent.subject)} with no ${name(filter.ref.table)} on their own?`,
    };
  }
  const metric = intent.metric;
  const glossaryProblem = metricProblem(lexicon.definitions, intent);
  if (glossaryProblem) return { kind: 'clarify', message: glossaryProblem };
  if (planned.plan.fansOut && metric && (metric.fn === 'sum' || metric.fn === 'avg')) {
    const many = planned.plan.steps.filter((step) => step.toMany).map((step) => name(step.to));
    return {
      kind: 'clarify',
      reason: 'fan-out',
      message: `Adding up ${name(intent.subject)} across their ${joinAnd(many)} would count some of them more than once. Could you ask about one of them at a time?`,
    };
  }
  return { kind: 'intent', intent };
};

/**
 * A verb the question uses between two relations ("orders handled by employees") was skipped: it
 * can only be their link when they are linked directly or along one direction. Rows related only
 * through a shared parent (orders → stores ← employees) are not what the verb says: ask.
 */
export const checkVerbs = (
  lexicon: Lexicon,
  intent: Intent,
  verbs: readonly string[],
): Clarification | undefined => {
  const tables = new Set(
    [
      ...intent.filters.flatMap((filter) => (filter.kind === 'absent' ? [] : [filter.ref.table])),
      ...(intent.group?.kind === 'entity' ? [intent.group.table] : []),
    ].filter((table) => table !== intent.subject),
  );
  for (const table of tables) {
    const path = pathBetween(lexicon, intent.subject, table);
    if (path.kind !== 'path') continue;
    const upThenDown = path.steps.some(
      (step, index) => index > 0 && step.toMany && !path.steps[index - 1]!.toMany,
    );
    if (upThenDown) {
      const name = (key: string) => lexicon.relations.get(key)?.other ?? key;
      return clarify(
        `I'm not sure how ${quoted(verbs[0]!)} connects ${name(intent.subject)} and ${name(table)}: they are only linked through ${joinAnd(path.steps.slice(0, -1).map((step) => name(step.to)))}. Could you say how they relate?`,
        [{ table: tableName(lexicon, intent.subject) }, { table: tableName(lexicon, table) }],
      );
    }
  }
};

/**
 * Two ways to join the subject to a relation, and a word of the question names a relation on
 * exactly one of them ("candidates we placed at Northwind": through placements, not
 * applications): the intent that joins that way, the relation kept as a `present` filter on its
 * key (as "orders of customers in Spain" keeps customers). Undefined otherwise.
 */
export const routedByWords = (
  lexicon: Lexicon,
  intent: Intent,
  words: readonly string[],
): Intent | undefined => {
  const planned = planJoins(lexicon, intent.subject, relationsOf(intent));
  if (planned.kind !== 'ambiguous') return undefined;
  const named = (path: readonly JoinStep[]): string[] =>
    path
      .slice(0, -1)
      .map((step) => step.to)
      .filter((table) => {
        const relation = lexicon.relations.get(table);
        return relation?.other.split(' ').some((part) => words.some((word) => sameStem(word, part)));
      });
  const routes = planned.paths.map(named);
  const chosen = routes.filter((tables) => tables.length > 0);
  if (chosen.length !== 1 || routes.length < 2) return undefined;
  const table = chosen[0]![0]!;
  const key = lexicon.relations.get(table)?.primaryKey[0];
  if (!key) return undefined;
  return { ...intent, filters: [...intent.filters, { kind: 'present', ref: { table, column: key } }] };
};
