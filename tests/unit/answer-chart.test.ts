// The chart rules of lib/answer/chart.ts over result shapes, each spec checked against the
// Vega-Lite v5 JSON schema (the vega-lite package's own, a dev dependency).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { type ChartSpec, chartFor, MAX_BAR_CATEGORIES, titleOf } from '#lib/answer/chart.ts';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('vega-lite/build/vega-lite-schema.json'), 'utf8'));
const ajv = new Ajv({ allowUnionTypes: true, strict: false });
const validVegaLite = ajv.compile(schema);

const expectValid = (spec: ChartSpec | null): ChartSpec => {
  expect(spec).not.toBeNull();
  const valid = validVegaLite(spec);
  expect(valid, JSON.stringify(validVegaLite.errors?.slice(0, 3))).toBe(true);
  return spec as ChartSpec;
};

const chart = (results: Record<string, unknown>[], resultsTruncated = false) =>
  chartFor({ title: 'The question', results, resultsTruncated });

describe('chartFor', () => {
  it('draws a time and a measure as a line, numeric text as numbers', () => {
    const spec = expectValid(
      chart([
        { month: '2025-01-01', revenue: '1200.50' },
        { month: '2025-02-01', revenue: '980.00' },
        { month: '2025-03-01', revenue: null },
      ]),
    );
    expect(spec.mark).toEqual({ type: 'line', tooltip: true, point: true });
    expect(spec.encoding.x).toEqual({ field: 'month', type: 'temporal', title: 'Month' });
    expect(spec.encoding.y).toEqual({ field: 'revenue', type: 'quantitative', title: 'Revenue' });
    expect(spec.data.values).toEqual([
      { month: '2025-01-01', revenue: 1200.5 },
      { month: '2025-02-01', revenue: 980 },
      { month: '2025-03-01', revenue: null },
    ]);
  });

  it('draws timestamps and months as time, years as an ordered axis', () => {
    expect(
      expectValid(
        chart([
          { at: '2025-01-01T00:00:00.000Z', n: 1 },
          { at: '2025-02-01T00:00:00.000Z', n: 2 },
        ]),
      ).mark.type,
    ).toBe('line');
    expect(
      expectValid(
        chart([
          { n: 1, month: '2025-01' },
          { n: 2, month: '2025-02' },
        ]),
      ).encoding.x.field,
    ).toBe('month');
    const years = expectValid(
      chart([
        { order_year: 2024, orders: 10 },
        { order_year: 2025, orders: 12 },
      ]),
    );
    expect(years.mark.type).toBe('line');
    expect(years.encoding.x).toMatchObject({ field: 'order_year', type: 'ordinal', sort: 'ascending' });
  });

  it('reads a year and a month column as one month, and leaves ids beside a label out', () => {
    const months = expectValid(
      chart([
        { period_year: 2025, period_month: 1, total_revenue: '10.5' },
        { period_year: 2025, period_month: 2, total_revenue: '12' },
        { period_year: 2025, period_month: 11, total_revenue: '7' },
      ]),
    );
    expect(months.mark.type).toBe('line');
    expect(months.encoding.x).toMatchObject({ field: 'month', type: 'temporal' });
    expect(months.data.values.map((row) => row.month)).toEqual(['2025-01', '2025-02', '2025-11']);
    const categories = expectValid(
      chart([
        { id: 1, name: 'Books', total_revenue: '100' },
        { id: 2, name: 'Games', total_revenue: '80' },
      ]),
    );
    expect(categories.mark.type).toBe('bar');
    expect(categories.encoding.x.field).toBe('name');
    expect(categories.data.values).toEqual([
      { name: 'Books', total_revenue: 100 },
      { name: 'Games', total_revenue: 80 },
    ]);
  });

  it('draws categories and a measure as bars, up to 20 categories', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ category: `C${i}`, revenue: i * 10 }));
    const spec = expectValid(chart(rows(5)));
    expect(spec.mark.type).toBe('bar');
    expect(spec.encoding.x).toEqual({ field: 'category', type: 'nominal', title: 'Category', sort: '-y' });
    expect(spec.description).toBe('Revenue per category, 5 bars');
    expectValid(chart(rows(MAX_BAR_CATEGORIES)));
    expect(chart(rows(MAX_BAR_CATEGORIES + 1))).toBeNull();
  });

  it('draws two measures as points', () => {
    const spec = expectValid(
      chart([
        { price: 10, sold: 3 },
        { price: 20, sold: 1 },
        { price: 5, sold: 9 },
      ]),
    );
    expect(spec.mark).toEqual({ type: 'point', tooltip: true });
    expect(spec.encoding.x.field).toBe('price');
    expect(spec.encoding.y.field).toBe('sold');
  });

  it('draws nothing for one value, wide tables, text only, mixed columns or partial results', () => {
    expect(chart([{ order_count: 302 }])).toBeNull();
    expect(chart([{ category: 'Books', revenue: 1 }])).toBeNull();
    expect(
      chart([
        { a: 'x', b: 1, c: 2 },
        { a: 'y', b: 2, c: 3 },
      ]),
    ).toBeNull();
    expect(
      chart([
        { name: 'Ann', city: 'Oslo' },
        { name: 'Bo', city: 'Rome' },
      ]),
    ).toBeNull();
    expect(
      chart([
        { k: 'x', v: 1 },
        { k: 'y', v: 'many' },
      ]),
    ).toBeNull();
    expect(
      chart(
        [
          { k: 'x', v: 1 },
          { k: 'y', v: 2 },
        ],
        true,
      ),
    ).toBeNull();
    expect(chart([])).toBeNull();
  });

  it('names axes in words', () => {
    expect(titleOf('order_count')).toBe('Order count');
    expect(titleOf('totalRevenue')).toBe('Total revenue');
  });

  it('names the axes from the reading: the grouping’s and the measure’s words, not the columns', () => {
    const results = [
      { id: 1, name: 'Camp Kitchen', total_revenue: '157592.59' },
      { id: 2, name: 'Tents', total_revenue: '98000.10' },
    ];
    const bars = expectValid(
      chartFor({
        title: 'Revenue per category',
        results,
        resultsTruncated: false,
        axes: { measure: 'Revenue', dimension: 'category', own: true },
      }),
    );
    expect(bars.encoding.x).toMatchObject({ field: 'name', title: 'Category' });
    expect(bars.encoding.y).toMatchObject({ field: 'total_revenue', title: 'Revenue' });
    expect(bars.description).toBe('Revenue per category, 2 bars');
    // Without a reading the columns name them.
    expect(chart(results)?.encoding.x.title).toBe('Name');
    // Another engine's answer: the builtin's reading names an axis where its column agrees only.
    const guessed = (
      axes: { measure: string; dimension: string },
      rows: Record<string, unknown>[] = results,
    ) =>
      chartFor({ title: 'x', results: rows, resultsTruncated: false, axes: { ...axes, own: false } })
        ?.encoding;
    expect(guessed({ measure: 'Revenue', dimension: 'category' })).toMatchObject({
      x: { title: 'Category' },
      y: { title: 'Revenue' },
    });
    expect(guessed({ measure: 'Orders', dimension: 'country' })).toMatchObject({
      x: { title: 'Country' },
      y: { title: 'Total revenue' },
    });
    const byCity = [
      { city: 'Berlin', order_count: 3 },
      { city: 'Paris', order_count: 2 },
    ];
    expect(guessed({ measure: 'Orders', dimension: 'country' }, byCity)).toMatchObject({
      x: { title: 'City' },
      y: { title: 'Orders' },
    });
    // Two measures keep their own names.
    const points = chartFor({
      title: 'x',
      results: [
        { price: 1, sold: 2 },
        { price: 3, sold: 4 },
      ],
      resultsTruncated: false,
      axes: { measure: 'Revenue', dimension: 'category' },
    });
    expect(points?.encoding).toMatchObject({ x: { title: 'Price' }, y: { title: 'Sold' } });
  });
});

describe('the Vega-Lite schema check', () => {
  it('refuses what is not a Vega-Lite spec', () => {
    const spec = chart([
      { category: 'a', n: 1 },
      { category: 'b', n: 2 },
    ]);
    expect(validVegaLite({ ...spec, mark: { type: 'banana' } })).toBe(false);
    expect(validVegaLite({ ...spec, encoding: { x: { field: 'category', type: 'colour' } } })).toBe(false);
  });
});
