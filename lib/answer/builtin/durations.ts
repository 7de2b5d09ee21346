// Step 2 of the builtin pipeline, spans: two time columns of one relation that begin and end a
// span of its row (start_date/end_date, opened_at/solved_at, check_in/check_out), and the
// phrases each span answers to as a measure ("time to solve", "lease duration").
import { durationUnits, SPAN_KINDS } from './phrases.ts';
import type { ColumnInfo, RelationInfo } from './types.ts';
import { lexicalDatabase } from './wordnet.ts';

// ---- durations ---------------------------------------------------------------------------------

/** Words that mark when something began, and when it ended (with the verb that ends it). */
const startWords = new Set([
  'start',
  'started',
  'begin',
  'began',
  'opened',
  'open',
  'created',
  'from',
  'in',
  'pickup',
  'picked',
  'submitted',
  'requested',
  'reported',
  'admitted',
  'issued',
  'placed',
]);
const endWords: Record<string, string> = {
  end: 'end',
  ended: 'end',
  finish: 'finish',
  finished: 'finish',
  closed: 'close',
  close: 'close',
  resolved: 'resolve',
  solved: 'solve',
  settled: 'settle',
  completed: 'complete',
  to: 'end',
  out: 'end',
  delivered: 'deliver',
  dropoff: 'drop off',
  returned: 'return',
  discharged: 'discharge',
  shipped: 'ship',
  fulfilled: 'fulfil',
};
/** Words of a time column's name that say only that it holds a time. */
const timeNameWords = new Set(['at', 'on', 'date', 'time', 'datetime', 'timestamp', 'dt', 'ts', 'up', 'off']);

export interface DurationPair {
  start: ColumnInfo;
  end: ColumnInfo;
  /** The verb that ends it: "close" of closed_at, "end" of end_date. */
  verb: string;
  /** A stay (check in → check out, admitted → discharged). */
  stay: boolean;
}

/**
 * Two time columns of one relation that begin and end one span of its row: named alike but for a
 * word of beginning and one of ending (start_date/end_date, check_in/check_out, date_from/date_to)
 * or an event and what closes it (opened_at/closed_at, created_at/resolved_at). Bookkeeping
 * (updated, deleted) and planned dates (due) end nothing.
 */
export const durationPairs = (relation: RelationInfo): DurationPair[] => {
  const core = (column: ColumnInfo) => column.words.filter((word) => !timeNameWords.has(word));
  const times = relation.columns.filter((column) => column.temporal);
  const pairs: DurationPair[] = [];
  for (const start of times) {
    const startCore = core(start);
    const startAt = startCore.findIndex((word) => startWords.has(word));
    if (startAt < 0) continue;
    for (const end of times) {
      if (end === start) continue;
      const endCore = core(end);
      const endAt = endCore.findIndex((word) => endWords[word] !== undefined);
      if (endAt < 0) continue;
      const restStart = startCore.filter((_, index) => index !== startAt).join(' ');
      const restEnd = endCore.filter((_, index) => index !== endAt).join(' ');
      if (restStart !== restEnd) continue;
      const verb = endWords[endCore[endAt]!]!;
      pairs.push({
        start,
        end,
        verb,
        stay: /\b(check|stay)\b/.test(restStart) || verb === 'discharge',
      });
    }
  }
  return pairs;
};

/** The phrases a duration answers to, and its measure in the unit its columns suggest. */
export const durationPhrases = (relation: RelationInfo, pair: DurationPair, alone: boolean): string[] => {
  const verb = pair.verb;
  const own = [
    `time to ${verb}`,
    `time taken to ${verb}`,
    `${verb} time`,
    `days to ${verb}`,
    `hours to ${verb}`,
  ];
  const whole = [
    'duration',
    'length',
    'how long',
    'time taken',
    ...(pair.stay ? ['stay', 'length of stay'] : []),
  ];
  return [...own, ...whole.map((phrase) => `${relation.one} ${phrase}`), ...(alone ? whole : [])];
};

/**
 * "downtime" of downtime_events, "leave" of leave_requests: a word of the name of a relation with
 * one span that is itself a length of time (in its commonest sense, WordNet's time period or
 * interval) names that span, alone and with a unit ("downtime hours").
 */
export const spanNouns = (relation: RelationInfo, pairs: readonly DurationPair[]): string[][] => {
  const database = pairs.length === 1 ? lexicalDatabase() : undefined;
  if (!database) return [];
  const words = relation.one
    .split(' ')
    .filter((word) => database.related(word, 'n', 1).broader.some((broader) => SPAN_KINDS.has(broader)));
  return words.flatMap((word) => [[word], ...durationUnits.map((unit) => [word, `${unit}s`])]);
};
