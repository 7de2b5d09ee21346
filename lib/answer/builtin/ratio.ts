// Ratios of two counts or totals ("the ratio of restaurants with a rating above 4 to restaurants
// with a rating below 4 in New York", "Italian restaurants out of all restaurants in Los Angeles",
// "the ratio of publications to authors"). Each side is read as a question of its own ("how many
// …"), through the whole pipeline; a condition the second side states on a column the first does
// not mention ("in New York") applies to both, since it scopes the comparison. One SELECT divides
// the two values, each a scalar subquery (both guards accept them). Ratios per group ("in each
// state", "by continent", "over the years") are not handled: the question is asked back.

import type { DialectName } from '#lib/core/catalog.ts';
import type { Proposal } from '../engine.ts';
import { describeIntent } from './describe.ts';
import type { Filter, Intent } from './intent.ts';
import { renderSql } from './render.ts';
import type { Lexicon } from './types.ts';

export interface RatioQuestion {
  left: string;
  right: string;
  /** "percentage": the ratio × 100. */
  percent: boolean;
}

const pattern =
  /^(?:(?:what|how)(?:'s| is| was| are)?\s+)?(?:(?:show|give|tell|find|compute|calculate)(?: me)?\s+)?(?:the\s+)?(ratio|proportion|fraction|share|percentage|percent)\s+of\s+(.+?)\s+(?:to|versus|vs\.?|compared\s+(?:to|with)|out\s+of|among|relative\s+to)\s+(.+?)\s*[?.!]*$/i;

/** A group or a trend makes it a ratio per group: not handled. */
const perGroup =
  /\b(each|every|per|by|across|over the years|over time|change|vary|differ|trend|annual|monthly)\b/i;

/** The two sides of a ratio question, or undefined when it is not one the engine reads. */
export const ratioQuestion = (question: string): RatioQuestion | undefined => {
  const match = pattern.exec(question.trim());
  if (!match) return undefined;
  const [, word, left, right] = match;
  if (!left || !right || perGroup.test(left) || perGroup.test(right)) return undefined;
  return { left: left.trim(), right: right.trim(), percent: /^percent/i.test(word ?? '') };
};

/** A side as a question of its own: "how many …" unless it already says how to measure it. */
export const sideQuestion = (side: string): string =>
  /^(?:the\s+)?(?:total|number|count|sum|average|amount|how many)\b/i.test(side)
    ? side.replace(/^all\s+/i, '')
    : `how many ${side.replace(/^(?:all\s+(?:the\s+)?|the\s+)/i, '')}`;

const sameColumn = (a: Filter, b: Filter): boolean =>
  a.ref.table === b.ref.table && a.ref.column === b.ref.column;

/** The second side's conditions on columns the first side does not mention apply to both. */
export const shareScope = (left: Intent, right: Intent): Intent => {
  if (left.subject !== right.subject) return left;
  const shared = right.filters.filter(
    (filter) => filter.kind !== 'present' && !left.filters.some((own) => sameColumn(own, filter)),
  );
  return shared.length > 0 ? { ...left, filters: [...left.filters, ...shared] } : left;
};

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** One value per side, no grouping, no ranking: what a ratio can divide. */
const divisible = (intent: Intent): boolean =>
  intent.metric !== undefined &&
  intent.group === undefined &&
  intent.order === undefined &&
  intent.limit === undefined;

/** The proposal for a ratio of two intents, or undefined when either side is not one value. */
export const ratioProposal = (
  lexicon: Lexicon,
  left: Intent,
  right: Intent,
  dialect: DialectName,
  percent: boolean,
): Proposal | undefined => {
  if (!divisible(left) || !divisible(right)) return undefined;
  const scoped = shareScope(left, right);
  const top = renderSql(lexicon, scoped, dialect);
  const bottom = renderSql(lexicon, right, dialect);
  if (top.kind !== 'sql' || bottom.kind !== 'sql') return undefined;
  const indent = (sql: string) => sql.replaceAll('\n', '\n  ');
  const factor = percent ? '100.0' : '1.0';
  const column = percent ? 'percentage' : 'ratio';
  const sql = `SELECT (\n  ${indent(top.rendered.sql)}\n) * ${factor} / NULLIF((\n  ${indent(bottom.rendered.sql)}\n), 0) AS ${column}`;
  const description = `${percent ? 'The percentage' : 'The ratio'} of: ${lowerFirst(describeIntent(lexicon, scoped))}, to: ${lowerFirst(describeIntent(lexicon, right))}`;
  return {
    kind: 'sql',
    sql,
    description,
    interpretation: description,
    shape: {
      kind: 'value',
      label: `the ${column}`,
      noun: { one: column, other: `${column}s` },
      column,
      format: 'number',
    },
  };
};
