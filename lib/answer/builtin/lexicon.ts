// Step 2 of the builtin pipeline: the schema index a question is matched against, built once per
// catalog (cached by its identity and its whole content). Relations and columns become phrases of
// singular words (with synonyms at a lower rank), sample values become phrases that name a
// column and value, and foreign keys become the join graph. The tenant column is left out of all
// of it: a question can never select, group by or filter on it, and no join runs through it.
import type { Catalog, CatalogColumn, CatalogRelation, ColumnKind } from '#lib/connectors/types.ts';
import type { Glossary } from '../glossary.ts';
import { glossaryIndex } from './glossary.ts';
import type { GlossaryDefinitions } from './glossary-expr.ts';
import { glossarySqlReady } from './glossary-sql.ts';
import type { ColumnRef, Filter, Measure } from './intent.ts';
import { idLike, inferKeys } from './keys.ts';
import { tokenize } from './tokens.ts';
import {
  phraseKey,
  plural,
  singular,
  splitIdentifier,
  stopwords,
  synonyms,
  unitWords,
  wordTable,
} from './words.ts';

export interface ColumnInfo {
  table: string;
  name: string;
  kind: ColumnKind;
  nullable: boolean;
  /** Words of the name: `unit_price` → ['unit', 'price']. */
  words: string[];
  /** How the column reads in a sentence: "unit price". */
  display: string;
  /** Part of the primary key or of a foreign key. */
  key: boolean;
  /** A number one can sum, average or compare (not a key). */
  numeric: boolean;
  /** A numeric column holding money (price, amount, total, salary…). */
  money: boolean;
  temporal: boolean;
  samples: string[];
}

export interface RelationInfo {
  key: string;
  schema: string;
  name: string;
  relation: CatalogRelation;
  /** "order item" / "order items". */
  one: string;
  other: string;
  /** A short alias for SQL: `order_items` → `oi`. */
  alias: string;
  columns: ColumnInfo[];
  byName: Map<string, ColumnInfo>;
  primaryKey: string[];
  /** Columns that name a row to a person (name, title, first and last name…). */
  labels: string[];
  /** Date and timestamp columns, the one that dates a row best first (see `rankDates`). */
  dates: ColumnInfo[];
  /** True when the first of `dates` is clearly the row's date (not a tie). */
  primaryDate: ColumnInfo | undefined;
}

/** A foreign key: `child` rows point at one `parent` row (child → parent is to-one). */
export interface Edge {
  child: string;
  parent: string;
  childColumns: string[];
  parentColumns: string[];
  /** Inferred from names (keys.ts), not declared by the database. */
  inferred?: boolean;
}

export type Entry =
  | { kind: 'relation'; table: string; rank: number }
  /** `qualified`: the phrase names the relation too ("customer country", "order date"). */
  | { kind: 'column'; table: string; column: string; rank: number; qualified?: boolean }
  | { kind: 'value'; table: string; column: string; value: string }
  /** Revenue, or a metric of the glossary (`name` is its term). */
  | { kind: 'measure'; name: string }
  /** A condition the glossary names ("active" → veterinarian.is_active). */
  | { kind: 'preset'; name: string; filter: Filter };

export type Resolution<T> = { kind: 'one'; value: T } | { kind: 'many'; values: T[] } | { kind: 'none' };

export interface Lexicon {
  catalog: Catalog;
  tenantColumn: string | undefined;
  relations: Map<string, RelationInfo>;
  /** By child and by parent relation key. */
  edges: Map<string, Edge[]>;
  phrases: Map<string, Entry[]>;
  /** Longest phrase, in words. */
  maxWords: number;
  /** What "revenue" / "sales" sum: the first tier, then the others (see `findRevenue`). */
  revenue: Resolution<Measure>;
  revenueTiers: Measure[][];
  /** What "best-selling" sums: a quantity column of the line-item relation. */
  unitsSold: Resolution<ColumnRef>;
  /** Metrics the glossary defines, by term (a `measure` entry's name). */
  metrics: Map<string, Measure>;
  /** The glossary's metrics and filters of other SQL than the simple forms (glossary-sql.ts). */
  definitions: GlossaryDefinitions;
}

export const relationKey = (schema: string, name: string): string => `${schema}.${name}`;

// ---- columns -----------------------------------------------------------------------------------

const moneyWords = new Set([
  'price',
  'amount',
  'total',
  'cost',
  'revenue',
  'sale',
  'salary',
  'fee',
  'balance',
  'subtotal',
  'budget',
  'spend',
  'income',
  'payment',
  'charge',
  'wage',
  'tax',
  'paid',
  'value',
  'turnover',
  'rent',
  'fare',
  'deposit',
  'premium',
]);
const notMoneyWords = new Set(['rate', 'percent', 'percentage', 'pct', 'ratio', 'count', 'number', 'id']);

const isMoney = (words: readonly string[], kind: ColumnKind): boolean =>
  (kind === 'decimal' || kind === 'integer') &&
  words.some((word) => moneyWords.has(singular(word))) &&
  !words.some((word) => notMoneyWords.has(word));

const labelNames = [
  'name',
  'title',
  'full_name',
  'fullname',
  'display_name',
  'label',
  'company_name',
  'username',
  'user_name',
];

const labelsOf = (relation: CatalogRelation, one: string, available: Set<string>): string[] => {
  for (const name of labelNames) if (available.has(name)) return [name];
  const own = `${one.replaceAll(' ', '_')}_name`;
  if (available.has(own)) return [own];
  if (available.has('first_name') && available.has('last_name')) return ['first_name', 'last_name'];
  if (available.has('firstname') && available.has('lastname')) return ['firstname', 'lastname'];
  for (const column of relation.columns) {
    if (available.has(column.name) && column.kind === 'text' && /(^|_)name$/i.test(column.name)) {
      return [column.name];
    }
  }
  for (const name of ['email', 'code', 'sku', 'slug']) if (available.has(name)) return [name];
  return [];
};

const trailingTimeWords = new Set(['at', 'on', 'date', 'time', 'timestamp', 'ts', 'datetime', 'day']);

/**
 * Words of a date that comes after the row's own event: a deadline, an end or a later step
 * (loans.due_on, loans.returned_on, invoices.paid_on, subscriptions.ends_at). They date the row
 * only when the question names them.
 */
const laterStep =
  /^(due|deadline|expires?|expiry|expiration|ends?|ended|ending|until|closed|completed|finished|resolved|returned|refunded|cancell?ed|shipped|delivered|paid|settled|discharged|renewal|next|last)$/;

/** A birth date is when the row's subject was born, never when a row happened ("pets seen in 2024"). */
const BIRTH_RANK = 5;

/**
 * Date columns ranked by how well they date a row of their relation: one whose words share the
 * relation's word (orders.ordered_at, orders.order_date) first, then creation dates, then the
 * others, then later steps (due, returned, paid…), then bookkeeping (updated, deleted); non-null
 * before nullable within a rank.
 */
const dateRank = (column: ColumnInfo, relationWords: readonly string[]): number => {
  const head = relationWords[relationWords.length - 1] ?? '';
  const stem = head.length > 4 ? head.slice(0, Math.max(4, head.length - 2)) : head;
  const words = column.words.filter((word) => !trailingTimeWords.has(word));
  if (words.some((word) => /^(birth|born|dob|birthday)$/.test(word))) return BIRTH_RANK;
  if (words.some((word) => word.startsWith(stem))) return 0;
  if (
    words.length === 0 ||
    words.some((word) => /^(created?|creation|inserted|added|registered)$/.test(word))
  )
    return 1;
  if (words.some((word) => /^(updated|modified|deleted|changed)$/.test(word))) return 4;
  if (words.some((word) => laterStep.test(word))) return 3;
  return 2;
};

const rankDates = (dates: ColumnInfo[], relationWords: readonly string[]): ColumnInfo[] =>
  [...dates].sort(
    (a, b) =>
      dateRank(a, relationWords) - dateRank(b, relationWords) || Number(a.nullable) - Number(b.nullable),
  );

const primaryDateOf = (dates: ColumnInfo[], relationWords: readonly string[]): ColumnInfo | undefined => {
  const [first, second] = dates;
  if (!first || dateRank(first, relationWords) === BIRTH_RANK) return undefined;
  if (!second) return first;
  const tie =
    dateRank(first, relationWords) === dateRank(second, relationWords) && first.nullable === second.nullable;
  return tie ? undefined : first;
};

// ---- aliases -----------------------------------------------------------------------------------

/** Words SQL reserves in either dialect (or that read badly as aliases): never a bare alias. */
const aliasReserved = new Set([
  'as',
  'at',
  'by',
  'do',
  'if',
  'in',
  'is',
  'no',
  'of',
  'on',
  'or',
  'to',
  'and',
  'asc',
  'all',
  'any',
  'end',
  'for',
  'key',
  'not',
  'row',
  'set',
  'use',
  'add',
  'div',
  'mod',
  'xor',
  'desc',
]);

const aliasOf = (words: readonly string[]): string => {
  const initials = words.map((word) => word[0]).join('') || 't';
  const alias = /^[a-z]/.test(initials) ? initials.slice(0, 4) : `t${initials}`.slice(0, 4);
  return aliasReserved.has(alias) ? `${alias}1` : alias;
};

// ---- building ----------------------------------------------------------------------------------

const entryId = (entry: Entry): string => {
  switch (entry.kind) {
    case 'relation':
      return `r:${entry.table}`;
    case 'column':
      return `c:${entry.table}:${entry.column}`;
    case 'value':
      return `v:${entry.table}:${entry.column}:${entry.value}`;
    case 'measure':
      return `m:${entry.name}`;
    case 'preset':
      return `p:${entry.name}`;
  }
};

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
const durationPhrases = (relation: RelationInfo, pair: DurationPair, alone: boolean): string[] => {
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

const addEntry = (phrases: Map<string, Entry[]>, key: string, entry: Entry): void => {
  if (key.length === 0) return;
  const list = phrases.get(key);
  if (!list) {
    phrases.set(key, [entry]);
    return;
  }
  const id = entryId(entry);
  const same = list.find((other) => entryId(other) === id);
  if (!same) list.push(entry);
  else if ('rank' in same && 'rank' in entry && entry.rank > same.rank) same.rank = entry.rank;
};

/** Words of a sample value as the scanner sees them in a question. */
export const valueWords = (value: string): string[] =>
  tokenize(value).flatMap((token) =>
    token.kind === 'word' ? [token.text] : token.kind === 'number' ? [token.raw.toLowerCase()] : [],
  );

const columnInfo = (
  table: string,
  column: CatalogColumn,
  keyColumns: Set<string>,
  samples: string[] | undefined,
): ColumnInfo => {
  const words = splitIdentifier(column.name);
  const key = keyColumns.has(column.name) || words[words.length - 1] === 'id' || idLike(column.name);
  const numeric = (column.kind === 'integer' || column.kind === 'decimal') && !key;
  return {
    table,
    name: column.name,
    kind: column.kind,
    nullable: column.nullable,
    words,
    display: words.join(' '),
    key,
    numeric,
    money: numeric && isMoney(words, column.kind),
    temporal: column.kind === 'date' || column.kind === 'timestamp',
    samples: column.kind === 'text' ? (samples ?? []) : [],
  };
};

/** Column phrases besides the full name: "ordered" and "order date" for ordered_at, "active" for is_active. */
const columnAliases = (
  words: readonly string[],
  relationOne: string,
  relationNames: ReadonlySet<string> = new Set(),
): string[][] => {
  const aliases: string[][] = [];
  const last = words[words.length - 1] ?? '';
  if (words.length > 1 && trailingTimeWords.has(last)) {
    const rest = words.slice(0, -1);
    aliases.push(rest);
    // due_on → "due date"
    if (last !== 'date') aliases.push([...rest, 'date']);
    const verb = rest[rest.length - 1] ?? '';
    if (verb.endsWith('ed') && verb.length > 4) {
      let stem = verb.slice(0, -2);
      if (/([^aeiou])\1$/.test(stem)) stem = stem.slice(0, -1);
      aliases.push([...rest.slice(0, -1), stem, 'date'], [...rest.slice(0, -1), `${stem}e`, 'date']);
    }
  }
  if (words.length > 1 && (words[0] === 'is' || words[0] === 'has')) aliases.push(words.slice(1));
  // birth_date, date_of_birth, dob → "born"
  if (words.some((word) => /^(birth|dob)$/.test(word))) aliases.push(['born']);
  // weight_kg → "weight", duration_mins → "duration", price_usd → "price": the unit is not said.
  if (words.length > 1 && unitWords.has(last)) aliases.push(words.slice(0, -1));
  // citation_num, num_citations, review_count, number_of_pages: "number of citations", "citations".
  // (Not when a relation is named like the counted thing: "the number of reviews" counts reviews.)
  const counted = countedWords(words);
  if (counted && !relationNames.has(phraseKey(counted)))
    aliases.push(counted, ['number', 'of', ...counted], [...counted, 'count']);
  // A day-of-week column (checkin.day): "day of the week", "weekday".
  if (words.join(' ') === 'day' || words.join(' ') === 'weekday' || words.join(' ') === 'day of week')
    aliases.push(['day', 'of', 'the', 'week'], ['day', 'of', 'week'], ['weekday']);
  // food_type → "type of food"; city_name → "city" (when the name is not the row's label).
  if (words.length === 2 && /^(type|kind|category|name|code|score|rating|level|amount)$/.test(last)) {
    aliases.push([last, 'of', words[0]!]);
    if (words[0] !== relationOne.split(' ').pop()) aliases.push([words[0]!]);
  }
  // products.product_name → "name", orders.order_status → "status"
  const own = relationOne.split(' ');
  if (words.length > own.length && own.every((word, index) => singular(words[index] ?? '') === word)) {
    aliases.push(words.slice(own.length));
  }
  return aliases;
};

const quantityWords = new Set(['quantity', 'qty', 'unit', 'count']);

/** US state codes and names, for columns that hold the codes. */
const usStates: Record<string, string> = wordTable(
  Object.fromEntries(
    `AL alabama|AK alaska|AZ arizona|AR arkansas|CA california|CO colorado|CT connecticut|DE delaware|FL florida|GA georgia|HI hawaii|ID idaho|IL illinois|IN indiana|IA iowa|KS kansas|KY kentucky|LA louisiana|ME maine|MD maryland|MA massachusetts|MI michigan|MN minnesota|MS mississippi|MO missouri|MT montana|NE nebraska|NV nevada|NH new hampshire|NJ new jersey|NM new mexico|NY new york|NC north carolina|ND north dakota|OH ohio|OK oklahoma|OR oregon|PA pennsylvania|RI rhode island|SC south carolina|SD south dakota|TN tennessee|TX texas|UT utah|VT vermont|VA virginia|WA washington|WV west virginia|WI wisconsin|WY wyoming|DC district of columbia`
      .split('|')
      .map((entry) => [entry.slice(0, 2), entry.slice(3)]),
  ),
);

/** The counted thing of a count column: citation_num → ['citation']; undefined otherwise. */
const countedWords = (words: readonly string[]): string[] | undefined => {
  if (words.length < 2) return undefined;
  const last = words[words.length - 1]!;
  if (/^(num|count|cnt|number|total)$/.test(last) && last !== 'total') return words.slice(0, -1);
  if (/^(num|number|n|count)$/.test(words[0]!)) return words.slice(words[1] === 'of' ? 2 : 1);
  return undefined;
};

/** Last words that never name a column on their own: the scanner reads them as something else. */
const headExcluded = new Set([
  'id',
  'key',
  'code',
  'name',
  'number',
  'count',
  'total',
  'sum',
  'average',
  'max',
  'min',
  'cost',
  'flag',
  'type',
  'value',
]);

const resolution = <T>(values: T[]): Resolution<T> =>
  values.length === 1
    ? { kind: 'one', value: values[0]! }
    : values.length === 0
      ? { kind: 'none' }
      : { kind: 'many', values };

/**
 * What "revenue" and "sales" add up, as tiers tried in order (the first tier that can answer a
 * question is used; two candidates in one tier are an ambiguity): a money column named revenue or
 * sales, a money column named total, quantity × price in one row, quantity × the price of the row
 * it points at. Tables come before views, so that every question computes revenue the same way
 * unless only a view can answer it.
 */
const findRevenue = (
  relations: Map<string, RelationInfo>,
  edges: Map<string, Edge[]>,
): { tiers: Measure[][]; unitsSold: Resolution<ColumnRef> } => {
  const ref = (column: ColumnInfo): ColumnRef => ({ table: column.table, column: column.name });
  const tiersOf = (pool: RelationInfo[]) => {
    const all = pool.flatMap((relation) => relation.columns);
    const named = all.filter(
      (column) =>
        column.money && column.words.some((word) => /^(revenue|sales?|turnover|income)$/.test(word)),
    );
    const totals = all.filter((column) => column.money && column.words.includes('total'));
    const quantities = all.filter(
      (column) =>
        column.numeric && column.kind !== 'decimal' && column.words.some((word) => quantityWords.has(word)),
    );
    const priceOf = (relation: RelationInfo | undefined) =>
      relation?.columns.filter((column) => column.money && column.words.includes('price')) ?? [];
    const sameRow: Measure[] = [];
    const parentRow: Measure[] = [];
    for (const quantity of quantities) {
      for (const price of priceOf(relations.get(quantity.table))) {
        sameRow.push({ kind: 'product', left: ref(quantity), right: ref(price) });
      }
      for (const edge of edges.get(quantity.table) ?? []) {
        if (edge.child !== quantity.table) continue;
        for (const price of priceOf(relations.get(edge.parent))) {
          parentRow.push({ kind: 'product', left: ref(quantity), right: ref(price) });
        }
      }
    }
    const columnMeasures = (columns: ColumnInfo[]): Measure[] =>
      columns.map((column) => ({ kind: 'column', ref: ref(column) }));
    return {
      tiers: [columnMeasures(named), columnMeasures(totals), sameRow.length > 0 ? sameRow : parentRow],
      lines: [...sameRow, ...parentRow].flatMap((measure) =>
        measure.kind === 'product' ? [measure.left] : [],
      ),
      quantities: quantities.map(ref),
    };
  };
  const isTable = (relation: RelationInfo) =>
    relation.relation.kind === 'table' || relation.relation.kind === 'foreign_table';
  const tables = tiersOf([...relations.values()].filter(isTable));
  const others = tiersOf([...relations.values()].filter((relation) => !isTable(relation)));
  const tiers = [...tables.tiers, ...others.tiers].filter((tier) => tier.length > 0);
  const lines = [...tables.lines, ...others.lines];
  const unique = [...new Map(lines.map((line) => [`${line.table}.${line.column}`, line])).values()];
  return { tiers, unitsSold: resolution(unique.length > 0 ? unique : tables.quantities) };
};

const revenuePhrases = ['revenue', 'sale', 'turnover', 'income', 'gross sale', 'takings', 'earnings'];
/** How people say money taken in ("total spend per customer", "billed in 2024"): revenue, unless a
 *  column of the schema answers to the word. */
const spokenRevenuePhrases = [
  'spend',
  'spending',
  'spent',
  'money',
  'billed',
  'charged',
  'invoiced',
  'earned',
];

export const buildLexicon = (catalog: Catalog, tenantColumn?: string, glossary?: Glossary): Lexicon => {
  const relations = new Map<string, RelationInfo>();
  const phrases = new Map<string, Entry[]>();
  const edges = new Map<string, Edge[]>();
  const inferred = inferKeys(catalog, tenantColumn);
  const stateNames: { phrase: string; table: string; column: string; value: string }[] = [];
  const relationNames = new Set(
    catalog.relations.map((relation) => phraseKey(splitIdentifier(relation.name))),
  );

  for (const relation of catalog.relations) {
    if (relation.kind === 'sequence') continue;
    const key = relationKey(relation.schema, relation.name);
    const primaryKey =
      relation.primaryKey.length > 0 ? relation.primaryKey : (inferred.primaryKeys.get(key) ?? []);
    const foreignKeys = [...relation.foreignKeys, ...(inferred.foreignKeys.get(key) ?? [])];
    const nameWords = splitIdentifier(relation.name);
    const stemWords = nameWords.map(singular);
    const one = stemWords.join(' ');
    const last = nameWords[nameWords.length - 1] ?? '';
    const other = [...stemWords.slice(0, -1), singular(last) === last ? plural(last) : last].join(' ');
    const keyColumns = new Set([...primaryKey, ...foreignKeys.flatMap((fk) => fk.columns)]);
    const columns = relation.columns
      .filter((column) => column.name !== tenantColumn)
      // Own entries only: a column may be named `constructor` or `toString`.
      .map((column) =>
        columnInfo(
          key,
          column,
          keyColumns,
          Object.hasOwn(relation.samples, column.name) ? relation.samples[column.name] : undefined,
        ),
      );
    const byName = new Map(columns.map((column) => [column.name, column]));
    const dates = rankDates(
      columns.filter((column) => column.temporal),
      stemWords,
    );
    relations.set(key, {
      key,
      schema: relation.schema,
      name: relation.name,
      relation,
      one,
      other,
      alias: aliasOf(nameWords),
      columns,
      byName,
      primaryKey: primaryKey.filter((name) => byName.has(name)),
      labels: labelsOf(relation, one, new Set(byName.keys())),
      dates,
      primaryDate: primaryDateOf(dates, stemWords),
    });

    // Relation phrases: the name (3), its head word's synonyms (2), the head word alone (1).
    addEntry(phrases, phraseKey(stemWords), { kind: 'relation', table: key, rank: 3 });
    const head = stemWords[stemWords.length - 1] ?? '';
    for (const synonym of synonyms[head] ?? []) {
      addEntry(phrases, phraseKey([...stemWords.slice(0, -1), synonym]), {
        kind: 'relation',
        table: key,
        rank: 2,
      });
    }
    if (stemWords.length > 1) addEntry(phrases, head, { kind: 'relation', table: key, rank: 1 });

    // Column phrases: the name (3), "relation column" (3), shorter forms and synonyms (2).
    for (const column of columns) {
      const entry = (rank: number, qualified = false): Entry => ({
        kind: 'column',
        table: key,
        column: column.name,
        rank,
        ...(qualified ? { qualified } : {}),
      });
      // A key column named like a common word (domain.did, a "do" of a question) is never named
      // by that word alone.
      if (!(column.key && column.words.length === 1 && stopwords.has(column.words[0]!)))
        addEntry(phrases, phraseKey(column.words), entry(3));
      const startsWithRelation = stemWords.every(
        (word, index) => singular(column.words[index] ?? '') === word,
      );
      if (!startsWithRelation) addEntry(phrases, phraseKey([...stemWords, ...column.words]), entry(3, true));
      const forms = columnAliases(column.words, one, relationNames);
      for (const form of forms) {
        addEntry(phrases, phraseKey(form), entry(2));
        addEntry(phrases, phraseKey([...stemWords, ...form]), entry(3, true));
      }
      for (const form of [column.words, ...forms]) {
        const lastWord = singular(form[form.length - 1] ?? '');
        for (const synonym of synonyms[lastWord] ?? []) {
          addEntry(phrases, phraseKey([...form.slice(0, -1), synonym]), entry(2));
        }
      }
      // A yes/no column is also known by each longer word of its name (marketing_opt_in →
      // "marketing"), at the lowest rank.
      if (column.kind === 'boolean') {
        for (const word of column.words) {
          if (word.length >= 4 && !stopwords.has(word) && !/^(flag|true|false)$/.test(word))
            addEntry(phrases, singular(word), entry(1));
        }
      }
      // Two-letter codes of US states (business.state 'CA'): the state's name means its code.
      if (column.samples.length > 0 && column.samples.every((value) => /^[A-Z]{2}$/.test(value))) {
        for (const value of column.samples) {
          const name = usStates[value];
          if (name)
            stateNames.push({ phrase: phraseKey(name.split(' ')), table: key, column: column.name, value });
        }
      }
      for (const value of column.samples) {
        const words = valueWords(value);
        if (words.length === 0 || words.length > 6) continue;
        if (words.length === 1 && stopwords.has(words[0]!)) continue;
        addEntry(phrases, phraseKey(words), { kind: 'value', table: key, column: column.name, value });
      }
    }
  }

  // A multi-word column's last word ("price" of unit_price, "rate" of hourly_rate) names it too, at
  // the lowest rank, when no relation, column or value already answers to that word. Two columns
  // sharing it stay two candidates (the question's relation, or a clarification, decides).
  const heads = new Map<string, Entry[]>();
  for (const relation of relations.values()) {
    for (const column of relation.columns) {
      if (column.key || column.words.length < 2) continue;
      const head = singular(column.words[column.words.length - 1] ?? '');
      if (head.length < 3 || headExcluded.has(head) || trailingTimeWords.has(head) || stopwords.has(head))
        continue;
      if (phrases.has(head)) continue;
      const entry: Entry = { kind: 'column', table: relation.key, column: column.name, rank: 1 };
      heads.set(head, [...(heads.get(head) ?? []), entry]);
      const stemWords = relation.one.split(' ');
      addEntry(phrases, phraseKey([...stemWords, head]), { ...entry, rank: 3, qualified: true });
    }
  }
  for (const [head, entries] of heads) for (const entry of entries) addEntry(phrases, head, entry);

  // State names mean their codes (beside a city spelled the same: the column named next to it,
  // "the state of New York", or a question back, decides).
  for (const state of stateNames) {
    addEntry(phrases, state.phrase, {
      kind: 'value',
      table: state.table,
      column: state.column,
      value: state.value,
    });
  }

  // The join graph: foreign keys between relations of the catalog, not through the tenant column.
  for (const info of relations.values()) {
    for (const foreignKey of [...info.relation.foreignKeys, ...(inferred.foreignKeys.get(info.key) ?? [])]) {
      if (tenantColumn !== undefined && foreignKey.columns.includes(tenantColumn)) continue;
      const parent = relationKey(foreignKey.references.schema, foreignKey.references.name);
      if (parent === info.key || !relations.has(parent)) continue;
      const edge: Edge = {
        child: info.key,
        parent,
        childColumns: foreignKey.columns,
        parentColumns: foreignKey.references.columns,
        ...('inferred' in foreignKey ? { inferred: true } : {}),
      };
      for (const end of [info.key, parent]) {
        const list = edges.get(end) ?? [];
        list.push(edge);
        edges.set(end, list);
      }
    }
  }

  const found = findRevenue(relations, edges);
  const { unitsSold } = found;
  let revenueTiers = found.tiers;
  // The glossary: synonyms at the rank of an own name, metrics and filters by their terms.
  const defined = glossaryIndex(catalog, glossary, tenantColumn);
  const metrics = new Map<string, Measure>();
  for (const synonym of defined.synonyms) {
    if (!relations.has(synonym.table)) continue;
    const key = phraseKey(synonym.words);
    if (synonym.column === undefined)
      addEntry(phrases, key, { kind: 'relation', table: synonym.table, rank: 3 });
    else if (relations.get(synonym.table)?.byName.has(synonym.column))
      addEntry(phrases, key, { kind: 'column', table: synonym.table, column: synonym.column, rank: 3 });
  }
  for (const metric of defined.metrics) {
    const key = phraseKey(metric.words);
    if (revenuePhrases.includes(key)) revenueTiers = [[metric.measure]];
    else {
      metrics.set(key, metric.measure);
      addEntry(phrases, key, { kind: 'measure', name: key });
    }
  }
  for (const preset of defined.filters) {
    if (!relations.has(preset.filter.ref.table)) continue;
    addEntry(phrases, phraseKey(preset.words), { kind: 'preset', name: preset.name, filter: preset.filter });
  }
  // Durations: the time between two time columns of one row, by the phrases that name it; a
  // phrase two relations' spans answer to, or a column answers to, is left to them.
  const durationOwners = new Map<string, Measure[]>();
  for (const relation of relations.values()) {
    const pairs = durationPairs(relation);
    for (const pair of pairs) {
      const unit = pair.start.kind === 'date' && pair.end.kind === 'date' ? 'day' : 'hour';
      const measure: Measure = {
        kind: 'duration',
        left: { table: relation.key, column: pair.start.name },
        right: { table: relation.key, column: pair.end.name },
        unit,
      };
      for (const phrase of durationPhrases(relation, pair, pairs.length === 1)) {
        const key = phraseKey(phrase.split(' '));
        durationOwners.set(key, [...(durationOwners.get(key) ?? []), measure]);
      }
    }
  }
  for (const [key, measures] of durationOwners) {
    if (measures.length !== 1 || metrics.has(key)) continue;
    if ((phrases.get(key) ?? []).some((entry) => entry.kind === 'column' || entry.kind === 'relation'))
      continue;
    metrics.set(key, measures[0]!);
    addEntry(phrases, key, { kind: 'measure', name: key });
  }
  const revenue = resolution(revenueTiers[0] ?? []);
  const columnAnswersTo = (phrase: string) =>
    (phrases.get(phrase) ?? []).some((entry) => entry.kind === 'column');
  for (const phrase of [...revenuePhrases, ...(columnAnswersTo('amount') ? [] : ['amount'])]) {
    addEntry(phrases, phraseKey(phrase.split(' ')), { kind: 'measure', name: 'revenue' });
  }
  for (const phrase of spokenRevenuePhrases) {
    if (!phrases.has(phrase)) addEntry(phrases, phrase, { kind: 'measure', name: 'revenue' });
  }

  let maxWords = 1;
  for (const phrase of phrases.keys()) maxWords = Math.max(maxWords, phrase.split(' ').length);
  return {
    catalog,
    tenantColumn,
    relations,
    edges,
    phrases,
    maxWords: Math.min(maxWords, 6),
    revenue,
    revenueTiers,
    unitsSold,
    metrics,
    definitions: defined.definitions,
  };
};

// ---- cache -------------------------------------------------------------------------------------

const MAX_CACHED = 64;
const byCatalog = new WeakMap<Catalog, Map<string, Lexicon>>();
const byFingerprint = new Map<string, Lexicon>();

/**
 * What a lexicon is built from, whole: the catalog (names, types, keys, samples, descriptions),
 * the tenant column and the glossary, as the cache's key (no hash, so no two ever collide). Two
 * databases never share a lexicon unless they are the same in all of it: a lexicon holds sample
 * values, and another organization's database indexed in the same millisecond with the same shape
 * must not lend it its values. At most MAX_CACHED keys are kept.
 */
const fingerprint = (catalog: Catalog, tenantColumn: string | undefined, glossary: string): string =>
  `${tenantColumn ?? ''}\u0000${glossary}\u0000${JSON.stringify(catalog)}`;

/** The lexicon of `catalog`, built on first use and then served from memory. */
export const lexiconFor = (catalog: Catalog, tenantColumn?: string, glossary?: Glossary): Lexicon => {
  // (A glossary read before PostgreSQL's parser was loaded lacks its fragments: not the same lexicon.)
  const glossaryKey = glossary ? `${glossarySqlReady() ? '' : '-'}${JSON.stringify(glossary)}` : '';
  const tenantKey = `${tenantColumn ?? ''}\u0000${glossaryKey}`;
  const cached = byCatalog.get(catalog)?.get(tenantKey);
  if (cached) return cached;
  const key = fingerprint(catalog, tenantColumn, glossaryKey);
  let lexicon = byFingerprint.get(key);
  if (!lexicon) {
    lexicon = buildLexicon(catalog, tenantColumn, glossary);
    if (byFingerprint.size >= MAX_CACHED) {
      const oldest = byFingerprint.keys().next();
      if (!oldest.done) byFingerprint.delete(oldest.value);
    }
    byFingerprint.set(key, lexicon);
  }
  const perTenant = byCatalog.get(catalog) ?? new Map<string, Lexicon>();
  perTenant.set(tenantKey, lexicon);
  byCatalog.set(catalog, perTenant);
  return lexicon;
};

// ---- lookups -----------------------------------------------------------------------------------

/**
 * The main relations, most referenced first (customers, products), then by size: what the engine
 * names when it lists what it can answer about.
 */
export const mainRelations = (lexicon: Lexicon, count = 8): RelationInfo[] => {
  const links = (relation: RelationInfo, side: 'parent' | 'child') =>
    (lexicon.edges.get(relation.key) ?? []).filter((edge) => edge[side] === relation.key).length;
  const connected = (relation: RelationInfo) =>
    links(relation, 'parent') + links(relation, 'child') > 0 ? 1 : 0;
  return [...lexicon.relations.values()]
    .filter((relation) => relation.columns.length > 0)
    .sort(
      (a, b) =>
        connected(b) - connected(a) ||
        links(b, 'parent') - links(a, 'parent') ||
        b.relation.rowEstimate - a.relation.rowEstimate ||
        a.name.localeCompare(b.name),
    )
    .slice(0, count);
};

export const columnOf = (lexicon: Lexicon, ref: ColumnRef): ColumnInfo | undefined =>
  lexicon.relations.get(ref.table)?.byName.get(ref.column);

export const relationOf = (lexicon: Lexicon, table: string): RelationInfo => {
  const relation = lexicon.relations.get(table);
  if (!relation) throw new Error(`unknown relation ${table}`);
  return relation;
};

/** The name a user knows a relation by: bare in the default schema, qualified elsewhere. */
export const tableName = (lexicon: Lexicon, table: string): string => {
  const relation = relationOf(lexicon, table);
  return relation.schema === lexicon.catalog.defaultSchema
    ? relation.name
    : `${relation.schema}.${relation.name}`;
};
