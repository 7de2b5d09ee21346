// Result rows as a readable table: one column per key, numbers right-aligned with tabular
// figures, a scrollable (and keyboard-scrollable) box for long or wide tables, at most 100 rows
// with the count said in words. Values are set as text, never parsed as HTML.
import type { Row } from './api.ts';

export const MAX_ROWS = 100;

const NUMERIC = /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i;

export const isNumeric = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'bigint' ||
  (typeof value === 'string' && NUMERIC.test(value.trim()));

export const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 4 });
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

const heading = (column: string): string => column.replace(/_/g, ' ');

/** "3 rows", "100 rows (more were found; showing the first 100)". */
export const countText = (shown: number, total: number, truncated: boolean): string => {
  const rows = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;
  if (truncated) return `${rows(shown)} shown; the answer had more.`;
  if (total > shown) return `${rows(shown)} shown of ${total.toLocaleString()}.`;
  return rows(shown);
};

/** One row of one column is a single value, which the answer's text already says: no table for it. */
export const needsTable = (rows: readonly Row[]): boolean => rows.length > 1 || columnsOf(rows).length > 1;

export const renderTable = (rows: readonly Row[], truncated = false): HTMLElement => {
  const shown = rows.slice(0, MAX_ROWS);
  const columns = columnsOf(shown);
  const numericColumn = columns.map((column) =>
    shown.every((row) => row[column] === null || row[column] === undefined || isNumeric(row[column])),
  );
  const figure = document.createElement('figure');
  figure.className = 'results';
  const count = countText(shown.length, rows.length, truncated);

  const scroller = document.createElement('div');
  scroller.className = 'scroller';
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', `Results table, ${count}`);

  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  columns.forEach((column, index) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = heading(column);
    if (numericColumn[index]) th.className = 'num';
    head.append(th);
  });
  const body = table.createTBody();
  for (const row of shown) {
    const tr = body.insertRow();
    columns.forEach((column, index) => {
      const td = tr.insertCell();
      td.textContent = cellText(row[column]);
      if (numericColumn[index]) td.className = 'num';
    });
  }
  scroller.append(table);

  const caption = document.createElement('figcaption');
  caption.className = 'count';
  caption.textContent = count;
  figure.append(scroller, caption);
  return figure;
};
