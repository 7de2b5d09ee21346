// Step 2 of the builtin pipeline, what the schema index knows of a column: whether it holds
// money, which columns name a row (labels), which date dates a row best, its short SQL alias,
// its information (`ColumnInfo`) and the phrases it answers to besides its full name.
import type { CatalogColumn, CatalogRelation, ColumnKind } from '#lib/core/catalog.ts';
import { idLike } from './keys.ts';
import { rowSizeWords, unitWords } from './phrases.ts';
import { tokenize } from './tokens.ts';
import type { ColumnInfo } from './types.ts';
import { columnUnit } from './units.ts';
import { abbreviates, phraseKey, singular, splitIdentifier, wordTable } from './words.ts';

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
  'amt',
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

/** A person's name over two columns, written out or short. */
const personNamePairs: [string, string][] = [
  ['first_name', 'last_name'],
  ['firstname', 'lastname'],
  ['first_nm', 'last_nm'],
  ['fname', 'lname'],
  ['given_name', 'family_name'],
  ['forename', 'surname'],
];

export const labelsOf = (relation: CatalogRelation, one: string, available: Set<string>): string[] => {
  for (const name of labelNames) if (available.has(name)) return [name];
  const own = `${one.replaceAll(' ', '_')}_name`;
  if (available.has(own)) return [own];
  for (const [first, last] of personNamePairs) {
    if (available.has(first) && available.has(last)) return [first, last];
  }
  // A name written short (line_nm, cust_nm) is a name.
  for (const column of relation.columns) {
    if (available.has(column.name) && column.kind === 'text' && /(^|_)(name|nm)$/i.test(column.name)) {
      return [column.name];
    }
  }
  for (const name of ['email', 'code', 'sku', 'slug']) if (available.has(name)) return [name];
  // No name: its code and its description, whichever it has (parts.part_desc, matters.matter_no).
  const text = relation.columns.filter((column) => available.has(column.name) && column.kind === 'text');
  const code = text.find((column) => /(^|_)(code|cd|no|num|ref)$/i.test(column.name));
  const described = text.find((column) => /(^|_)(desc|description)$/i.test(column.name));
  return [code, described].flatMap((column) => (column ? [column.name] : []));
};

export const trailingTimeWords = new Set([
  'at',
  'on',
  'date',
  'dt',
  'time',
  'timestamp',
  'ts',
  'datetime',
  'day',
]);

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
  // (Or an abbreviation of it: its letters in order, the first first: "resv" of reservations.)
  if (words.some((word) => word.startsWith(stem) || abbreviates(word, head))) return 0;
  if (
    words.length === 0 ||
    words.some((word) => /^(created?|creation|inserted|added|registered)$/.test(word))
  )
    return 1;
  if (words.some((word) => /^(updated|modified|deleted|changed)$/.test(word))) return 4;
  if (words.some((word) => laterStep.test(word))) return 3;
  return 2;
};

export const rankDates = (dates: ColumnInfo[], relationWords: readonly string[]): ColumnInfo[] =>
  [...dates].sort(
    (a, b) =>
      dateRank(a, relationWords) - dateRank(b, relationWords) || Number(a.nullable) - Number(b.nullable),
  );

export const primaryDateOf = (
  dates: ColumnInfo[],
  relationWords: readonly string[],
): ColumnInfo | undefined => {
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

export const aliasOf = (words: readonly string[]): string => {
  const initials = words.map((word) => word[0]).join('') || 't';
  const alias = /^[a-z]/.test(initials) ? initials.slice(0, 4) : `t${initials}`.slice(0, 4);
  return aliasReserved.has(alias) ? `${alias}1` : alias;
};

/** Words of a sample value as the scanner sees them in a question. */
export const valueWords = (value: string): string[] =>
  tokenize(value).flatMap((token) =>
    token.kind === 'word' ? [token.text] : token.kind === 'number' ? [token.raw.toLowerCase()] : [],
  );

export const columnInfo = (
  table: string,
  column: CatalogColumn,
  keyColumns: Set<string>,
  samples: string[] | undefined,
): ColumnInfo => {
  const words = splitIdentifier(column.name);
  const key = keyColumns.has(column.name) || words[words.length - 1] === 'id' || idLike(column.name);
  const numeric = (column.kind === 'integer' || column.kind === 'decimal') && !key;
  const named = numeric && isMoney(words, column.kind);
  const unit = numeric ? columnUnit(words, column.description, named) : undefined;
  // A decimal named or described in a currency (price_gbp, "Invoice value in pounds") holds money.
  const money =
    named ||
    (unit?.dimension === 'money' &&
      column.kind === 'decimal' &&
      !words.some((word) => notMoneyWords.has(word)));
  return {
    table,
    name: column.name,
    kind: column.kind,
    nullable: column.nullable,
    words,
    display: words.join(' '),
    key,
    numeric,
    money,
    temporal: column.kind === 'date' || column.kind === 'timestamp',
    samples: column.kind === 'text' ? (samples ?? []) : [],
    ...(unit ? { unit: unit.name } : {}),
  };
};

/** Column phrases besides the full name: "ordered" and "order date" for ordered_at, "active" for is_active. */
export const columnAliases = (
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
  // daily_rate_amt → "daily rate", fuel_chg_amt → "fuel chg": "amount" is not said of a named
  // amount (two words or more before it; one word, "paid" of paid_amt, may be a state).
  if (words.length > 2 && /^(amt|amount)$/.test(last)) aliases.push(words.slice(0, -1));
  // citation_num, num_citations, review_count, number_of_pages: "number of citations", "citations".
  // (Not when a relation is named like the counted thing: "the number of reviews" counts reviews.)
  const counted = countedWords(words);
  if (counted && !relationNames.has(phraseKey(counted)))
    aliases.push(counted, ['number', 'of', ...counted], [...counted, 'count']);
  // A day-of-week column (checkin.day): "day of the week", "weekday".
  if (words.join(' ') === 'day' || words.join(' ') === 'weekday' || words.join(' ') === 'day of week')
    aliases.push(['day', 'of', 'the', 'week'], ['day', 'of', 'week'], ['weekday']);
  // food_type → "type of food"; city_name → "city" (when the name is not the row's label).
  if (words.length === 2 && /^(type|kind|category|name|nm|code|cd|score|rating|level|amount)$/.test(last)) {
    aliases.push([last, 'of', words[0]!]);
    if (words[0] !== relationOne.split(' ').pop()) aliases.push([words[0]!]);
  }
  // products.product_name → "name", orders.order_status → "status"
  const own = relationOne.split(' ');
  if (words.length > own.length && own.every((word, index) => singular(words[index] ?? '') === word)) {
    aliases.push(words.slice(own.length));
  }
  // work_orders.wo_status → "status", purchase_orders.po_date → "date": the relation's initials.
  const initials = own.map((word) => word[0]).join('');
  if (own.length > 1 && words.length > 1 && words[0] === initials) aliases.push(words.slice(1));
  return aliases;
};

/**
 * The money column that says what a row of `relation` is worth: its only money column named like
 * an amount, a total or a value (deliveries.total beside price_per_t). A price, a cost or a charge
 * alone is not (crops.base_price_t, harvest_intakes.drying_charge).
 */
export const worthColumn = (relation: { columns: readonly ColumnInfo[] }): ColumnInfo | undefined => {
  const sized = relation.columns.filter(
    (column) => column.money && !column.key && column.words.some((word) => rowSizeWords.has(word)),
  );
  // input_purchases.amt beside vat_amt: the bare amount is the row's, the qualified one a part.
  const bare = sized.filter((column) => column.words.length === 1);
  return sized.length === 1 ? sized[0] : bare.length === 1 ? bare[0] : undefined;
};

export const quantityWords = new Set(['quantity', 'qty', 'unit', 'count']);

/** US state codes and names, for columns that hold the codes. */
export const usStates: Record<string, string> = wordTable(
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
export const headExcluded = new Set([
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
