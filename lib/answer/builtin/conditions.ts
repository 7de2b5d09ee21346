// Interpret, what the rows are and which: the subject settled from the focus and the measure,
// the grouping, the filters (values, literals, presets, periods, comparisons, absences, keys),
// and the rule that every item the question named is used.
import { lastDayBefore, monthNames } from '../time.ts';
import { Clarify, mainTables, quoted } from './clarify.ts';
import type { Draft } from './draft.ts';
import { periodClash } from './glossary-use.ts';
import { type ColumnRef, type Filter, sameRef } from './intent.ts';
import { pathBetween, pointingPath } from './joins.ts';
import { columnOf, tableName } from './lexicon.ts';
import { measureColumn, monthColumn } from './resolve.ts';
import type { Analysis, ItemOf, Lexicon } from './types.ts';
import { capitalize } from './words.ts';

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
export const settleSubject = (c: Draft): string => {
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
export const readGrouping = (c: Draft, subject: string): void => {
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

/** Whether each row of `subject` points at one row of `other`, along keys (payments → members). */
const pointsAt = (lexicon: Lexicon, subject: string, other: string): boolean => {
  const found = pathBetween(lexicon, subject, other);
  return found.kind === 'path' && found.steps.length > 0 && found.steps.every((step) => !step.toMany);
};

export const readFilters = (c: Draft, subject: string): void => {
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
    else if (
      near &&
      near.length === 1 &&
      near[0] !== subject &&
      resolver.relation(near[0]!).primaryDate &&
      // "payments to members in March": a relation each subject row points at (its member) is
      // whose rows, not what the period dates, when the subject has a date of its own.
      !(pointsAt(lexicon, subject, near[0]!) && resolver.relation(subject).primaryDate)
    ) {
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
    if (period.yearless) parts.yearless = true;
  }
};

/** Every relation and column the question names must play a part. */
export const requireUse = (c: Draft, subject: string): void => {
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
