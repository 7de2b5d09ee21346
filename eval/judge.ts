// How an eval answer is judged against its gold SQL (eval/run.ts, eval/direct.ts): values
// normalised (numbers to 2 decimals, dates to `YYYY-MM-DD[ HH:MM:SS]`), rows compared as
// multisets, each gold column paired with an answer column holding the same values (extra answer
// columns, such as an id beside a name, are fine). The external Defog set writes its gold SQL with
// sql-eval's conventions (../shared/eval/defog/README.md): `{a.x, a.y}` lists alternative columns
// (any non-empty subset is acceptable, and `GROUP BY {}` takes the same subset), and several
// queries separated by `;` are alternative correct answers: `goldQueries` expands both.

const pad = (n: number): string => String(n).padStart(2, '0');
const dateText = (d: Date): string => {
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return time === '00:00:00' ? day : `${day} ${time}`;
};
const NUMERIC = /^-?\d+(\.\d+)?$/;
const DATELIKE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Numbers and numeric strings to a number rounded to 2 decimals; dates and date strings to
 *  `YYYY-MM-DD[ HH:MM:SS]`; everything else to its text. */
export const normalise = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return `n:${Math.round(Number(value) * 100) / 100}`;
  if (typeof value === 'boolean') return `b:${value}`;
  const text = String(value).trim();
  if (NUMERIC.test(text)) return `n:${Math.round(Number(text) * 100) / 100}`;
  if (DATELIKE.test(text)) {
    const withZone = /Z|[+-]\d{2}:?\d{2}$/.test(text.slice(10)) ? text : `${text.replace(' ', 'T')}Z`;
    const parsed = new Date(text.length === 10 ? `${text}T00:00:00Z` : withZone);
    if (!Number.isNaN(parsed.getTime())) return dateText(parsed);
  }
  return text;
};

const tuples = (rows: Record<string, unknown>[]): string[][] =>
  rows.map((row) => Object.values(row).map(normalise));
const sortedColumn = (rows: string[][], index: number): string =>
  JSON.stringify(rows.map((r) => r[index]).sort());
const multiset = (rows: string[][]): string => JSON.stringify(rows.map((r) => JSON.stringify(r)).sort());

/**
 * Rows match as multisets of tuples. Column names are ignored; each gold column is paired with a
 * response column holding the same multiset of values (so column order and extra columns the
 * engine added, such as an id beside a name, do not matter). A single gold value matches a
 * one-row response that holds it.
 */
export const sameRows = (gold: Record<string, unknown>[], got: Record<string, unknown>[]): boolean => {
  const g = tuples(gold);
  const r = tuples(got);
  if (g.length !== r.length) return false;
  if (g.length === 0) return true;
  const goldWidth = g[0]?.length ?? 0;
  if (g.length === 1 && goldWidth === 1) return (r[0] ?? []).includes(g[0]?.[0] ?? '');
  const width = r[0]?.length ?? 0;
  const used = new Set<number>();
  const pick: number[] = [];
  for (let j = 0; j < goldWidth; j++) {
    const want = sortedColumn(g, j);
    let found = -1;
    for (let k = 0; k < width; k++) {
      if (!used.has(k) && sortedColumn(r, k) === want) {
        found = k;
        break;
      }
    }
    if (found < 0) return false;
    used.add(found);
    pick.push(found);
  }
  return multiset(g) === multiset(r.map((row) => pick.map((k) => row[k] ?? 'null')));
};

/** Splits on `;` outside quotes. */
const statements = (sql: string): string[] => {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ';') {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
};

const subsets = <T>(items: readonly T[]): T[][] => {
  const result: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask += 1) {
    result.push(items.filter((_, index) => (mask & (1 << index)) !== 0));
  }
  return result;
};

/** Every concrete gold query of a gold text (alternatives and column subsets expanded). */
export const goldQueries = (gold: string): string[] =>
  statements(gold).flatMap((sql) => {
    const group = /\{([^{}]+)\}/.exec(sql);
    if (!group) return [sql];
    const columns = group[1]!.split(',').map((column) => column.trim());
    return subsets(columns).flatMap((subset) => {
      const list = subset.join(', ');
      const replaced = `${sql.slice(0, group.index)}${list}${sql.slice(group.index + group[0].length)}`;
      return goldQueries(replaced.replaceAll('{}', list));
    });
  });
