import { lastDayBefore, monthNames } from '../time.ts';
import {
  type Analysis,
  analyse,
  Clarify,
  type Item,
  type ItemOf,
  mainTables,
  pluralText,
  quoted,
  type Ranking,
  type RankKey,
} from './analyse.ts';
import { metricProblem, periodClash, withDefinedAggregate } from './glossary-use.ts';
import {
  type ColumnRef,
  type Duration,
  type Filter,
  type Group,
  type Having,
  type Intent,
  type Measure,
  type Metric,
  type Order,
  sameRef,
} from './intent.ts';
import { pathBetween, planJoins, pointingPath } from './joins.ts';
import { columnOf, type Lexicon, mainRelations, tableName } from './lexicon.ts';
import { relationsOf } from './render.ts';
import { measureColumn, monthColumn, Resolver } from './resolve.ts';
import type { Mention } from './scan.ts';
import type { Interpretation } from './types.ts';
import { capitalize, joinAnd, singular } from './words.ts';

export type { Interpretation };

// ---- building the intent -----------------------------------------------------------------------

interface Parts {
  subject?: string;
  /** undefined: the question does not say (a follow-up keeps the previous one). */
  metric?: Metric | 'rows';
  group?: Group;
  having?: Having;
  order?: Order;
  limit?: number;
  ranking?: string;
  filters: Filter[];
  /** Whether the question set a period (a follow-up replaces the previous one). */
  period: boolean;
}

const DEFAULT_TOP = 5;

/**
 * How a ranking reads, for descriptions and answers (describe.ts `rankingNoun`): "top by revenue" /
 * "bottom by price" after top and bottom, "highest salary" / "most orders" after a superlative.
 */
const rankingLabel = (ranking: Ranking, key: string): string =>
  ranking.word === 'top' || ranking.word === 'bottom'
    ? `${ranking.dir === 'desc' ? 'top' : 'bottom'} by ${key}`
    : `${ranking.word} ${key}`;

/** A numeric column the question names and nothing else uses ("shipping cost per channel"). */
const numericLeftover = (lexicon: Lexicon, analysis: Analysis): number | undefined => {
  const index = analysis.items.findIndex(
    (item, position) =>
      item.kind === 'column' &&
      !analysis.used.has(position) &&
      item.refs.some((ref) => columnOf(lexicon, ref)?.numeric),
  );
  return index >= 0 ? index : undefined;
};

/**
 * What "largest" / "smallest" rank rows by when nothing is named: the relation's only money
 * column that measures the row itself (an amount, total, value or balance), never a price or a
 * cost, which are not the size of the row ("the largest orders" with only a shipping cost asks).
 */
const sizeOf = (lexicon: Lexicon, table: string, word: string): ColumnRef | undefined => {
  if (!/^(largest|biggest|smallest|highest|lowest)$/.test(word)) return undefined;
  const relation = lexicon.relations.get(table);
  if (!relation) return undefined;
  const money = relation.columns.filter((column) => column.money && !column.key);
  const only = money.length === 1 ? money[0] : undefined;
  if (!only?.words.some((w) => /^(amount|total|value|balance|sum)$/.test(w))) return undefined;
  return { table, column: only.name };
};

/**
 * "the longest stay", "the quickest tickets": a word of length or speed ranks the rows of a
 * relation with one span (two time columns of a row, lexicon.ts `durationPairs`) by it.
 */
const durationOf = (lexicon: Lexicon, table: string, word: string): Duration | undefined => {
  if (!/^(longest|shortest|quickest|fastest|slowest)$/.test(word)) return undefined;
  const spans = new Map<string, Duration>();
  for (const measure of lexicon.metrics.values())
    if (measure.kind === 'duration' && measure.left.table === table)
      spans.set(`${measure.left.column} ${measure.right.column}`, measure);
  return spans.size === 1 ? [...spans.values()][0] : undefined;
};

/** The span a word of length ranks by: the focus relation's one, or a duration the question names. */
const spanRanked = (c: Draft, word: string): Duration | undefined => {
  if (!/^(longest|shortest|quickest|fastest|slowest)$/.test(word)) return undefined;
  const named = c.items.findIndex((item, index) => item.kind === 'measure' && !c.used.has(index));
  if (named >= 0) {
    const { measure } = c.resolver.measureNamed((c.items[named] as ItemOf<'measure'>).text);
    if (measure.kind !== 'duration') return undefined;
    c.used.add(named);
    return measure;
  }
  return c.focusEntity ? durationOf(c.lexicon, c.focusEntity, word) : undefined;
};

/** Rows ranked by how long each took, those still open left out. */
const readDurationRanking = (c: Draft, ranking: Ranking, measure: Duration): void => {
  const { resolver, parts, focus } = c;
  c.subject = measure.left.table;
  parts.metric = 'rows';
  parts.order = { by: 'duration', measure, dir: ranking.dir };
  for (const ref of [measure.left, measure.right])
    if (resolver.column(ref).nullable) parts.filters.push({ kind: 'present', ref });
  parts.limit = rankingLimit(ranking, focus?.kind === 'entity' ? focus.plural : false);
  parts.ranking = ranking.word;
};

/** A money column to name in an example ("amount of payments"). */
const exampleMeasure = (lexicon: Lexicon): string => {
  for (const relation of mainRelations(lexicon, 20)) {
    const money = relation.columns.find((column) => column.money && !column.key);
    if (money) return `${money.display} of ${relation.other}`;
  }
  return 'amount';
};

const rankingLimit = (ranking: Ranking, plural: boolean): number =>
  ranking.n ?? (plural || ranking.word === 'top' || ranking.word === 'bottom' ? DEFAULT_TOP : 1);

/** One reading of a question while it is being built into parts. */
interface Draft {
  resolver: Resolver;
  lexicon: Lexicon;
  analysis: Analysis;
  items: Item[];
  used: Set<number>;
  prior: Intent | undefined;
  at: (index: number | undefined) => Item | undefined;
  entityIndexes: number[];
  /** What the question is about: "which category has the most products" → category. */
  focusIndex: number | undefined;
  focus: Item | undefined;
  focusEntity: string | undefined;
  parts: Parts;
  /** The relation the rows come from, once known. */
  subject: string | undefined;
  /** A grouping the focus implies ("which customer has the most orders" → per customer). */
  groupFromFocus: Group | undefined;
}

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

/** What is measured and how: a ranking, an aggregate, a count of related rows, or rows. */
const readStatement = (c: Draft): void => {
  const { lexicon, analysis, prior, focusEntity } = c;
  const { aggregate, ranking, rankKey } = analysis;
  const span = ranking && (!rankKey || rankKey.kind === 'hint') ? spanRanked(c, ranking.word) : undefined;
  if (ranking && span) readDurationRanking(c, ranking, span);
  else if (ranking && rankKey) readRanking(c, ranking, rankKey);
  else if (ranking && prior?.order) readPriorRanking(c, ranking, { ...prior, order: prior.order });
  else if (ranking && focusEntity && sizeOf(lexicon, focusEntity, ranking.word))
    readSizeRanking(c, ranking, sizeOf(lexicon, focusEntity, ranking.word)!);
  else if (ranking) rankingWithoutKey(c, ranking);
  else if (aggregate) readAggregate(c, aggregate);
  else readImpliedMetric(c);
  readHaving(c);
};

type Aggregate = NonNullable<Analysis['aggregate']>;

/** What a ranking with a key ranks: rows by a column, or one value per focus row or group, ranked. */
const readRanking = (c: Draft, ranking: Ranking, rankKey: RankKey): void => {
  const { resolver, lexicon, items, parts, focus, focusEntity } = c;
  const plural =
    focus?.kind === 'entity' ? focus.plural : focus?.kind === 'column' ? pluralText(focus.text) : false;
  const limit = rankingLimit(ranking, plural);
  const rankOf = (ref: ColumnRef | undefined, label: string): void => {
    // Rows of the focus, ordered by one of its own columns.
    if (!focusEntity) throw new Clarify(`Which rows should I rank by ${label}?`);
    c.subject = focusEntity;
    parts.metric = 'rows';
    if (ref) {
      parts.order = { by: 'column', ref, dir: ranking.dir };
      if (resolver.column(ref).nullable) parts.filters.push({ kind: 'present', ref });
    }
    parts.limit = limit;
    parts.ranking = label;
  };
  const groupedBy = (metric: Metric, label: string): void => {
    // One value per focus row (or focus value), ranked; or per period ("which month").
    if (!focus && c.analysis.groups.some((group) => group.unit !== undefined)) {
      parts.metric = metric;
      parts.order = { by: 'metric', dir: ranking.dir };
      parts.limit = limit;
      parts.ranking = label;
      return;
    }
    if (!focus) {
      throw new Clarify(`Which ${metric.fn === 'count' ? 'groups' : 'rows'} should I rank by ${label}?`);
    }
    if (focus.kind === 'entity') c.groupFromFocus = { kind: 'entity', table: focusEntity! };
    else if (focus.kind === 'column') {
      c.groupFromFocus = { kind: 'column', ref: resolver.columnRef(focus.refs, focus.text, c.subject) };
    }
    parts.metric = metric;
    parts.order = { by: 'metric', dir: ranking.dir };
    parts.limit = limit;
    parts.ranking = label;
  };
  switch (rankKey.kind) {
    case 'count': {
      const counted = resolver.entity(rankKey.tables, (items[rankKey.index] as ItemOf<'entity'>).text);
      c.subject = counted;
      groupedBy({ fn: 'count' }, rankingLabel(ranking, resolver.relation(counted).other));
      break;
    }
    case 'measure': {
      const { measure, name } = resolver.measureNamed(rankKey.text);
      if (measure.kind === 'duration') {
        // "the longest lease duration": the rows, by how long each took.
        readDurationRanking(c, ranking, measure);
        break;
      }
      c.subject = measureColumn(measure).table;
      groupedBy({ fn: 'sum', measure, name }, rankingLabel(ranking, name));
      break;
    }
    case 'column': {
      const ref = resolver.columnRef(rankKey.refs, rankKey.text, focusEntity);
      const column = resolver.column(ref);
      const label = rankingLabel(ranking, column.display);
      // "the highest hourly rate of employees", "the cheapest product price": the relation named
      // after the column (or in its phrase) says whose value; a superlative then asks for it.
      // ("who is the most recently hired vet" asks for the row.)
      const wantsValue =
        focus?.kind === 'entity' &&
        !c.analysis.list &&
        ranking.n === undefined &&
        ranking.word !== 'top' &&
        ranking.word !== 'bottom' &&
        (focus.implied === true ||
          (c.focusIndex !== undefined && rankKey.index !== undefined && c.focusIndex > rankKey.index));
      if (focusEntity === ref.table && wantsValue) {
        c.subject = ref.table;
        parts.metric = { fn: ranking.dir === 'desc' ? 'max' : 'min', measure: { kind: 'column', ref } };
      } else if (focusEntity === ref.table) rankOf(ref, label);
      else if (!focus) {
        // "what is the highest price": the value itself.
        c.subject = ref.table;
        parts.metric = { fn: ranking.dir === 'desc' ? 'max' : 'min', measure: { kind: 'column', ref } };
      } else if (column.numeric && !column.temporal) {
        c.subject = ref.table;
        groupedBy({ fn: 'sum', measure: { kind: 'column', ref } }, label);
      } else {
        throw new Clarify(
          `I can rank ${focus.kind === 'entity' ? resolver.relation(focusEntity!).other : 'them'} by their own columns; ${column.display} belongs to ${resolver.relation(ref.table).other}.`,
        );
      }
      break;
    }
    case 'hint': {
      const hint = rankKey.hint;
      if (hint === 'money') {
        if (!focusEntity) throw new Clarify('Which rows do you mean, for example “most expensive product”?');
        rankOf(resolver.moneyOf(focusEntity, ranking.word), ranking.word);
      } else if (hint === 'date') {
        if (!focusEntity) throw new Clarify(`Which rows do you mean, for example “${ranking.word} orders”?`);
        rankOf(resolver.dateOf(focusEntity, ranking.word), ranking.word);
        if (parts.order?.by === 'column' && parts.order.ref.table !== focusEntity) {
          throw new Clarify(`${resolver.relation(focusEntity).other} have no date of their own to rank by.`);
        }
      } else if (hint === 'rating') {
        if (!focusEntity)
          throw new Clarify(
            `Which rows do you mean, for example “${ranking.word} ${resolver.relation(c.subject ?? [...lexicon.relations.keys()][0]!).other}”?`,
          );
        rankOf(resolver.ratingOf(focusEntity, ranking.word), ranking.word);
      } else if (hint === 'weight' || hint === 'height' || hint === 'length') {
        // "the heaviest dog": the focus's one weight column (weight_kg).
        if (!focusEntity)
          throw new Clarify(`Which rows do you mean, for example “the ${ranking.word} ones”?`);
        rankOf(resolver.dimensionOf(focusEntity, hint, ranking.word), ranking.word);
      } else if (hint === 'units') {
        const units = resolver.unitsSold();
        c.subject = units.table;
        groupedBy({ fn: 'sum', measure: { kind: 'column', ref: units }, name: 'units sold' }, ranking.word);
      } else {
        throw new Clarify(`${ranking.word} by what?`);
      }
      break;
    }
  }
};

/** "and the bottom 3?": the previous ranking, turned around or cut differently. */
const readPriorRanking = (c: Draft, ranking: Ranking, prior: Intent & { order: Order }): void => {
  const { resolver, parts } = c;
  parts.order = { ...prior.order, dir: ranking.dir };
  const limit = ranking.n ?? prior.limit;
  if (limit !== undefined) parts.limit = limit;
  const key =
    prior.order.by === 'column'
      ? resolver.column(prior.order.ref).display
      : prior.metric && prior.metric.fn !== 'count'
        ? (prior.metric.name ?? resolver.column(measureColumn(prior.metric.measure)).display)
        : resolver.relation(prior.subject).other;
  parts.ranking =
    prior.ranking && prior.order.dir === ranking.dir
      ? prior.ranking
      : rankingLabel({ ...ranking, word: 'top' }, key);
};

/** "the 5 largest payments": rows ranked by the one amount that measures them. */
const readSizeRanking = (c: Draft, ranking: Ranking, ref: ColumnRef): void => {
  const { resolver, parts, focus } = c;
  c.subject = ref.table;
  parts.metric = 'rows';
  parts.order = { by: 'column', ref, dir: ranking.dir };
  if (resolver.column(ref).nullable) parts.filters.push({ kind: 'present', ref });
  parts.limit = rankingLimit(ranking, focus?.kind === 'entity' ? focus.plural : false);
  parts.ranking = rankingLabel(ranking, resolver.column(ref).display);
};

/** A ranking that says not by what: the question back names candidates. */
const rankingWithoutKey = (c: Draft, ranking: Ranking): void => {
  const { resolver, lexicon, focus, focusEntity } = c;
  const what = focus?.kind === 'entity' ? resolver.relation(focusEntity!).other : 'rows';
  const candidates = focusEntity
    ? resolver
        .relation(focusEntity)
        .columns.filter((column) => column.numeric)
        .map((column) => column.display)
    : [];
  const examples = [...candidates.slice(0, 3), ...(lexicon.revenue.kind === 'one' ? ['revenue'] : [])];
  throw new Clarify(
    `${capitalize(ranking.word)}${ranking.n !== undefined ? ` ${ranking.n}` : ''} ${what} by what?${examples.length > 0 ? ` For example by ${joinAnd(examples, 'or')}.` : ''}`,
    focusEntity ? [{ table: tableName(lexicon, focusEntity) }] : undefined,
  );
};

/** An aggregate word ("how many", "total", "average", "highest"): what it applies to. */
const readAggregate = (c: Draft, aggregate: Aggregate): void => {
  const { resolver, lexicon, used, parts, focusEntity } = c;
  const aggregateTarget = c.at(aggregate.target);
  const countColumn =
    aggregate.fn === 'count' && aggregateTarget?.kind === 'column'
      ? aggregateTarget.refs.filter((ref) => {
          const column = columnOf(lexicon, ref);
          return (
            column?.numeric && /^(num|count|number|cnt)$/.test(column.words[column.words.length - 1] ?? '')
          );
        })
      : [];
  if (countColumn.length > 0 && aggregateTarget?.kind === 'column') {
    // "the total number of citations" where citation_num holds them: its sum.
    const ref = resolver.columnRef(countColumn, aggregateTarget.text, focusEntity);
    used.add(aggregate.target!);
    c.subject = ref.table;
    parts.metric = { fn: 'sum', measure: { kind: 'column', ref } };
  } else if (aggregate.fn === 'count') readCount(c, aggregate);
  else readMeasureAggregate(c, aggregate);
};

/** A count: of the relation named, or of the focus, or the sum of a relation of tallies. */
const readCount = (c: Draft, aggregate: Aggregate): void => {
  const aggregateTarget = c.at(aggregate.target);
  const countTarget = aggregateTarget?.kind === 'entity' ? aggregateTarget : undefined;
  const { resolver, lexicon, analysis, parts, focusEntity } = c;
  if (countTarget) c.subject = resolver.entity(countTarget.tables, countTarget.text);
  else if (focusEntity) c.subject = focusEntity;
  // "which users posted reviews … and how many reviews": one count per user.
  if (
    c.subject &&
    focusEntity &&
    focusEntity !== c.subject &&
    analysis.list &&
    c.focusIndex !== undefined &&
    c.focusIndex < aggregate.index
  ) {
    c.groupFromFocus = { kind: 'entity', table: focusEntity };
  }
  // "the number of reviews" where a related relation also keeps a count of them
  // (business.review_count): counting the rows and adding up that count are two readings.
  if (c.subject && aggregate.word !== 'how many') {
    const counted = resolver.relation(c.subject);
    const tallies = [...lexicon.relations.values()].flatMap((other) =>
      other.key === c.subject || pathBetween(lexicon, c.subject!, other.key).kind !== 'path'
        ? []
        : other.columns
            .filter(
              (column) =>
                column.numeric &&
                !column.money &&
                /^(count|num|number|cnt|total)$/.test(column.words[column.words.length - 1] ?? '') &&
                singular(column.words.slice(0, -1).join(' ')) === counted.one,
            )
            .map((column) => ({ relation: other, column })),
    );
    if (tallies.length > 0) {
      const tally = tallies[0]!;
      throw new Clarify(
        `Should I count the ${counted.other} rows, or add up ${tally.column.display} of ${tally.relation.other}? The two can differ.`,
        [
          { table: tableName(lexicon, counted.key) },
          { table: tableName(lexicon, tally.relation.key), column: tally.column.name },
        ],
      );
    }
  }
  // A relation of counts (checkin.count): its rows are tallies, "how many" adds them up. A money
  // column named total (orders.total) is what an order is worth, never how many there are.
  const tally = c.subject
    ? resolver
        .relation(c.subject)
        .columns.filter(
          (column) =>
            column.numeric && !column.money && /^(count|cnt|total)$/.test(column.name.toLowerCase()),
        )
    : [];
  parts.metric =
    tally.length === 1 && c.subject
      ? {
          fn: 'sum',
          measure: { kind: 'column', ref: { table: c.subject, column: tally[0]!.name } },
          name: `number of ${resolver.relation(c.subject).other}`,
        }
      : { fn: 'count' };
  // "how many different breeds of dogs": the different values of that column.
  const distinct = c.at(aggregate.distinct);
  if (distinct?.kind === 'column') {
    const ref = resolver.columnRef(distinct.refs, distinct.text, c.subject);
    c.subject ??= ref.table;
    parts.metric = { fn: 'count', distinct: ref };
  }
};

/** A sum, average, minimum or maximum: of a named column or measure, or of a relation's one amount. */
const readMeasureAggregate = (c: Draft, aggregate: Aggregate): void => {
  const { resolver, lexicon, analysis, items, used, prior, parts, focusEntity } = c;
  const target = c.at(aggregate.target);
  let measure: Measure | undefined;
  let name: string | undefined;
  const named = items.some(
    (item) =>
      item.kind === 'entity' || item.kind === 'column' || item.kind === 'measure' || item.kind === 'value',
  );
  if (target === undefined && aggregate.word !== 'how much' && !named && !prior) {
    // "what is the total?": nothing says of what; revenue would be a guess.
    throw new Clarify(
      `The ${aggregate.word} of what? Name what to add up, for example ${lexicon.revenue.kind === 'one' ? '“total revenue” or ' : ''}“total ${exampleMeasure(lexicon)}”.`,
    );
  }
  if (aggregate.word === 'how much' || target?.kind === 'measure' || target === undefined) {
    if (target?.kind === 'column') {
      measure = { kind: 'column', ref: resolver.columnRef(target.refs, target.text, focusEntity) };
      used.add(aggregate.target!);
    } else {
      ({ measure, name } = resolver.measureNamed(target?.kind === 'measure' ? target.text : 'revenue'));
      if (target?.kind === 'measure') used.add(aggregate.target!);
    }
  } else if (target.kind === 'column') {
    used.add(aggregate.target!);
    const extremes = aggregate.fn === 'min' || aggregate.fn === 'max';
    const measurable = target.refs.filter((ref) => {
      const info = columnOf(lexicon, ref);
      return info?.numeric || (extremes && info?.temporal);
    });
    if (measurable.length === 0) {
      throw new Clarify(
        `${capitalize(target.text)} ${pluralText(target.text) ? 'are not numbers' : 'is not a number'} I can ${aggregate.fn === 'avg' ? 'average' : aggregate.fn === 'sum' ? 'add up' : 'compare'}.`,
      );
    }
    const ref = resolver.columnRef(measurable, target.text, focusEntity);
    const column = resolver.column(ref);
    if (!column.numeric && !(column.temporal && (aggregate.fn === 'min' || aggregate.fn === 'max'))) {
      throw new Clarify(
        `${column.display} is not a number I can ${aggregate.fn === 'avg' ? 'average' : 'add up'}.`,
      );
    }
    measure = { kind: 'column', ref };
  } else if (target.kind === 'entity') {
    // "total orders" counts them; "total payments" adds up their one amount.
    const table = resolver.entity(target.tables, target.text);
    used.add(aggregate.target!);
    if (/^totals?$/.test(aggregate.word) && resolver.worthOf(table).length === 0) {
      c.subject = table;
      parts.metric = { fn: 'count' };
    } else {
      measure = {
        kind: 'column',
        ref: resolver.moneyOf(table, `${aggregate.word} ${target.text}`),
      };
    }
  }
  // "the average rating of businesses" where ratings belong to reviews: per business, then
  // averaged, or over all reviews? Two readings; ask which.
  if (
    measure &&
    aggregate.fn === 'avg' &&
    focusEntity &&
    measureColumn(measure).table !== focusEntity &&
    pathBetween(lexicon, measureColumn(measure).table, focusEntity).kind === 'path' &&
    !analysis.groups.length
  ) {
    const column = resolver.column(measureColumn(measure));
    const parent = resolver.relation(focusEntity);
    const child = resolver.relation(measureColumn(measure).table);
    throw new Clarify(
      `Do you mean the average ${column.display} per ${parent.one} (one value for each ${parent.one}), or the average over all their ${child.other}?`,
      [
        { table: tableName(lexicon, focusEntity) },
        { table: tableName(lexicon, child.key), column: column.name },
      ],
    );
  }
  if (measure) {
    c.subject = measureColumn(measure).table;
    parts.metric = {
      fn: aggregate.fn as 'sum' | 'avg' | 'min' | 'max',
      measure,
      ...(name ? { name } : {}),
    };
  }
};

/**
 * No ranking and no aggregate word: a measure alone is summed ("revenue per category", "sales in
 * 2025"), a number named with a grouping is added up or averaged, a grouping alone counts.
 */
const readImpliedMetric = (c: Draft): void => {
  const { resolver, lexicon, analysis, items, used, prior, parts } = c;
  const measureIndex = items.findIndex((item, position) => item.kind === 'measure' && !used.has(position));
  const leftover = analysis.groups.length > 0 ? numericLeftover(lexicon, analysis) : undefined;
  if (measureIndex >= 0) {
    used.add(measureIndex);
    const { measure, name } = resolver.measureNamed((items[measureIndex] as ItemOf<'measure'>).text);
    c.subject = measureColumn(measure).table;
    parts.metric = { fn: 'sum', measure, name };
  } else if (leftover !== undefined) readGroupedNumber(c, leftover);
  else if (analysis.groups.length > 0 && !prior) parts.metric = { fn: 'count' };
};

/** "shipping cost per channel": a number named with a grouping is added up (or averaged, for
 *  prices and rates, which do not add up). */
const readGroupedNumber = (c: Draft, index: number): void => {
  const { resolver, lexicon, items, used, parts, focusEntity } = c;
  const item = items[index] as ItemOf<'column'>;
  used.add(index);
  const ref = resolver.columnRef(
    item.refs.filter((ref) => columnOf(lexicon, ref)?.numeric),
    item.text,
    focusEntity,
  );
  const column = resolver.column(ref);
  const averaged = column.words.some((word) =>
    /^(price|rate|percent|percentage|ratio|score|rating|age)$/.test(word),
  );
  if (
    !averaged &&
    !column.money &&
    !column.words.some((word) =>
      /^(quantity|qty|units?|count|amount|total|cost|weight|hours|minutes|duration)$/.test(word),
    )
  ) {
    throw new Clarify(
      `Should I add up or average ${column.display}? Say “total ${column.display}” or “average ${column.display}”.`,
    );
  }
  c.subject = ref.table;
  parts.metric = { fn: averaged ? 'avg' : 'sum', measure: { kind: 'column', ref } };
};

/**
 * "customers with more than 5 orders": one row per customer, counting their orders; otherwise
 * rows, when nothing else is asked.
 */
const readHaving = (c: Draft): void => {
  const { resolver, analysis, prior, parts, focusEntity } = c;
  const havingComparison = analysis.comparisons.find((comparison) => comparison.countOf);
  if (havingComparison && !parts.metric) {
    if (!focusEntity)
      throw new Clarify('Which rows should have that many? For example “customers with more than 5 orders”.');
    const counted = resolver.entity(havingComparison.countOf!, 'those');
    if (counted === focusEntity) {
      throw new Clarify(`More than ${havingComparison.value} ${resolver.relation(counted).other} of what?`);
    }
    c.subject = counted;
    c.groupFromFocus = { kind: 'entity', table: focusEntity };
    parts.metric = { fn: 'count' };
    parts.having = {
      op: havingComparison.op,
      value: havingComparison.value,
      ...(havingComparison.high !== undefined ? { high: havingComparison.high } : {}),
    };
    parts.order = { by: 'metric', dir: 'desc' };
    const admitsZero =
      (havingComparison.op === '<' && havingComparison.value > 0) ||
      ((havingComparison.op === '<=' || havingComparison.op === '=') && havingComparison.value >= 0) ||
      (havingComparison.op === 'between' && havingComparison.value <= 0);
    if (admitsZero) {
      throw new Clarify(
        `I can only count ${resolver.relation(focusEntity).other} that have at least one of ${resolver.relation(counted).other}, so “${havingComparison.op === '<' ? 'fewer than' : 'at most'} ${havingComparison.value}” would leave out those with none. Could you ask for “more than” or “at least” instead?`,
      );
    }
  } else if (havingComparison) {
    throw new Clarify(
      'I can compare a count of related rows only in a list, for example “customers with more than 5 orders”.',
    );
  } else if (!parts.metric && (analysis.list || (focusEntity && !prior))) {
    parts.metric = 'rows';
  }
};

/**
 * "how many pets are neutered vs not neutered": a yes/no column asked both ways is a grouping by
 * it, not two conditions no row meets together. In a list it is asked about.
 */
const splitOnFlag = (c: Draft): void => {
  const { parts, resolver } = c;
  const flags = parts.filters.filter(
    (filter): filter is Extract<Filter, { kind: 'in' }> =>
      filter.kind === 'in' && filter.values.length === 1 && typeof filter.values[0] === 'boolean',
  );
  const both = flags.find((one) =>
    flags.some((other) => sameRef(one.ref, other.ref) && other.values[0] !== one.values[0]),
  );
  if (!both) return;
  if (parts.metric === undefined || parts.metric === 'rows' || parts.group) {
    throw new Clarify(
      `Should I show ${resolver.relation(c.subject ?? both.ref.table).other} with ${resolver.column(both.ref).display} or without? I can also count each.`,
    );
  }
  for (let index = parts.filters.length - 1; index >= 0; index -= 1) {
    const filter = parts.filters[index]!;
    if (filter.kind === 'in' && sameRef(filter.ref, both.ref)) parts.filters.splice(index, 1);
  }
  parts.group = { kind: 'column', ref: both.ref };
};

/**
 * "pets with no microchip": an own column that is NULL. "customers who never ordered": no row of
 * a relation whose one key points at the subject. "products with no category": the subject's own
 * key to that relation is NULL. Anything else is asked about.
 */
const absentFilter = (c: Draft, subject: string, absence: Analysis['absences'][number]): Filter => {
  const { resolver, lexicon } = c;
  const refs = 'refs' in absence ? absence.refs : [];
  const own = refs.filter((ref) => ref.table === subject);
  if (own.length > 0) {
    const ref = resolver.columnRef(own, absence.text, subject);
    if (resolver.column(ref).nullable) return { kind: 'absent', ref };
    throw new Clarify(everyOneHas(resolver.relation(subject).one, resolver.column(ref).display));
  }
  // A related relation's date ("never ordered": orders.ordered_at) stands for its rows; another of
  // its columns does not ("owners without a microchip" is no question about pets).
  if (refs.length > 0 && !refs.every((ref) => resolver.column(ref).temporal)) {
    throw new Clarify(
      `${capitalize(resolver.relation(subject).other)} have no ${absence.text} of their own. Which ${resolver.relation(subject).other} do you mean?`,
    );
  }
  const tables = 'tables' in absence ? absence.tables : [...new Set(refs.map((ref) => ref.table))];
  const related = tables.length === 1 ? tables[0]! : resolver.entity(tables, absence.text, subject);
  const edges = lexicon.edges.get(subject) ?? [];
  const pointed = edges.filter(
    (edge) => edge.child === subject && edge.parent === related && edge.childColumns.length === 1,
  );
  // "owners who never booked an appointment": appointments → pets → owners, every step a key
  // that points back towards the subject.
  const path = pointed.length > 0 ? undefined : pointingPath(lexicon, subject, related);
  if (path) {
    const last = path[path.length - 1]!;
    return { kind: 'absent', ref: { table: last.to, column: last.edge.childColumns[0]! } };
  }
  if (related !== subject && pointed.length === 1) {
    const ref = { table: subject, column: pointed[0]!.childColumns[0]! };
    if (resolver.column(ref).nullable) return { kind: 'absent', ref };
    throw new Clarify(everyOneHas(resolver.relation(subject).one, resolver.relation(related).one));
  }
  const example = resolver.relation(subject).columns.find((column) => column.nullable && !column.key);
  throw new Clarify(
    `I'm not sure which ${resolver.relation(subject).other} have no ${absence.text}.${example ? ` I can find ${resolver.relation(subject).other} with no ${example.display}, for example.` : ''}`,
  );
};

/** "Every customer has an email, so none is without one." */
const everyOneHas = (one: string, what: string): string =>
  `Every ${one} has ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}, so none is without one.`;

/** The relation the rows come from: the focus, the previous subject, a value's or a column's. */
const settleSubject = (c: Draft): string => {
  const { resolver, lexicon, analysis, items, used, prior, parts, focus, focusEntity } = c;
  // Subject fallbacks: the focus, then a value's or a column's relation, then the previous subject.
  c.subject ??= focusEntity;
  // A follow-up without a relation of its own stays on the previous one ("what about in Spain?").
  if (!c.subject && prior) c.subject = prior.subject;
  if (!c.subject) {
    const fromValues = [
      ...new Set(analysis.values.flatMap((value) => value.matches.map((match) => match.ref.table))),
    ];
    if (fromValues.length === 1) c.subject = fromValues[0];
  }
  if (!c.subject && analysis.presets.length > 0) {
    const tables = [...new Set(analysis.presets.map((filter) => filter.ref.table))];
    if (tables.length === 1) c.subject = tables[0];
  }
  if (!c.subject && focus?.kind === 'column') {
    const ref = resolver.columnRef(focus.refs, focus.text, undefined);
    c.subject = ref.table;
  }
  if (!c.subject) {
    // "price over 100", "count by status": the relation of the first column named (or a question
    // back when the column is in several).
    const named = items.find(
      (item, index): item is ItemOf<'column'> => item.kind === 'column' && used.has(index),
    );
    if (named) c.subject = resolver.columnRef(named.refs, named.text, undefined).table;
  }
  if (!c.subject && (parts.metric === undefined || parts.metric === 'rows') && !parts.group) {
    // "what are the different property types", "list the genres": the values of the one text
    // column named, each with how many rows have it.
    const columns = items.flatMap((item, index) =>
      item.kind === 'column' && !used.has(index) ? [{ item, index }] : [],
    );
    const only = columns.length === 1 ? columns[0]! : undefined;
    const texts = only?.item.refs.filter((ref) => columnOf(lexicon, ref)?.kind === 'text') ?? [];
    if (only && texts.length > 0 && items.every((item) => item.kind !== 'entity')) {
      const ref = resolver.columnRef(texts, only.item.text, undefined);
      used.add(only.index);
      c.subject = ref.table;
      parts.group = { kind: 'column', ref };
      parts.metric = { fn: 'count' };
    }
  }
  if (!c.subject) {
    throw new Clarify(`What would you like to know? I can answer questions about ${mainTables(lexicon)}.`);
  }
  parts.subject = c.subject;
  return c.subject;
};

/** Grouping and sorting. */
const readGrouping = (c: Draft, subject: string): void => {
  const { resolver, analysis, prior, at, parts } = c;
  // ---- grouping ----
  if (c.groupFromFocus) parts.group = c.groupFromFocus;
  const explicitGroups = analysis.groups;
  if (explicitGroups.length > 1)
    throw new Clarify('I can group by one thing at a time. Which grouping do you want?');
  let explicit = explicitGroups[0];
  // "which neighbourhoods have the most businesses, and how many in each neighbourhood": the same
  // grouping said twice.
  const repeated = explicit?.target !== undefined ? at(explicit.target) : undefined;
  if (
    parts.group?.kind === 'entity' &&
    repeated?.kind === 'entity' &&
    repeated.tables.includes(parts.group.table)
  ) {
    // … and every group is asked for, in that order, not the top few.
    explicit = undefined;
    delete parts.limit;
  }
  if (explicit) {
    if (parts.group) throw new Clarify('I can group by one thing at a time. Which grouping do you want?');
    const target = at(explicit.target);
    if (explicit.unit) {
      const ref = resolver.dateOf(subject, `“per ${explicit.unit}”`);
      const relation = resolver.relation(ref.table);
      if (resolver.column(ref).kind === 'integer') {
        // A year number: per year is per its value; per month is per a month-name column beside it.
        const month = explicit.unit === 'month' ? monthColumn(relation) : undefined;
        if (explicit.unit !== 'year' && !month)
          throw new Clarify(
            `${capitalize(relation.other)} have only a year, so I can group them per year, not per ${explicit.unit}.`,
          );
        parts.group = { kind: 'column', ref: month ? { table: ref.table, column: month.name } : ref };
      } else if (explicit.unit === 'hour' && resolver.column(ref).kind === 'date') {
        // A date has no time of day.
        throw new Clarify(
          `${capitalize(relation.other)} have only a date (${resolver.column(ref).display}), no time of day, so I cannot group them per hour.`,
        );
      } else parts.group = { kind: 'time', ref, unit: explicit.unit };
    } else if (target?.kind === 'entity') {
      const table = resolver.entity(target.tables, target.text, subject);
      if (table === subject) {
        const relation = resolver.relation(table);
        throw new Clarify(
          `${relation.other} per ${relation.one}? Each ${relation.one} is one row; did you mean a list of ${relation.other}?`,
        );
      }
      parts.group = { kind: 'entity', table };
    } else if (target?.kind === 'column') {
      const ref = resolver.columnRef(target.refs, target.text, subject);
      const column = resolver.column(ref);
      if (column.temporal) parts.group = { kind: 'time', ref, unit: 'day' };
      else if (column.numeric && !parts.metric) {
        // "products by price": a sorted list.
        parts.metric = 'rows';
        parts.order = { by: 'column', ref, dir: 'asc' };
      } else parts.group = { kind: 'column', ref };
    } else if (target?.kind === 'measure') {
      throw new Clarify(
        'Group by revenue? Revenue is what I add up; tell me what to group it by, for example “revenue per category”.',
      );
    }
    if (parts.group && (parts.metric === 'rows' || (!parts.metric && !prior))) parts.metric = { fn: 'count' };
  }

  if (analysis.sort) {
    // A column of a list sorts the rows; otherwise the clause sorts what is computed (groups by
    // their value, rows by their key), which the answer already is.
    const target = analysis.sort.column;
    const listing = !parts.metric || parts.metric === 'rows';
    const own = target ? target.refs.filter((ref) => ref.table === subject) : [];
    if (target && listing && own.length > 0 && !parts.order) {
      const ref = resolver.columnRef(own, target.text, subject);
      parts.metric = 'rows';
      parts.order = { by: 'column', ref, dir: analysis.sort.dir };
    } else if (parts.group && parts.metric && parts.metric !== 'rows' && !parts.order && !target) {
      parts.order = { by: 'metric', dir: analysis.sort.dir };
    }
  }
};

/** Filters: values, quoted names, flags, keys, comparisons and periods. */
const readFilters = (c: Draft, subject: string): void => {
  const { resolver, lexicon, analysis, items, used, parts } = c;
  const filters = parts.filters;
  const valueGroups = new Map<string, { ref: ColumnRef; values: string[]; negated: boolean }>();
  for (const item of analysis.values) {
    const matches = resolver.valueMatches(item, subject);
    for (const match of matches) {
      const key = `${match.ref.table}.${match.ref.column}.${item.negated}`;
      const entry = valueGroups.get(key) ?? { ref: match.ref, values: [], negated: item.negated };
      if (!entry.values.includes(match.value)) entry.values.push(match.value);
      valueGroups.set(key, entry);
    }
  }
  for (const { ref, values, negated } of valueGroups.values())
    filters.push({ kind: 'in', ref, values, negated });
  for (const literal of analysis.literals) {
    if (!literal.column && literal.named) {
      const labels = resolver.relation(subject).labels;
      const label = labels.length === 1 ? resolver.column({ table: subject, column: labels[0]! }) : undefined;
      if (label?.kind !== 'text') {
        throw new Clarify(
          `Which column of ${resolver.relation(subject).other} holds ${quoted(literal.text)}? For example: last name ${quoted(literal.text)}.`,
        );
      }
      filters.push({
        kind: 'in',
        ref: { table: subject, column: label.name },
        values: [literal.text],
        negated: false,
      });
      continue;
    }
    if (!literal.column) {
      throw new Clarify(
        `Which column should equal ${quoted(literal.text)}? For example “name ${quoted(literal.text)}”.`,
      );
    }
    const ref = resolver.columnRef(literal.column, 'that name', subject);
    filters.push({ kind: 'in', ref, values: [literal.text], negated: false });
  }
  for (const preset of analysis.presets) {
    if (!filters.some((filter) => JSON.stringify(filter) === JSON.stringify(preset))) filters.push(preset);
  }
  for (const boolean of analysis.booleans) {
    filters.push({
      kind: 'in',
      ref: resolver.columnRef(boolean.refs, 'that', subject),
      values: [!boolean.negated],
      negated: false,
    });
  }
  for (const absence of analysis.absences) filters.push(absentFilter(c, subject, absence));
  // Boolean columns named on their own: "products in stock", "active employees".
  items.forEach((item, index) => {
    if (item.kind !== 'column' || used.has(index)) return;
    const booleans = item.refs.filter((ref) => columnOf(lexicon, ref)?.kind === 'boolean');
    if (booleans.length === 0) return;
    used.add(index);
    filters.push({
      kind: 'in',
      ref: resolver.columnRef(booleans, item.text, subject),
      values: [true],
      negated: false,
    });
  });
  splitOnFlag(c);
  for (const key of analysis.keys) {
    const table = resolver.entity(key.tables, 'that', subject);
    const relation = resolver.relation(table);
    if (relation.primaryKey.length !== 1)
      throw new Clarify(`${relation.other} have no single id to look up.`);
    filters.push({
      kind: 'compare',
      ref: { table, column: relation.primaryKey[0]! },
      op: '=',
      value: key.value,
    });
  }
  for (const comparison of analysis.comparisons) {
    if (comparison.countOf) continue;
    let ref: ColumnRef;
    if (comparison.column) ref = resolver.columnRef(comparison.column, 'that', subject);
    else if (comparison.money || comparison.costly) ref = resolver.moneyOf(subject, 'that amount');
    else {
      throw new Clarify(
        `${comparison.op === 'between' ? 'Between' : 'More or less than'} ${comparison.value}${comparison.high !== undefined ? ` and ${comparison.high}` : ''} of what? Name the column, for example “price over ${comparison.value}”.`,
      );
    }
    filters.push(
      comparison.op === 'between'
        ? { kind: 'between', ref, low: comparison.value, high: comparison.high ?? comparison.value }
        : { kind: 'compare', ref, op: comparison.op, value: comparison.value },
    );
  }
  if (analysis.periods.length > 1) {
    const unbound = analysis.periods.filter((period) => !period.column);
    if (unbound.length > 1)
      throw new Clarify('I can filter on one period at a time. Which period do you mean?');
  }
  for (const { period, column, near } of analysis.periods) {
    let ref: ColumnRef;
    if (column) ref = resolver.columnRef(column, period.label, subject);
    else if (near && near.length === 1 && near[0] !== subject && resolver.relation(near[0]!).primaryDate) {
      ref = resolver.dateOf(near[0]!, period.label);
    } else ref = resolver.dateOf(subject, period.label);
    const clash = column
      ? undefined
      : periodClash(lexicon.definitions, analysis.presets, ref, (date) => resolver.column(date).display);
    if (clash)
      throw new Clarify(
        clash.message,
        clash.candidates.map((date) => ({ table: tableName(lexicon, date.table), column: date.column })),
      );
    if (resolver.column(ref).kind === 'integer') {
      // A year number: whole years compare with it; a month also needs a month-name column.
      const first = Number(period.from?.slice(0, 4));
      const last = period.to
        ? Number(period.to.slice(0, 4)) - (period.to.endsWith('-01-01') ? 1 : 0)
        : Number.NaN;
      const wholeYears = period.from?.endsWith('-01-01') && period.to?.endsWith('-01-01');
      const month = monthColumn(resolver.relation(ref.table));
      const single =
        period.from &&
        period.to &&
        period.from.slice(0, 7) === lastDayBefore(period.to).slice(0, 7) &&
        period.from.endsWith('-01');
      if (wholeYears && Number.isInteger(first) && Number.isInteger(last)) {
        filters.push(
          first === last
            ? { kind: 'compare', ref, op: '=', value: first }
            : { kind: 'between', ref, low: first, high: last },
        );
      } else if (single && month && period.from) {
        const name = monthNames[Number(period.from.slice(5, 7)) - 1]!;
        filters.push({ kind: 'compare', ref, op: '=', value: first });
        filters.push({
          kind: 'in',
          ref: { table: ref.table, column: month.name },
          values: [capitalize(name)],
          negated: false,
        });
      } else {
        throw new Clarify(
          `${capitalize(resolver.relation(ref.table).other)} have only a year, so I can filter them by whole years, not ${period.label}.`,
        );
      }
      parts.period = true;
      continue;
    }
    filters.push({
      kind: 'period',
      ref,
      ...(period.from ? { from: period.from } : {}),
      ...(period.to ? { to: period.to } : {}),
      label: period.label,
    });
    parts.period = true;
  }
};

/** Every relation and column the question names must play a part. */
const requireUse = (c: Draft, subject: string): void => {
  const { resolver, lexicon, items, used, parts, focusIndex, entityIndexes } = c;
  const filters = parts.filters;
  // Entities named but not otherwise used: rows must have a related one ("customers with orders").
  for (const index of entityIndexes) {
    if (used.has(index) && index !== focusIndex) continue;
    const item = items[index] as ItemOf<'entity'>;
    const table = resolver.entity(item.tables, item.text, subject);
    const mentioned = (filter: Filter) => filter.ref.table === table;
    const grouped =
      parts.group && (parts.group.kind === 'entity' ? parts.group.table : parts.group.ref.table) === table;
    if (table === subject || grouped || filters.some(mentioned)) continue;
    if (parts.metric && parts.metric !== 'rows' && parts.metric.fn !== 'count') {
      if (measureColumn(parts.metric.measure).table === table) continue;
    }
    if (parts.order?.by === 'column' && parts.order.ref.table === table) continue;
    const key = resolver.relation(table).primaryKey[0];
    if (!key)
      throw new Clarify(
        `I can't tell how ${resolver.relation(table).other} relate to ${resolver.relation(subject).other}.`,
      );
    filters.push({ kind: 'present', ref: { table, column: key } });
  }
  // Columns that were named but play no part: only fine when they belong to what is listed.
  items.forEach((item, index) => {
    if (item.kind !== 'column' || used.has(index)) return;
    const own = item.refs.filter((ref) => ref.table === subject);
    // A column of the rows listed is shown with them; in a count, a total or a grouping, a
    // column that plays no part means a word was not understood.
    const listing = parts.metric === undefined || parts.metric === 'rows';
    if (own.length > 0 && listing) return;
    const relations = new Set(filters.map((filter) => filter.ref.table));
    if (item.refs.some((ref) => relations.has(ref.table))) return;
    // "the contact that opened the most tickets": the verb of the counted rows' own date (never
    // empty) only says that they happened.
    if (
      item.refs.every((ref) => {
        const date = resolver.relation(ref.table).primaryDate;
        return ref.table === subject && date?.name === ref.column && !date.nullable;
      })
    )
      return;
    // A grouped answer shows each group's key and name, not its other columns.
    const group = parts.group?.kind === 'entity' ? resolver.relation(parts.group.table) : undefined;
    if (
      group &&
      item.refs.some(
        (ref) => ref.table === group.key && [...group.primaryKey, ...group.labels].includes(ref.column),
      )
    )
      return;
    throw new Clarify(
      `I'm not sure what to do with ${quoted(item.text)} here. I can filter, group or rank by it: for example “${item.text} over 10” or “per ${item.text}”.`,
      item.refs.map((ref) => ({ table: tableName(lexicon, ref.table), column: ref.column })),
    );
  });
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
  let filters: Filter[] = sameSubject ? [...prior.filters] : [];
  if (!sameSubject) {
    // A new subject keeps the previous period (on its own date) and nothing else.
    const period = prior.filters.find((filter) => filter.kind === 'period');
    if (period && !parts.period) {
      filters.push({ ...period, ref: resolver.dateOf(subject, period.label) });
    }
  }
  for (const filter of parts.filters) {
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
  const keepShape = parts.metric === undefined && sameSubject;
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
const checkVerbs = (lexicon: Lexicon, intent: Intent, verbs: readonly string[]): void => {
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
      throw new Clarify(
        `I'm not sure how ${quoted(verbs[0]!)} connects ${name(intent.subject)} and ${name(table)}: they are only linked through ${joinAnd(path.steps.slice(0, -1).map((step) => name(step.to)))}. Could you say how they relate?`,
        [{ table: tableName(lexicon, intent.subject) }, { table: tableName(lexicon, table) }],
      );
    }
  }
};

export interface InterpretInput {
  lexicon: Lexicon;
  mentions: readonly Mention[];
  /** The previous intent of the conversation, when there is one. */
  prior?: Intent;
}

/** One reading of the question, with revenue taken from `revenueTier`. */
const readOnce = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  prior: Intent | undefined,
  revenueTier: number,
): { interpretation: Interpretation; usedRevenue: boolean } => {
  let resolver: Resolver | undefined;
  try {
    const analysis = analyse(lexicon, mentions);
    resolver = new Resolver(lexicon, analysis, revenueTier);
    const followUp = prior !== undefined && isFollowUp(analysis);
    if (
      !followUp &&
      (analysis.followup || analysis.anaphora) &&
      analysis.items.every((item) => item.kind !== 'entity')
    ) {
      throw new Clarify(
        'What are you referring to? Please ask the whole question, for example “How many orders were placed last month?”.',
      );
    }
    const parts = build(resolver, followUp ? prior : undefined);
    const intent = followUp && prior ? merge(resolver, prior, parts) : finish(parts);
    if (analysis.verbs.length > 0) checkVerbs(lexicon, intent, analysis.verbs);
    return {
      interpretation: checkIntent(lexicon, withDefinedAggregate(lexicon.definitions, intent)),
      usedRevenue: resolver.usedRevenue,
    };
  } catch (error) {
    if (!(error instanceof Clarify)) throw error;
    return {
      interpretation: {
        kind: 'clarify',
        message: error.message,
        ...(error.candidates ? { candidates: error.candidates } : {}),
        ...(error.reason ? { reason: error.reason } : {}),
      },
      usedRevenue: resolver?.usedRevenue ?? false,
    };
  }
};

export const interpret = ({ lexicon, mentions, prior }: InterpretInput): Interpretation => {
  const first = readOnce(lexicon, mentions, prior, 0);
  if (first.interpretation.kind === 'intent' || !first.usedRevenue || !first.interpretation.reason) {
    return first.interpretation;
  }
  // Revenue from the first tier cannot answer this (a summary view that does not reach
  // categories, say): the next tier may.
  for (let tier = 1; tier < lexicon.revenueTiers.length; tier += 1) {
    const next = readOnce(lexicon, mentions, prior, tier);
    if (next.interpretation.kind === 'intent') return next.interpretation;
  }
  return first.interpretation;
};
