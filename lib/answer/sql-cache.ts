// Where a first question's SQL comes from before a model is asked (docs/design.md "Answers people
// can check and improve"), for the model engines of the registry only (the builtin engine costs
// nothing; any other engine, such as a test's, is left alone):
//   1. an approved query pattern of the database whose question is this question (normalised:
//      case, spacing, end punctuation) → its SQL, answered_by `pattern`;
//   2. the shared SQL cache: the SQL a model wrote for the same question on the same database,
//      whatever tenant asked → answered_by `cache`;
//   3. the model → answered_by `model`; its SQL is cached once it has run without error.
// Only first turns: a follow-up's SQL depends on the conversation. The cache key covers the
// normalised question, the model, the schema index version, the glossary and the patterns, so a
// re-index, a glossary change or a pattern change makes new keys (old entries expire). Rows are
// never cached; the SQL of a hit is guarded and rewritten for the caller's tenant like any other.
import { createHash } from 'node:crypto';
import { logger } from '#lib/log.ts';
import { normalisedQuestion } from '#lib/store/patterns.ts';
import { readCachedSql, writeCachedSql } from '#lib/store/sql-cache.ts';
import type { Proposal, SqlProposal } from './engine.ts';
import { ENGINE_NAMES } from './registry.ts';

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
}

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
    if (cached)
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
    });
  } catch (error) {
    logger.warn('the SQL cache could not be written', { error: error as Error });
  }
};
