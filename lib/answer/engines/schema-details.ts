// The schema details of the model engines' prompt (docs/model-engines.md "Linking"): which
// relations a question gets detailed, and how (whole, or with its keys, labels and the columns
// the question named), from the evidence of linking.ts within the prompt's token budget; how a
// relation is written (types, keys, meanings, sample values, the named ones first); and which of
// the operator's query patterns are closest to the question. Data (names, values) is written as
// JSON text that cannot open or close a tag (dataText).
import type { Catalog, CatalogRelation } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { linkSchema, relationKey } from './linking.ts';
import { asksPeriod, rowColumnsOf } from './row-columns.ts';
import { countTokens } from './tokens.ts';

/** A relation's or column's description in the schema part, cut to this many characters. */
const MAX_DESCRIPTION_LENGTH = 200;
const MAX_RELATION_DESCRIPTION_LENGTH = 120;
const MAX_SAMPLES = 10;
const MAX_SAMPLE_LENGTH = 60;

/**
 * What of the database may reach the model (docs/model-engines.md "Data egress"): `noValues`
 * leaves every sampled value out (`model_data: schema_only`); `redacted` columns are never named
 * with their values, nor at all.
 */
export interface PromptEgress {
  noValues?: boolean;
  redacted?: (relation: Pick<CatalogRelation, 'schema' | 'name'>, column: string) => boolean;
}

// ---- data as text ------------------------------------------------------------------------------

/**
 * A value as a JSON literal that cannot open or close a tag: a `<` before a letter, `/`, `!` or
 * `?` (and the line separators U+2028/2029) is written as a \u escape, which JSON reads back as
 * the same character. Comparisons in SQL (`a < b`, `<=`, `<>`) stay as written.
 */
export const dataText = (value: unknown): string =>
  (JSON.stringify(value) ?? 'null').replace(
    /<(?=[\p{L}/!?])|[\u2028\u2029]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export const section = (tag: string, body: string, attributes = ''): string =>
  `<${tag}${attributes}>\n${body}\n</${tag}>`;

export const jsonLines = (items: readonly unknown[]): string =>
  items.length === 0 ? '[]' : `[\n${items.map(dataText).join(',\n')}\n]`;

export const cut = (value: string, max: number): string =>
  value.length > max ? `${value.slice(0, max - 1)}…` : value;

/** An identifier as the model should write it: bare when plain, else as a JSON string. */
export const identifier = (name: string): string =>
  /^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) ? name : dataText(name);

export const relationName = (catalog: Catalog, relation: Pick<CatalogRelation, 'schema' | 'name'>): string =>
  relation.schema === catalog.defaultSchema
    ? identifier(relation.name)
    : `${identifier(relation.schema)}.${identifier(relation.name)}`;

// ---- relevance ---------------------------------------------------------------------------------

const STOPWORDS = new Set(
  (
    'a an and are as at be by can could did do does for from give had has have how i in is it its ' +
    'list me my of on or our per please show tell than that the their them there these this those to ' +
    'us was we were what when where which who whose why will with would you your all any each every ' +
    'many much most least more less number count total top get find'
  ).split(' '),
);

const stem = (word: string): string => {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:sses|xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
};

/** The content words of a text, stemmed: `OrderItems` and `order_items` both give order, item. */
export const contentWords = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word))
    .map(stem);

/** Same stem, or one a short extension of the other ("cancel" / "cancelled"). */
const wordsMatch = (a: string, b: string): boolean =>
  a === b ||
  (Math.min(a.length, b.length) >= 4 &&
    Math.abs(a.length - b.length) <= 3 &&
    (a.startsWith(b) || b.startsWith(a)));

/** Relations joined by a foreign key, both ways; keys on the tenant column join everything and are skipped. */
const neighbours = (catalog: Catalog, tenantColumn: string | undefined): Map<string, Set<string>> => {
  const graph = new Map<string, Set<string>>(catalog.relations.map((r) => [relationKey(r), new Set()]));
  for (const relation of catalog.relations) {
    for (const key of relation.foreignKeys) {
      if (tenantColumn !== undefined && key.columns.includes(tenantColumn)) continue;
      const from = relationKey(relation);
      const to = relationKey(key.references);
      if (from === to || !graph.has(to)) continue;
      graph.get(from)?.add(to);
      graph.get(to)?.add(from);
    }
  }
  return graph;
};

export interface SelectOptions {
  maxRelations: number;
  /** Budget of the schema details, in tokens (lib/answer/engines/tokens.ts). */
  schemaTokens: number;
  /** A relation with more columns than this is shown with its linked columns, keys and labels only. */
  wideColumns: number;
  tenantColumn?: string | undefined;
  glossary?: Glossary | undefined;
  /** Earlier questions, a failed query: their words count at half weight. */
  context?: readonly string[];
}

/** A relation chosen for the prompt: the columns to show (all when undefined), values the question named. */
export interface SelectedRelation {
  relation: CatalogRelation;
  columns?: ReadonlySet<string>;
  values: ReadonlyMap<string, readonly string[]>;
}

/** Column names that label a row to a person. */
const LABEL = /(?:^|_)(?:name|title|label|code|email)$/i;

/**
 * The columns a relation keeps when it is not shown whole: keys, labels, what the question
 * named; undefined when that is every column.
 */
const prunedColumns = (
  relation: CatalogRelation,
  linked: ReadonlySet<string>,
  read: ReadonlySet<string>,
  options: SelectOptions,
): ReadonlySet<string> | undefined => {
  const shown = relation.columns.filter((c) => c.name !== options.tenantColumn);
  const keys = new Set([...relation.primaryKey, ...relation.foreignKeys.flatMap((k) => k.columns)]);
  const kept = shown
    .filter((c) => keys.has(c.name) || linked.has(c.name) || read.has(c.name) || LABEL.test(c.name))
    .map((c) => c.name);
  return kept.length < shown.length ? new Set(kept) : undefined;
};

/** The share of the best evidence that makes a relation strong, and of the budget strong relations get whole. */
const STRONG = 0.5;

/** Relations detailed whole at most; more may be detailed with their keys, labels and linked columns. */
const MAX_WHOLE_RELATIONS = 12;

/**
 * The relations worth detailing for a question, in catalog order (docs/model-engines.md
 * "Linking"). A schema whose details fit the caps is shown whole. Otherwise relations are ranked
 * by the evidence of linking.ts (the question's words, at half weight its context's, the
 * relations earlier queries read), lifted by their foreign-key neighbours' (so the join table
 * and the dimension come along). They are taken in that order while they fit the token budget,
 * counted with a tokenizer, first each in its short form (a relation with columns the question
 * named, or a wide one, with those columns, keys and labels; up to `maxRelations`, of which at
 * most 12 whole), so that as many relations with evidence as possible are detailed;
 * then, best first, whole while the budget allows; the strong relations first, then those only
 * holding a value the question names (a value many relations share). With no evidence at all, the best connected
 * relations. Every relation is named in the prompt's summary either way.
 */
export const selectRelations = (
  catalog: Catalog,
  question: string,
  options: SelectOptions,
): SelectedRelation[] => {
  const links = linkSchema(catalog, question, {
    tenantColumn: options.tenantColumn,
    glossary: options.glossary,
    ...(options.context ? { context: options.context } : {}),
  });
  const relations = catalog.relations;
  const whole = relations.map((relation): SelectedRelation => {
    const linked = links.byKey.get(relationKey(relation));
    return { relation, values: linked?.values ?? new Map() };
  });
  const priceOf = (selected: SelectedRelation) =>
    countTokens(renderRelation(catalog, selected.relation, options.tenantColumn, selected));
  const wholeCost = whole.map(priceOf);
  const total = wholeCost.reduce((sum, tokens) => sum + tokens, 0);
  const maxWhole = Math.min(options.maxRelations, MAX_WHOLE_RELATIONS);
  if (relations.length <= maxWhole && total <= options.schemaTokens) return whole;
  // The short form: a wide relation, or one the question named columns of, with those columns,
  // keys and labels.
  // What a row is read by without being named: its labels, its date when the question names a
  // period, its state when the question is about it (row-columns.ts).
  const rows = rowColumnsOf(catalog, options.tenantColumn, options.glossary);
  const period = asksPeriod(question);
  const topScore = Math.max(0, ...[...links.byKey.values()].map((linked) => linked.score));
  const readColumns = (relation: CatalogRelation): ReadonlySet<string> => {
    const row = rows.get(relationKey(relation));
    if (!row) return new Set();
    const linked = links.byKey.get(relationKey(relation));
    const about = (linked?.score ?? 0) >= topScore * STRONG;
    const read = new Set(row.labels);
    // The row's date beside any other the question's words named ("pickups in summer 2025").
    if (period && row.date && linked) read.add(row.date);
    if (about && row.status) read.add(row.status);
    return read;
  };
  const short = whole.map((selected): SelectedRelation => {
    const linked = links.byKey.get(relationKey(selected.relation))?.columns ?? new Set<string>();
    const shown = selected.relation.columns.filter((c) => c.name !== options.tenantColumn).length;
    if (linked.size === 0 && shown <= options.wideColumns) return selected;
    const columns = prunedColumns(selected.relation, linked, readColumns(selected.relation), options);
    return columns ? { ...selected, columns } : selected;
  });
  const shortCost = short.map((selected, index) =>
    selected.columns ? priceOf(selected) : (wholeCost[index] ?? 0),
  );

  const graph = neighbours(catalog, options.tenantColumn);
  // Joins the database does not declare, inferred from names as the builtin engine does.
  for (const [from, to] of links.joins) {
    if (!graph.has(from) || !graph.has(to)) continue;
    graph.get(from)?.add(to);
    graph.get(to)?.add(from);
  }
  const own = (key: string) => links.byKey.get(key)?.score ?? 0;
  const ranked = relations
    .map((relation, index) => {
      const key = relationKey(relation);
      // A neighbour of a linked relation comes along; one that joins two of them (the link
      // table between authors and publications) comes first among neighbours.
      const adjacent = [...(graph.get(key) ?? [])].map(own).sort((a, b) => b - a);
      const lift = 0.4 * (adjacent[0] ?? 0) + 0.4 * (adjacent[1] ?? 0);
      // Evidence of its own and a linked neighbour's agree: a value the question names, held by
      // the relation next to the one it names ("reps … internal locations"), counts once more.
      const agreement = Math.min(own(key), lift);
      return { index, own: own(key), score: own(key) + lift + agreement, degree: graph.get(key)?.size ?? 0 };
    })
    .sort((a, b) => b.score - a.score || b.degree - a.degree || a.index - b.index);
  const best = ranked[0]?.own ?? 0;
  // Evidence far below the best is noise (a prefix of a common word); neighbours still come.
  // A relation holding a value the question names is never noise, however many share the value:
  // it comes after the others, while the budget allows.
  const strong = (c: (typeof ranked)[number]) => c.score >= Math.min(2, best * 0.15);
  const named = (c: (typeof ranked)[number]) =>
    (links.byKey.get(relationKey(relations[c.index]!))?.values.size ?? 0) > 0;
  const candidates =
    best > 0
      ? [...ranked.filter(strong), ...ranked.filter((c) => !strong(c) && named(c))]
      : ranked.slice(0, 3);

  // The strongest relations whole (evidence at least half the best's), then each other strong
  // one in its short form, best first, while it fits, then whole, best first; then the same for
  // the relations that only hold a value the question names.
  const chosen = new Map<number, SelectedRelation>();
  let tokens = 0;
  let wholes = 0;
  for (const candidate of candidates) {
    if (candidate.score < STRONG * (candidates[0]?.score ?? 0) || wholes >= maxWhole) break;
    const price = wholeCost[candidate.index] ?? 0;
    if (tokens + price > options.schemaTokens * STRONG) {
      // Too long whole: its short form now, before weaker relations take the budget whole.
      const shortPrice = shortCost[candidate.index] ?? 0;
      const shortForm = short[candidate.index]!;
      if (shortForm.columns && (tokens + shortPrice <= options.schemaTokens || chosen.size === 0)) {
        chosen.set(candidate.index, shortForm);
        tokens += shortPrice;
      }
      continue;
    }
    chosen.set(candidate.index, whole[candidate.index]!);
    tokens += price;
    wholes++;
  }
  const addShort = (list: typeof candidates) => {
    for (const candidate of list) {
      if (chosen.has(candidate.index)) continue;
      if (chosen.size >= options.maxRelations) break;
      const shortForm = short[candidate.index]!;
      const isWhole = shortForm.columns === undefined;
      if (isWhole && wholes >= maxWhole) continue;
      const price = shortCost[candidate.index] ?? 0;
      if (tokens + price > options.schemaTokens && chosen.size > 0) continue;
      chosen.set(candidate.index, shortForm);
      tokens += price;
      if (isWhole) wholes++;
    }
  };
  const addWhole = (list: typeof candidates) => {
    for (const candidate of list) {
      const shown = chosen.get(candidate.index);
      if (!shown?.columns || wholes >= maxWhole) continue;
      const extra = (wholeCost[candidate.index] ?? 0) - (shortCost[candidate.index] ?? 0);
      if (tokens + extra > options.schemaTokens) continue;
      chosen.set(candidate.index, whole[candidate.index]!);
      tokens += extra;
      wholes++;
    }
  };
  // The strong candidates first (short, then whole), then the relations holding a value the
  // question names whose evidence is weak (the value many relations share), short, then whole.
  const strongOnes = candidates.filter(strong);
  addShort(strongOnes);
  addWhole(strongOnes);
  addShort(candidates);
  addWhole(candidates);
  return relations.flatMap((_, index) => {
    const selected = chosen.get(index);
    return selected ? [selected] : [];
  });
};

// ---- schema ------------------------------------------------------------------------------------

/**
 * One relation: its name, kind, size and what it holds in words, then one line per column (the
 * tenant column left out). Descriptions are schema, not data: they are written under every
 * `model_data`, `schema_only` too; only sampled values depend on it.
 */
export const renderRelation = (
  catalog: Catalog,
  relation: CatalogRelation,
  tenantColumn: string | undefined,
  detail: Pick<SelectedRelation, 'columns' | 'values'> = { values: new Map() },
  egress: PromptEgress = {},
): string => {
  const facts = [relation.kind.replace('_', ' ')];
  if (relation.rowEstimate > 0) facts.push(`~${relation.rowEstimate} rows`);
  const primaryKey = relation.primaryKey.filter((c) => c !== tenantColumn);
  if (primaryKey.length > 0) facts.push(`primary key ${primaryKey.map(identifier).join(', ')}`);
  const keys = relation.foreignKeys.filter(
    (k) => tenantColumn === undefined || !k.columns.includes(tenantColumn),
  );
  let header = `${relationName(catalog, relation)} (${facts.join('; ')})`;
  // What the relation holds, from the database's comment (`COMMENT ON TABLE`, MySQL's table
  // comment): in the whole form only, and shorter, since the budget is better spent on more
  // relations than on more words about the ones shown short.
  if (relation.description && detail.columns === undefined)
    header += `, meaning: ${dataText(cut(relation.description, MAX_RELATION_DESCRIPTION_LENGTH))}`;
  const lines = [header];
  let hidden = 0;
  for (const column of relation.columns) {
    if (column.name === tenantColumn || egress.redacted?.(relation, column.name)) continue;
    if (detail.columns && !detail.columns.has(column.name)) {
      hidden++;
      continue;
    }
    let line = `  ${identifier(column.name)} ${column.nativeType}`;
    const key = keys.find((k) => k.columns.length === 1 && k.columns[0] === column.name);
    if (key)
      line += ` → ${relationName(catalog, key.references)}.${identifier(key.references.columns[0] ?? '')}`;
    // Own entries only: a column may be named `constructor` or `toString`.
    // What the column means, from the database's comment or the operator's descriptions file.
    if (column.description) line += `, meaning: ${dataText(cut(column.description, MAX_DESCRIPTION_LENGTH))}`;
    const sampled = Object.hasOwn(relation.samples, column.name) ? relation.samples[column.name] : undefined;
    // The values the question named first, then the others (never any with schema_only).
    const named = detail.values.get(column.name) ?? [];
    const samples =
      egress.noValues || !sampled
        ? undefined
        : [...named, ...sampled.filter((value) => !named.includes(value))];
    if (samples && samples.length > 0) {
      const shown = samples.slice(0, MAX_SAMPLES).map((value) => dataText(cut(value, MAX_SAMPLE_LENGTH)));
      line += `, values: ${shown.join(', ')}${samples.length > MAX_SAMPLES ? ', …' : ''}`;
    }
    lines.push(line);
  }
  if (hidden > 0) lines.push(`  (${hidden} more columns, named in <relations>)`);
  for (const key of keys.filter((k) => k.columns.length > 1)) {
    lines.push(
      `  (${key.columns.map(identifier).join(', ')}) → ${relationName(catalog, key.references)}(${key.references.columns.map(identifier).join(', ')})`,
    );
  }
  return lines.join('\n');
};

// ---- examples and turns ------------------------------------------------------------------------

export interface Example {
  question: string;
  sql: string;
}

/** The operator's query patterns closest to the question, best first (ties keep their order). */
export const selectExamples = (examples: readonly Example[], question: string, max: number): Example[] => {
  const query = new Set(contentWords(question));
  return examples
    .map((example, index) => {
      const words = new Set(contentWords(example.question));
      let score = 0;
      for (const word of query) if ([...words].some((w) => wordsMatch(w, word))) score++;
      return { example, index, score };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .map(({ example }) => example);
};
