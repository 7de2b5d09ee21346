// Step 5 of the builtin pipeline: the analysis of a question (+ the previous intent) becomes an
// intent, or a clarification. The parts the question states are built around its focus
// (statement.ts: what is measured; conditions.ts: the subject, grouping and filters), merged with
// the previous intent when the question follows up on it, and checked (check.ts). A reading that
// uses revenue and stops may be read again with the next revenue candidate.
import { lastDayBefore } from '../time.ts';
import { checkIntent, checkVerbs, routedByWords } from './check.ts';
import { Clarify, clarify } from './clarify.ts';
import { readFilters, readGrouping, requireUse, settleSubject } from './conditions.ts';
import type { Draft, Parts } from './draft.ts';
import { withDefinedAggregate } from './glossary-use.ts';
import type { Filter, Group, Intent } from './intent.ts';
import { pathBetween } from './joins.ts';
import { columnOf } from './lexicon.ts';
import { Resolver } from './resolve.ts';
import { readStatement } from './statement.ts';
import type { Analysis, Interpretation, Item, ItemOf, Lexicon } from './types.ts';

// ---- building the intent -----------------------------------------------------------------------

/** Builds the parts of an intent the question states, around a subject (maybe the previous one). */
const build = (resolver: Resolver, prior: Intent | undefined): Parts => {
  const { lexicon, analysis } = resolver;
  const { items, used } = analysis;
  const at = (index: number | undefined): Item | undefined =>
    index === undefined ? undefined : items[index];

  const entityIndexes = items.flatMap((item, index) => (item.kind === 'entity' ? [index] : []));
  const freeEntities = () => entityIndexes.filter((index) => !used.has(index));
  const aggregate = analysis.aggregate;
  const ranking = analysis.ranking;
  const rankKey = analysis.rankKey;

  // The focus: what the question is about ("which category has the most products" → category).
  const focusIndex = (() => {
    // "the most common reason for a visit": the column is what is asked about; the relation named
    // with it is the one whose rows are counted.
    const keyed = rankKey?.kind === 'count' ? at(rankKey.index) : undefined;
    if (ranking?.hint === 'count' && keyed?.kind === 'column') {
      for (const index of freeEntities()) {
        const entity = items[index] as ItemOf<'entity'>;
        if (entity.tables.some((table) => rankKey?.kind === 'count' && rankKey.tables.includes(table)))
          used.add(index);
      }
      return rankKey?.kind === 'count' ? rankKey.index : undefined;
    }
    const free = freeEntities().filter((index) => index !== aggregate?.target || aggregate.fn === 'count');
    if (free.length > 0) return free[0];
    if (ranking && rankKey?.kind === 'count') {
      const column = items.findIndex(
        (item, index) =>
          item.kind === 'column' &&
          !used.has(index) &&
          item.refs.some((ref) => columnOf(lexicon, ref)?.kind === 'text'),
      );
      if (column >= 0) return column;
    }
    return undefined;
  })();
  const focus = at(focusIndex);
  if (focusIndex !== undefined) used.add(focusIndex);

  const c: Draft = {
    resolver,
    lexicon,
    analysis,
    items,
    used,
    prior,
    at,
    entityIndexes,
    focusIndex,
    focus,
    focusEntity: focus?.kind === 'entity' ? resolver.entity(focus.tables, focus.text) : undefined,
    parts: { filters: [], period: false },
    subject: undefined,
    groupFromFocus: undefined,
  };
  readStatement(c);
  const subject = settleSubject(c);
  readGrouping(c, subject);
  readFilters(c, subject);
  requireUse(c, subject);
  return c.parts;
};

// ---- follow-ups --------------------------------------------------------------------------------

const isFollowUp = (analysis: Analysis): boolean => {
  if (analysis.followup || analysis.anaphora) return true;
  // A relation or column that only says what to group, compare or date by ("per store", "per
  // country") is no new subject.
  // "and cats?" after "how many dogs": rows a value stands for are no new subject either.
  const hasFocus = analysis.items.some(
    (item, index) =>
      !analysis.used.has(index) &&
      ((item.kind === 'entity' && !item.ofValue) || item.kind === 'measure' || item.kind === 'column'),
  );
  if (hasFocus) return false;
  return (
    analysis.values.length > 0 ||
    analysis.periods.length > 0 ||
    analysis.comparisons.length > 0 ||
    analysis.groups.length > 0 ||
    analysis.ranking !== undefined ||
    analysis.sort !== undefined ||
    analysis.booleans.length > 0 ||
    analysis.absences.length > 0 ||
    analysis.literals.length > 0 ||
    analysis.aggregate !== undefined ||
    analysis.list
  );
};

const filterKey = (filter: Filter): string =>
  `${filter.kind === 'period' ? 'period' : 'value'}:${filter.ref.table}.${filter.ref.column}`;

/** The previous intent with what the follow-up changes. */
/**
 * "how many claims in March 2025" → "and in April?": a month or quarter named without its year
 * takes the year of the previous period when that was within one year.
 */
const inYearOf = (filter: Filter, before: readonly Filter[]): Filter => {
  const previous = before.find((other) => other.kind === 'period');
  if (filter.kind !== 'period' || previous?.kind !== 'period' || !filter.from || !filter.to) return filter;
  if (!previous.from || !previous.to) return filter;
  const year = Number(previous.from.slice(0, 4));
  if (lastDayBefore(previous.to).slice(0, 4) !== previous.from.slice(0, 4)) return filter;
  const shift = year - Number(filter.from.slice(0, 4));
  if (shift === 0) return filter;
  const moved = (date: string): string => `${Number(date.slice(0, 4)) + shift}${date.slice(4)}`;
  return {
    ...filter,
    from: moved(filter.from),
    to: moved(filter.to),
    label: filter.label.replace(/\b\d{4}\b/g, (written) => String(Number(written) + shift)),
  };
};

const merge = (resolver: Resolver, prior: Intent, parts: Parts): Intent => {
  const { lexicon, analysis } = resolver;
  let subject = parts.subject ?? prior.subject;
  let regroup: Group | undefined;
  // "revenue per category" → "what about products?": the new relation replaces the grouping.
  if (subject !== prior.subject && prior.group && !parts.group && parts.metric === undefined) {
    if (pathBetween(lexicon, prior.subject, subject).kind === 'path') {
      regroup = { kind: 'entity', table: subject };
      subject = prior.subject;
    }
  }
  const sameSubject = subject === prior.subject;
  // "what about Germany?" replaces the country; "how many of those were cancelled?" narrows.
  const replace = analysis.followup && !analysis.anaphora;
  // "which trucks are off the road" → "which depots are they at": the rows referred to keep
  // their conditions, reached from the new subject along keys.
  const carried =
    !sameSubject &&
    analysis.anaphora &&
    !regroup &&
    pathBetween(lexicon, subject, prior.subject).kind === 'path';
  let filters: Filter[] = sameSubject || carried ? [...prior.filters] : [];
  if (!sameSubject && !carried) {
    // A new subject keeps the previous period (on its own date) and nothing else.
    const period = prior.filters.find((filter) => filter.kind === 'period');
    if (period && !parts.period) {
      filters.push({ ...period, ref: resolver.dateOf(subject, period.label) });
    }
  }
  for (const given of parts.filters) {
    const filter = parts.yearless ? inYearOf(given, prior.filters) : given;
    if (filter.kind === 'period') {
      filters = filters.filter((other) => other.kind !== 'period');
    } else if (replace || !analysis.anaphora || filter.kind === 'compare' || filter.kind === 'between') {
      filters = filters.filter((other) => other.kind === 'period' || filterKey(other) !== filterKey(filter));
    }
    if (!filters.some((other) => JSON.stringify(other) === JSON.stringify(filter))) filters.push(filter);
  }

  const intent: Intent = { subject, filters };
  const metric =
    parts.metric ??
    (sameSubject ? prior.metric : undefined) ??
    (prior.metric?.fn === 'count' || parts.group ? { fn: 'count' as const } : undefined);
  if (metric && metric !== 'rows') intent.metric = metric;
  // "how many growers per county" → "only count the active ones": the same measure said again
  // keeps the grouping and ranking.
  const sameMetric =
    parts.metric !== undefined && JSON.stringify(parts.metric) === JSON.stringify(prior.metric);
  const keepShape = (parts.metric === undefined || sameMetric) && sameSubject;
  const group = regroup ?? parts.group ?? (keepShape ? prior.group : undefined);
  if (group && intent.metric) intent.group = group;
  const having = parts.having ?? (keepShape ? prior.having : undefined);
  if (having && intent.group) intent.having = having;
  const order = parts.order ?? (keepShape ? prior.order : undefined);
  if (order) intent.order = order;
  const limit = parts.limit ?? (keepShape ? prior.limit : undefined);
  if (limit !== undefined && (intent.order || !intent.metric)) intent.limit = limit;
  const ranking = parts.ranking ?? (keepShape ? prior.ranking : undefined);
  if (ranking && intent.order) intent.ranking = ranking;
  // A list after a count: "show them".
  if (parts.metric === 'rows') {
    delete intent.metric;
    delete intent.group;
    delete intent.having;
    if (!parts.order) {
      delete intent.order;
      delete intent.limit;
      delete intent.ranking;
    }
  }
  return intent;
};

const finish = (parts: Parts): Intent => {
  const intent: Intent = { subject: parts.subject!, filters: parts.filters };
  if (parts.metric && parts.metric !== 'rows') intent.metric = parts.metric;
  if (parts.group) intent.group = parts.group;
  if (parts.having) intent.having = parts.having;
  if (parts.order) intent.order = parts.order;
  if (parts.limit !== undefined) intent.limit = parts.limit;
  if (parts.ranking) intent.ranking = parts.ranking;
  return intent;
};

export interface InterpretInput {
  lexicon: Lexicon;
  /** The question analysed (analyse.ts). */
  analysis: Analysis;
  /** The previous intent of the conversation, when there is one. */
  prior?: Intent;
}

/** One reading of the analysed question, with revenue taken from `revenueTier`. */
const readOnce = (
  lexicon: Lexicon,
  given: Analysis,
  prior: Intent | undefined,
  revenueTier: number,
): { interpretation: Interpretation; usedRevenue: boolean } => {
  // Each reading marks the items it uses: on a copy, so that the next tier starts afresh.
  const analysis: Analysis = { ...given, used: new Set(given.used) };
  let resolver: Resolver | undefined;
  try {
    resolver = new Resolver(lexicon, analysis, revenueTier);
    const followUp = prior !== undefined && isFollowUp(analysis);
    if (
      !followUp &&
      (analysis.followup || analysis.anaphora) &&
      analysis.items.every((item) => item.kind !== 'entity')
    ) {
      const message =
        'What are you referring to? Please ask the whole question, for example “How many orders were placed last month?”.';
      return { interpretation: clarify(message), usedRevenue: resolver.usedRevenue };
    }
    const parts = build(resolver, followUp ? prior : undefined);
    const intent = followUp && prior ? merge(resolver, prior, parts) : finish(parts);
    const loose = analysis.verbs.length > 0 ? checkVerbs(lexicon, intent, analysis.verbs) : undefined;
    const defined = withDefinedAggregate(lexicon.definitions, intent);
    // Joined two ways: the way a word of the question names, when it names one.
    const routed = routedByWords(lexicon, defined, analysis.words) ?? defined;
    return {
      interpretation: loose ?? checkIntent(lexicon, routed),
      usedRevenue: resolver.usedRevenue,
    };
  } catch (error) {
    if (!(error instanceof Clarify)) throw error;
    return { interpretation: error.clarification, usedRevenue: resolver?.usedRevenue ?? false };
  }
};

/** The analysed question (+ the previous intent) → an intent checked against the catalog, or a clarification. */
export const interpret = ({ lexicon, analysis, prior }: InterpretInput): Interpretation => {
  const first = readOnce(lexicon, analysis, prior, 0);
  if (first.interpretation.kind === 'intent' || !first.usedRevenue || !first.interpretation.reason) {
    return first.interpretation;
  }
  // Revenue from the first tier cannot answer this (a summary view that does not reach
  // categories, say): the next tier may.
  for (let tier = 1; tier < lexicon.revenueTiers.length; tier += 1) {
    const next = readOnce(lexicon, analysis, prior, tier);
    if (next.interpretation.kind === 'intent') return next.interpretation;
  }
  return first.interpretation;
};
