// An answer's `chart` (a Vega-Lite v5 spec chosen by the service's rules: line, bar or point, two
// fields, values inline) drawn as a small accessible SVG: a title and a description in words for
// screen readers, labelled axes, one mark per value with its value as a tooltip, and colours from
// the widget's theme (so the dark scheme follows). No charting library: these three kinds only.
// The rows stay available as a table under the chart.
import type { ChartSpec } from './chart-spec.ts';
import { cellText } from './table.ts';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 190;
const LEFT = 44;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 38;

const svg = <K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] => {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};

const markOf = (spec: ChartSpec): string => (typeof spec.mark === 'string' ? spec.mark : spec.mark.type);

/** Round tick values covering [min, max]. */
const ticks = (min: number, max: number, count = 4): number[] => {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const values: number[] = [];
  for (let value = Math.floor(min / step) * step; value <= max + step / 2; value += step) {
    values.push(Number(value.toPrecision(12)));
  }
  return values;
};

const short = (text: string, length = 10): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

let chartCount = 0;

/** The chart, or undefined when the spec is not one of the kinds drawn here. */
export const renderChart = (spec: ChartSpec): HTMLElement | undefined => {
  const kind = markOf(spec);
  const { x, y } = spec.encoding ?? {};
  if (!x || !y || !['line', 'bar', 'point'].includes(kind)) return undefined;
  const rows = (spec.data?.values ?? []).filter((row) => typeof row[y.field] === 'number');
  if (rows.length === 0) return undefined;
  const numericX = x.type === 'quantitative';
  if (kind === 'line')
    rows.sort((a, b) => String(a[x.field]).localeCompare(String(b[x.field]), undefined, { numeric: true }));

  const yValues = rows.map((row) => row[y.field] as number);
  const yTicks = ticks(Math.min(0, ...yValues), Math.max(0, ...yValues));
  const yMin = yTicks[0] ?? 0;
  const yMax = yTicks.at(-1) ?? 1;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const yAt = (value: number) => TOP + plotHeight - ((value - yMin) / (yMax - yMin || 1)) * plotHeight;

  const xValues = rows.map((row) => row[x.field]);
  const xNumbers = numericX ? (xValues as number[]) : [];
  const xTicks = numericX ? ticks(Math.min(...xNumbers), Math.max(...xNumbers)) : [];
  const band = plotWidth / rows.length;
  const xAt = (index: number): number => {
    if (!numericX) return LEFT + band * index + band / 2;
    const min = xTicks[0] ?? 0;
    const max = xTicks.at(-1) ?? 1;
    return LEFT + (((xNumbers[index] ?? 0) - min) / (max - min || 1)) * plotWidth;
  };

  const id = `tt-chart-${++chartCount}`;
  const title = spec.title || `${y.title ?? y.field} by ${x.title ?? x.field}`;
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-labelledby': `${id}-t ${id}-d`,
    class: `chart chart-${kind}`,
    'data-kind': kind,
  });
  root.append(svg('title', { id: `${id}-t` }, title), svg('desc', { id: `${id}-d` }, spec.description ?? ''));

  // Axes: y ticks with grid lines, x labels, and both titles.
  const axes = svg('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const tick of yTicks) {
    const at = yAt(tick);
    axes.append(
      svg('line', { x1: LEFT, x2: WIDTH - RIGHT, y1: at, y2: at, class: 'grid' }),
      svg('text', { x: LEFT - 4, y: at + 3, 'text-anchor': 'end' }, cellText(tick)),
    );
  }
  const labelled = numericX
    ? xTicks.map(
        (tick) =>
          [
            LEFT + ((tick - (xTicks[0] ?? 0)) / ((xTicks.at(-1) ?? 1) - (xTicks[0] ?? 0) || 1)) * plotWidth,
            cellText(tick),
          ] as const,
      )
    : rows
        .map((row, index) => [index, String(row[x.field] ?? '')] as const)
        .filter(([index]) => rows.length <= 8 || index % Math.ceil(rows.length / 6) === 0)
        .map(([index, text]) => [xAt(index), short(text)] as const);
  for (const [at, text] of labelled) {
    axes.append(svg('text', { x: at, y: TOP + plotHeight + 13, 'text-anchor': 'middle' }, text));
  }
  axes.append(
    svg('line', {
      x1: LEFT,
      x2: WIDTH - RIGHT,
      y1: yAt(Math.max(0, yMin)),
      y2: yAt(Math.max(0, yMin)),
      class: 'base',
    }),
    svg(
      'text',
      { x: LEFT + plotWidth / 2, y: HEIGHT - 4, 'text-anchor': 'middle', class: 'title' },
      x.title ?? x.field,
    ),
    svg(
      'text',
      {
        x: 10,
        y: TOP + plotHeight / 2,
        'text-anchor': 'middle',
        class: 'title',
        transform: `rotate(-90 10 ${TOP + plotHeight / 2})`,
      },
      y.title ?? y.field,
    ),
  );
  root.append(axes);

  // Marks, each with its value as a tooltip.
  const marks = svg('g', { class: 'marks' });
  const tip = (row: Record<string, unknown>) => `${cellText(row[x.field])}: ${cellText(row[y.field])}`;
  if (kind === 'line') {
    const points = rows.map(
      (row, index) => `${xAt(index).toFixed(1)},${yAt(row[y.field] as number).toFixed(1)}`,
    );
    marks.append(svg('polyline', { points: points.join(' '), class: 'line' }));
  }
  rows.forEach((row, index) => {
    const value = row[y.field] as number;
    const mark =
      kind === 'bar'
        ? svg('rect', {
            x: xAt(index) - band * 0.4,
            width: band * 0.8,
            y: Math.min(yAt(value), yAt(Math.max(0, yMin))),
            height: Math.abs(yAt(Math.max(0, yMin)) - yAt(value)),
            class: 'bar',
          })
        : svg('circle', { cx: xAt(index), cy: yAt(value), r: kind === 'line' ? 3 : 4, class: 'point' });
    mark.append(svg('title', {}, tip(row)));
    marks.append(mark);
  });
  root.append(marks);

  const figure = document.createElement('figure');
  figure.className = 'chart-figure';
  figure.append(root);
  return figure;
};
