// `data.chart` of an answer (docs/design.md "Answers people can check and improve"): a Vega-Lite
// v5 spec chosen by rules from the result's columns and values, with the values inline, or null.
// Never code from a model: the rules only pick a mark and two fields.
//   a time and a measure              → line (time on x, in order)
//   up to 20 categories and a measure → bar
//   two measures                      → point
//   one row, one column, wider tables, partial results (results_truncated) → null
// Before the rules: an id column beside a name is left out (the name labels the bars), and a year
// and a month column (`period_year`, `period_month`) become one month (`2025-03`) on a time axis.
// The axes are named from the answer's reading when it has one (the grouping's and the measure's
// words: "Category", "Revenue"), else from the columns ("Total revenue").
// The widget draws these three kinds itself (web/src/chart.ts); the spec stays valid for
// integrators who render it with vega-embed.

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
export const MAX_BAR_CATEGORIES = 20;

type ColumnKind = 'temporal' | 'year' | 'quantitative' | 'nominal';
export type ChartMark = 'line' | 'bar' | 'point';

export interface ChartField {
  field: string;
  type: 'temporal' | 'ordinal' | 'quantitative' | 'nominal';
  title: string;
  sort?: 'ascending' | '-y';
}

export interface ChartSpec {
  $schema: typeof VEGA_LITE_SCHEMA;
  title: string;
  description: string;
  data: { values: Record<string, string | number | null>[] };
  mark: { type: ChartMark; tooltip: true; point?: true };
  encoding: { x: ChartField; y: ChartField };
}

const isoDate =
  /^\d{4}-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)?$/;
const numericText = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const yearName = /(?:^|_)(?:year|yr)$/i;

const isNumeric = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && numericText.test(value));

const kindOf = (column: string, values: readonly unknown[]): ColumnKind | undefined => {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return undefined;
  if (present.every((value) => typeof value === 'string' && isoDate.test(value))) return 'temporal';
  if (present.every(isNumeric)) {
    const years = present.every(
      (value) => Number.isInteger(Number(value)) && Number(value) >= 1900 && Number(value) <= 2200,
    );
    return years && yearName.test(column) ? 'year' : 'quantitative';
  }
  if (present.every((value) => typeof value === 'string' || typeof value === 'boolean')) return 'nominal';
  return undefined;
};

/** `order_count` → "Order count". */
export const titleOf = (column: string): string => {
  const words = column
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

interface Shape {
  mark: ChartMark;
  x: ChartField;
  y: ChartField;
}

const shapeOf = (
  columns: readonly string[],
  kinds: readonly ColumnKind[],
  rowCount: number,
): Shape | undefined => {
  const [a, b] = columns as [string, string];
  const [kindA, kindB] = kinds as [ColumnKind, ColumnKind];
  const field = (name: string, type: ChartField['type'], extra: Partial<ChartField> = {}): ChartField => ({
    field: name,
    type,
    title: titleOf(name),
    ...extra,
  });
  // Either order of the two columns: the measure is the quantitative one.
  for (const [dimension, measure, dimensionKind, measureKind] of [
    [a, b, kindA, kindB],
    [b, a, kindB, kindA],
  ] as const) {
    if (measureKind !== 'quantitative') continue;
    if (dimensionKind === 'temporal') {
      return { mark: 'line', x: field(dimension, 'temporal'), y: field(measure, 'quantitative') };
    }
    if (dimensionKind === 'year') {
      return {
        mark: 'line',
        x: field(dimension, 'ordinal', { sort: 'ascending' }),
        y: field(measure, 'quantitative'),
      };
    }
    if (dimensionKind === 'nominal' && rowCount <= MAX_BAR_CATEGORIES) {
      return {
        mark: 'bar',
        x: field(dimension, 'nominal', { sort: '-y' }),
        y: field(measure, 'quantitative'),
      };
    }
  }
  if (kindA === 'quantitative' && kindB === 'quantitative') {
    return { mark: 'point', x: field(a, 'quantitative'), y: field(b, 'quantitative') };
  }
  return undefined;
};

export interface ChartInput {
  /** What the chart shows, in words (the answer's reading of the question). */
  title: string;
  /**
   * The axes' names from the answer's reading (lib/answer/reading.ts): the measure ("Revenue")
   * and what the rows are per ("category"). Without them, titles come from the column names.
   */
  axes?: {
    measure?: string;
    dimension?: string;
    /**
     * Whether the reading is the answering engine's own (then its words always name the axes);
     * otherwise (the builtin's reading of a question another engine answered) a word names an
     * axis only where the column agrees: a name column or one holding the dimension's word, a
     * measure column holding the measure's last word.
     */
    own?: boolean;
  };
  results: readonly Record<string, unknown>[];
  resultsTruncated: boolean;
}

const idName = /(?:^|_)id$/i;
/** Columns that name a row: their own name says nothing about what the rows are. */
const namingColumn = /^(?:name|title|label)$/i;
const monthName = /(?:^|_)month$/i;
const isInteger = (value: unknown, min: number, max: number): boolean =>
  isNumeric(value) && Number.isInteger(Number(value)) && Number(value) >= min && Number(value) <= max;

/** The rows as the rules read them: ids beside a label left out, a year and a month made one month. */
const chartRows = (results: readonly Record<string, unknown>[]): Record<string, unknown>[] => {
  let columns = Object.keys(results[0] ?? {});
  const values = (column: string) => results.map((row) => row[column]);
  const labels = columns.filter((c) => !idName.test(c) && kindOf(c, values(c)) === 'nominal');
  if (labels.length > 0) columns = columns.filter((c) => !idName.test(c));
  const year = columns.find((c) => yearName.test(c) && values(c).every((v) => isInteger(v, 1900, 2200)));
  const month = columns.find((c) => monthName.test(c) && values(c).every((v) => isInteger(v, 1, 12)));
  return results.map((row) => {
    const kept: Record<string, unknown> = {};
    for (const column of columns) {
      if (year && month && column === year)
        kept.month = `${Number(row[year])}-${String(Number(row[month])).padStart(2, '0')}`;
      else if (!(year && month && column === month)) kept[column] = row[column];
    }
    return kept;
  });
};

/** The chart of a result, or null when none of the rules fits. */
export const chartFor = ({ title, axes, results: raw, resultsTruncated }: ChartInput): ChartSpec | null => {
  if (resultsTruncated || raw.length < 2) return null;
  const results = chartRows(raw);
  const columns = Object.keys(results[0] ?? {});
  if (columns.length !== 2) return null;
  const kinds = columns.map((column) =>
    kindOf(
      column,
      results.map((row) => row[column]),
    ),
  );
  if (kinds.some((kind) => kind === undefined)) return null;
  const found = shapeOf(columns, kinds as ColumnKind[], results.length);
  if (!found) return null;
  // A dimension and a measure (line, bar) take the reading's words; two measures keep theirs.
  const agrees = (column: string, phrase: string | undefined, naming: boolean): boolean => {
    if (!phrase) return false;
    if (axes?.own) return true;
    const words = titleOf(column).toLowerCase().split(' ');
    const stem = (phrase.toLowerCase().split(' ').at(-1) ?? '').replace(/s$/, '');
    return (naming && namingColumn.test(column)) || words.some((word) => word.replace(/s$/, '') === stem);
  };
  const shape =
    found.mark === 'point' || !axes
      ? found
      : {
          ...found,
          x: agrees(found.x.field, axes.dimension, true)
            ? { ...found.x, title: titleOf(axes.dimension ?? '') }
            : found.x,
          y: agrees(found.y.field, axes.measure, false) ? { ...found.y, title: axes.measure ?? '' } : found.y,
        };
  const numeric = new Set(
    [shape.x, shape.y].filter((f) => f.type === 'quantitative' || f.type === 'ordinal').map((f) => f.field),
  );
  const values = results.map((row) =>
    Object.fromEntries(
      columns.map((column) => {
        const value = row[column];
        if (value === null || value === undefined) return [column, null];
        return [column, numeric.has(column) ? Number(value) : String(value)];
      }),
    ),
  );
  const description =
    shape.mark === 'line'
      ? `${shape.y.title} over ${shape.x.title.toLowerCase()}, ${results.length} points`
      : shape.mark === 'bar'
        ? `${shape.y.title} per ${shape.x.title.toLowerCase()}, ${results.length} bars`
        : `${shape.y.title} against ${shape.x.title.toLowerCase()}, ${results.length} points`;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: title.slice(0, 120),
    description,
    data: { values },
    mark: { type: shape.mark, tooltip: true, ...(shape.mark === 'line' ? { point: true as const } : {}) },
    encoding: { x: shape.x, y: shape.y },
  };
};
