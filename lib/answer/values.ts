// The value lookup at answer time (docs/design.md "Answering on unseen databases", "Values the
// question names"). Names of a tenant's customers, products or places are never in the shared
// index (a value seen under one tenant only is never sampled, lib/connectors/introspect.ts), so an
// engine that meets "loads for meridian pharma" asks the orchestrator (`EngineInput.findValues`)
// whether any of a few text columns holds that phrase. This module writes that ONE probe query and
// reads its rows; the caller runs it exactly as it runs an answer's query: through the SQL guard
// of the database's dialect as the caller (tenant and scope filters added by the guard, a row
// cap), with the statement timeout of answers. So the probe only ever sees the caller's rows, and
// a phrase that exists under another tenant finds nothing, as a phrase that exists nowhere.
//
// The phrases come from the question, so they are printed as SQL string literals; only phrases of
// letters, digits, spaces and a few name characters (' & . - /) are accepted, quotes doubled: no
// backslash (MySQL reads it as an escape) and no LIKE wildcard ever reaches the text, and the
// guard parses and reprints the whole query before anything runs.
import type { Catalog, DialectName } from '#lib/core/catalog.ts';
import { dialectNamed } from '#lib/dialects/index.ts';
import { type GuardOutcome, MAX_SQL_LENGTH } from '#lib/sql/types.ts';
import type { FoundValue, ValueProbe } from './engine.ts';

/** Limits of one probe: phrases, columns, rows read back. */
export const MAX_PROBE_PHRASES = 8;
export const MAX_PROBE_COLUMNS = 24;
export const PROBE_ROW_CAP = 24;
const MAX_PHRASE_LENGTH = 80;

/** A phrase the probe may print as a literal. */
const SAFE_PHRASE = /^[\p{L}\p{N}](?:[\p{L}\p{N} '&./-]*[\p{L}\p{N}.])?$/u;

/** Case- and accent-insensitive form of a text: "Zürich" → "zurich", runs of spaces as one. */
export const foldValue = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Accented letters and their plain form, for PostgreSQL's translate() (it has no accent folding
 * without the unaccent extension); MySQL's default collations compare accent-insensitively.
 */
const ACCENTED = [
  ...'àáâãäåāăąçćĉċčďèéêëēĕėęěĝğġģĥìíîïĩīĭįĵķĺļľñńņňòóôõöōŏőŕŗřśŝşšţťùúûüũūŭůűųŵýÿŷźżž',
].filter((letter) => foldValue(letter).length === 1);
const PLAIN = ACCENTED.map(foldValue).join('');

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

const identifier = (dialect: DialectName, name: string): string => dialectNamed(dialect).quote(name);

/** The column's text, lower-cased (and without accents where the dialect can say it). */
const folded = (dialect: DialectName, column: string): string => {
  const { text } = dialectNamed(dialect);
  return text.folded(text.asText(column), literal(ACCENTED.join('')), literal(PLAIN));
};

/** The probe's phrases, folded, deduplicated, and only those it may print. */
const printablePhrases = (probe: ValueProbe): string[] =>
  [...new Set(probe.phrases.map(foldValue))]
    .filter((phrase) => phrase.length > 0 && phrase.length <= MAX_PHRASE_LENGTH && SAFE_PHRASE.test(phrase))
    .slice(0, MAX_PROBE_PHRASES);

/** The probe's columns that are text columns of `catalog`, at most MAX_PROBE_COLUMNS. */
const probeColumns = (catalog: Catalog, probe: ValueProbe): ValueProbe['columns'] =>
  probe.columns
    .filter((wanted) =>
      catalog.relations.some(
        (relation) =>
          relation.schema === wanted.schema &&
          relation.name === wanted.relation &&
          relation.columns.some((column) => column.name === wanted.column && column.kind === 'text'),
      ),
    )
    .slice(0, MAX_PROBE_COLUMNS);

export interface ProbeQuery {
  sql: string;
  phrases: string[];
  columns: ValueProbe['columns'];
}

/**
 * The one query that looks the phrases up: per column, its values equal to a phrase, or starting
 * with one followed by a space ("meridian pharma" → "Meridian Pharma Ltd"), exact ones first.
 * Undefined when nothing is left to look up.
 */
export const probeQuery = (
  dialect: DialectName,
  catalog: Catalog,
  probe: ValueProbe,
): ProbeQuery | undefined => {
  const phrases = printablePhrases(probe);
  const columns = probeColumns(catalog, probe);
  if (phrases.length === 0 || columns.length === 0) return undefined;
  const exactList = phrases.map(literal).join(', ');
  const branches = columns.map((wanted, index) => {
    const column = identifier(dialect, wanted.column);
    const cast = dialectNamed(dialect).text.asText(column);
    const prefixes = phrases.map((phrase) => `probe_folded LIKE ${literal(`${phrase} %`)}`);
    // The folded text is computed once per row, in a derived table, and compared there.
    return (
      `SELECT ${index} AS probe_column, probe_value, ` +
      `CASE WHEN probe_folded IN (${exactList}) THEN 0 ELSE 1 END AS probe_rank ` +
      `FROM (SELECT ${cast} AS probe_value, ${folded(dialect, column)} AS probe_folded ` +
      `FROM ${identifier(dialect, wanted.schema)}.${identifier(dialect, wanted.relation)}) AS probe_${index} ` +
      `WHERE probe_folded IN (${exactList}) OR ${prefixes.join(' OR ')}`
    );
  });
  // Within the guard's length limit: the columns asked for first are kept, the rest left out.
  let kept = branches.length;
  const sqlOf = (count: number) =>
    `${branches.slice(0, count).join(' UNION ')} ORDER BY probe_rank, probe_column`;
  while (kept > 1 && sqlOf(kept).length > MAX_SQL_LENGTH) kept -= 1;
  if (sqlOf(kept).length > MAX_SQL_LENGTH) return undefined;
  return { sql: sqlOf(kept), phrases, columns: columns.slice(0, kept) };
};

/**
 * What the probe's rows say: for each phrase, the values that equal it (`exact`) or start with it.
 * Prefix matches are kept only when the rows were not cut at the cap (`truncated`), since a
 * prefix match is used only when it is the only one.
 */
export const foundValues = (
  query: ProbeQuery,
  rows: readonly Record<string, unknown>[],
  truncated: boolean,
): FoundValue[] => {
  const found: FoundValue[] = [];
  for (const row of rows) {
    const column = query.columns[Number(row.probe_column)];
    const value = row.probe_value;
    if (!column || typeof value !== 'string') continue;
    const text = foldValue(value);
    for (const phrase of query.phrases) {
      const exact = text === phrase;
      if (!exact && (truncated || !text.startsWith(`${phrase} `))) continue;
      found.push({ phrase, ...column, value, exact });
    }
  }
  return found;
};

/** How a probe runs: the guard of the database's dialect as the asker, then the database. */
export interface ProbeRunner {
  dialect: DialectName;
  /** The catalog the engine was shown: only its text columns are looked in. */
  visible: Catalog;
  /** Guards the probe for the asker (tenant and scope filters, the row cap). */
  guard: (sql: string, rowCap: number) => Promise<GuardOutcome>;
  /** Runs what the guard printed, with its parameters, within the limits of answers. */
  run: (sql: string, params: readonly unknown[]) => Promise<readonly Record<string, unknown>[]>;
}

/**
 * Looks a probe up: one query, guarded and run as the asker. Nothing found when there is nothing
 * to look up or the guard refuses; a failing query fails the lookup (the caller decides).
 */
export const lookUpValues = async (runner: ProbeRunner, probe: ValueProbe): Promise<FoundValue[]> => {
  const query = probeQuery(runner.dialect, runner.visible, probe);
  if (!query) return [];
  const guarded = await runner.guard(query.sql, PROBE_ROW_CAP);
  if (!guarded.allowed) return [];
  const rows = await runner.run(guarded.sql, guarded.params);
  return foundValues(query, rows.slice(0, PROBE_ROW_CAP), rows.length > PROBE_ROW_CAP);
};
