// Step 4 of the builtin pipeline: the items of a question (decided by decide.ts) are bound to
// what they modify: a comparison to the column before it or the relation after it ("more than 5
// orders"), a period to the date column before it, a grouping word to what follows, a ranking to
// its key. Every word that matters has to land somewhere; what cannot is a clarification,
// returned as a value.
import { clarify, quoted } from './clarify.ts';
import { classify, datesOfVerb, decide } from './decide.ts';
import { columnOf } from './lexicon.ts';
import { isPrintableNumber, isPrintableValue } from './sql.ts';
import type { Analysis, Clarification, Comparison, Item, ItemOf, Lexicon, Mention } from './types.ts';
import { phraseKey, singular } from './words.ts';

/** Where the binders of one question keep what they found. */
interface Binding {
  lexicon: Lexicon;
  analysis: Analysis;
  items: Item[];
  used: Set<number>;
  /** Relations the question names by their own name. */
  named: Set<string>;
  at: (index: number) => Item | undefined;
  /** "which 3 customers placed the most orders": the count of a superlative after it. */
  rankingN: number | undefined;
}

const isNumericColumn = (lexicon: Lexicon, item: Item | undefined): item is ItemOf<'column'> =>
  item?.kind === 'column' && item.refs.some((ref) => columnOf(lexicon, ref)?.numeric);
const isTemporalColumn = (lexicon: Lexicon, item: Item | undefined): item is ItemOf<'column'> =>
  item?.kind === 'column' && item.refs.every((ref) => columnOf(lexicon, ref)?.temporal);

export const analyse = (
  lexicon: Lexicon,
  given: readonly Mention[],
  words: readonly string[] = [],
): Analysis | Clarification => {
  const decided = decide(lexicon, given);
  if ('kind' in decided) return decided;
  const { items, named } = decided;
  const used = new Set<number>();
  const analysis: Analysis = {
    items,
    used,
    groups: [],
    comparisons: [],
    periods: [],
    values: [],
    literals: [],
    booleans: [],
    absences: [],
    presets: [],
    keys: [],
    list: false,
    anaphora: false,
    verbs: [],
    words: [...words],
    followup: false,
  };
  const b: Binding = {
    lexicon,
    analysis,
    items,
    used,
    named,
    at: (index) => items[index],
    rankingN: undefined,
  };
  for (let index = 0; index < items.length; index += 1) {
    const next = bindItem(b, index);
    if (typeof next !== 'number') return next;
    index = next;
  }
  if (b.rankingN !== undefined && analysis.ranking && analysis.ranking.n === undefined) {
    analysis.ranking.n = b.rankingN;
  }
  bindAggregateTarget(b);
  bindRankKey(b);
  return analysis;
};

/** Binds the item at `index` to what it modifies; the index to go on from. */
const bindItem = (b: Binding, index: number): number | Clarification => {
  const { analysis } = b;
  const item = b.items[index]!;
  switch (item.kind) {
    case 'list':
      analysis.list = true;
      break;
    case 'anaphora':
      analysis.anaphora = true;
      break;
    case 'followup':
      analysis.followup = true;
      break;
    case 'aggregate':
      // (One a grouping read as its measure, "by total spend", was bound there.)
      if (b.used.has(index)) break;
      // "how many orders does each customer have on average": an average of counts, which one
      // query of this engine does not compute; never the counts alone.
      if (analysis.aggregate?.fn === 'count' && item.fn === 'avg') {
        return clarify(
          'I can count, or average a column, but not average counts in one answer. Could you ask for the count per group, for example “orders per customer”?',
        );
      }
      analysis.aggregate ??= { fn: item.fn, word: item.word, index };
      break;
    case 'preset':
      // (A negated preset was bound by its negation.)
      if (!b.used.has(index)) analysis.presets.push(item.filter);
      break;
    case 'verb':
      analysis.verbs.push(item.text);
      break;
    case 'negation':
      return bindNegation(b, index) ?? index;
    case 'group':
      return bindGroup(b, item, index);
    case 'sort':
      bindSort(b, item);
      break;
    case 'top':
    case 'superlative':
      return bindRanking(b, item, index) ?? index;
    case 'compare':
      return bindComparison(b, item, index) ?? index;
    case 'period':
      bindPeriod(b, item, index);
      break;
    case 'value':
      return bindValue(b, item, index) ?? index;
    case 'literal':
      return bindLiteral(b, item, index) ?? index;
    case 'number':
      return bindNumber(b, item, index) ?? index;
    default:
      break;
  }
  return index;
};

/**
 * "not cancelled", "no longer active": the value or yes/no column after it is left out. "with no
 * microchip", "without orders", "never ordered": another column or a relation after it is absent.
 */
const bindNegation = (b: Binding, index: number): Clarification | undefined => {
  const { lexicon, analysis, used, at } = b;
  // "never booked an appointment": a verb between says nothing more.
  let position = index + 1;
  while (at(position)?.kind === 'verb') position += 1;
  const next = at(position);
  // "contacts with no phone": a column of a relation the question names, though "phone" is also
  // a value elsewhere (tickets.channel 'phone').
  const ownColumns =
    next?.kind === 'value'
      ? (lexicon.phrases.get(phraseKey(next.text.split(' '))) ?? []).flatMap((entry) =>
          entry.kind === 'column' && b.named.has(entry.table) && columnOf(lexicon, entry)?.nullable
            ? [{ table: entry.table, column: entry.column }]
            : [],
        )
      : [];
  if (next?.kind === 'value' && ownColumns.length > 0) {
    used.add(position);
    next.negated = false;
    analysis.absences.push({ refs: ownColumns, text: next.text });
  } else if (next?.kind === 'value') next.negated = true;
  else if (next?.kind === 'column' && next.refs.every((ref) => columnOf(lexicon, ref)?.kind === 'boolean')) {
    used.add(position);
    analysis.booleans.push({ refs: next.refs, negated: true });
  } else if (next?.kind === 'preset' && (next.filter.kind === 'in' || next.filter.kind === 'glossary')) {
    // "no longer active" where the glossary defines "active": its condition turned around.
    used.add(position);
    const filter = next.filter;
    const flag = filter.kind === 'in' && filter.values.length === 1 && typeof filter.values[0] === 'boolean';
    analysis.presets.push(
      filter.kind === 'in' && flag
        ? { ...filter, values: [!filter.values[0]] }
        : { ...filter, negated: !filter.negated },
    );
  } else if (next?.kind === 'column') {
    used.add(position);
    analysis.absences.push({ refs: next.refs, text: next.text });
  } else if (next?.kind === 'entity') {
    used.add(position);
    analysis.absences.push({ tables: next.tables, text: next.text });
  } else if (next?.kind === 'anaphora' || next === undefined) {
    // "not those": nothing to negate that we can name
    return clarify(
      'I could not tell what to leave out. Could you name the value, for example “not cancelled”?',
    );
  } else {
    return clarify(
      'I can only leave out named values (for example “orders that are not cancelled”), not whole groups of rows.',
    );
  }
};

/** "per customer", "by month": a grouping by what follows, or by a unit of time. */
const bindGroup = (b: Binding, item: ItemOf<'group'>, index: number): number | Clarification => {
  const { lexicon, analysis, used, at, items } = b;
  let next = at(index + 1);
  // "in each team" where "team" is also a value elsewhere (plan 'team'): the column.
  if (next?.kind === 'value' && item.unit === undefined) {
    const refs = (lexicon.phrases.get(phraseKey(next.text.split(' '))) ?? []).flatMap((entry) =>
      entry.kind === 'column' ? [{ table: entry.table, column: entry.column }] : [],
    );
    if (refs.length > 0) {
      items[index + 1] = { kind: 'column', refs, text: next.text, at: next.at, end: next.end };
      next = items[index + 1];
    }
  }
  // "top 5 customers by total spend": the total's measure. "top 3 clients by number of tickets":
  // ranked by a count of those rows.
  const following = at(index + 2);
  if (next?.kind === 'aggregate' && item.unit === undefined) {
    if (next.fn === 'count' && following?.kind === 'entity' && analysis.ranking) {
      used.add(index + 1).add(index + 2);
      analysis.rankKey = { kind: 'count', tables: following.tables, index: index + 2 };
      return index + 2;
    }
    if (next.fn !== 'count' && (following?.kind === 'measure' || isNumericColumn(lexicon, following))) {
      used.add(index + 1);
      index += 1;
      next = following;
    }
  }
  // "per customer country": the column, not the relation its phrase names.
  if (next?.kind === 'entity' && next.implied && at(index + 2)?.kind === 'column') {
    used.add(index + 1);
    index += 1;
    next = at(index + 1);
  }
  const target =
    item.unit === undefined &&
    (next?.kind === 'entity' || next?.kind === 'column' || next?.kind === 'measure')
      ? index + 1
      : undefined;
  if (item.unit === undefined && target === undefined) {
    return clarify('Per what? Name what to group by, for example “orders per status” or “revenue by month”.');
  }
  if (target !== undefined) used.add(target);
  analysis.groups.push({
    ...(item.unit ? { unit: item.unit } : {}),
    ...(target !== undefined ? { target } : {}),
    index,
  });
  return index;
};

/** "sorted by price", "in descending order": a sort clause. */
const bindSort = (b: Binding, item: ItemOf<'sort'>): void => {
  const { lexicon, analysis, items, named } = b;
  const direction = items.find((other) => other.kind === 'direction');
  const dir = direction?.kind === 'direction' ? direction.dir : (item.dir ?? 'asc');
  const target = item.target ? classify(lexicon, item.target, undefined, named) : [];
  const column = target.find((found): found is ItemOf<'column'> => found.kind === 'column');
  analysis.sort = { ...(column ? { column } : {}), dir };
};

/** "top 5", "the most expensive": one ranking (said twice, it is still one). */
const bindRanking = (
  b: Binding,
  item: ItemOf<'top' | 'superlative'>,
  index: number,
): Clarification | undefined => {
  const { analysis } = b;
  if (analysis.ranking) {
    // "the top 3 restaurants with the highest ratings": one ranking, said twice.
    const first = analysis.ranking;
    const plain = (word: string) => word === 'top' || word === 'bottom';
    if (item.kind === 'superlative' && plain(first.word) && first.hint === undefined) {
      analysis.ranking = { n: first.n, dir: item.dir, hint: item.hint, word: item.word, index };
      return;
    }
    return clarify('I can rank by one thing at a time. Which ranking do you want?');
  }
  analysis.ranking = {
    n: item.kind === 'top' ? item.n : undefined,
    dir: item.dir,
    hint: item.hint,
    word: item.word,
    index,
  };
};

/** "more than 5 orders", "price over 100": a comparison bound to its column or to a count of related rows. */
const bindComparison = (b: Binding, item: ItemOf<'compare'>, index: number): Clarification | undefined => {
  const { lexicon, analysis, used, at } = b;
  const previous = at(index - 1);
  const next = at(index + 1);
  const comparison: Comparison = {
    op: item.op,
    value: item.value,
    high: item.high,
    money: item.money,
    costly: previous?.kind === 'cost',
  };
  if (!isPrintableNumber(item.value) || (item.high !== undefined && !isPrintableNumber(item.high))) {
    return clarify('That number is too large for me to compare with.');
  }
  // "more than 5 orders", "at least 2 cancelled orders": a count of related rows.
  let counted = index + 1;
  while (at(counted)?.kind === 'value') counted += 1;
  const countedItem = at(counted);
  if (isNumericColumn(lexicon, previous) && !used.has(index - 1)) {
    used.add(index - 1);
    comparison.column = previous.refs;
  } else if (countedItem?.kind === 'entity' && !item.money) {
    used.add(counted);
    comparison.countOf = countedItem.tables;
  } else if (isNumericColumn(lexicon, next) && !used.has(index + 1)) {
    used.add(index + 1);
    comparison.column = next.refs;
  }
  analysis.comparisons.push(comparison);
};

/** "in 2025", "signed up last month": a period bound to the date column before it, or near a relation. */
const bindPeriod = (b: Binding, item: ItemOf<'period'>, index: number): void => {
  const { lexicon, analysis, used, at } = b;
  const previous = at(index - 1);
  const entry: Analysis['periods'][number] = { period: item.period };
  // "tickets created in Q2 2024": a date verb that is only another relation's column name
  // (accounts.created_on) says when the rows named just before it happened, by their own date.
  const before = at(index - 2);
  const ownDated =
    isTemporalColumn(lexicon, previous) &&
    before?.kind === 'entity' &&
    before.tables.length === 1 &&
    !previous.refs.some((ref) => b.named.has(ref.table) || before.tables.includes(ref.table)) &&
    lexicon.relations.get(before.tables[0]!)?.primaryDate !== undefined;
  // "consignments did we deliver last year", "loads picked up on 14 Feb": a verb right before
  // the period that names exactly one date of the rows named before it is that date.
  const verbDates =
    previous?.kind === 'verb' && before?.kind === 'entity'
      ? before.tables.flatMap((table) => {
          const relation = lexicon.relations.get(table);
          return relation
            ? datesOfVerb(relation, previous.text).map((date) => ({ table, column: date.name }))
            : [];
        })
      : [];
  if (ownDated) {
    used.add(index - 1);
    entry.near = before.tables;
  } else if (verbDates.length === 1) {
    entry.column = verbDates;
  } else if (isTemporalColumn(lexicon, previous)) {
    used.add(index - 1);
    entry.column = previous.refs;
  } else if (
    previous?.kind === 'entity' &&
    !used.has(index - 1) &&
    // "events on the press line in Q3": one row named by a value is where, not what the period dates.
    !(!previous.plural && before?.kind === 'value' && before.end === previous.at)
  ) {
    // "customers with orders in 2025": the orders' date (not when grouped: "per store last year").
    entry.near = previous.tables;
  }
  analysis.periods.push(entry);
};

/** A value of a column ("Spain", "cancelled"). */
const bindValue = (b: Binding, item: ItemOf<'value'>, index: number): Clarification | undefined => {
  const { lexicon, analysis, used, at } = b;
  // (A value a negation read as a column with nothing in it was bound there.)
  if (used.has(index)) return;
  if (!item.matches.every((match) => isPrintableValue(match.value))) {
    return clarify(`I can't search for ${quoted(item.text)}: it has characters I don't put in queries.`);
  }
  analysis.values.push(item);
  // "the Tier 1 team", "the Billing department": the word after a value names its column.
  const after = at(index + 1);
  if (
    (after?.kind === 'value' || after?.kind === 'column') &&
    item.matches.every((match) => {
      const column = columnOf(lexicon, match.ref);
      return (
        column !== undefined && singular(column.words[column.words.length - 1] ?? '') === singular(after.text)
      );
    })
  ) {
    used.add(index + 1);
    return;
  }
  {
    // "the Mystery genre", "the Tents category": the relation after a value only names
    // whose value it is.
    const next = at(index + 1);
    if (
      next?.kind === 'entity' &&
      !next.plural &&
      next.tables.length === 1 &&
      item.matches.every((match) => match.ref.table === next.tables[0])
    ) {
      used.add(index + 1);
    }
  }
};

/** A quoted value, for the column named just before it or the rows' name. */
const bindLiteral = (b: Binding, item: ItemOf<'literal'>, index: number): Clarification | undefined => {
  const { lexicon, analysis, used, at } = b;
  if (!isPrintableValue(item.text)) {
    return clarify(`I can't search for ${quoted(item.text)}: it has characters I don't put in queries.`);
  }
  // 'name "Ada Moreno"': a quoted value for the column named just before it.
  const previous = at(index - 1);
  if (previous?.kind === 'column' && previous.refs.some((ref) => columnOf(lexicon, ref)?.kind === 'text')) {
    used.add(index - 1);
    analysis.literals.push({
      text: item.text,
      column: previous.refs.filter((ref) => columnOf(lexicon, ref)?.kind === 'text'),
    });
  } else if (previous?.kind === 'named') {
    // 'customers named "Ada Moreno"': the name of the rows asked about.
    analysis.literals.push({ text: item.text, named: true });
  } else analysis.literals.push({ text: item.text });
};

/** "order 42", "which 3 customers…": a bare number is a key or the size of a ranking. */
const bindNumber = (b: Binding, item: ItemOf<'number'>, index: number): Clarification | undefined => {
  const { analysis, items, at } = b;
  // "order 42", "customer #7": a row by its key.
  const previous = at(index - 1);
  const next = at(index + 1);
  // (Right after the relation's word, or one mark or word apart: "order #42", "order no. 42";
  // not "clients are on 60 day terms".)
  if (
    previous?.kind === 'entity' &&
    item.at - previous.end <= 1 &&
    Number.isInteger(item.value) &&
    !item.money
  ) {
    analysis.keys.push({ tables: previous.tables, value: item.value });
  } else if (
    // "which 3 customers placed the most orders": how many rows the ranking after it keeps.
    Number.isInteger(item.value) &&
    item.value > 0 &&
    !item.money &&
    next?.kind === 'entity' &&
    next.plural &&
    (previous === undefined || previous.kind === 'list') &&
    b.rankingN === undefined &&
    items.some(
      (other, position) =>
        position > index && other.kind === 'superlative' && !/^(top|bottom)$/.test(other.word),
    )
  ) {
    b.rankingN = item.value;
  } else {
    return clarify(
      `I'm not sure what the number ${item.value} refers to. Could you name the column, for example “price over ${item.value}”?`,
    );
  }
};

/** Words that ask for the different values ("how many different funds"). */
const DIFFERENT = /^(different|distinct|unique|separate)$/;

/** Last words of a column that holds kinds of something ("ticket_type", "fund_cd"). */
const KIND_WORDS = /^(type|kind|category|cat|class|group|cd|code)$/;

/** Whether `said` is a plural of the thing whose kinds `words` name ("tickets" of ticket_type). */
const namesKindOf = (words: readonly string[], said: string): boolean =>
  words.length === 2 && KIND_WORDS.test(words[1]!) && singular(said) !== said && singular(said) === words[0];

/** The aggregate's argument: the next entity, column or measure. */
const bindAggregateTarget = (b: Binding): void => {
  const { lexicon, analysis, items, used } = b;
  const aggregate = analysis.aggregate;
  if (aggregate) {
    for (let index = aggregate.index + 1; index < items.length; index += 1) {
      const item = items[index]!;
      if (used.has(index)) continue;
      // "sum of customer names": the column, not the relation its phrase names; "average invoice
      // amount" read as two words: the relation's own column after it.
      const after = items[index + 1];
      if (
        item.kind === 'entity' &&
        after?.kind === 'column' &&
        (item.implied || after.refs.every((ref) => item.tables.includes(ref.table)))
      )
        continue;
      // "the maximum number of pages": the pages column itself, not a count.
      if (item.kind === 'aggregate' && item.fn === 'count' && aggregate.fn !== 'count') {
        if (isNumericColumn(lexicon, items[index + 1])) continue;
        break;
      }
      if (item.kind === 'entity' || item.kind === 'measure' || item.kind === 'column') {
        // "how many (different) breeds of dogs": the values of a text column right after it.
        // ("how many tickets" of a ticket_type column counts tickets, not their types, unless
        // "different" ones are asked.)
        if (
          item.kind === 'column' &&
          aggregate.fn === 'count' &&
          index === aggregate.index + 1 &&
          item.refs.every((ref) => columnOf(lexicon, ref)?.kind === 'text' && !columnOf(lexicon, ref)?.key) &&
          (analysis.words.some((word) => DIFFERENT.test(word)) ||
            !item.refs.every((ref) => namesKindOf(columnOf(lexicon, ref)?.words ?? [], item.text)))
        ) {
          aggregate.distinct = index;
          used.add(index);
          continue;
        }
        if (item.kind === 'column' && aggregate.fn === 'count' && !isNumericColumn(lexicon, item)) continue;
        aggregate.target = index;
        break;
      }
      if (item.kind !== 'value' && item.kind !== 'period' && item.kind !== 'list') break;
    }
    // "how long did tickets take on average": nothing after it, the measure named before it.
    if (aggregate.target === undefined && aggregate.fn !== 'count') {
      const before = items.findLastIndex(
        (item, index) => index < aggregate.index && item.kind === 'measure' && !used.has(index),
      );
      if (
        before >= 0 &&
        items.slice(aggregate.index + 1).every((item) => item.kind !== 'measure' && item.kind !== 'column')
      )
        aggregate.target = before;
    }
  }
};

/**
 * The ranking's key: a column or measure right after it, or "by <measure>", or a count of the
 * entity after "most" ("the most orders"), or its hint ("most expensive" → money).
 */
const bindRankKey = (b: Binding): void => {
  const { lexicon, analysis, items, used, at } = b;
  const ranking = analysis.ranking;
  if (ranking) {
    // "the cheapest product price": the column of a qualified phrase, past the relation it names.
    const implied = at(ranking.index + 1);
    const keyIndex =
      implied?.kind === 'entity' && implied.implied && at(ranking.index + 2)?.kind === 'column'
        ? ranking.index + 2
        : ranking.index + 1;
    const next = at(keyIndex);
    const byGroup = analysis.groups.find((group) => {
      const target = group.target === undefined ? undefined : at(group.target);
      return target?.kind === 'measure' || isNumericColumn(lexicon, target);
    });
    // A column right after the ranking word is its key, even after a word with a hint of its
    // own ("the cheapest unit price", "the most recent order date").
    if (
      ranking.hint === 'count' &&
      next?.kind === 'column' &&
      next.refs.every((ref) => columnOf(lexicon, ref)?.kind === 'text')
    ) {
      // "the most common reason": rows counted per value of that column (which stays the focus).
      analysis.rankKey = {
        kind: 'count',
        tables: [...new Set(next.refs.map((ref) => ref.table))],
        index: keyIndex,
      };
    } else if (
      next?.kind === 'column' &&
      (isNumericColumn(lexicon, next) || isTemporalColumn(lexicon, next))
    ) {
      used.add(keyIndex);
      analysis.rankKey = { kind: 'column', refs: next.refs, text: next.text, index: keyIndex };
    } else if (ranking.hint) {
      analysis.rankKey = { kind: 'hint', hint: ranking.hint };
    } else if (next && next.kind === 'measure') {
      used.add(keyIndex);
      analysis.rankKey = { kind: 'measure', text: next.text };
    } else if (byGroup && byGroup.target !== undefined) {
      const target = at(byGroup.target)!;
      analysis.groups = analysis.groups.filter((group) => group !== byGroup);
      analysis.rankKey =
        target.kind === 'measure'
          ? { kind: 'measure', text: target.text }
          : {
              kind: 'column',
              refs: (target as ItemOf<'column'>).refs,
              text: (target as ItemOf<'column'>).text,
            };
    } else if (/^(most|fewest|least)$|number of$/.test(ranking.word)) {
      // "most orders", "the most cancelled orders": count the entity after it.
      for (let index = ranking.index + 1; index < items.length; index += 1) {
        const item = items[index]!;
        if (item.kind === 'entity' && !used.has(index)) {
          used.add(index);
          analysis.rankKey = { kind: 'count', tables: item.tables, index };
          break;
        }
        if (item.kind !== 'value') break;
      }
    }
  }
  // A top-N "by" a column or measure: "top 5 customers by revenue".
  if (ranking && !analysis.rankKey) {
    const byGroup = analysis.groups.find((group) => group.target !== undefined);
    if (byGroup?.target !== undefined) {
      const target = at(byGroup.target)!;
      if (
        target.kind === 'measure' ||
        isNumericColumn(lexicon, target) ||
        isTemporalColumn(lexicon, target)
      ) {
        analysis.groups = analysis.groups.filter((group) => group !== byGroup);
        analysis.rankKey =
          target.kind === 'measure'
            ? { kind: 'measure', text: target.text }
            : {
                kind: 'column',
                refs: (target as ItemOf<'column'>).refs,
                text: (target as ItemOf<'column'>).text,
              };
      }
    }
  }
};
