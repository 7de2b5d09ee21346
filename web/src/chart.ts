// An answer's `chart` (a Vega-Lite v5 spec chosen by the service's rules: line, bar or point, two
// fields, values inline) drawn as a small accessible SVG: a title and a description in words for
// screen readers, labelled axes, one mark per value, and colours from the widget's theme (so the
// dark scheme follows). No charting library: these three kinds only. The rows stay available as
// a table under the chart.
//
// Layout is measured, not fixed: the left margin is the widest y tick label plus the rotated
// axis title; x labels that do not fit their band are turned 45° (and thinned when even that
// would overlap), the bottom margin grows to hold them; long labels are shortened on the axis and
// shown in full in a tooltip when a mark is hovered or focused (one tab stop for the chart, arrow
// keys between marks), and in each mark's accessible name.
import type { ChartSpec } from './chart-spec.ts';
import { cellText, numberText } from './table.ts';

const SVG = 'http://www.w3.org/2000/svg';
/** The drawing's width in SVG units; it scales to the width it is given. */
const WIDTH = 320;
const PLOT_HEIGHT = 140;
const TOP = 10;
const PAD = 4;
const TICK_SIZE = 9;
const TITLE_SIZE = 10;
/** Axis titles are set in this weight (styles.ts `.chart .title`). */
const TITLE_WEIGHT = 600;
/** From the plot's bottom edge to the top of the x labels: clear of the lowest y tick label. */
const LABEL_GAP = 8;
/** The line height of a label, in SVG units, for its box. */
const LINE = 1.25;
/** Longest axis label, in characters, before it is shortened (its full text is in the tooltip). */
const MAX_LABEL = 18;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

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

let context: CanvasRenderingContext2D | null | undefined;
/** The width of `text` at `size` in the widget's font, in SVG units (measured on a canvas). */
export const textWidth = (text: string, size: number, weight = 400): number => {
  if (context === undefined) context = document.createElement('canvas').getContext('2d');
  if (!context) return text.length * size * (weight > 400 ? 0.68 : 0.62);
  context.font = `${weight} ${size}px ${FONT}`;
  // A little over the canvas's figure: SVG text may round glyph advances up.
  return context.measureText(text).width * 1.04;
};

/** Shortened to `limit` characters and to `width` units, with an ellipsis. */
const fitted = (
  text: string,
  size: number,
  width = Number.POSITIVE_INFINITY,
  limit = MAX_LABEL,
  weight = 400,
): string => {
  let shown = text.length > limit ? `${text.slice(0, limit - 1).trimEnd()}…` : text;
  while (shown.length > 1 && textWidth(shown, size, weight) > width)
    shown = `${shown.slice(0, -2).trimEnd()}…`;
  return shown;
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

/** Tick labels: as the text writes numbers, or compact (1.2M) when those would be wide. */
const tickLabels = (values: readonly number[]): string[] => {
  const full = values.map(numberText);
  if (Math.max(...full.map((label) => textWidth(label, TICK_SIZE))) <= 56) return full;
  const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
  return values.map((value) => compact.format(value));
};

/** Every `step`-th of `count` indexes, so that labels `gap` apart do not touch. */
const everyNth = (count: number, step: number): number[] =>
  Array.from({ length: count }, (_, index) => index).filter((index) => index % step === 0);

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
  const xTitleText = x.title ?? x.field;
  const yTitleText = y.title ?? y.field;
  const labelOf = (row: Record<string, unknown>): string =>
    numericX ? numberText(row[x.field] as number) : cellText(row[x.field], x.field);

  // ---- y axis: ticks and their measured labels set the left margin ----------------------------
  const yValues = rows.map((row) => row[y.field] as number);
  const yTicks = ticks(Math.min(0, ...yValues), Math.max(0, ...yValues));
  const yLabels = tickLabels(yTicks);
  const yLabelWidth = Math.max(...yLabels.map((label) => textWidth(label, TICK_SIZE)));
  const titleBand = TITLE_SIZE * LINE;
  let left = Math.ceil(PAD + titleBand + PAD + yLabelWidth + PAD);

  // ---- x axis: labels horizontal when they fit their band, else turned 45° and thinned --------
  const xTicks = numericX
    ? ticks(
        Math.min(...(rows.map((row) => row[x.field]) as number[])),
        Math.max(...(rows.map((row) => row[x.field]) as number[])),
      )
    : [];
  const categories = numericX ? [] : rows.map((row) => fitted(labelOf(row), TICK_SIZE));
  const xTexts = numericX ? tickLabels(xTicks) : categories;
  const xWidths = xTexts.map((text) => textWidth(text, TICK_SIZE));
  const widest = Math.max(0, ...xWidths);
  const lineHeight = TICK_SIZE * LINE;
  // The right margin leaves room for half of the last horizontal label.
  let right = Math.max(PAD * 2, Math.ceil((xWidths.at(-1) ?? 0) / 2) + 2);
  let plotWidth = WIDTH - left - right;
  const slots = numericX ? Math.max(1, xTicks.length - 1) : rows.length;
  const band = plotWidth / (numericX ? slots : rows.length);
  // Horizontal: each label within its band (with a gap), thinning line charts' many points.
  let rotated = false;
  let step = 1;
  if (numericX || kind === 'line') {
    while (step < xTexts.length && widest + 6 > band * step) step += 1;
  } else if (widest + 6 > band) {
    rotated = true;
    // Turned labels are a line height apart along the axis: thin until they are.
    while (step < xTexts.length && (lineHeight + 2) / Math.SQRT1_2 > band * step) step += 1;
  }
  if (rotated) {
    // The first turned label reaches left of its bar by its width × cos 45°.
    const reach = (xWidths[0] ?? 0) * Math.SQRT1_2 + lineHeight * Math.SQRT1_2 - band / 2;
    left = Math.max(left, Math.ceil(reach + PAD));
    right = PAD * 2;
    plotWidth = WIDTH - left - right;
  } else {
    // The first horizontal label must not reach left of the drawing.
    left = Math.max(left, Math.ceil((xWidths[0] ?? 0) / 2 - (numericX ? 0 : band / 2) + PAD));
    plotWidth = WIDTH - left - right;
  }
  const xBand = plotWidth / (numericX ? 1 : rows.length);
  const labelDepth = rotated ? (widest + lineHeight) * Math.SQRT1_2 : lineHeight;
  const bottom = Math.ceil(LABEL_GAP + labelDepth + PAD + TITLE_SIZE * LINE + PAD);
  const height = TOP + PLOT_HEIGHT + bottom;

  const yMin = yTicks[0] ?? 0;
  const yMax = yTicks.at(-1) ?? 1;
  const yAt = (value: number) => TOP + PLOT_HEIGHT - ((value - yMin) / (yMax - yMin || 1)) * PLOT_HEIGHT;
  const xMin = xTicks[0] ?? 0;
  const xMax = xTicks.at(-1) ?? 1;
  const xAt = (index: number): number => {
    if (!numericX) return left + xBand * index + xBand / 2;
    return left + (((rows[index]?.[x.field] as number) - xMin) / (xMax - xMin || 1)) * plotWidth;
  };

  const id = `tt-chart-${++chartCount}`;
  const title = spec.title || `${yTitleText} by ${xTitleText}`;
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: 'img',
    'aria-labelledby': `${id}-t ${id}-d`,
    class: `chart chart-${kind}`,
    'data-kind': kind,
  });
  root.append(svg('title', { id: `${id}-t` }, title), svg('desc', { id: `${id}-d` }, spec.description ?? ''));

  // ---- axes ----------------------------------------------------------------------------------
  const axes = svg('g', { class: 'axis', 'aria-hidden': 'true' });
  yTicks.forEach((tick, index) => {
    const at = yAt(tick);
    axes.append(
      svg('line', { x1: left, x2: WIDTH - right, y1: at, y2: at, class: 'grid' }),
      svg(
        'text',
        { x: left - PAD, y: at + TICK_SIZE * 0.35, 'text-anchor': 'end', class: 'tick y' },
        yLabels[index],
      ),
    );
  });
  const labelTop = TOP + PLOT_HEIGHT + LABEL_GAP;
  const shown = everyNth(xTexts.length, step);
  for (const index of shown) {
    const at = numericX ? left + ((xTicks[index]! - xMin) / (xMax - xMin || 1)) * plotWidth : xAt(index);
    const text = xTexts[index] ?? '';
    const label = rotated
      ? svg(
          'text',
          {
            x: at,
            y: labelTop + TICK_SIZE * 0.8,
            'text-anchor': 'end',
            transform: `rotate(-45 ${at} ${labelTop + TICK_SIZE * 0.8})`,
            class: 'tick x',
          },
          text,
        )
      : svg('text', { x: at, y: labelTop + TICK_SIZE * 0.8, 'text-anchor': 'middle', class: 'tick x' }, text);
    const full = numericX ? text : labelOf(rows[index] ?? {});
    if (full !== text) label.append(svg('title', {}, full));
    axes.append(label);
  }
  const base = yAt(Math.max(0, yMin));
  const yTitleAt = TOP + PLOT_HEIGHT / 2;
  const yTitleX = PAD + TITLE_SIZE * 0.85;
  const xTitleAt = left + plotWidth / 2;
  axes.append(
    svg('line', { x1: left, x2: WIDTH - right, y1: base, y2: base, class: 'base' }),
    svg(
      'text',
      { x: xTitleAt, y: height - PAD, 'text-anchor': 'middle', class: 'title x' },
      fitted(xTitleText, TITLE_SIZE, 2 * Math.min(xTitleAt - PAD, WIDTH - PAD - xTitleAt), 80, TITLE_WEIGHT),
    ),
    svg(
      'text',
      {
        x: yTitleX,
        y: yTitleAt,
        'text-anchor': 'middle',
        class: 'title y',
        transform: `rotate(-90 ${yTitleX} ${yTitleAt})`,
      },
      fitted(yTitleText, TITLE_SIZE, PLOT_HEIGHT, 80, TITLE_WEIGHT),
    ),
  );
  root.append(axes);

  // ---- marks: one tab stop for the chart, arrow keys between marks ----------------------------
  const marks = svg('g', { class: 'marks', role: 'list' });
  const describe = (row: Record<string, unknown>) =>
    `${xTitleText} ${labelOf(row)}: ${yTitleText} ${numberText(row[y.field] as number)}`;
  if (kind === 'line') {
    const points = rows.map(
      (row, index) => `${xAt(index).toFixed(1)},${yAt(row[y.field] as number).toFixed(1)}`,
    );
    marks.append(svg('polyline', { points: points.join(' '), class: 'line', 'aria-hidden': 'true' }));
  }
  const markNodes = rows.map((row, index) => {
    const value = row[y.field] as number;
    const mark =
      kind === 'bar'
        ? svg('rect', {
            x: xAt(index) - xBand * 0.4,
            width: xBand * 0.8,
            y: Math.min(yAt(value), base),
            height: Math.max(1, Math.abs(base - yAt(value))),
            class: 'bar',
          })
        : svg('circle', { cx: xAt(index), cy: yAt(value), r: kind === 'line' ? 3 : 4, class: 'point' });
    mark.setAttribute('role', 'listitem');
    mark.setAttribute('aria-label', describe(row));
    mark.setAttribute('tabindex', index === 0 ? '0' : '-1');
    mark.classList.add('mark');
    mark.append(svg('title', {}, describe(row)));
    marks.append(mark);
    return mark;
  });
  root.append(marks);

  const figure = document.createElement('figure');
  figure.className = 'chart-figure';
  const tooltip = document.createElement('div');
  tooltip.className = 'chart-tip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.id = `${id}-tip`;
  tooltip.hidden = true;
  figure.append(root, tooltip);

  // The full label and value beside the mark under the pointer or with focus.
  const show = (index: number): void => {
    const row = rows[index];
    const mark = markNodes[index];
    if (!row || !mark) return;
    tooltip.replaceChildren();
    const name = document.createElement('strong');
    name.textContent = labelOf(row);
    tooltip.append(name, document.createTextNode(` ${yTitleText}: ${numberText(row[y.field] as number)}`));
    tooltip.hidden = false;
    const box = mark.getBoundingClientRect();
    const frame = figure.getBoundingClientRect();
    const tip = tooltip.getBoundingClientRect();
    const centre = box.left + box.width / 2 - frame.left;
    tooltip.style.left = `${Math.max(0, Math.min(frame.width - tip.width, centre - tip.width / 2))}px`;
    tooltip.style.top = `${Math.max(0, box.top - frame.top - tip.height - 6)}px`;
    for (const other of markNodes) other.removeAttribute('aria-describedby');
    mark.setAttribute('aria-describedby', tooltip.id);
  };
  const hide = (): void => {
    tooltip.hidden = true;
  };
  markNodes.forEach((mark, index) => {
    mark.addEventListener('pointerenter', () => show(index));
    mark.addEventListener('pointerleave', hide);
    mark.addEventListener('focus', () => show(index));
    mark.addEventListener('blur', hide);
    mark.addEventListener('keydown', (event) => {
      const keys: Record<string, number> = {
        ArrowRight: index + 1,
        ArrowDown: index + 1,
        ArrowLeft: index - 1,
        ArrowUp: index - 1,
        Home: 0,
        End: markNodes.length - 1,
      };
      const next = keys[(event as KeyboardEvent).key];
      if (next === undefined) return;
      event.preventDefault();
      const target = markNodes[Math.max(0, Math.min(markNodes.length - 1, next))];
      if (!target) return;
      for (const other of markNodes) other.setAttribute('tabindex', other === target ? '0' : '-1');
      target.focus();
    });
  });
  return figure;
};
