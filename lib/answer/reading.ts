// What an answer read, in the user's words: its measure ("revenue", "orders"), what it is broken
// down by ("category", "customer", "month"), its period and its top N. Made from the builtin
// engine's intent (its saved state, or, for an answer of another engine, the builtin's reading of
// the same question on the same catalog), it names a chart's axes (lib/answer/chart.ts) and is
// what suggested follow-ups continue (lib/answer/suggestions.ts). Undefined when the question
// has no measure the builtin reads (a list of rows, a question it asks back).
import type { Catalog } from '#lib/core/catalog.ts';
import { type ColumnRef, type Intent, type Metric, readState } from './builtin/intent.ts';
import { plural, singular } from './builtin/words.ts';
import type { Engine } from './engine.ts';

export interface Reading {
  /** `answer`: the answering engine's own (the builtin's saved state); `question`: the builtin's reading of the question. */
  source: 'answer' | 'question';
  /** The measure as a question says it: "revenue", "orders", "average unit price". */
  measure: string;
  /** Its axis title: "Revenue", "Orders", "Average unit price". */
  measureTitle: string;
  /** Whether the measure counts rows ("How many orders…"). */
  count: boolean;
  /** The relation counted or summed over (`schema.name`). */
  subject: string;
  /** What the rows are per, when grouped: "category", "customer", "month". */
  dimension?: string;
  /** The grouping's column (a column or time grouping) or relation (an entity grouping). */
  groupedBy?:
    | { kind: 'column'; ref: ColumnRef }
    | { kind: 'entity'; table: string }
    | { kind: 'time'; unit: string };
  /** The period the rows are limited to, as the user said it, with its dates (`to` exclusive). */
  period?: { label: string; from?: string; to?: string; ref: ColumnRef };
  limit?: number;
}

/** `order_items` → "order items"; `unitPrice` → "unit price". */
export const wordsOf = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase();

const nameOf = (table: string): string => table.slice(table.lastIndexOf('.') + 1);
const lastWordSingular = (phrase: string): string => {
  const words = phrase.split(' ');
  return [...words.slice(0, -1), singular(words.at(-1) ?? '')].join(' ');
};
const lastWordPlural = (phrase: string): string => {
  const words = phrase.split(' ');
  return [...words.slice(0, -1), plural(words.at(-1) ?? '')].join(' ');
};
/** A relation's rows as a noun: `public.order_items` → "order items". */
export const relationNoun = (table: string, count: 'one' | 'many'): string => {
  const words = wordsOf(nameOf(table));
  return count === 'one' ? lastWordSingular(words) : lastWordPlural(lastWordSingular(words));
};
/** Columns that name a row say nothing on their own: `categories.name` reads as "category". */
const naming = /^(?:name|title|label|description)$/i;
export const columnNoun = (ref: ColumnRef): string =>
  naming.test(ref.column) ? relationNoun(ref.table, 'one') : wordsOf(ref.column);

const fnWords: Record<string, string> = { sum: 'total', avg: 'average', min: 'lowest', max: 'highest' };

const measureOf = (metric: Metric, subject: string): string => {
  if (metric.fn === 'count')
    return metric.distinct ? lastWordPlural(columnNoun(metric.distinct)) : relationNoun(subject, 'many');
  if (metric.name) return metric.name.toLowerCase();
  const measured =
    metric.measure.kind === 'glossary'
      ? metric.measure.term
      : metric.measure.kind === 'column'
        ? wordsOf(metric.measure.ref.column)
        : `${wordsOf(metric.measure.left.column)} × ${wordsOf(metric.measure.right.column)}`;
  return `${fnWords[metric.fn] ?? metric.fn} ${measured}`;
};

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const readingOfIntent = (
  intent: Intent,
  source: Reading['source'] = 'question',
): Reading | undefined => {
  if (!intent.metric) return undefined;
  const measure = measureOf(intent.metric, intent.subject);
  const reading: Reading = {
    source,
    measure,
    measureTitle: capitalised(measure),
    count: intent.metric.fn === 'count',
    subject: intent.subject,
  };
  const { group } = intent;
  if (group?.kind === 'column') {
    reading.dimension = columnNoun(group.ref);
    reading.groupedBy = { kind: 'column', ref: group.ref };
  } else if (group?.kind === 'entity') {
    reading.dimension = relationNoun(group.table, 'one');
    reading.groupedBy = { kind: 'entity', table: group.table };
  } else if (group?.kind === 'time') {
    reading.dimension = group.unit;
    reading.groupedBy = { kind: 'time', unit: group.unit };
  }
  const period = intent.filters.find((filter) => filter.kind === 'period');
  if (period?.kind === 'period')
    reading.period = {
      label: period.label,
      ref: period.ref,
      ...(period.from ? { from: period.from } : {}),
      ...(period.to ? { to: period.to } : {}),
    };
  if (intent.limit !== undefined) reading.limit = intent.limit;
  return reading;
};

export interface ReadingInput {
  question: string;
  /** The state the answering engine saved with its query, when it was the builtin. */
  state?: unknown;
  catalog: Catalog;
  tenantColumn?: string | undefined;
  now: Date;
  /** The builtin engine, asked for its reading when the state is not its own. */
  builtin: Engine;
}

/** The answer's reading: from the builtin's saved state, else its reading of the question. */
export const readingOf = async (input: ReadingInput): Promise<Reading | undefined> => {
  const saved = readState(input.state);
  if (saved) return readingOfIntent(saved.intent, 'answer');
  const proposal = await input.builtin.propose({
    question: input.question,
    catalog: input.catalog,
    dialect: input.catalog.dialect,
    history: [],
    now: input.now,
    ...(input.tenantColumn ? { tenantColumn: input.tenantColumn } : {}),
  });
  if (proposal.kind !== 'sql') return undefined;
  const state = readState(proposal.state);
  return state ? readingOfIntent(state.intent) : undefined;
};
