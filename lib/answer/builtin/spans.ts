// Durations as a question asks them: the unit it names ("in hours", "(days)", "how many
// minutes"), read apart and applied to the intent after; a bare "how long" that names no
// relation's rows; the relations that have a span (durations.ts `durationPairs`).
import type { DurationUnit, Intent } from './intent.ts';
import { relationOf } from './lexicon.ts';
import { durationUnits } from './phrases.ts';
import type { Lexicon } from './types.ts';

/**
 * "in hours", "(days)", "how many minutes": the unit a duration is asked in, and the question
 * without it; read only when the schema has a duration (durations.ts `durationPairs`).
 */
export const durationUnitIn = (
  lexicon: Lexicon,
  text: string,
): { text: string; unit?: DurationUnit } | undefined => {
  if (![...lexicon.metrics.values()].some((measure) => measure.kind === 'duration')) return undefined;
  // "how long did leases last": the verb of a span, not a period ("last month").
  let rest = /\bhow long\b/i.test(text)
    ? text.replace(/\b(?:last|lasted|lasting)\b(?!\s+(?:\d|week|month|year|day|quarter|time|\w+day))/gi, ' ')
    : text;
  const match = durationUnitPattern.exec(rest);
  const unit = match ? (match[1]!.toLowerCase().replace(/s$/, '') as DurationUnit) : undefined;
  if (match)
    rest = `${rest.slice(0, match.index)}${match[0].toLowerCase().startsWith('how') ? 'how long ' : ' '}${rest.slice(match.index + match[0].length)}`;
  rest = rest.replace(/\s+/g, ' ').trim();
  return rest === text ? undefined : { text: rest, ...(unit ? { unit } : {}) };
};

/** "in hours", "(days)", "how many minutes": a unit of `durationUnits` (phrases.ts), singular or plural. */
const durationUnitPattern = new RegExp(
  `(?:\\bin\\s+|\\(\\s*|\\bhow many\\s+)(${durationUnits.map((unit) => `${unit}s?`).join('|')})\\b\\s*\\)?`,
  'i',
);

/** The intent with its duration counted in `unit`, named with it ("average time to close in hours"). */
export const inUnit = (intent: Intent, unit: DurationUnit | undefined): Intent => {
  const { metric, order } = intent;
  if (order?.by === 'duration' && unit)
    return { ...intent, order: { ...order, measure: { ...order.measure, unit } } };
  if (!metric || metric.fn === 'count' || metric.measure.kind !== 'duration') return intent;
  const chosen = unit ?? metric.measure.unit;
  const name = `${metric.name === undefined || metric.name === 'how long' ? 'duration' : metric.name} in ${chosen}s`;
  return { ...intent, metric: { ...metric, measure: { ...metric.measure, unit: chosen }, name } };
};

/**
 * "how long did phone calls last": the bare "how long" is the span of the rows the question names
 * by their relation's own word, averaged or ranked; anything else (rows named only by a value, a
 * sum nobody asked for) is asked back.
 */
export const vagueSpan = (lexicon: Lexicon, text: string, intent: Intent): boolean => {
  const { metric } = intent;
  if (!metric || metric.fn === 'count' || metric.measure.kind !== 'duration' || metric.name !== 'how long')
    return false;
  const relation = relationOf(lexicon, intent.subject);
  const words = new Set(text.toLowerCase().split(/[^a-z0-9]+/));
  const named = [relation.one, relation.other].some((name) =>
    name.split(' ').every((word) => words.has(word)),
  );
  return !named || metric.fn === 'sum';
};

/** The relations whose rows have a span ("leases", "loans"). */
export const spanRelations = (lexicon: Lexicon): string[] => [
  ...new Set(
    [...lexicon.metrics.values()].flatMap((measure) =>
      measure.kind === 'duration' ? [relationOf(lexicon, measure.left.table).other] : [],
    ),
  ),
];

export const hasDuration = (interpretation: { kind: string; intent?: Intent }): boolean =>
  interpretation.intent?.order?.by === 'duration' ||
  (interpretation.intent?.metric !== undefined &&
    interpretation.intent.metric.fn !== 'count' &&
    interpretation.intent.metric.measure.kind === 'duration');
