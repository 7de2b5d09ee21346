// What the builtin engine understood, in words: the one-sentence description of a proposal, in
// schema terms so the user can check it ("Counting orders with status 'cancelled' and ordered
// at in 2025 (2025-01-01 to 2025-12-31)"), and the answer shape composition reads rows with, in
// plain terms ("cancelled orders in 2025").
import type { AnswerShape, NounPhrase, ValueFormat } from '../engine.ts';
import { lastDayBefore } from '../time.ts';
import { definitionText, namedAsIs } from './glossary-use.ts';
import type { ColumnRef, Filter, Group, Intent, Measure } from './intent.ts';
import { pathBetween, planJoins } from './joins.ts';
import { columnOf, relationOf } from './lexicon.ts';
import { LIST_LIMIT, type RenderedSql } from './render.ts';
import type { Lexicon, Link, Mention, Note } from './types.ts';
import { unitSuffix } from './units.ts';
import { capitalize, joinAnd, plural as pluralOf, singular, wordTable } from './words.ts';

const havingWords: Record<string, string> = wordTable({
  '>': 'more than',
  '>=': 'at least',
  '<': 'fewer than',
  '<=': 'at most',
  '=': 'exactly',
});

const opWords: Record<string, string> = wordTable({
  '>': 'over',
  '>=': 'at least',
  '<': 'under',
  '<=': 'at most',
  '=': 'equal to',
});

const formatNumber = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

const quote = (value: string | number | boolean): string =>
  typeof value === 'string' ? `'${value}'` : String(value);

const display = (lexicon: Lexicon, ref: ColumnRef, subject: string): string => {
  const column = columnOf(lexicon, ref)?.display ?? ref.column;
  return ref.table === subject ? column : `${relationOf(lexicon, ref.table).one} ${column}`;
};

const periodDates = (filter: Extract<Filter, { kind: 'period' }>): string => {
  if (filter.from && filter.to) {
    const last = lastDayBefore(filter.to);
    return last === filter.from ? filter.from : `${filter.from} to ${last}`;
  }
  if (filter.from) return `from ${filter.from}`;
  if (filter.to) return `before ${filter.to}`;
  return '';
};

/** A glossary term's SQL with its columns named as in descriptions ("delivered at > due at"). */
const glossaryText = (lexicon: Lexicon, kind: 'metric' | 'filter', term: string, subject: string): string =>
  definitionText(lexicon.definitions, kind, term, (ref) => display(lexicon, ref, subject)) ?? term;

const measureText = (lexicon: Lexicon, measure: Measure, subject: string): string =>
  measure.kind === 'column'
    ? `${display(lexicon, measure.ref, subject)}${unitSuffix(measure, ' in ')}`
    : measure.kind === 'glossary'
      ? glossaryText(lexicon, 'metric', measure.term, subject)
      : measure.kind === 'product'
        ? `${display(lexicon, measure.left, subject)} × ${display(lexicon, measure.right, subject)}`
        : `time from ${display(lexicon, measure.left, subject)} to ${display(lexicon, measure.right, subject)}`;

// ---- the description ---------------------------------------------------------------------------

/** "ordered" for ordered_at, "hired" for hired_at: a date column named after what happened. */
const eventVerb = (lexicon: Lexicon, ref: ColumnRef): string | undefined => {
  const words = columnOf(lexicon, ref)?.words ?? [];
  const [verb, suffix] = words;
  const past = /ed$|^(paid|sold|made|built|bought|sent|held|spent|won|lost|born|taken|given|written|done)$/;
  return words.length === 2 && past.test(verb ?? '') && /^(at|on|date|time)$/.test(suffix ?? '')
    ? verb
    : undefined;
};

/** The filters on one relation, in schema terms: "with status 'cancelled', ordered in 2025 (…)". */
const schemaClauses = (lexicon: Lexicon, filters: readonly Filter[], subject?: string): string[] => {
  const conditions: string[] = [];
  const states: string[] = [];
  const periods: string[] = [];
  for (const filter of filters) {
    const column = columnOf(lexicon, filter.ref)?.display ?? filter.ref.column;
    switch (filter.kind) {
      case 'in': {
        if (columnOf(lexicon, filter.ref)?.kind === 'boolean' && filter.values.length === 1) {
          // In plain words: "that are furnished", "that are not active" (not "furnished false").
          const yes = (filter.values[0] === true) !== filter.negated;
          states.push(`${yes ? '' : 'not '}${column.replace(/^(is|has|was) /, '')}`);
        } else {
          conditions.push(
            `${column} ${filter.negated ? 'not ' : ''}${filter.values.map(quote).join(' or ')}`,
          );
        }
        break;
      }
      case 'compare':
        conditions.push(`${column} ${opWords[filter.op]} ${formatNumber(filter.value)}`);
        break;
      case 'between':
        conditions.push(`${column} between ${formatNumber(filter.low)} and ${formatNumber(filter.high)}`);
        break;
      case 'period': {
        const verb = eventVerb(lexicon, filter.ref);
        periods.push(`${verb ?? `with ${column}`} ${filter.label} (${periodDates(filter)})`);
        break;
      }
      case 'present':
        if (
          subject !== undefined &&
          filter.ref.table !== subject &&
          fansOut(lexicon, subject, filter.ref.table)
        ) {
          conditions.push(`related ${relationOf(lexicon, filter.ref.table).other}`);
        }
        break;
      case 'absent':
        conditions.push(
          subject === undefined || filter.ref.table === subject
            ? `no ${column.replace(/ id$/, '')}`
            : `no ${relationOf(lexicon, filter.ref.table).other}`,
        );
        break;
      case 'glossary':
        // The operator's term and what it stands for: "that are late (delivered at > due at)".
        states.push(
          `${filter.negated ? 'not ' : ''}${filter.term} (${glossaryText(lexicon, 'filter', filter.term, filter.ref.table)})`,
        );
        break;
    }
  }
  return [
    ...(states.length > 0 ? [`that are ${joinAnd(states)}`] : []),
    ...(conditions.length > 0 ? [`with ${joinAnd(conditions)}`] : []),
    ...periods,
  ];
};

/** Whether a clause of `schemaClauses` is a condition (not a period). */
const isCondition = (clause: string): boolean => clause.startsWith('with ') || clause.startsWith('that are ');

/** "orders with status 'cancelled' of customers with country 'Spain'". */
const schemaNoun = (lexicon: Lexicon, intent: Intent): string => {
  const subject = relationOf(lexicon, intent.subject);
  const byTable = new Map<string, Filter[]>();
  for (const filter of intent.filters) {
    byTable.set(filter.ref.table, [...(byTable.get(filter.ref.table) ?? []), filter]);
  }
  const own = [
    ...(byTable.get(intent.subject) ?? []),
    ...intent.filters.filter((filter) => filter.kind === 'present' || filter.kind === 'absent'),
  ];
  const ownClauses = schemaClauses(lexicon, [...new Set(own)], intent.subject);
  // Conditions first, then the related rows' conditions, then the periods.
  const parts = [subject.other, ...ownClauses.filter(isCondition)];
  const periods = ownClauses.filter((clause) => !isCondition(clause));
  for (const [table, filters] of byTable) {
    if (table === intent.subject) continue;
    const clauses = schemaClauses(
      lexicon,
      filters.filter((filter) => filter.kind !== 'present' && filter.kind !== 'absent'),
    );
    if (clauses.length === 0) continue;
    const via = viaOf(lexicon, intent, table).map((other) => `of ${relationOf(lexicon, other).other}`);
    parts.push([...via, `of ${relationOf(lexicon, table).other} ${clauses.join(', ')}`].join(' '));
  }
  return [...parts, ...periods].join(' ');
};

const groupText = (lexicon: Lexicon, group: Group, subject: string): string => {
  if (group.kind === 'entity') return relationOf(lexicon, group.table).one;
  if (group.kind === 'column') return display(lexicon, group.ref, subject);
  // In plain words: "per month ordered", "per month of the order date", "per month of start date".
  const verb = eventVerb(lexicon, group.ref);
  if (verb) {
    return group.ref.table === subject
      ? `${group.unit} ${verb}`
      : `${group.unit} of the ${relationOf(lexicon, group.ref.table).one} date`;
  }
  return `${group.unit} of ${display(lexicon, group.ref, subject)}`;
};

export const describeIntent = (lexicon: Lexicon, intent: Intent): string => {
  const noun = schemaNoun(lexicon, intent);
  const { metric, group } = intent;
  if (!metric) {
    const order =
      intent.order?.by === 'column'
        ? `, ${intent.order.dir === 'desc' ? 'highest' : 'lowest'} ${display(lexicon, intent.order.ref, intent.subject)} first`
        : intent.order?.by === 'duration'
          ? `, ${intent.order.dir === 'desc' ? 'longest' : 'shortest'} first (${measureText(lexicon, intent.order.measure, intent.subject)}, in ${intent.order.measure.unit}s)`
          : '';
    const limit = intent.limit !== undefined ? ` (${intent.order ? 'top' : 'first'} ${intent.limit})` : '';
    return `Listing ${noun}${order}${limit}`;
  }
  let what: string;
  if (metric.fn === 'count' && metric.distinct)
    what = `Counting the different ${pluralOf(columnOf(lexicon, metric.distinct)?.display ?? metric.distinct.column)} of ${noun}`;
  else if (metric.fn === 'count') what = `Counting ${noun}`;
  else {
    const verb = {
      sum: 'Adding up',
      avg: 'Averaging',
      min: 'Finding the lowest',
      max: 'Finding the highest',
    }[metric.fn];
    const measure = measureText(lexicon, metric.measure, intent.subject);
    const named = metric.name ? `${metric.name} (${measure})` : measure;
    what =
      metric.measure.kind === 'glossary' && namedAsIs(lexicon.definitions, metric.measure)
        ? `Computing ${metric.measure.term} (${measure}) of ${noun}`
        : `${verb} ${named} of ${noun}`;
  }
  if (!group) return what;
  const per = ` per ${groupText(lexicon, group, intent.subject)}`;
  const having = intent.having
    ? `, keeping those with ${intent.having.op === 'between' ? `between ${intent.having.value} and ${intent.having.high}` : `${opWords[intent.having.op]} ${formatNumber(intent.having.value)}`}`
    : '';
  const ranked =
    intent.order?.by === 'metric' && intent.limit !== undefined && !intent.having
      ? `, ${intent.order.dir === 'desc' ? 'highest' : 'lowest'} first (top ${intent.limit})`
      : '';
  return `${what}${per}${having}${ranked}`;
};

/** What a linked word was read as: its relation ("customers") or column ("order status"), by the
 *  schema's own name, whichever alias or synonym carried the link. */
const linkedName = (lexicon: Lexicon, link: Link): string => {
  const tables = new Set(link.entries.map((entry) => ('table' in entry ? entry.table : '')));
  const [entry] = link.entries;
  if (tables.size !== 1 || !entry || !('table' in entry)) return link.phrase;
  if (entry.kind === 'relation') return relationOf(lexicon, entry.table).other;
  return display(lexicon, { table: entry.table, column: entry.column }, '');
};

/** How a link was made, when the interpretation should say it: a typo, or a relation's description. */
const linkNote = (text: string, link: Link): string => {
  if (link.source === 'typo') return ' (a typo?)';
  if (link.source !== 'described') return '';
  // "machines" as equipment (by its description: machinery); "plots" as fields (by its description).
  return singular(text) === link.phrase ? ' (by its description)' : ` (by its description: ${link.phrase})`;
};

/**
 * The answer's `interpretation`: the description, plus how the words the schema does not use
 * were read ("reading “clients” as customers, “custmers” as customers"), so that a misreading
 * shows.
 */
export const interpretationOf = (
  lexicon: Lexicon,
  intent: Intent,
  mentions: readonly Mention[],
  readings: readonly Note[] = [],
): string => {
  const notes = [
    ...readings.flatMap((note) => (note.kind === 'as' ? [note.text] : [])),
    ...new Set(
      mentions.flatMap((mention) =>
        mention.kind === 'schema' && mention.link && mention.link.source !== 'joined'
          ? [
              `“${mention.text}” as ${linkedName(lexicon, mention.link)}${linkNote(mention.text, mention.link)}`,
            ]
          : [],
      ),
    ),
  ];
  const leftOut = readings.flatMap((note) => (note.kind === 'out' ? [note.text] : []));
  const description = describeIntent(lexicon, intent);
  return [
    description,
    ...(notes.length > 0 ? [`reading ${joinAnd(notes)}`] : []),
    ...(leftOut.length > 0 ? [`leaving out ${joinAnd(leftOut)} (it says nothing about the data)`] : []),
  ].join('; ');
};

// ---- natural noun phrases ----------------------------------------------------------------------

const statusLike = /^(status|state|stage|condition|tier|level|role|kind)$/;
const placeLike = /(^|\s)(country|city|region|state|location|continent|area|zone|town|province|county)$/;

/**
 * Relations the question named only to say which way to join (they are `present` filters) that
 * lie on the join path from the subject to `table`: "orders of customers in Spain".
 */
const viaOf = (lexicon: Lexicon, intent: Intent, table: string): string[] => {
  const named = new Set(
    intent.filters.filter((filter) => filter.kind === 'present').map((filter) => filter.ref.table),
  );
  if (named.size === 0) return [];
  const planned = planJoins(
    lexicon,
    intent.subject,
    intent.filters.map((filter) => filter.ref.table),
  );
  if (planned.kind !== 'plan') return [];
  const cameFrom = new Map(planned.plan.steps.map((step) => [step.to, step.from]));
  const via: string[] = [];
  for (let at = cameFrom.get(table); at !== undefined && at !== intent.subject; at = cameFrom.get(at)) {
    if (named.has(at)) via.unshift(at);
  }
  return via;
};

/** Whether reaching `to` from `from` goes from parents to children (rows repeat). */
const fansOut = (lexicon: Lexicon, from: string, to: string): boolean => {
  const path = pathBetween(lexicon, from, to);
  return path.kind === 'path' && path.steps.some((step) => step.toMany);
};

/** A date column named after what happened to the row, unless that is the row itself (orders.ordered_at). */
const naturalVerb = (lexicon: Lexicon, ref: ColumnRef): string | undefined => {
  const verb = eventVerb(lexicon, ref);
  const head = relationOf(lexicon, ref.table).one.split(' ').pop() ?? '';
  return verb && !verb.startsWith(head.slice(0, Math.max(3, head.length - 1))) ? verb : undefined;
};

interface NaturalParts {
  adjectives: string[];
  after: string[];
  periods: string[];
}

const naturalFilters = (
  lexicon: Lexicon,
  filters: readonly Filter[],
  table: string,
  related = false,
): NaturalParts => {
  const parts: NaturalParts = { adjectives: [], after: [], periods: [] };
  const relation = relationOf(lexicon, table);
  for (const filter of filters) {
    const info = columnOf(lexicon, filter.ref);
    const name = info?.display ?? filter.ref.column;
    const last = info?.words[info.words.length - 1] ?? '';
    switch (filter.kind) {
      case 'in': {
        const values = filter.values.map(String);
        if (info?.kind === 'boolean') {
          const yes = filter.values[0] === true;
          if (yes && !/^(in|on|out|at)\b/.test(name)) parts.adjectives.push(name);
          else parts.after.push(`${yes ? '' : 'not '}${name}`);
        } else if (!filter.negated && statusLike.test(last) && values.length === 1) {
          parts.adjectives.push(values[0]!);
        } else if (!filter.negated && placeLike.test(last)) {
          parts.after.push(`in ${joinAnd(values, 'or')}`);
        } else if (
          !filter.negated &&
          related &&
          relation.labels.includes(filter.ref.column) &&
          placeLike.test(relation.one)
        ) {
          parts.after.push(`in ${joinAnd(values, 'or')}`);
        } else if (!filter.negated && related && relation.labels.includes(filter.ref.column)) {
          parts.after.push(`${relation.one} ${joinAnd(values, 'or')}`);
        } else {
          const negated = filter.negated ? 'other than ' : '';
          parts.after.push(`with ${name} ${negated}${joinAnd(values, filter.negated ? 'and' : 'or')}`);
        }
        break;
      }
      case 'compare':
        parts.after.push(`with ${name} ${opWords[filter.op]} ${formatNumber(filter.value)}`);
        break;
      case 'between':
        parts.after.push(`with ${name} between ${formatNumber(filter.low)} and ${formatNumber(filter.high)}`);
        break;
      case 'period': {
        const verb = naturalVerb(lexicon, filter.ref);
        const dated = relationOf(lexicon, filter.ref.table).primaryDate?.name === filter.ref.column;
        parts.periods.push(
          verb ? `${verb} ${filter.label}` : dated ? filter.label : `with ${name} ${filter.label}`,
        );
        break;
      }
      case 'present':
        if (filter.ref.table !== relation.key && info?.key && fansOut(lexicon, table, filter.ref.table)) {
          parts.after.push(`that have ${relationOf(lexicon, filter.ref.table).other}`);
        }
        break;
      case 'absent':
        parts.after.push(
          filter.ref.table === relation.key
            ? `with no ${name.replace(/ id$/, '')}`
            : `that have no ${relationOf(lexicon, filter.ref.table).other}`,
        );
        break;
      case 'glossary': {
        // "late shipments", "open work orders" (the term without the relation's own words),
        // "trucks that are off the road", "shipments that are not late".
        const words = filter.term.split(' ');
        const own = new Set([...relation.one.split(' '), ...relation.other.split(' ')]);
        const named = relationWords(lexicon, table);
        while (words.length > 1 && (own.has(words.at(-1)!) || named.has(singular(words.at(-1)!))))
          words.pop();
        if (!filter.negated && words.length === 1) parts.adjectives.push(words[0]!);
        else parts.after.push(`that are ${filter.negated ? 'not ' : ''}${filter.term}`);
        break;
      }
    }
  }
  return parts;
};

/** The words that name a relation in questions: its own, its aliases and the glossary's synonyms. */
const relationWords = (lexicon: Lexicon, table: string): Set<string> =>
  new Set(
    [...lexicon.phrases].flatMap(([phrase, entries]) =>
      entries.some((entry) => entry.kind === 'relation' && entry.table === table) ? phrase.split(' ') : [],
    ),
  );

/** "cancelled orders in 2025", "orders of customers in Spain", "employees of region North". */
export const nounOf = (lexicon: Lexicon, intent: Intent, table = intent.subject): NounPhrase => {
  const relation = relationOf(lexicon, table);
  // A period on the date of a related row reads as the subject's ("order items in 2025").
  const own = intent.filters.filter(
    (filter) =>
      filter.ref.table === table ||
      filter.kind === 'present' ||
      filter.kind === 'absent' ||
      (filter.kind === 'period' &&
        relationOf(lexicon, filter.ref.table).primaryDate?.name === filter.ref.column),
  );
  const natural = naturalFilters(lexicon, own, table);
  const byTable = new Map<string, Filter[]>();
  for (const filter of intent.filters) {
    if (!own.includes(filter))
      byTable.set(filter.ref.table, [...(byTable.get(filter.ref.table) ?? []), filter]);
  }
  const related: string[] = [];
  for (const [other, filters] of byTable) {
    const parts = naturalFilters(lexicon, filters, other, true);
    const otherRelation = relationOf(lexicon, other);
    // "of region North" reads better than "of regions with name North".
    const named =
      parts.after.length === 1 &&
      parts.adjectives.length === 0 &&
      (parts.after[0]!.startsWith(`${otherRelation.one} `) ||
        (parts.after[0]!.startsWith('in ') && placeLike.test(otherRelation.one)));
    const noun = named
      ? parts.after[0]!
      : [...parts.adjectives, otherRelation.other, ...parts.after].join(' ');
    const phrase = noun.startsWith('in ') ? noun : `of ${noun}`;
    const via = viaOf(lexicon, intent, other).map((table) => `of ${relationOf(lexicon, table).other}`);
    related.push([...via, phrase, ...parts.periods].filter((part) => part.length > 0).join(' '));
  }
  const build = (noun: string) =>
    [...natural.adjectives, noun, ...natural.after, ...related, ...natural.periods].join(' ');
  return { one: build(relation.one), other: build(relation.other) };
};

// ---- the answer shape --------------------------------------------------------------------------

const formatOf = (lexicon: Lexicon, intent: Intent): ValueFormat => {
  const { metric } = intent;
  if (!metric || metric.fn === 'count') return 'integer';
  const ref = 'ref' in metric.measure ? metric.measure.ref : metric.measure.right;
  if (metric.name === 'revenue' || columnOf(lexicon, ref)?.money) return 'money';
  return 'number';
};

const metricLabel = (lexicon: Lexicon, intent: Intent): string => {
  const { metric } = intent;
  if (!metric || metric.fn === 'count') return `number of ${relationOf(lexicon, intent.subject).other}`;
  if (metric.measure.kind === 'glossary' && namedAsIs(lexicon.definitions, metric.measure))
    return metric.measure.term;
  const measure =
    metric.name ??
    (metric.measure.kind === 'column'
      ? `${columnOf(lexicon, metric.measure.ref)?.display ?? metric.measure.ref.column}${unitSuffix(metric.measure, ' in ')}`
      : measureText(lexicon, metric.measure, intent.subject));
  const prefix = { sum: 'total', avg: 'average', min: 'lowest', max: 'highest' }[metric.fn];
  return `${prefix} ${measure}`;
};

const groupNoun = (lexicon: Lexicon, group: Group): NounPhrase => {
  if (group.kind === 'entity') {
    const relation = relationOf(lexicon, group.table);
    return { one: relation.one, other: relation.other };
  }
  if (group.kind === 'column') {
    const name = columnOf(lexicon, group.ref)?.display ?? group.ref.column;
    return { one: name, other: name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s` };
  }
  return { one: group.unit, other: `${group.unit}s` };
};

const adjectives = new Set([
  'most expensive',
  'least expensive',
  'most costly',
  'least costly',
  'priciest',
  'costliest',
  'cheapest',
  'newest',
  'latest',
  'oldest',
  'earliest',
  'most recent',
  'most recently',
  'best selling',
  'top selling',
  'best seller',
  'bestselling',
  'bestseller',
  'most sold',
  'most popular',
  'least popular',
  'least sold',
  'worst selling',
]);

/** "most expensive product", "top customer by revenue", "category with the most products". */
export const rankingNoun = (label: string, noun: NounPhrase): NounPhrase => {
  const by = /^(top|bottom) by (.+)$/.exec(label);
  if (by) return { one: `${by[1]} ${noun.one} by ${by[2]}`, other: `${by[1]} ${noun.other} by ${by[2]}` };
  if (adjectives.has(label)) return { one: `${label} ${noun.one}`, other: `${label} ${noun.other}` };
  return { one: `${noun.one} with the ${label}`, other: `${noun.other} with the ${label}` };
};

export const shapeOf = (lexicon: Lexicon, intent: Intent, rendered: RenderedSql): AnswerShape => {
  const noun = nounOf(lexicon, intent);
  const { metric, group } = intent;
  const format = formatOf(lexicon, intent);
  if (!metric) {
    const ranking = intent.ranking && intent.order ? rankingNoun(intent.ranking, noun) : undefined;
    const orderRef = intent.order?.by === 'column' ? intent.order.ref : undefined;
    return {
      kind: 'rows',
      noun,
      labelColumns: rendered.labelColumns,
      ...(rendered.orderColumn ? { valueColumn: rendered.orderColumn } : {}),
      ...(orderRef && columnOf(lexicon, orderRef)?.money ? { valueFormat: 'money' as const } : {}),
      limit: intent.limit ?? LIST_LIMIT,
      ...(ranking ? { ranking } : {}),
    };
  }
  const column = rendered.metricColumn ?? 'value';
  if (!group) {
    if (metric.fn === 'count' && metric.distinct) {
      const values = columnOf(lexicon, metric.distinct)?.display ?? metric.distinct.column;
      return {
        kind: 'count',
        noun: {
          one: `different ${values} of ${noun.other}`,
          other: `different ${pluralOf(values)} of ${noun.other}`,
        },
        column,
      };
    }
    if (metric.fn === 'count') return { kind: 'count', noun, column };
    const label = metricLabel(lexicon, intent);
    const plural = relationOf(lexicon, intent.subject).other;
    const scope = noun.other.startsWith(`${plural} `)
      ? noun.other.slice(plural.length + 1)
      : noun.other === plural
        ? ''
        : noun.other;
    const of = metric.name === 'revenue' ? (scope ? ` ${scope}` : '') : ` of ${noun.other}`;
    return { kind: 'value', label: `the ${label}${of}`, noun, column, format };
  }
  const groups = groupNoun(lexicon, group);
  const { having } = intent;
  const label = having
    ? `${capitalize(groups.other)} with ${having.op === 'between' ? `between ${formatNumber(having.value)} and ${formatNumber(having.high ?? having.value)}` : `${havingWords[having.op]} ${formatNumber(having.value)}`} ${noun.other}`
    : `${capitalize(metric.fn === 'count' ? `${relationOf(lexicon, intent.subject).other}` : metricLabel(lexicon, intent))} per ${groups.one}`;
  const keyFormat =
    group.kind === 'time'
      ? (
          {
            year: 'year',
            quarter: 'year-quarter',
            month: 'year-month',
            day: 'date',
            week: 'year-week',
            weekday: 'weekday',
            hour: 'hour',
          } as const
        )[group.unit]
      : undefined;
  const ranking =
    intent.order?.by === 'metric' && intent.ranking !== undefined
      ? rankingNoun(intent.ranking, groups)
      : undefined;
  return {
    kind: 'groups',
    label,
    noun,
    keyColumns: rendered.labelColumns,
    ...(keyFormat ? { keyFormat } : {}),
    valueColumn: column,
    valueFormat: format,
    limit: intent.limit ?? LIST_LIMIT,
    ...(ranking ? { ranking } : {}),
  };
};
