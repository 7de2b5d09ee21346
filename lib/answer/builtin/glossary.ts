// The glossary as the builtin engine reads it (lib/answer/glossary.ts holds the format and the
// check made when it is saved): synonyms become phrases of the schema index at the rank of a
// relation's or column's own name; metrics of the form SUM(t.c) or SUM(t.a * t.b) become named
// measures ("revenue" then means the operator's definition); filters of the forms `t.c`,
// `NOT t.c`, `t.c = 'v'`, `t.c IN ('v', …)` and `t.c <op> n` become named conditions. Any other
// SQL over the columns of one relation is read by glossary-sql.ts (AVG, COUNT(DISTINCT …), two
// columns compared, IS NULL, AND/OR…); what is not a pure expression of one relation is left to
// the model engines, which get the glossary whole in their prompt.
import type { Catalog } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { definitionKey, type GlossaryDefinition } from './glossary-expr.ts';
import { readDefinition } from './glossary-sql.ts';
import { definedFilter, definedMeasure } from './glossary-use.ts';
import type { ColumnRef, Filter, Measure } from './intent.ts';
import { singular } from './words.ts';

export interface GlossaryIndex {
  /** Phrase words → a relation key or a column. */
  synonyms: { words: string[]; table: string; column?: string }[];
  /** Phrase words → the measure summed. */
  metrics: { words: string[]; name: string; measure: Measure }[];
  /** Phrase words → the condition it names. */
  filters: { words: string[]; name: string; filter: Filter }[];
  /** The metrics and filters of other SQL, by `metric:<term>` and `filter:<term>`. */
  definitions: Map<string, GlossaryDefinition>;
}

const words = (term: string): string[] =>
  term
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);

/**
 * A phrase of several words as it may be said with a verb's other forms: "needs reorder" also as
 * "need reordering", "needs reordered" (a word alone keeps its form: "open" is not "opened").
 */
const sayings = (term: string): string[][] => {
  const split = words(term);
  if (split.length < 2 || split.length > 3) return [split];
  const forms = (word: string): string[] => {
    if (word.length < 4 || /(ing|ed)$/.test(word)) return [word];
    const stem = singular(word).replace(/e$/, '');
    return [...new Set([word, `${stem}ing`, `${stem}ed`])];
  };
  return split.reduce<string[][]>(
    (phrases, word) => phrases.flatMap((phrase) => forms(word).map((form) => [...phrase, form])),
    [[]],
  );
};

/** Resolves `table.column` or `schema.table.column` against the catalog. */
const columnRef = (catalog: Catalog, text: string): ColumnRef | undefined => {
  const parts = text.split('.');
  if (parts.length < 2 || parts.length > 3) return undefined;
  const column = parts[parts.length - 1]!;
  const table = parts.length === 3 ? `${parts[0]}.${parts[1]}` : parts[0]!;
  const relation = catalog.relations.find(
    (candidate) =>
      (parts.length === 3 ? `${candidate.schema}.${candidate.name}` === table : candidate.name === table) &&
      candidate.columns.some((other) => other.name === column),
  );
  return relation ? { table: `${relation.schema}.${relation.name}`, column } : undefined;
};

const relationKeyOf = (catalog: Catalog, text: string): string | undefined => {
  const relation = catalog.relations.find(
    (candidate) => candidate.name === text || `${candidate.schema}.${candidate.name}` === text,
  );
  return relation ? `${relation.schema}.${relation.name}` : undefined;
};

const IDENT = String.raw`[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*){1,2}`;

const measureOf = (catalog: Catalog, sql: string): Measure | undefined => {
  const sum = new RegExp(String.raw`^\s*sum\s*\(\s*(${IDENT})\s*(?:\*\s*(${IDENT})\s*)?\)\s*$`, 'i').exec(
    sql,
  );
  if (!sum) return undefined;
  const left = columnRef(catalog, sum[1]!);
  if (!left) return undefined;
  if (!sum[2]) return { kind: 'column', ref: left };
  const right = columnRef(catalog, sum[2]);
  return right && right.table === left.table ? { kind: 'product', left, right } : undefined;
};

const literalValue = (text: string): string | number | undefined => {
  const trimmed = text.trim();
  if (/^'(?:[^']|'')*'$/.test(trimmed)) return trimmed.slice(1, -1).replaceAll("''", "'");
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return undefined;
};

const filterOf = (catalog: Catalog, sql: string, name: string): Filter | undefined => {
  const text = sql.trim();
  const flag = new RegExp(String.raw`^(not\s+)?(${IDENT})$`, 'i').exec(text);
  if (flag) {
    const ref = columnRef(catalog, flag[2]!);
    return ref ? { kind: 'in', ref, values: [!flag[1]], negated: false } : undefined;
  }
  const isFlag = new RegExp(String.raw`^(${IDENT})\s*(=|is)\s*(true|false)$`, 'i').exec(text);
  if (isFlag) {
    const ref = columnRef(catalog, isFlag[1]!);
    return ref
      ? { kind: 'in', ref, values: [isFlag[3]!.toLowerCase() === 'true'], negated: false }
      : undefined;
  }
  const compare = new RegExp(String.raw`^(${IDENT})\s*(=|<>|!=|>=|<=|>|<)\s*(.+)$`, 'i').exec(text);
  if (compare) {
    const ref = columnRef(catalog, compare[1]!);
    const value = literalValue(compare[3]!);
    if (!ref || value === undefined) return undefined;
    const op = compare[2]!;
    if (op === '=' || op === '<>' || op === '!=')
      return { kind: 'in', ref, values: [value], negated: op !== '=' };
    return typeof value === 'number'
      ? { kind: 'compare', ref, op: op as '>' | '>=' | '<' | '<=', value }
      : undefined;
  }
  const list = new RegExp(String.raw`^(${IDENT})\s+(not\s+)?in\s*\((.+)\)$`, 'i').exec(text);
  if (list) {
    const ref = columnRef(catalog, list[1]!);
    const values = list[3]!.split(',').map(literalValue);
    if (!ref || values.some((value) => value === undefined) || values.length > 20) return undefined;
    return { kind: 'in', ref, values: values as (string | number)[], negated: list[2] !== undefined };
  }
  void name;
  return undefined;
};

/** What the builtin engine can use of a glossary (the rest is left to the model engines). */
export const glossaryIndex = (
  catalog: Catalog,
  glossary: Glossary | undefined,
  tenantColumn?: string,
): GlossaryIndex => {
  const index: GlossaryIndex = { synonyms: [], metrics: [], filters: [], definitions: new Map() };
  /** Any other SQL: a definition over one relation, printable in the database's dialect. */
  const defined = (kind: 'metric' | 'filter', term: string, sql: string) => {
    const definition = readDefinition(catalog, kind, term.toLowerCase(), sql, tenantColumn);
    if ('rejected' in definition || !definition.dialects.includes(catalog.dialect)) return undefined;
    index.definitions.set(definitionKey(kind, definition.term), definition);
    return definition;
  };
  if (!glossary) return index;
  for (const [term, target] of Object.entries(glossary.synonyms)) {
    const table = relationKeyOf(catalog, target);
    if (table) {
      index.synonyms.push({ words: words(term), table });
      continue;
    }
    const ref = columnRef(catalog, target);
    if (ref) index.synonyms.push({ words: words(term), table: ref.table, column: ref.column });
  }
  for (const [term, sql] of Object.entries(glossary.metrics)) {
    const simple = measureOf(catalog, sql);
    const definition = simple ? undefined : defined('metric', term, sql);
    const measure = simple ?? definition?.duration ?? (definition ? definedMeasure(definition) : undefined);
    if (measure)
      for (const said of sayings(term))
        index.metrics.push({ words: said, name: term.toLowerCase(), measure });
  }
  for (const [term, sql] of Object.entries(glossary.filters)) {
    const simple = filterOf(catalog, sql, term);
    const definition = simple ? undefined : defined('filter', term, sql);
    const filter = simple ?? (definition ? definedFilter(definition) : undefined);
    if (filter)
      for (const said of sayings(term)) index.filters.push({ words: said, name: term.toLowerCase(), filter });
  }
  return index;
};
