// The types that cross the builtin engine's stages, in one place (docs/design.md "Answering on
// unseen databases", shape of the code): the schema index every stage reads (`Lexicon`, its
// `Entry`s), what tokenising hands to scanning (`Token`), what scanning hands to analysing
// (`Mention`, with its `Link` and `Period`), what analysing hands to interpreting (`Analysis` of
// `Item`s), what interpreting returns (`Intent` or a `Clarification` with its reason code, as
// values), and the complete readings of a question that readings.ts weighs (`Reading`, `Note`).
// The intent itself is a valibot schema in intent.ts, because it is also the state that comes
// back from storage; its types are re-exported here. This file imports no stage.
import type { Catalog, CatalogRelation, ColumnKind } from '#lib/core/catalog.ts';
import type { Candidate } from '../engine.ts';
import type { DateRange } from '../time.ts';
import type { GlossaryDefinitions } from './glossary-expr.ts';
import type { ColumnRef, Filter, Intent, Measure, TimeUnit } from './intent.ts';

export type { ColumnRef, Filter, Group, Intent, Measure, Metric, TimeUnit } from './intent.ts';

// ---- tokenise → scan ----------------------------------------------------------------------------

export type Token =
  /**
   * `cased`: the word as written when it starts with a capital ("Central"): maybe a name.
   * `possessive`: written with 's ("Harbor's pets"): it names whose, not what.
   */
  | { kind: 'word'; text: string; cased?: string; possessive?: true }
  | { kind: 'number'; value: number; money: boolean; percent: boolean; raw: string }
  | { kind: 'date'; iso: string }
  | { kind: 'quoted'; text: string }
  | { kind: 'symbol'; text: string }
  | { kind: 'break'; text: string };

// ---- the schema index (lexicon.ts), read by every stage -----------------------------------------

export interface ColumnInfo {
  table: string;
  name: string;
  kind: ColumnKind;
  nullable: boolean;
  /** Words of the name: `unit_price` → ['unit', 'price']. */
  words: string[];
  /** How the column reads in a sentence: "unit price". */
  display: string;
  /** Part of the primary key or of a foreign key. */
  key: boolean;
  /** A number one can sum, average or compare (not a key). */
  numeric: boolean;
  /** A numeric column holding money (price, amount, total, salary…). */
  money: boolean;
  temporal: boolean;
  samples: string[];
  /** The unit its values are in (`MEASURE_UNITS` name: 'tonne' of qty_t, 'hour' of labor_hrs). */
  unit?: string;
}

export interface RelationInfo {
  key: string;
  schema: string;
  name: string;
  relation: CatalogRelation;
  /** "order item" / "order items". */
  one: string;
  other: string;
  /** A short alias for SQL: `order_items` → `oi`. */
  alias: string;
  columns: ColumnInfo[];
  byName: Map<string, ColumnInfo>;
  primaryKey: string[];
  /** Columns that name a row to a person (name, title, first and last name…). */
  labels: string[];
  /** Date and timestamp columns, the one that dates a row best first (see `rankDates`). */
  dates: ColumnInfo[];
  /** True when the first of `dates` is clearly the row's date (not a tie). */
  primaryDate: ColumnInfo | undefined;
}

/** A foreign key: `child` rows point at one `parent` row (child → parent is to-one). */
export interface Edge {
  child: string;
  parent: string;
  childColumns: string[];
  parentColumns: string[];
  /** Inferred from names (keys.ts), not declared by the database. */
  inferred?: boolean;
}

export type Entry =
  | { kind: 'relation'; table: string; rank: number }
  /** `qualified`: the phrase names the relation too ("customer country", "order date"). */
  | { kind: 'column'; table: string; column: string; rank: number; qualified?: boolean }
  | { kind: 'value'; table: string; column: string; value: string }
  /** Revenue, or a metric of the glossary (`name` is its term). */
  | { kind: 'measure'; name: string }
  /** A condition the glossary names ("active" → veterinarian.is_active). */
  | { kind: 'preset'; name: string; filter: Filter };

export type Resolution<T> = { kind: 'one'; value: T } | { kind: 'many'; values: T[] } | { kind: 'none' };

export interface Lexicon {
  catalog: Catalog;
  tenantColumn: string | undefined;
  relations: Map<string, RelationInfo>;
  /** By child and by parent relation key. */
  edges: Map<string, Edge[]>;
  phrases: Map<string, Entry[]>;
  /** Longest phrase, in words. */
  maxWords: number;
  /** What "revenue" / "sales" sum: the first tier, then the others (see `findRevenue`). */
  revenue: Resolution<Measure>;
  revenueTiers: Measure[][];
  /** What "best-selling" sums: a quantity column of the line-item relation. */
  unitsSold: Resolution<ColumnRef>;
  /** Metrics the glossary defines, by term (a `measure` entry's name). */
  metrics: Map<string, Measure>;
  /** The glossary's metrics and filters of other SQL than the simple forms (glossary-sql.ts). */
  definitions: GlossaryDefinitions;
}

// ---- link, periods → scan ----------------------------------------------------------------------

/** `described`: through what a relation's description calls its rows (described.ts). */
/** `form`: an inflected verb for a state value in another form ("voided" → 'void'). */
export type LinkSource = 'synonym' | 'broader' | 'narrower' | 'typo' | 'joined' | 'described' | 'form';

export interface Link {
  entries: Entry[];
  source: LinkSource;
  /** The schema phrase the word was read as ("customer"). */
  phrase: string;
  score: number;
  /** Words of the question it takes, when more than one ("check ins", "called off"). */
  span?: number;
}

export interface Period extends DateRange {
  /** As the user said it, for descriptions: "in March 2025", "last month". */
  label: string;
  /** A month or quarter named without its year ("in April"): a follow-up takes the year before. */
  yearless?: boolean;
}

// ---- scan → analyse ----------------------------------------------------------------------------

export type CompareOp = '>' | '>=' | '<' | '<=' | '=';
export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max';
export type Hint = 'money' | 'date' | 'units' | 'count' | 'rating' | 'weight' | 'height' | 'length';

interface At {
  /** First token index. */
  at: number;
  /** Index after the last token. */
  end: number;
}

export type Mention = At &
  /** `link`: read through a synonym, a broader term or a typo (link.ts), not by name. */
  (
    | { kind: 'schema'; text: string; entries: Entry[]; link?: Link }
    | { kind: 'quoted'; text: string; entries: Entry[] }
    | { kind: 'period'; period: Period }
    | { kind: 'compare'; op: CompareOp | 'between'; value: number; high?: number; money: boolean }
    | { kind: 'aggregate'; fn: AggregateFn; word: string }
    | { kind: 'group'; unit?: TimeUnit }
    /** `target`: the schema phrase sorted by, when the clause is exactly one. */
    | { kind: 'sort'; dir?: 'asc' | 'desc'; target?: MentionOf<'schema'> }
    | { kind: 'direction'; dir: 'asc' | 'desc' }
    | { kind: 'top'; n?: number; dir: 'asc' | 'desc'; hint?: Hint; word: string }
    | { kind: 'superlative'; dir: 'asc' | 'desc'; hint?: Hint; word: string }
    | { kind: 'list' }
    | { kind: 'negation' }
    | { kind: 'anaphora'; word: string }
    | { kind: 'followup' }
    /** A verb skipped as filler ("published", "handled"): it may name how two relations connect. */
    | { kind: 'verb'; text: string }
    | { kind: 'cost' }
    /** "named", "called": the quoted text after it is a name. */
    | { kind: 'named' }
    | { kind: 'number'; value: number; money: boolean }
    /** `raw`: the word as written, when capitalized (a proper name, maybe). */
    | { kind: 'unknown'; text: string; raw?: string }
  );

export type MentionOf<K extends Mention['kind']> = Extract<Mention, { kind: K }>;

// ---- analyse → interpret -----------------------------------------------------------------------

export interface Span {
  at: number;
  end: number;
}

export interface ValueMatch {
  ref: ColumnRef;
  value: string;
}

/** A schema mention, decided: what kind of thing the words name (candidates may still be several). */
export type Item = Span &
  /** `implied`: named only as part of a column phrase ("customer country"). */

  /** `ofValue`: stands for the rows a plural value names ("dogs": pets whose species is dog). */
  (
    | {
        kind: 'entity';
        tables: string[];
        text: string;
        plural: boolean;
        implied?: boolean;
        ofValue?: boolean;
      }
    | { kind: 'column'; refs: ColumnRef[]; text: string }
    | { kind: 'value'; matches: ValueMatch[]; text: string; negated: boolean }
    | { kind: 'literal'; text: string }
    | { kind: 'measure'; text: string }
    /** A condition the glossary names. */
    | { kind: 'preset'; filter: Filter; text: string }
    | Exclude<Mention, MentionOf<'schema' | 'quoted'>>
  );

export type ItemOf<K extends Item['kind']> = Extract<Item, { kind: K }>;

export interface Ranking {
  n: number | undefined;
  dir: 'asc' | 'desc';
  hint: Hint | undefined;
  word: string;
  /** Index of the ranking item. */
  index: number;
}

/** What a ranking orders by. */
export type RankKey =
  /** `index`: where the column is named ("the highest hourly rate of employees"). */
  | { kind: 'column'; refs: ColumnRef[]; text: string; index?: number }
  | { kind: 'measure'; text: string }
  | { kind: 'count'; tables: string[]; index: number }
  | { kind: 'hint'; hint: Hint };

export interface Comparison {
  op: CompareOp | 'between';
  value: number;
  high: number | undefined;
  money: boolean;
  /** The column it compares, when named next to it. */
  column?: ColumnRef[];
  /** "more than 5 orders": a count of related rows. */
  countOf?: string[];
  costly: boolean;
}

export interface Analysis {
  items: Item[];
  used: Set<number>;
  /** `distinct`: "how many different breeds": the column whose values are counted. */
  aggregate?: { fn: AggregateFn; word: string; index: number; target?: number; distinct?: number };
  groups: { unit?: TimeUnit; target?: number; index: number }[];
  ranking?: Ranking;
  rankKey?: RankKey;
  /** A sort clause: by a column of the rows (`column`), or of what is computed (no column). */
  sort?: { column?: ItemOf<'column'>; dir: 'asc' | 'desc' };
  comparisons: Comparison[];
  periods: { period: Period; column?: ColumnRef[]; near?: string[] }[];
  values: ItemOf<'value'>[];
  literals: { text: string; column?: ColumnRef[]; named?: boolean }[];
  booleans: { refs: ColumnRef[]; negated: boolean }[];
  /** "with no microchip", "never ordered": a column with nothing in it, or no related rows. */
  absences: ({ refs: ColumnRef[]; text: string } | { tables: string[]; text: string })[];
  /** Conditions the glossary names. */
  presets: Filter[];
  keys: { tables: string[]; value: number }[];
  list: boolean;
  anaphora: boolean;
  followup: boolean;
  /** Verbs skipped as filler ("published", "handled"). */
  verbs: string[];
  /** The question's words, lower case: a verb among them may name the amount ("how much was paid"). */
  words: string[];
}

// ---- interpret → the pipeline ------------------------------------------------------------------

/** Why a reading stopped; `unknown-words`: words of the question link to nothing. */
export type ClarifyReason = 'unreachable' | 'no-date' | 'fan-out' | 'unknown-words';

/** A question back, as a value: why (`reason`), what to say, what could be meant. */
export interface Clarification {
  kind: 'clarify';
  message: string;
  candidates?: Candidate[];
  reason?: ClarifyReason;
}

export type Interpretation = { kind: 'intent'; intent: Intent } | Clarification;

// ---- readings -----------------------------------------------------------------------------------

export interface Note {
  kind: 'as' | 'out';
  text: string;
}

/** A complete reading of the question, as a question of its own. */
export interface Reading {
  question: string;
  intent: Intent;
  cost: number;
  notes: Note[];
  /** It reads a name as a value no sample holds ("at Northwind" as a city): a lookup may know better. */
  guessed?: true;
}
