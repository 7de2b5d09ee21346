// Step 5 of the builtin pipeline: the items of a question resolved against the relation it is
// about. A word with several candidates is decided by the relations the question names, then by
// the subject, then by what the subject can reach by foreign keys; if that still leaves more
// than one, the engine asks. Dates, money columns and revenue are found the same way.

import { Clarify, columnLabel, quoted, tablesLabel } from './clarify.ts';
import type { ColumnRef, Measure } from './intent.ts';
import { sameRef } from './intent.ts';
import { pathBetween } from './joins.ts';
import { columnOf, tableName } from './lexicon.ts';
import { CALENDAR_WORDS, dimensionWords, ratingWords, rowSizeWords } from './phrases.ts';
import { amountSaid } from './said-amount.ts';
import type { Analysis, ColumnInfo, ItemOf, Lexicon, RelationInfo, ValueMatch } from './types.ts';
import { capitalize, joinAnd, phraseKey, sameStem, singular } from './words.ts';

/** Phrase knowledge: words that say how often an amount is due, not what it is the cost of. */
const RATE_PERIODS = new Set([
  'monthly',
  'weekly',
  'annual',
  'yearly',
  'daily',
  'hourly',
  'nightly',
  'quarterly',
]);

// ---- resolution against a subject --------------------------------------------------------------

export class Resolver {
  readonly lexicon: Lexicon;
  readonly analysis: Analysis;
  /** Relations the question names (they decide between candidates). */
  readonly named: Set<string>;

  /** Which tier of `lexicon.revenueTiers` "revenue" means in this reading. */
  readonly revenueTier: number;
  /** Set when the reading used revenue: another tier may answer what this one cannot. */
  usedRevenue = false;

  constructor(lexicon: Lexicon, analysis: Analysis, revenueTier = 0) {
    this.lexicon = lexicon;
    this.analysis = analysis;
    this.revenueTier = revenueTier;
    this.named = new Set(
      analysis.items.flatMap((item) =>
        item.kind === 'entity' && item.tables.length === 1 ? item.tables : [],
      ),
    );
  }

  relation(table: string): RelationInfo {
    const relation = this.lexicon.relations.get(table);
    if (!relation) throw new Clarify('That part of the schema is no longer available. Could you ask again?');
    return relation;
  }

  column(ref: ColumnRef): ColumnInfo {
    const column = columnOf(this.lexicon, ref);
    if (!column) throw new Clarify('That column is no longer available. Could you ask again?');
    return column;
  }

  /** One of several candidates: a named relation's, then the subject's, then the only reachable one. */
  pick<T>(candidates: readonly T[], tableOf: (candidate: T) => string, subject: string | undefined): T[] {
    if (candidates.length <= 1) return [...candidates];
    const named = candidates.filter((candidate) => this.named.has(tableOf(candidate)));
    if (named.length === 1) return named;
    const pool = named.length > 1 ? named : candidates;
    if (subject === undefined) return [...pool];
    const own = pool.filter((candidate) => tableOf(candidate) === subject);
    if (own.length === 1) return own;
    const reachable = pool.filter(
      (candidate) => pathBetween(this.lexicon, subject, tableOf(candidate)).kind === 'path',
    );
    return reachable.length > 0 ? reachable : [...pool];
  }

  entity(tables: readonly string[], text: string, subject?: string): string {
    const picked = this.pick(tables, (table) => table, subject);
    if (picked.length === 1) return picked[0]!;
    throw new Clarify(
      `${quoted(text)} could mean ${tablesLabel(this.lexicon, picked)}. Which one do you mean?`,
      picked.map((table) => ({ table: tableName(this.lexicon, table) })),
    );
  }

  columnRef(refs: readonly ColumnRef[], text: string, subject: string | undefined): ColumnRef {
    const picked = this.pick(refs, (ref) => ref.table, subject);
    if (picked.length === 1) return picked[0]!;
    throw new Clarify(
      `${quoted(text)} could be ${joinAnd(
        picked.map((ref) => columnLabel(this.lexicon, ref)),
        'or',
      )}. Which one do you mean?`,
      picked.map((ref) => ({ table: tableName(this.lexicon, ref.table), column: ref.column })),
    );
  }

  /** The column that dates rows of `table` (its own, else its owning parent's: order_items → orders). */
  dateOf(table: string, what: string): ColumnRef {
    const relation = this.relation(table);
    if (relation.primaryDate) return { table, column: relation.primaryDate.name };
    // No date, but a year number (publication.year): periods of whole years use it.
    const year = yearColumn(relation);
    if (relation.dates.length === 0 && year) return { table, column: year.name };
    // "pickups in 2026", "booked this year", "due back on Monday": the one date the question's
    // words name.
    const said = relation.dates.filter((date) =>
      date.words.some(
        (part) =>
          part.length >= 3 &&
          !CALENDAR_WORDS.has(part) &&
          this.analysis.words.some((word) => !CALENDAR_WORDS.has(word) && sameStem(word, part)),
      ),
    );
    if (said.length === 1) return { table, column: said[0]!.name };
    if (relation.dates.length > 0) {
      throw new Clarify(
        `Which date of ${relation.other} do you mean: ${joinAnd(
          relation.dates.map((date) => date.display),
          'or',
        )}?`,
        relation.dates.map((date) => ({ table: tableName(this.lexicon, table), column: date.name })),
      );
    }
    const parents = (this.lexicon.edges.get(table) ?? [])
      .filter((edge) => edge.child === table)
      .map((edge) => this.relation(edge.parent))
      .filter((parent) => parent.primaryDate !== undefined);
    const distinct = [...new Map(parents.map((parent) => [parent.key, parent])).values()];
    const words = relation.name.toLowerCase();
    const owner = distinct.filter((parent) => parent.one.split(' ').every((word) => words.includes(word)));
    // Only a parent the name says owns the rows dates them (order_items by their order); another
    // parent's date (a truck's depot, opened in 2009) says nothing of when the rows were: asked.
    if (owner.length === 1) return { table: owner[0]!.key, column: owner[0]!.primaryDate!.name };
    const chosen = distinct;
    if (chosen.length === 0) {
      throw new Clarify(
        `${capitalize(relation.other)} have no date I can use for ${quoted(what)}.`,
        undefined,
        'no-date',
      );
    }
    throw new Clarify(
      `Which date do you mean for ${relation.other}: ${joinAnd(
        chosen.map((parent) => `${parent.one} ${parent.primaryDate!.display}`),
        'or',
      )}?`,
      chosen.map((parent) => ({
        table: tableName(this.lexicon, parent.key),
        column: parent.primaryDate!.name,
      })),
    );
  }

  /** Money columns that say what a row is worth, not a side cost of it (an order's shipping cost). */
  worthOf(table: string): ColumnInfo[] {
    return this.relation(table).columns.filter(
      (column) =>
        column.money &&
        column.words.some((word) =>
          /^(price|amount|amt|total|revenue|sales?|value|salary|wage|balance|budget)$/.test(word),
        ),
    );
  }

  /**
   * The money column of `table` a phrase means ("over $100", "most expensive", "total payments"):
   * the only price, amount, total or salary, or the only price among several (unit_price over
   * unit_cost), or else its only money column of any name (a cost, a fee).
   */
  moneyOf(table: string, phrase: string): ColumnRef {
    const relation = this.relation(table);
    let money = this.worthOf(table);
    // "the most expensive treatment" where a cost or fee is the relation's only money column, and
    // is its own (one word: a shipping_cost is not what an order costs).
    // A money column qualified only by its period ("monthly_rent", "annual_fee") is the row's own too.
    if (money.length === 0)
      money = relation.columns.filter(
        (column) =>
          column.money &&
          !column.key &&
          (column.words.length === 1 || (column.words.length === 2 && RATE_PERIODS.has(column.words[0]!))),
      );
    if (money.length > 1) {
      const prices = money.filter((column) => column.words.includes('price'));
      // fee_invoices.total beside amt_paid: a bare total or amount is the row's, a qualified one a part.
      const bare = money.filter((column) => column.words.length === 1 && rowSizeWords.has(column.words[0]!));
      if (prices.length === 1) money = prices;
      else if (bare.length === 1) money = bare;
    }
    if (money.length === 1) return { table, column: money[0]!.name };
    if (money.length === 0) {
      throw new Clarify(
        `${capitalize(relation.other)} have no price or amount I can use for ${quoted(phrase)}. Which column do you mean?`,
      );
    }
    throw new Clarify(
      `${quoted(phrase)} could be ${joinAnd(
        money.map((column) => column.display),
        'or',
      )} of ${relation.other}. Which one do you mean?`,
      money.map((column) => ({ table: tableName(this.lexicon, table), column: column.name })),
    );
  }

  /** What a measure word means: a metric of the glossary by its term, else revenue. */
  /** `added`: the measure is added up ("how much was paid"), where any verb may name the amount. */
  measureNamed(text: string, added = false): { measure: Measure; name: string } {
    const own = this.lexicon.metrics.get(phraseKey(text.split(' ')));
    if (own) return { measure: own, name: text };
    const measure = this.revenue(added);
    // An amount a verb named ("how much was paid"): called by its column, not revenue.
    const tier = this.lexicon.revenueTiers[this.revenueTier] ?? [];
    if (measure.kind === 'column' && !tier.includes(measure))
      return { measure, name: this.column(measure.ref).display };
    return { measure, name: 'revenue' };
  }

  /** The column a dimension word ranks rows of `table` by ("heaviest" → weight_kg): its only one. */
  dimensionOf(table: string, dimension: 'weight' | 'height' | 'length', phrase: string): ColumnRef {
    const relation = this.relation(table);
    const words = dimensionWords[dimension];
    const found = relation.columns.filter(
      (column) => column.numeric && column.words.some((word) => words.has(word)),
    );
    if (found.length === 1) return { table, column: found[0]!.name };
    throw new Clarify(
      found.length === 0
        ? `${capitalize(relation.other)} have no ${dimension} I can use for ${quoted(phrase)}.`
        : `${quoted(phrase)} could be ${joinAnd(
            found.map((column) => column.display),
            'or',
          )}. Which one do you mean?`,
    );
  }

  /** The column that rates rows of `table` ("highest-rated"): its one rating, score or stars column. */
  ratingOf(table: string, phrase: string): ColumnRef {
    const relation = this.relation(table);
    const ratings = relation.columns.filter(
      (column) => column.numeric && column.words.some((word) => ratingWords.has(word)),
    );
    if (ratings.length === 1) return { table, column: ratings[0]!.name };
    throw new Clarify(
      ratings.length === 0
        ? `${capitalize(relation.other)} have no rating I can use for ${quoted(phrase)}.`
        : `${quoted(phrase)} could be ${joinAnd(
            ratings.map((column) => column.display),
            'or',
          )}. Which one do you mean?`,
    );
  }

  revenue(added = false): Measure {
    this.usedRevenue = true;
    const tier = this.lexicon.revenueTiers[this.revenueTier] ?? [];
    const said = amountSaid(this.lexicon, this.analysis.words, tier, this.named, added);
    if (said) return said;
    if (tier.length === 1) return tier[0]!;
    if (tier.length === 0) {
      throw new Clarify(
        'I could not find a revenue or sales amount in this database. Which column should I add up?',
      );
    }
    // Several: the one of a relation the question names, or names a word of ("shop revenue":
    // shop sales, "ticket takings": ticket sales).
    const words = new Set(this.analysis.words.map(singular));
    const tableOf = (measure: Measure): string => ('ref' in measure ? measure.ref.table : measure.left.table);
    const named = tier.filter((measure) => {
      const table = tableOf(measure);
      return (
        this.named.has(table) ||
        this.relation(table)
          .one.split(' ')
          .some((word) => words.has(singular(word)))
      );
    });
    if (named.length === 1) return named[0]!;
    const candidates = tier.flatMap((measure) =>
      'ref' in measure ? [measure.ref] : [measure.left, measure.right],
    );
    throw new Clarify(
      `Revenue could be computed from ${joinAnd(
        tier.map((measure) =>
          'ref' in measure
            ? columnLabel(this.lexicon, measure.ref)
            : `${columnLabel(this.lexicon, measure.left)} × ${columnLabel(this.lexicon, measure.right)}`,
        ),
        'or',
      )}. Which one do you mean?`,
      candidates.map((ref) => ({ table: tableName(this.lexicon, ref.table), column: ref.column })),
    );
  }

  unitsSold(): ColumnRef {
    const { unitsSold } = this.lexicon;
    if (unitsSold.kind === 'one') return unitsSold.value;
    if (unitsSold.kind === 'none') throw new Clarify('I could not find a quantity sold in this database.');
    throw new Clarify(
      `Units sold could be ${joinAnd(
        unitsSold.values.map((ref) => columnLabel(this.lexicon, ref)),
        'or',
      )}. Which one do you mean?`,
      unitsSold.values.map((ref) => ({ table: tableName(this.lexicon, ref.table), column: ref.column })),
    );
  }

  /** Value matches narrowed down: a column named next to it, a named relation, the subject, reachability. */
  valueMatches(item: ItemOf<'value'>, subject: string | undefined): ValueMatch[] {
    const { items, used } = this.analysis;
    const index = items.indexOf(item);
    for (const neighbour of [index - 1, index + 1]) {
      const other = items[neighbour];
      if (other?.kind === 'column' && !used.has(neighbour)) {
        const fits = item.matches.filter((match) => other.refs.some((ref) => sameRef(ref, match.ref)));
        if (fits.length > 0) {
          used.add(neighbour);
          return fits;
        }
      }
    }
    const columns = [
      ...new Map(item.matches.map((match) => [`${match.ref.table}.${match.ref.column}`, match.ref])).values(),
    ];
    const picked = this.pick(columns, (ref) => ref.table, subject);
    if (picked.length === 1) return item.matches.filter((match) => sameRef(match.ref, picked[0]!));
    throw new Clarify(
      `${quoted(item.matches[0]?.value ?? item.text)} appears in ${joinAnd(picked.map((ref) => columnLabel(this.lexicon, ref)))}. Which one do you mean?`,
      picked.map((ref) => ({ table: tableName(this.lexicon, ref.table), column: ref.column })),
    );
  }
}

/** A whole-number column holding a year (publication.year, review.year), when a relation has one. */
export const yearColumn = (relation: RelationInfo): ColumnInfo | undefined => {
  const years = relation.columns.filter(
    (column) => column.kind === 'integer' && column.words[column.words.length - 1] === 'year',
  );
  return years.length === 1 ? years[0] : undefined;
};

/** A text column holding month names (review.month), when a relation has one. */
export const monthColumn = (relation: RelationInfo): ColumnInfo | undefined => {
  const months = relation.columns.filter(
    (column) => column.kind === 'text' && column.words.join(' ') === 'month',
  );
  return months.length === 1 ? months[0] : undefined;
};

/** The column whose relation a measure is computed in (the quantity of quantity × price). */
export const measureColumn = (measure: Measure): ColumnRef => ('ref' in measure ? measure.ref : measure.left);
