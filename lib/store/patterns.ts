// Query patterns of a connected database: question → SQL examples an operator adds with
// `admin pattern add` after the SQL guard accepted the SQL for the database's catalog. The model
// engines show the most relevant ones to the model (EngineInput.examples, lib/answer/engines/).
// Item: PK DB#<database id>, SK PATTERN#<uuidv7>, in the database's own partition beside its
// locator and schema index (lib/store/databases.ts, schema-index.ts), so one Query of a bounded
// set lists them oldest first.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ServiceError } from '#lib/errors.ts';
import { uuidv7 } from '#lib/ids.ts';
import { documents, isConditionFailure, queryAll, tableName } from './client.ts';

const PREFIX = 'PATTERN#';

export const patternKey = (databaseId: string, id: string) => ({
  PK: `DB#${databaseId}`,
  SK: `${PREFIX}${id}`,
});

/**
 * Patterns a database keeps at most: every request that uses a model engine reads them all.
 * Counted over the organization's own patterns (countsAgainstLimit): visitors' candidates have
 * their own quotas below, so a page's visitors can never fill the organization's list.
 */
export const MAX_PATTERNS = 100;
/** Candidates from visitors' feedback (embed sessions) a database keeps at most, apart from MAX_PATTERNS. */
export const MAX_VISITOR_CANDIDATES = 50;
/** Candidates one visitor (one embed session's tenant and scope) may have waiting on one database. */
export const MAX_CANDIDATES_PER_VISITOR = 3;
export const MAX_PATTERN_QUESTION_LENGTH = 1_000;
/** As long as the guard accepts (lib/dialects/postgres/sql-guard.ts MAX_SQL_LENGTH). */
export const MAX_PATTERN_SQL_LENGTH = 20_000;
export const MAX_PATTERN_NOTES_LENGTH = 2_000;

/** What an operator gives `admin pattern add`; the SQL is checked by the guard before this is stored. */
export const NewPattern = v.object({
  question: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'the question must not be empty'),
    v.maxLength(
      MAX_PATTERN_QUESTION_LENGTH,
      `the question must be at most ${MAX_PATTERN_QUESTION_LENGTH} characters`,
    ),
  ),
  sql: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'the SQL must not be empty'),
    v.maxLength(MAX_PATTERN_SQL_LENGTH, `the SQL must be at most ${MAX_PATTERN_SQL_LENGTH} characters`),
  ),
  notes: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(
        MAX_PATTERN_NOTES_LENGTH,
        `the notes must be at most ${MAX_PATTERN_NOTES_LENGTH} characters`,
      ),
    ),
  ),
});
export type NewPattern = v.InferOutput<typeof NewPattern>;

/** How two questions compare for "a second pattern for the same question": case, spaces, end punctuation. */
export const normalisedQuestion = (question: string): string =>
  question
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/u, '')
    .trim();

/**
 * `approved`: used (shown to the model engines, answering its question directly); `candidate`:
 * proposed by an answer's feedback (lib/conversations/feedback.ts), used only once an admin
 * approves it. Patterns stored before statuses existed are approved.
 */
export const PatternStatus = v.picklist(['approved', 'candidate']);
export type PatternStatus = v.InferOutput<typeof PatternStatus>;

export const QueryPattern = v.object({
  id: v.string(),
  databaseId: v.string(),
  question: v.string(),
  sql: v.string(),
  status: v.optional(PatternStatus, 'approved'),
  notes: v.optional(v.string()),
  /**
   * A candidate proposed by a visitor's feedback: the visitor's key (lib/auth/principal.ts
   * limitKey, a hash of the session's tenant and scope). Absent for the organization's own.
   */
  visitor: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.optional(v.string()),
});
export type QueryPattern = v.InferOutput<typeof QueryPattern>;

export const addPattern = async (
  databaseId: string,
  input: NewPattern & { status?: PatternStatus; visitor?: string | undefined },
  now = new Date(),
): Promise<QueryPattern> => {
  const pattern: QueryPattern = {
    id: uuidv7(now.getTime()),
    databaseId,
    question: input.question,
    sql: input.sql,
    status: input.status ?? 'approved',
    ...(input.notes ? { notes: input.notes } : {}),
    ...(input.visitor ? { visitor: input.visitor } : {}),
    createdAt: now.toISOString(),
  };
  await documents().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...patternKey(databaseId, pattern.id), type: 'queryPattern', ...pattern },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return pattern;
};

/** Whether a pattern takes a place of the organization's MAX_PATTERNS: its own, or a visitor's once approved. */
export const countsAgainstLimit = (pattern: Pick<QueryPattern, 'visitor' | 'status'>): boolean =>
  pattern.visitor === undefined || pattern.status === 'approved';

/** A database's patterns, oldest first (ids sort by time). */
export const listPatterns = async (databaseId: string): Promise<QueryPattern[]> => {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': `DB#${databaseId}`, ':prefix': PREFIX },
  });
  return items.map((item) => v.parse(QueryPattern, item));
};

/** One pattern of the database; undefined when unknown. */
export const findPattern = async (databaseId: string, id: string): Promise<QueryPattern | undefined> => {
  const { Item } = await documents().send(
    new GetCommand({ TableName: tableName(), Key: patternKey(databaseId, id) }),
  );
  return Item ? v.parse(QueryPattern, Item) : undefined;
};

const patternNotFound = (id: string) =>
  new ServiceError('PATTERN_NOT_FOUND', { message: `Query pattern ${id} not found` });

/** Replaces a pattern (its id and creation time stay); 404 NOT_FOUND_PATTERN when it is gone. */
export const replacePattern = async (pattern: QueryPattern, now = new Date()): Promise<QueryPattern> => {
  const updated: QueryPattern = { ...pattern, updatedAt: now.toISOString() };
  try {
    await documents().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...patternKey(pattern.databaseId, pattern.id), type: 'queryPattern', ...updated },
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw patternNotFound(pattern.id);
    throw error;
  }
  return updated;
};

/** Deletes a pattern; 404 NOT_FOUND_PATTERN when there is none. */
export const deletePattern = async (databaseId: string, id: string): Promise<void> => {
  try {
    await documents().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: patternKey(databaseId, id),
        ConditionExpression: 'attribute_exists(PK)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw patternNotFound(id);
    throw error;
  }
};

/** What the admin command and the control plane show of a pattern. */
export const publicPattern = (pattern: QueryPattern) => ({
  id: pattern.id,
  database_id: pattern.databaseId,
  question: pattern.question,
  sql: pattern.sql,
  notes: pattern.notes ?? null,
  status: pattern.status,
  created_at: pattern.createdAt,
  updated_at: pattern.updatedAt ?? pattern.createdAt,
});
export type PublicPattern = ReturnType<typeof publicPattern>;
