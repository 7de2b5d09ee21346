// How the widget writes values: numbers as the answer's text writes them (lib/answer/compose.ts),
// and which columns a person reads. No DOM here: the table, the chart and unit tests use it.
/** A result row (web/src/api.ts `Row`). */
type Row = Record<string, unknown>;

const NUMERIC = /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i;
/** A number as text that reads as an amount: no leading zero (a code such as 01234), no exponent. */
const AMOUNT = /^-?(?:0|[1-9]\d{0,14})(?:\.\d+)?$/;
/** Columns whose numbers are names, not amounts: years, ids, codes, phone numbers… */
const LABEL_NUMBER = /(?:^|_)(?:year|yr|id|code|number|no|zip|postcode|phone)$/i;
const LABEL_NUMBER_CAMEL = /[a-z](?:Id|Year|Code|Number)$/;
/** A column that only keys a row (`id`, `customer_id`): left out when a name beside it says which. */
const KEY = /^(?:id|uuid)$|_(?:id|uuid)$|Id$/;

export const isNumeric = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'bigint' ||
  (typeof value === 'string' && NUMERIC.test(value.trim()));

/**
 * A number as the answer's text writes it (lib/answer/compose.ts): grouped thousands, at most two
 * decimals (`157592.59` → 157,592.59, `166.8888000000000000` → 166.89); a small fraction keeps
 * three significant digits (0.00123).
 */
export const numberText = (value: number): string =>
  value !== 0 && Math.abs(value) < 0.01
    ? value.toLocaleString('en-US', { maximumSignificantDigits: 3 })
    : value.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** A cell as text; numbers (and numeric strings, as PostgreSQL sends numerics) as the text writes them. */
export const cellText = (value: unknown, column = ''): string => {
  if (value === null || value === undefined) return '';
  const asLabel = LABEL_NUMBER.test(column) || LABEL_NUMBER_CAMEL.test(column);
  if (typeof value === 'number') return asLabel ? String(value) : numberText(value);
  if (typeof value === 'string' && !asLabel && AMOUNT.test(value.trim())) return numberText(Number(value));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** The columns of `rows`: every key, in first-seen order. */
export const columnsOf = (rows: readonly Row[]): string[] => {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
};

/**
 * The columns a person reads: key columns (`id`, `customer_id`) are left out when a column of
 * text beside them (a name, a title) says which row it is.
 */
export const shownColumns = (rows: readonly Row[]): string[] => {
  const columns = columnsOf(rows);
  const named = columns.some(
    (column) =>
      !KEY.test(column) && rows.some((row) => typeof row[column] === 'string' && !isNumeric(row[column])),
  );
  const kept = named ? columns.filter((column) => !KEY.test(column)) : columns;
  return kept.length > 0 ? kept : columns;
};
