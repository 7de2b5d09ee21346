// Interpret, what is measured and how: a ranking (by a column, a count of related rows, a
// measure, a span or a size), an aggregate (a count, a total, an average…), a measure implied by
// the focus, and a condition on a count of related rows (having).
import { Clarify } from './clarify.ts';
import type { Draft } from './draft.ts';
import type { ColumnRef, Duration, Intent, Measure, Metric, Order } from './intent.ts';
import { pathBetween } from './joins.ts';
import { columnOf, mainRelations, tableName } from './lexicon.ts';
import { additiveWords, averagedWords, rowSizeWords, sizeRankings, spanRankings } from './phrases.ts';
import { measureColumn } from './resolve.ts';
import { amountSaid } from './said-amount.ts';
import type { Analysis, ItemOf, Lexicon, Ranking, RankKey } from './types.ts';
import { columnMeasure, isQuantityUnit, quantityUnitSaid } from './units.ts';
import { capitalize, joinAnd, pluralText, singular } from './words.ts';

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
  if (!sizeRankings.has(word)) return undefined;
  const relation = lexicon.relations.get(table);
  if (!relation) return undefined;
  const money = relation.columns.filter((column) => column.money && !column.key);
  const only = money.length === 1 ? money[0] : undefined;
  if (!only?.words.some((w) => rowSizeWords.has(w))) return undefined;
  return { table, column: only.name };
};

/**
 * "the longest stay", "the quickest tickets": a word of length or speed ranks the rows of a
 * relation with one span (two time columns of a row, durations.ts `durationPairs`) by it.
 */
const durationOf = (lexicon: Lexicon, table: string, word: string): Duration | undefined => {
  if (!spanRankings.has(word)) return undefined;
  const spans = new Map<string, Duration>();
  for (const measure of lexicon.metrics.values())
    if (measure.kind === 'duration' && measure.left.table === table)
      spans.set(`${measure.left.column} ${measure.right.column}`, measure);
  return spans.size === 1 ? [...spans.values()][0] : undefined;
};

/** The span a word of length ranks by: the focus relation's one, or a duration the question names. */
const spanRanked = (c: Draft, word: string): Duration | undefined => {
  if (!spanRankings.has(word)) return undefined;
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

/** What is measured and how: a ranking, an aggregate, a count of related rows, or rows. */
export const readStatement = (c: Draft): void => {
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
      const measure = columnMeasure(column, ref, rankKey.text);
      if (focusEntity === ref.table && wantsValue) {
        c.subject = ref.table;
        parts.metric = { fn: ranking.dir === 'desc' ? 'max' : 'min', measure };
      } else if (focusEntity === ref.table) rankOf(ref, label);
      else if (!focus) {
        // "what is the highest price": the value itself.
        c.subject = ref.table;
        parts.metric = { fn: ranking.dir === 'desc' ? 'max' : 'min', measure };
      } else if (column.numeric && !column.temporal) {
        c.subject = ref.table;
        groupedBy({ fn: 'sum', measure }, label);
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
  // "how many hours", "how many tonnes", "how many labour hours" (the unit a word of its own after
  // the column): an amount said in its unit, never a count of rows.
  const unitAfter = aggregate.target === undefined ? undefined : c.at(aggregate.target + 1);
  const unitWordAfter =
    aggregateTarget?.kind === 'column' &&
    unitAfter?.kind === 'column' &&
    quantityUnitSaid(unitAfter.text) !== undefined &&
    unitAfter.refs.some((ref) =>
      aggregateTarget.refs.some((own) => own.column === ref.column && own.table === ref.table),
    );
  const saidUnit =
    aggregateTarget?.kind === 'column'
      ? (quantityUnitSaid(aggregateTarget.text.split(' ').pop() ?? '') ??
        (unitWordAfter ? quantityUnitSaid(unitAfter.text) : undefined))
      : undefined;
  if (unitWordAfter && saidUnit) used.add(aggregate.target! + 1);
  const countColumn =
    aggregate.fn === 'count' && aggregateTarget?.kind === 'column'
      ? aggregateTarget.refs.filter((ref) => {
          const column = columnOf(lexicon, ref);
          return (
            column?.numeric &&
            (/^(num|count|number|cnt)$/.test(column.words[column.words.length - 1] ?? '') ||
              (column.unit !== undefined && saidUnit !== undefined))
          );
        })
      : [];
  if (countColumn.length > 0 && aggregateTarget?.kind === 'column') {
    // "the total number of citations" where citation_num holds them, "how many tonnes" of qty_t:
    // its sum (in the unit said).
    const ref = resolver.columnRef(countColumn, aggregateTarget.text, focusEntity);
    used.add(aggregate.target!);
    c.subject = ref.table;
    parts.metric = { fn: 'sum', measure: columnMeasure(resolver.column(ref), ref, aggregateTarget.text) };
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
      // "how much was paid": an amount, never the date a word also names (paid_on).
      const numeric = target.refs.filter((ref) => columnOf(lexicon, ref)?.numeric);
      const said =
        numeric.length === 0
          ? amountSaid(
              lexicon,
              [target.text],
              lexicon.revenueTiers[resolver.revenueTier] ?? [],
              resolver.named,
              true,
            )
          : undefined;
      if (said?.kind === 'column') {
        numeric.push(said.ref);
      } else if (numeric.length === 0) {
        throw new Clarify(
          `${capitalize(target.text)} ${pluralText(target.text) ? 'are not numbers' : 'is not a number'} I can add up.`,
        );
      }
      const ref = resolver.columnRef(numeric, target.text, focusEntity);
      measure = columnMeasure(resolver.column(ref), ref, target.text);
      used.add(aggregate.target!);
    } else {
      ({ measure, name } = resolver.measureNamed(target?.kind === 'measure' ? target.text : 'revenue', true));
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
    measure = columnMeasure(column, ref, target.text);
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
  const averaged = column.words.some((word) => averagedWords.has(word));
  // A quantity in a unit of measure adds up ("hectares by soil type"); a share does not.
  const measured = isQuantityUnit(column.unit);
  if (!averaged && !column.money && !measured && !column.words.some((word) => additiveWords.has(word))) {
    throw new Clarify(
      `Should I add up or average ${column.display}? Say “total ${column.display}” or “average ${column.display}”.`,
    );
  }
  c.subject = ref.table;
  parts.metric = { fn: averaged ? 'avg' : 'sum', measure: columnMeasure(column, ref, item.text) };
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
    // "claims above 20k on policies": each claim has one policy, so the number is not a count of them.
    const found = pathBetween(resolver.lexicon, focusEntity, counted);
    if (found.kind === 'path' && found.steps.every((step) => !step.toMany)) {
      throw new Clarify(
        `Each of the ${resolver.relation(focusEntity).other} has one of the ${resolver.relation(counted).other}, so ${havingComparison.value} is not a number of them. Which column should be over ${havingComparison.value}?`,
      );
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
