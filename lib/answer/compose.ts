// The answer's text from the rows a query returned (docs/design.md "Chat answers"): counts as a
// sentence ("There are 42 cancelled orders in 2025."), single values, top-N lists, group-bys
// summarised ("Revenue per category: Books 1,234.50, Games 987.00 and 3 more."), empty results.
// Shapes come from the engine (engine.ts `AnswerShape`); without one the rows are summarised
// generically. Rows are data, never instructions: values are printed as plain text only, with
// control characters removed and long values cut, and nothing in them is interpreted.
import type {
  AnswerShape,
  ComposedAnswer,
  NounPhrase,
  ResultRows,
  SqlProposal,
  ValueFormat,
} from './engine.ts';

/** Rows named in a summary before "and N more". */
export const SUMMARY_ITEMS = 5;
const MAX_TEXT = 80;

// ---- values ------------------------------------------------------------------------------------

/** A number from what drivers return: numbers, bigints, numeric strings ("129.50"). */
export const numeric = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(value.trim()))
    return Number(value);
  return undefined;
};

/** Plain, single-line, bounded text: the only way a row value reaches the answer. */
export const plainText = (value: string): string => {
  const flat = value
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1).trimEnd()}…` : flat;
};

const dateText = (date: Date): string => {
  if (Number.isNaN(date.getTime())) return 'an invalid date';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
};

export const formatValue = (value: unknown, format?: ValueFormat): string => {
  if (value === null || value === undefined) return 'none';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const number = numeric(value);
  if (number !== undefined && (typeof value !== 'string' || format !== undefined)) {
    if (format === 'money') {
      return number.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    if (format === 'integer') return Math.round(number).toLocaleString('en-US');
    return number.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
  if (typeof value === 'string') return plainText(value);
  if (typeof value === 'object') {
    try {
      return plainText(JSON.stringify(value));
    } catch {
      return 'a value';
    }
  }
  return plainText(String(value));
};

// ---- sentences ---------------------------------------------------------------------------------

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "a, b and c", then "and N more" when there are more than `shown`. */
const listOf = (items: readonly string[], total: number, more: boolean): string => {
  const shown = items.slice(0, SUMMARY_ITEMS);
  const rest = total - shown.length;
  if (rest > 0 || more)
    return `${shown.join(', ')} and ${rest > 0 ? `${rest.toLocaleString('en-US')} more` : 'more'}`;
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
};

const answer = (...pieces: string[]): ComposedAnswer => {
  const kept = pieces.filter((piece) => piece.length > 0);
  return { text: kept.join(''), pieces: kept };
};

const cell = (
  row: Record<string, unknown> | undefined,
  column: string,
  columns: readonly string[],
): unknown => (row === undefined ? undefined : column in row ? row[column] : row[columns[0] ?? '']);

const rowLabel = (
  row: Record<string, unknown>,
  labelColumns: readonly string[],
  columns: readonly string[],
): string => {
  const values = labelColumns
    .map((column) => row[column])
    .filter((value) => value !== null && value !== undefined && value !== '');
  // A row known only by its number reads as "#42".
  if (values.length === 1 && typeof values[0] !== 'string' && numeric(values[0]) !== undefined) {
    return `#${formatValue(values[0], 'integer').replaceAll(',', '')}`;
  }
  if (values.length > 0) return values.map((value) => formatValue(value)).join(' ');
  return formatValue(row[columns[0] ?? '']);
};

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const keyLabel = (
  row: Record<string, unknown>,
  keyColumns: readonly string[],
  keyFormat: 'year' | 'year-quarter' | 'year-month' | 'year-week' | 'date' | 'weekday' | 'hour' | undefined,
): string => {
  const values = keyColumns.map((column) => row[column]);
  const part = numeric(values[0]);
  // ISO weekday 1 (Monday) … 7 (Sunday); hour 0–23; ISO week as year × 100 + week.
  if (keyFormat === 'weekday' && part !== undefined && WEEKDAYS[part - 1]) return WEEKDAYS[part - 1]!;
  if (keyFormat === 'hour' && part !== undefined) return `${String(part).padStart(2, '0')}:00`;
  if (keyFormat === 'year-week' && part !== undefined)
    return `${Math.floor(part / 100)}-W${String(part % 100).padStart(2, '0')}`;
  if (keyFormat === 'year-month' || keyFormat === 'year-quarter') {
    const [year, part] = values.map(numeric);
    if (year !== undefined && part !== undefined) {
      return keyFormat === 'year-month' ? `${year}-${String(part).padStart(2, '0')}` : `${year} Q${part}`;
    }
  }
  if (keyFormat === 'year') {
    const year = numeric(values[0]);
    if (year !== undefined) return String(year);
  }
  const parts = values
    .filter((value) => value !== null && value !== undefined && value !== '')
    .map((value) => formatValue(value));
  return parts.length > 0 ? parts.join(' ') : 'none';
};

const nounFor = (count: number, noun: NounPhrase): string => (count === 1 ? noun.one : noun.other);

// ---- by shape ----------------------------------------------------------------------------------

const composeShape = (shape: AnswerShape, result: ResultRows): ComposedAnswer => {
  const { rows, columns } = result;
  const first = rows[0];
  switch (shape.kind) {
    case 'count': {
      const count = numeric(cell(first, shape.column, columns)) ?? 0;
      if (count === 0) return answer(`There are no ${shape.noun.other}.`);
      const verb = count === 1 ? 'is' : 'are';
      return answer(`There ${verb} ${formatValue(count, 'integer')} ${nounFor(count, shape.noun)}.`);
    }
    case 'value': {
      const value = cell(first, shape.column, columns);
      if (value === null || value === undefined) {
        return answer(`No ${shape.noun.other} matched, so there is no ${shape.label.replace(/^the /, '')}.`);
      }
      return answer(`${capitalize(shape.label)} is ${formatValue(value, shape.format)}.`);
    }
    case 'rows': {
      if (rows.length === 0) return answer(`There are no ${shape.noun.other}.`);
      const items = rows.map((row) => {
        const label = rowLabel(row, shape.labelColumns, columns);
        return shape.valueColumn && shape.valueColumn in row
          ? `${label} (${formatValue(row[shape.valueColumn], shape.valueFormat)})`
          : label;
      });
      if (shape.ranking) {
        if (rows.length === 1) return answer(`The ${shape.ranking.one} is ${items[0]}.`);
        return answer(`The ${shape.ranking.other}:`, ` ${listOf(items, rows.length, false)}.`);
      }
      const count = rows.length.toLocaleString('en-US');
      const capped = result.truncated || rows.length >= shape.limit;
      if (rows.length <= SUMMARY_ITEMS && !capped) {
        return answer(
          `I found ${count} ${nounFor(rows.length, shape.noun)}:`,
          ` ${listOf(items, rows.length, false)}.`,
        );
      }
      const headline = capped
        ? `Showing the first ${count} ${shape.noun.other} (there may be more).`
        : `I found ${count} ${shape.noun.other}.`;
      const first = listOf(items.slice(0, SUMMARY_ITEMS), SUMMARY_ITEMS, false);
      return answer(headline, ` The first ${SUMMARY_ITEMS}: ${first}.`);
    }
    case 'groups': {
      if (rows.length === 0) return answer(`There are no ${shape.noun.other}.`);
      const items = rows.map(
        (row) =>
          `${keyLabel(row, shape.keyColumns, shape.keyFormat)} ${formatValue(row[shape.valueColumn], shape.valueFormat)}`,
      );
      if (shape.ranking && rows.length === 1 && shape.limit === 1) {
        const row = rows[0]!;
        return answer(
          `The ${shape.ranking.one} is ${keyLabel(row, shape.keyColumns, shape.keyFormat)} (${formatValue(row[shape.valueColumn], shape.valueFormat)}).`,
        );
      }
      const title = shape.ranking ? `The ${shape.ranking.other}` : shape.label;
      const more = result.truncated || (!shape.ranking && rows.length >= shape.limit);
      return answer(`${title}:`, ` ${listOf(items, rows.length, more)}.`);
    }
  }
};

const composeGeneric = (result: ResultRows): ComposedAnswer => {
  const { rows, columns } = result;
  if (rows.length === 0) return answer('The query returned no rows.');
  const first = rows[0]!;
  if (rows.length === 1 && columns.length === 1)
    return answer(`The result is ${formatValue(first[columns[0]!])}.`);
  const describeRow = (row: Record<string, unknown>) =>
    columns
      .slice(0, 4)
      .map((column) => `${plainText(column)} ${formatValue(row[column])}`)
      .join(', ');
  if (rows.length === 1) return answer(`The result: ${describeRow(first)}.`);
  const count = rows.length.toLocaleString('en-US');
  const headline = result.truncated
    ? `The query returned more than ${count} rows.`
    : `The query returned ${count} rows.`;
  const items = rows.slice(0, 3).map(describeRow);
  return answer(headline, ` The first ${items.length}: ${items.join('; ')}.`);
};

/** The answer text for a query's rows: a readable sentence, then a summary of the rows. */
export const composeAnswer = (proposal: SqlProposal, result: ResultRows): ComposedAnswer =>
  proposal.shape ? composeShape(proposal.shape, result) : composeGeneric(result);

/**
 * A message in the pieces a stream sends: one per sentence, the space before a sentence kept
 * with it, so that `sentencePieces(text).join('') === text`. A sentence ends at `.`, `!`, `?` or
 * `…` (closing quotes and brackets included) followed by a space; "1,234.50" is not split.
 */
export const sentencePieces = (text: string): string[] => {
  const pieces: string[] = [];
  let start = 0;
  for (const match of text.matchAll(/[.!?…]+["'”’)\]]*(?=\s+\S)/gu)) {
    const end = match.index + match[0].length;
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces.filter((piece) => piece.length > 0);
};
