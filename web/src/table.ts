// Result rows as a readable table: one column per key (key columns left out when a name beside
// them says which row it is), numbers right-aligned with tabular figures and written as the
// answer's text writes them (numeric strings too, as PostgreSQL sends numerics), a scrollable (and
// keyboard-scrollable) box for long or wide tables, at most 100 rows with the count said in
// words. Values are set as text, never parsed as HTML.
import type { Row } from './api.ts';
import { cellText, isNumeric, shownColumns } from './format.ts';

export const MAX_ROWS = 100;

export { cellText, columnsOf, isNumeric, numberText, shownColumns } from './format.ts';

const heading = (column: string): string => column.replace(/_/g, ' ');

/** "3 rows", "100 rows (more were found; showing the first 100)". */
export const countText = (shown: number, total: number, truncated: boolean): string => {
  const rows = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;
  if (truncated) return `${rows(shown)} shown; the answer had more.`;
  if (total > shown) return `${rows(shown)} shown of ${total.toLocaleString()}.`;
  return rows(shown);
};

/** One row of one column is a single value, which the answer's text already says: no table for it. */
export const needsTable = (rows: readonly Row[]): boolean => rows.length > 1 || shownColumns(rows).length > 1;

export const renderTable = (rows: readonly Row[], truncated = false): HTMLElement => {
  const shown = rows.slice(0, MAX_ROWS);
  const columns = shownColumns(shown);
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
      td.textContent = cellText(row[column], column);
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
