// Step 4 of the builtin pipeline, first half: mentions are decided into items. Is "shipped" a
// value of orders.status or the column orders.shipped_at? A schema or quoted mention becomes a
// relation, a column, a value, a literal, a measure or a glossary condition; a participle beside
// a relation with a status column becomes its status value; plural values stand for the rows
// they name ("dogs"). Words that link to nothing stop the question here, as a clarification.
import { clarify, mainTables, quoted } from './clarify.ts';
import { columnOf } from './lexicon.ts';
import type {
  Clarification,
  ColumnInfo,
  Entry,
  Item,
  Lexicon,
  Mention,
  MentionOf,
  RelationInfo,
} from './types.ts';
import { lexicalDatabase } from './wordnet.ts';
import { joinAnd, pluralText } from './words.ts';

// ---- classification ----------------------------------------------------------------------------

const best = <E extends Entry>(entries: Entry[], kind: E['kind'], rank?: number): E[] =>
  entries.filter(
    (entry): entry is E =>
      entry.kind === kind && (rank === undefined || ('rank' in entry && entry.rank === rank)),
  );

export const classify = (
  lexicon: Lexicon,
  mention: MentionOf<'schema' | 'quoted'>,
  next: Mention | undefined,
  named: ReadonlySet<string>,
): Item[] => {
  const item = classifyOne(lexicon, mention, next, named);
  if (item.kind !== 'column') return [item];
  // "customer country", "order date": the phrase names its relation as well.
  const qualified = mention.entries.filter(
    (entry): entry is Extract<Entry, { kind: 'column' }> =>
      entry.kind === 'column' &&
      item.refs.some((ref) => ref.table === entry.table && ref.column === entry.column),
  );
  const tables = [...new Set(qualified.map((entry) => entry.table))];
  if (tables.length !== 1 || !qualified.every((entry) => entry.qualified)) return [item];
  const relation = lexicon.relations.get(tables[0]!);
  const entity: Item = {
    kind: 'entity',
    tables,
    text: relation?.one ?? mention.text,
    plural: false,
    implied: true,
    at: item.at,
    end: item.at,
  };
  return [entity, item];
};

const classifyOne = (
  lexicon: Lexicon,
  mention: MentionOf<'schema' | 'quoted'>,
  next: Mention | undefined,
  named: ReadonlySet<string>,
): Item => {
  const span = { at: mention.at, end: mention.end };
  const { entries } = mention;
  const values = best<Extract<Entry, { kind: 'value' }>>(entries, 'value');
  if (mention.kind === 'quoted') {
    if (values.length === 0) return { kind: 'literal', text: mention.text, ...span };
  }
  const asEntity = (found: Extract<Entry, { kind: 'relation' }>[]): Item => ({
    kind: 'entity',
    tables: found.map((entry) => entry.table),
    text: mention.text,
    plural: pluralText(mention.text),
    ...span,
  });
  const asColumn = (found: Extract<Entry, { kind: 'column' }>[]): Item => ({
    kind: 'column',
    refs: found.map((entry) => ({ table: entry.table, column: entry.column })),
    text: mention.text,
    ...span,
  });
  const asValue = (): Item => ({
    kind: 'value',
    matches: values.map((entry) => ({
      ref: { table: entry.table, column: entry.column },
      value: entry.value,
    })),
    text: mention.text,
    negated: false,
    ...span,
  });
  if (mention.kind === 'quoted') return asValue();
  const preset = entries.find((entry) => entry.kind === 'preset');
  if (preset) return { kind: 'preset', filter: preset.filter, text: mention.text, ...span };

  const relations3 = best<Extract<Entry, { kind: 'relation' }>>(entries, 'relation', 3);
  if (relations3.length > 0) return asEntity(relations3);
  // "orders shipped in 2025": a word that is both a value and a date column, before a period.
  const temporal = best<Extract<Entry, { kind: 'column' }>>(entries, 'column').filter(
    (entry) => columnOf(lexicon, entry)?.temporal,
  );
  // "members who are active": a yes/no column of the relation the question names, rather than a
  // value of another relation's column (loans.status 'active').
  const flags = best<Extract<Entry, { kind: 'column' }>>(entries, 'column').filter(
    (entry) => columnOf(lexicon, entry)?.kind === 'boolean' && named.has(entry.table),
  );
  if (values.length > 0 && flags.length > 0 && !values.some((entry) => named.has(entry.table))) {
    return asColumn(flags);
  }
  if (values.length > 0 && !(temporal.length > 0 && next?.kind === 'period')) return asValue();
  // "revenue" means the revenue measure even where some relation has a column of that name (a
  // view's), so that every question computes it the same way.
  if (entries.some((entry) => entry.kind === 'measure'))
    return { kind: 'measure', text: mention.text, ...span };
  // "fuel purchases by status": a column of a relation the question names (fp_status, known by
  // its short name) before a column of another relation named so in full (loads.status).
  const ownColumns = entries.filter((entry) => entry.kind === 'column' && named.has(entry.table));
  const columnEntries = ownColumns.length > 0 ? ownColumns : entries;
  for (const rank of [3, 2, 1]) {
    const columns = best<Extract<Entry, { kind: 'column' }>>(columnEntries, 'column', rank);
    if (columns.length > 0) return asColumn(columns);
    const relations = best<Extract<Entry, { kind: 'relation' }>>(entries, 'relation', rank);
    if (relations.length > 0 && rank < 3) return asEntity(relations);
  }
  return { kind: 'measure', text: mention.text, ...span };
};

// ---- the analysis of one question --------------------------------------------------------------

/** The bare forms a participle may come from: started → start, ending → end, closed → close. */
const participleStems = (word: string): string[] => {
  const base = word.replace(/(?:ed|ing)$/, '');
  const undoubled = /([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : base;
  return [base, `${base}e`, undoubled];
};

/** A participle and the relation named beside it ("the pending orders", "orders that are pending"). */
const participleBeside = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): { mention: MentionOf<'unknown'>; relation: RelationInfo } | undefined => {
  const mention = mentions[index];
  if (mention?.kind !== 'unknown' || !/^[a-z]{3,}(?:ed|ing)$/.test(mention.text)) return undefined;
  const tables = [mentions[index - 1], mentions[index + 1]].flatMap((other) =>
    other?.kind === 'schema'
      ? other.entries.flatMap((entry) => (entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : []))
      : [],
  );
  const relation = tables.length === 1 ? lexicon.relations.get(tables[0]!) : undefined;
  return relation ? { mention, relation } : undefined;
};

/** The one status column of a relation with sample values, all in one letter case and plain words. */
const sampledStatus = (relation: RelationInfo): ColumnInfo | undefined => {
  const statuses = relation.columns.filter(
    (column) =>
      column.kind === 'text' &&
      /^(status|state|stage)$/.test(column.words.join(' ')) &&
      column.samples.length > 1,
  );
  const status = statuses.length === 1 ? statuses[0]! : undefined;
  if (!status?.samples.every((value) => /^[A-Za-z_]+$/.test(value))) return undefined;
  const cased =
    status.samples.every((value) => value === value.toLowerCase()) ||
    status.samples.every((value) => value === value.toUpperCase());
  return cased ? status : undefined;
};

/**
 * "pending" in "the pending orders", when the samples of the relation's status column do not
 * hold it: a value of that column only if the asker's data has it. The first pass asks back; the
 * value lookup (values.ts `valueProbeOf`) looks the word up in that column, and a value found is
 * known to the second pass as a sampled one. An invented value would filter on nothing ("claims
 * sitting without an adjuster" is not status 'sitting').
 */
export const unsampledStatusWords = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
): { text: string; relation: RelationInfo; column: ColumnInfo }[] =>
  mentions.flatMap((_, index, given) => {
    // (A participle skipped as a verb before the relation counts: "reopened claims".)
    const seen = given.map((mention, at) => modifyingParticiple(lexicon, given, at) ?? mention);
    const beside = participleBeside(lexicon, seen, index);
    const status = beside && sampledStatus(beside.relation);
    if (!beside || !status || datedBy(beside.relation, beside.mention.text).length > 0) return [];
    if (status.samples.some((value) => value.toLowerCase() === beside.mention.text)) return [];
    return [{ text: beside.mention.text, relation: beside.relation, column: status }];
  });

/** The relation's own dates named by a participle's verb: started → start_date, closed → closed_dt. */
const datedBy = (relation: RelationInfo, text: string): ColumnInfo[] => {
  const stems = participleStems(text);
  return relation.dates.filter((column) =>
    column.words.some(
      (word) => stems.includes(word) || participleStems(word).some((stem) => stems.includes(stem)),
    ),
  );
};

/** Particles a phrasal verb's date column is written with, joined: pickup_at, checkin, signup_date. */
const PARTICLES = ['up', 'in', 'out', 'off', 'over'];

/**
 * The dates of a relation a verb of the question names in any form: "did we deliver"
 * (delivered_at), "did we pay" (paid_dt, by the irregular form), "picked up" (pickup_at).
 */
export const datesOfVerb = (relation: RelationInfo, verb: string): ColumnInfo[] => {
  const database = lexicalDatabase();
  const bases = new Set([
    verb,
    ...participleStems(verb),
    ...(database?.readings(verb) ?? []).flatMap((reading) =>
      reading.wordClass === 'v' ? [reading.lemma] : [],
    ),
  ]);
  const said = (word: string): boolean =>
    bases.has(word) ||
    participleStems(word).some((stem) => bases.has(stem)) ||
    (database?.readings(word) ?? []).some(
      (reading) => reading.wordClass === 'v' && bases.has(reading.lemma),
    ) ||
    PARTICLES.some((particle) => word.endsWith(particle) && bases.has(word.slice(0, -particle.length)));
  return relation.dates.filter((column) => column.words.some(said));
};

/**
 * "the cancelled orders", "orders that are cancelled": a participle next to a relation whose one
 * status column's samples hold it reads as that value; one the samples do not hold is looked up
 * (`unsampledStatusWords`). A participle of one of the relation's own dates is that date. The
 * description says which column and value it filtered on.
 */
const statusWord = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): MentionOf<'schema'> | undefined => {
  const beside = participleBeside(lexicon, mentions, index);
  if (!beside) return undefined;
  const { mention, relation } = beside;
  // "leases that started in 2025", "leases ending in 2026": the verb of one of the relation's own
  // dates (start_date, end_date) is that date, not a status.
  const dated = datedBy(relation, mention.text);
  if (dated.length === 1) {
    return {
      kind: 'schema',
      text: mention.text,
      entries: [{ kind: 'column', table: relation.key, column: dated[0]!.name, rank: 2 }],
      at: mention.at,
      end: mention.end,
    };
  }
  const status = sampledStatus(relation);
  const value = status?.samples.find((sample) => sample.toLowerCase() === mention.text);
  if (!status || value === undefined) return undefined;
  return {
    kind: 'schema',
    text: mention.text,
    entries: [{ kind: 'value', table: relation.key, column: status.name, value }],
    at: mention.at,
    end: mention.end,
  };
};

/**
 * "how many claims did we pay in 2025": a word that links to nothing, read by the lexical database
 * as a verb, between the rows named and a period, that names exactly one of their dates
 * (`datesOfVerb`) is that date.
 */
const verbOfDate = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): MentionOf<'schema'> | undefined => {
  const mention = mentions[index];
  if (mention?.kind !== 'unknown' || mentions[index + 1]?.kind !== 'period') return undefined;
  const previous = mentions[index - 1];
  const tables =
    previous?.kind === 'schema'
      ? previous.entries.flatMap((entry) =>
          entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : [],
        )
      : [];
  const relation = tables.length === 1 ? lexicon.relations.get(tables[0]!) : undefined;
  const verb = lexicalDatabase()
    ?.readings(mention.text)
    .some((reading) => reading.wordClass === 'v');
  if (!relation || !verb) return undefined;
  const dates = datesOfVerb(relation, mention.text);
  if (dates.length !== 1) return undefined;
  return {
    kind: 'schema',
    text: mention.text,
    entries: [{ kind: 'column', table: relation.key, column: dates[0]!.name, rank: 2 }],
    at: mention.at,
    end: mention.end,
  };
};

/**
 * "which venues have seating": a verb form skipped as filler whose stem names exactly one yes/no
 * column of the relations the question names (is_seated) is that column, a condition; leaving it
 * out would answer for every row.
 */
const verbOfFlag = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): MentionOf<'schema'> | undefined => {
  const mention = mentions[index];
  if (mention?.kind !== 'verb') return undefined;
  const stems = participleStems(mention.text);
  const tables = new Set(
    mentions.flatMap((other) =>
      other.kind === 'schema'
        ? other.entries.flatMap((entry) =>
            entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : [],
          )
        : [],
    ),
  );
  const flags = [...tables].flatMap((table) =>
    (lexicon.relations.get(table)?.columns ?? [])
      .filter(
        (column) =>
          column.kind === 'boolean' &&
          column.words.some(
            (word) => stems.includes(word) || participleStems(word).some((stem) => stems.includes(stem)),
          ),
      )
      .map((column) => ({ table, column: column.name })),
  );
  if (flags.length !== 1) return undefined;
  return {
    kind: 'schema',
    text: mention.text,
    entries: [{ kind: 'column', table: flags[0]!.table, column: flags[0]!.column, rank: 2 }],
    at: mention.at,
    end: mention.end,
  };
};

/**
 * "disputed invoices", "flagged leases": a participle the scanner skipped as a filler verb, put
 * before a relation whose status column does not hold it, restricts that relation: leaving it out
 * would answer for every row. It is an unexplained word instead (asked back, with readings). A
 * verb after another relation ("customers placed orders") stays a verb.
 */
const modifyingParticiple = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): MentionOf<'unknown'> | undefined => {
  const mention = mentions[index];
  if (mention?.kind !== 'verb' || !/^[a-z]{3,}ed$/.test(mention.text)) return undefined;
  const next = mentions[index + 1];
  const previous = mentions[index - 1];
  if (next?.kind !== 'schema' || next.at !== mention.end || previous?.kind === 'schema') return undefined;
  const tables = next.entries.flatMap((entry) =>
    entry.kind === 'relation' && entry.rank === 3 ? [entry.table] : [],
  );
  const relation = tables.length === 1 ? lexicon.relations.get(tables[0]!) : undefined;
  const statuses = (relation?.columns ?? []).filter(
    (column) =>
      column.kind === 'text' &&
      /^(status|state|stage)$/.test(column.words.join(' ')) &&
      column.samples.length > 1,
  );
  if (statuses.length === 0) return undefined;
  if (statuses.some((column) => column.samples.some((value) => value.toLowerCase() === mention.text)))
    return undefined;
  return { kind: 'unknown', text: mention.text, at: mention.at, end: mention.end };
};

/**
 * "loads booked between 3 May and 9 June": a status value that is also the participle of its
 * relation's own date (status 'booked', booked_dt), followed by a period, is that date: the rows
 * booked then, whatever their status now. Without a period it stays the status ("booked loads").
 */
const datedStatus = (
  lexicon: Lexicon,
  mentions: readonly Mention[],
  index: number,
): MentionOf<'schema'> | undefined => {
  const mention = mentions[index];
  if (mention?.kind !== 'schema' || !/^[a-z]{3,}(?:ed|ing)$/.test(mention.text)) return undefined;
  if (!mentions.slice(index + 1).some((other) => other.kind === 'period')) return undefined;
  const values = mention.entries.filter((entry) => entry.kind === 'value');
  const tables = [...new Set(values.map((entry) => entry.table))];
  if (values.length === 0 || tables.length !== 1) return undefined;
  const relation = lexicon.relations.get(tables[0]!);
  const stems = participleStems(mention.text);
  const dated = (relation?.dates ?? []).filter((column) =>
    column.words.some(
      (word) => stems.includes(word) || participleStems(word).some((stem) => stems.includes(stem)),
    ),
  );
  if (!relation || dated.length !== 1) return undefined;
  return {
    kind: 'schema',
    text: mention.text,
    entries: [{ kind: 'column', table: relation.key, column: dated[0]!.name, rank: 2 }],
    at: mention.at,
    end: mention.end,
  };
};

/**
 * Mentions decided into items: participles read as status values, then every schema or quoted
 * mention classified. Words it could not place come first: nothing else is read from a
 * half-understood question.
 */
export const decide = (
  lexicon: Lexicon,
  given: readonly Mention[],
): { items: Item[]; named: Set<string> } | Clarification => {
  const mentions = given.map(
    (mention, index) =>
      statusWord(lexicon, given, index) ??
      verbOfDate(lexicon, given, index) ??
      verbOfFlag(lexicon, given, index) ??
      modifyingParticiple(lexicon, given, index) ??
      datedStatus(lexicon, given, index) ??
      mention,
  );
  const unknown = [
    ...new Set(mentions.flatMap((mention) => (mention.kind === 'unknown' ? [quoted(mention.text)] : []))),
  ];
  if (unknown.length > 0) {
    return clarify(
      `I'm not sure what ${joinAnd(unknown)} ${unknown.length === 1 ? 'means' : 'mean'} here. I can answer questions about ${mainTables(lexicon)}: could you rephrase with those names?`,
      undefined,
      'unknown-words',
    );
  }
  const named = new Set(
    mentions.flatMap((mention) =>
      mention.kind === 'schema'
        ? mention.entries.flatMap((entry) =>
            entry.kind === 'relation' && entry.rank >= 2 ? [entry.table] : [],
          )
        : [],
    ),
  );
  const items: Item[] = mentions.flatMap((mention, index) =>
    mention.kind === 'schema' || mention.kind === 'quoted'
      ? classify(lexicon, mention, mentions[index + 1], named)
      : [mention],
  );
  return { items: withRowsOfValues(lexicon, items), named };
};

/**
 * "how many dogs", "list the reptiles": a value in the plural, the label of a relation that one other
 * relation refers to (species 'dog', referred to by pets), stands for that relation's rows: the
 * entity is added after the value. Not when the question names that relation itself.
 */
const withRowsOfValues = (lexicon: Lexicon, items: Item[]): Item[] =>
  items.flatMap((item, index) => {
    // ("the heaviest dog": one, ranked, is a row too.)
    const ranked = items[index - 1]?.kind === 'superlative' || items[index - 1]?.kind === 'top';
    if (item.kind !== 'value' || item.negated || !(pluralText(item.text) || ranked)) return [item];
    const tables = new Set(item.matches.map((match) => match.ref.table));
    const [table] = tables;
    // The value names a row of a lookup relation (its label), not a property of a row.
    const labels = table === undefined ? [] : (lexicon.relations.get(table)?.labels ?? []);
    if (tables.size !== 1 || !table || !item.matches.every((match) => labels.includes(match.ref.column)))
      return [item];
    const referrers = new Set(
      (lexicon.edges.get(table) ?? [])
        .filter((edge) => edge.parent === table && edge.child !== table)
        .map((edge) => edge.child),
    );
    const [referrer] = referrers;
    if (referrers.size !== 1 || !referrer) return [item];
    const next = items[index + 1];
    if (
      next?.kind === 'entity' ||
      items.some((other) => other.kind === 'entity' && other.tables.includes(referrer))
    )
      return [item];
    return [
      item,
      {
        kind: 'entity',
        tables: [referrer],
        text: item.text,
        plural: pluralText(item.text),
        ofValue: true,
        at: item.at,
        end: item.end,
      },
    ];
  });
