// The types that cross the builtin engine's stages, in one place (docs/design.md "Answering on
// unseen databases", shape of the code): what tokenising hands to scanning (`Token`), what
// scanning hands to analysing and interpreting (`Mention`), what interpreting returns (`Intent`
// or a `Clarification` with its reason code, as values), and the complete readings of a question
// that readings.ts weighs (`Reading`, `Note`). The intent itself is a valibot schema in intent.ts,
// because it is also the state that comes back from storage; its types are re-exported here.
import type { Candidate } from '../engine.ts';
import type { Intent } from './intent.ts';
import type { Entry } from './lexicon.ts';
import type { Link } from './link.ts';
import type { Period } from './periods.ts';

export type { ColumnRef, Filter, Group, Intent, Measure, Metric } from './intent.ts';

import type { TimeUnit } from './intent.ts';

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

// ---- scan → analyse, interpret ------------------------------------------------------------------

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
}
