// Where a first question's SQL comes from before a model is asked (docs/design.md "Answers people
// can check and improve"), for the model engines of the registry only (the builtin engine costs
// nothing; any other engine, such as a test's, is left alone):
//   1. an approved query pattern of the database whose question is this question (normalised:
//      case, spacing, end punctuation) → its SQL, answered_by `pattern`;
//   2. the shared SQL cache: the SQL a model wrote for the same question on the same database,
//      whatever tenant asked → answered_by `cache`;
//   3. the model → answered_by `model`; its SQL is cached once it has run without error.
// Only first turns: a follow-up's SQL depends on the conversation. The cache key covers
// everything that changes the SQL a model writes (docs/design.md "The model path"): the
// normalised question, the engine, the model, the schema index version, the glossary, the
// patterns, the personality's instructions, and the day (UTC) when the question is about a time
// relative to now ("last month", "today"), so a re-index, a glossary, pattern or personality
// change, or a new day makes new keys (old entries expire). An entry whose SQL itself is tied to
// the day it was written (a date literal, CURRENT_DATE, now()) is kept with that day and serves
// only on that day, whatever the question looked like. Rows are never cached; the SQL of a hit
// is guarded and rewritten for the caller's tenant like any other.
import { createHash } from 'node:crypto';
import { logger } from '#lib/log.ts';
import { normalisedQuestion } from '#lib/store/patterns.ts';
import { readCachedSql, writeCachedSql } from '#lib/store/sql-cache.ts';
import type { Proposal, SqlProposal } from './engine.ts';
import { ENGINE_NAMES } from './registry.ts';
import { isoDate } from './time.ts';

export type AnsweredBy = 'builtin' | 'pattern' | 'cache' | 'model';

export interface SqlSourceInput {
  databaseId: string;
  question: string;
  /** Whether the conversation has earlier turns (then nothing is reused or cached). */
  followUp: boolean;
  engineName: string;
  model?: string | undefined;
  indexedAt: string;
  examples?: readonly { question: string; sql: string }[] | undefined;
  glossary?: unknown;
  /** The personality's instructions: they shape what a model writes. */
  instructions?: string | undefined;
  /** The reference clock the model is told (its day keys questions relative to now). */
  now: Date;
}

/** Words that make a question's SQL depend on the day it is asked ("last month", "today", "3 days ago"). */
const RELATIVE_TIME =
  /\b(?:today|tonight|yesterday|tomorrow|now|currently|current|recent|recently|ago|so far|to date|ytd|mtd|qtd|(?:this|last|past|previous|prior|next|coming|upcoming)\s+(?:\d+\s+)?(?:days?|weeks?|weekends?|months?|quarters?|years?|hours?|fortnights?|semesters?|seasons?|decades?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|christmas|easter))\b/i;

/** Whether the question speaks of a time relative to now. */
export const questionDependsOnNow = (question: string): boolean => RELATIVE_TIME.test(question);

/** Whether SQL is tied to the day it was written: a date literal, or the database's clock. */
export const sqlDependsOnNow = (sql: string): boolean =>
  /'\d{4}-\d{2}(?:-\d{2})?|\b(?:current_date|current_timestamp|current_time|localtimestamp|localtime|now|curdate|curtime|sysdate|utc_date|utc_timestamp|getdate)\b/i.test(
    sql,
  );

/** The cache key: everything a model's SQL for a first question depends on. */
export const sqlCacheKeyOf = (input: SqlSourceInput): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        normalisedQuestion(input.question),
        input.engineName,
        input.model ?? null,
        input.indexedAt,
        input.glossary ?? null,
        input.examples ?? [],
        input.instructions?.trim() || null,
        questionDependsOnNow(input.question) ? isoDate(input.now) : null,
      ]),
    )
    .digest('base64url');

const isModelEngine = (name: string): boolean =>
  name !== 'builtin' && (ENGINE_NAMES as readonly string[]).includes(name);

const reused = (sql: string, description: string, interpretation?: string): SqlProposal => ({
  kind: 'sql',
  sql,
  description,
  ...(interpretation ? { interpretation } : {}),
});

/** A pattern or cached SQL for this question, or undefined: then the engine proposes. */
export const reusableSql = async (
  input: SqlSourceInput,
): Promise<{ proposal: SqlProposal; answeredBy: 'pattern' | 'cache' } | undefined> => {
  if (!isModelEngine(input.engineName) || input.followUp) return undefined;
  const asked = normalisedQuestion(input.question);
  const pattern = input.examples?.find((example) => normalisedQuestion(example.question) === asked);
  if (pattern) {
    return {
      proposal: reused(pattern.sql, `Using the approved query for “${pattern.question}”`),
      answeredBy: 'pattern',
    };
  }
  try {
    const cached = await readCachedSql(input.databaseId, sqlCacheKeyOf(input));
    // SQL written with yesterday's date in mind is not today's answer.
    if (cached && (cached.day === undefined || cached.day === isoDate(input.now)))
      return { proposal: reused(cached.sql, cached.description, cached.interpretation), answeredBy: 'cache' };
  } catch (error) {
    // The cache only saves a model call: without it, the model answers.
    logger.warn('the SQL cache could not be read', { error: error as Error });
  }
  return undefined;
};

/** Keeps a model's SQL for the next first question like this one (after it ran without error). */
export const rememberSql = async (input: SqlSourceInput, proposal: Proposal): Promise<void> => {
  if (!isModelEngine(input.engineName) || input.followUp || proposal.kind !== 'sql') return;
  try {
    await writeCachedSql(input.databaseId, sqlCacheKeyOf(input), {
      sql: proposal.sql,
      description: proposal.description,
      ...(proposal.interpretation ? { interpretation: proposal.interpretation } : {}),
      ...(sqlDependsOnNow(proposal.sql) ? { day: isoDate(input.now) } : {}),
    });
  } catch (error) {
    logger.warn('the SQL cache could not be written', { error: error as Error });
  }
};
