// What the answering flow (lib/answer/orchestrator.ts) is asked and returns: one question in one
// conversation, with everything the caller (lib/answer/chat.ts) loaded for it, and what it runs on.
import type { TenantValues } from '#lib/auth/tenant.ts';
import type { Connector, ExecuteLimits } from '#lib/connectors/types.ts';
import type { Caller } from '#lib/conversations/history.ts';
import type { DialectName } from '#lib/core/catalog.ts';
import type { Lease } from '#lib/limits/limiter.ts';
import type { Timings } from '#lib/observability/timing.ts';
import type { Guard } from '#lib/sql/types.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import type { MessageRecord } from '#lib/store/messages.ts';
import type { Personality } from '#lib/store/personalities.ts';
import type { AnswerCatalog } from './catalog.ts';
import type { ChatAnswer } from './chat-answer.ts';
import type { Engine, PieceSink, TokenUsage } from './engine.ts';
import type { AnswerStatus } from './progress.ts';

/** A query pattern as the engines see it. */
export type PatternExample = { question: string; sql: string };

export interface AnswerRequest {
  caller: Caller;
  conversationId: string;
  question: string;
  database: DatabaseRecord;
  catalog: AnswerCatalog;
  /** The validated X-Tenant-Id and scope values (lib/auth/tenant.ts resolveTenant, in ./chat.ts). */
  tenant: TenantValues;
  /** The conversation's latest messages, oldest first (lib/answer/turns.ts HISTORY_MESSAGES). */
  history: readonly MessageRecord[];
  /**
   * The conversation has messages and no database yet (history appended before its first chat
   * message): once the question's append has given it one, its earlier messages get it too, so
   * that an embed session's timeline of that database shows them (lib/store/messages.ts).
   */
  givesDatabaseToEarlierMessages?: boolean | undefined;
  personality?: Personality | undefined;
  engine: Engine;
  /** The model the engine was created with, recorded with the answer. */
  model?: string | undefined;
  /**
   * Query patterns of the database (lib/store/patterns.ts), for engines that show examples; may
   * still be loading (read once the first status is out, so a stream's progress never waits on it).
   */
  examples?: readonly PatternExample[] | Promise<readonly PatternExample[]> | undefined;
  /** The database's glossary (lib/answer/glossary.ts), for every engine. */
  glossary?: Glossary | undefined;
  timings?: Timings;
  /** The reference clock for relative periods; now when absent. */
  now?: Date;
  signal?: AbortSignal;
  /**
   * When the function must have answered (epoch ms; its remaining time, from the handler): the
   * query's statement timeout and a model's composition are cut to what is left, less the time
   * kept for storing the answer, so that an answer is stored rather than lost to the function's
   * timeout; with too little left the deterministic composition answers.
   */
  deadline?: number;
  /**
   * Streaming: told each step (reading the question, writing the query, running it, writing the
   * answer) as it starts, until the first piece of the answer goes out; never after it.
   */
  onStatus?: (status: AnswerStatus) => void | Promise<void>;
  /**
   * Streaming: receives the answer's text piece by piece as it is produced (their concatenation
   * is the stored message); awaited, so that a caller can pace the pieces to its reader.
   */
  onPiece?: PieceSink;
  /**
   * The request's concurrency lease (lib/limits/limiter.ts): given back in the transaction that
   * stores the answer, with the answer's count (docs/design.md "Round trips of a chat message").
   */
  lease?: Lease | undefined;
}

/** What the flow runs on, replaceable in tests. */
export interface AnswerDependencies {
  guardFor?: (dialect: DialectName) => Promise<Guard>;
  connectorFor?: (database: DatabaseRecord) => Promise<Connector>;
  limits?: ExecuteLimits;
}

export interface AnswerOutcome {
  answer: ChatAnswer;
  userMessageId: string;
  assistantMessageId: string;
  timings: Timings;
  /**
   * Model tokens this answer cost, summed over the engine's calls (proposal, retry, repair,
   * composition) from the provider's usage fields; absent when no call reported any (the
   * builtin engine, a provider that sends no usage).
   */
  tokens?: TokenUsage;
}
