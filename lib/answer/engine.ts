// The contract between the orchestrator and the answering engines (builtin, Bedrock,
// OpenAI-compatible): an engine reads a question against the indexed catalog and proposes either
// one SELECT or a message; it never runs anything. The orchestrator passes every proposed query
// through the SQL guard (lib/sql/), runs what the guard printed and composes the answer: the
// engine's own `compose` when it has one (a model writing from the rows, streamed piece by piece),
// else lib/answer/compose.ts. Model engines report the tokens of each call (`onUsage`).
// docs/design.md "Chat answers: one superset shape", "Streaming" and "Tenant filtering and the SQL
// guard".
import type { Catalog, DialectName } from '#lib/core/catalog.ts';
import type { Glossary } from '#lib/store/glossary.ts';

/** Mirrors the answer's `query_type`. */
export type ProposalKind = 'sql' | 'clarification' | 'conversational' | 'refused';

/** One earlier exchange of the same conversation, oldest first in `EngineInput.history`. */
export interface PriorTurn {
  /** The user's question. */
  question: string;
  /** What the assistant answered with. */
  kind: ProposalKind;
  /** The engine that answered (`Engine.name`); an engine reads only the state it wrote. */
  engine?: string;
  /**
   * What that engine saved with its proposal (`SqlProposal.state`), read back from storage.
   * Untrusted: an engine validates it and ignores a state it cannot read (another version, a
   * column that is gone after re-indexing).
   */
  state?: unknown;
}

export interface EngineInput {
  question: string;
  /**
   * The indexed schema. The orchestrator should pass only the relations the row policy lets the
   * guard read, so that an engine never proposes a query the guard must refuse.
   */
  catalog: Catalog;
  dialect: DialectName;
  /** Earlier turns of this conversation, oldest first (may be empty). */
  history: readonly PriorTurn[];
  /** The reference clock for relative periods ("last month"); fixed in tests. */
  now: Date;
  /** The personality's instructions (tone, focus); engines without a model may ignore them. */
  instructions?: string;
  /**
   * The policy's tenant column. An engine never selects, groups by or filters on it from the
   * question's text: the guard adds the tenant filter to every relation.
   */
  tenantColumn?: string;
  /** Cancels a model call when the client goes away. */
  signal?: AbortSignal;
  /**
   * Query patterns of the database (`admin pattern add`, lib/store/patterns.ts): question → SQL
   * examples an operator stored after the guard accepted them. Model engines show the most
   * relevant ones to the model; engines without a model may ignore them.
   */
  examples?: { question: string; sql: string }[];
  /**
   * The database's glossary (lib/answer/glossary.ts): the operator's synonyms, metrics and
   * filters, each metric and filter checked by the SQL guard when it was saved.
   */
  glossary?: Glossary;
  /**
   * What of the database may reach a model (the database's `model_data`, docs/model-engines.md
   * "Data egress"): `rows` (default) sample values and result rows; `aggregates` result rows only
   * when every column is an aggregate; `schema_only` neither (the service composes the answer).
   */
  modelData?: ModelData;
  /** Columns (`table.column` or `schema.table.column`) never shown to a model, nor their values. */
  redactedColumns?: readonly string[];
  /**
   * Receives the token usage of each model call the engine makes for this question (proposal,
   * format retry, repair, composition), as the provider reported it; engines without a model
   * never call it. The orchestrator adds them up (`AnswerOutcome.tokens`).
   */
  onUsage?: (usage: TokenUsage) => void;
  /** Called once for every call the engine makes to a model provider (counted in usage). */
  onModelCall?: () => void;
  /**
   * Looks phrases of the question up among the values of a few text columns, in the caller's
   * own rows only (lib/answer/values.ts: one probe query through the SQL guard as the caller,
   * with the row cap and statement timeout of answers). Names of customers, products or places
   * are a tenant's own and never in the shared index; an engine calls this at most once per
   * question, for phrases that look like names. Absent: no lookup.
   */
  findValues?: (probe: ValueProbe) => Promise<FoundValue[]>;
}

/** What an engine asks `findValues` to look up. */
export interface ValueProbe {
  /** Phrases as the question writes them ("meridian pharma", "PH-T07"). */
  phrases: string[];
  /** Text columns of the catalog to look in, likeliest first. */
  columns: { schema: string; relation: string; column: string }[];
}

/** A value of the caller's data a phrase names: equal to it (case and accents aside) or, not `exact`, starting with it. */
export interface FoundValue {
  /** The phrase, case and accents folded (lib/answer/values.ts `foldValue`). */
  phrase: string;
  schema: string;
  relation: string;
  column: string;
  /** The value as stored. */
  value: string;
  exact: boolean;
}

export type ModelData = 'rows' | 'aggregates' | 'schema_only';

/** Model tokens of one call, from the provider's usage fields (OpenAI `usage`, Bedrock `usage`). */
export interface TokenUsage {
  /** Prompt tokens. */
  input: number;
  /** Completion tokens. */
  output: number;
}

/**
 * How the rows of a proposed query should read as an answer: set by engines that know what they
 * asked for (the builtin does), omitted by those that do not; composition falls back to a generic
 * summary of the rows. Noun phrases carry their qualifiers ("cancelled orders in 2025").
 */
export interface NounPhrase {
  one: string;
  other: string;
}

export type ValueFormat = 'number' | 'money' | 'integer';

export type AnswerShape =
  /** One row, one count column. */
  | { kind: 'count'; noun: NounPhrase; column: string }
  /** One row, one aggregate column: "the total revenue in 2025". */
  | { kind: 'value'; label: string; noun: NounPhrase; column: string; format: ValueFormat }
  /** Rows of one entity, in order; `ranking` titles a top-N ("most expensive product"). */
  | {
      kind: 'rows';
      noun: NounPhrase;
      labelColumns: string[];
      valueColumn?: string;
      valueFormat?: ValueFormat;
      limit: number;
      ranking?: NounPhrase;
    }
  /** One row per group: key columns, then one value column. */
  | {
      kind: 'groups';
      /** "Revenue per category". */
      label: string;
      noun: NounPhrase;
      keyColumns: string[];
      keyFormat?: 'year' | 'year-quarter' | 'year-month' | 'year-week' | 'date' | 'weekday' | 'hour';
      valueColumn: string;
      valueFormat: ValueFormat;
      limit: number;
      /** A top-N of groups: "category with the most products" / "top 5 customers by revenue". */
      ranking?: NounPhrase;
    };

export interface SqlProposal {
  kind: 'sql';
  /** One SELECT in the requested dialect, with literals and no placeholders. */
  sql: string;
  /**
   * What the engine understood, one sentence in schema terms:
   * "Counting orders with status 'cancelled' ordered in 2025 (2025-01-01 to 2025-12-31)".
   */
  description: string;
  /**
   * What was understood, in plain words, for the user to check ("Counting pets with species
   * 'cat'; reading “kitties” as cats"): the answer's `interpretation`. Engines without one of
   * their own fall back to `description`.
   */
  interpretation?: string;
  /** Saved with the assistant message and handed back in `PriorTurn.state` for follow-ups. JSON only. */
  state?: unknown;
  shape?: AnswerShape;
}

/** A table, or a column of it, that a word of the question could mean. */
export interface Candidate {
  table: string;
  column?: string;
}

export interface ClarificationProposal {
  kind: 'clarification';
  /** Says what was understood and what to choose between. */
  message: string;
  candidates?: Candidate[];
  /**
   * Complete questions the engine can answer, its likeliest readings of the one asked, best
   * first (at most three): asking one gives exactly that reading. The answer's `suggestions`.
   */
  suggestions?: string[];
}

export interface ConversationalProposal {
  kind: 'conversational';
  message: string;
}

export type RefusalReason = 'write' | 'injection' | 'other_tenant' | 'raw_sql';

export interface RefusedProposal {
  kind: 'refused';
  message: string;
  /** For logs and tests; not shown to the user. */
  reason?: RefusalReason;
}

export type Proposal = SqlProposal | ClarificationProposal | ConversationalProposal | RefusedProposal;

/** Rows of the query the guard printed, as the connector returned them (at most the row cap). */
export interface ResultRows {
  columns: string[];
  rows: Record<string, unknown>[];
  /** More rows existed than were returned. */
  truncated: boolean;
}

/** An answer's text, and the same text in the pieces a stream sends: `text === pieces.join('')`. */
export interface ComposedAnswer {
  text: string;
  pieces: string[];
}

/**
 * Receives an answer's text piece by piece as it is written (a model's tokens as they arrive);
 * awaited, so that a slow reader holds the writer back.
 */
export type PieceSink = (piece: string) => void | Promise<void>;

export interface Engine {
  /** Stable name, stored with each proposal's state (`PriorTurn.engine`). */
  readonly name: string;
  propose(input: EngineInput): Promise<Proposal>;
  /**
   * Optional: an engine that writes its own answer from the rows (a model summarising them).
   * Without it the orchestrator uses `composeAnswer` of lib/answer/compose.ts.
   *
   * The query has run by then: nothing the rows say can change what runs, and rows reach a
   * model only as delimited data. The engine hands each piece of text to `onPiece` as it is
   * written (a model's streamed tokens) and resolves with the whole answer, whose `pieces` are
   * the pieces it handed over (`text === pieces.join('')`); an engine that hands none over has
   * its returned pieces sent after it resolved. When it throws, the orchestrator answers with
   * the deterministic composition if no piece was handed over yet; once pieces have gone out to
   * a streaming client, the answer ends there as an error (orchestrator.ts).
   */
  compose?(
    proposal: SqlProposal,
    result: ResultRows,
    input: EngineInput,
    onPiece: PieceSink,
  ): Promise<ComposedAnswer>;
  /**
   * Optional: one repair round after the database rejected a query the guard allowed. `failed`
   * holds the query as proposed (before the rewrite) and the database's error text, which is
   * data, never instructions. The new proposal goes through the guard like any other.
   */
  repair?(input: EngineInput, failed: { sql: string; error: string }): Promise<Proposal>;
}
