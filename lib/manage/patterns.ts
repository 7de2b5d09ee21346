// Query patterns through the control plane (docs/control-plane.md "Query patterns") and the admin
// command: approved question → SQL pairs of one database, which the model engines show to the
// model as examples. The SQL passes the database's SQL guard when saved (lib/sql/saved-sql.ts),
// against its schema index and row policy with a placeholder tenant: a refused query is 400
// VALIDATION_ERROR whose details entry carries the guard's code, and nothing is stored. One
// pattern per question (compared without case, spacing and end punctuation): a second is 400
// BUSINESS_DUPLICATE_ENTRY.
import type * as v from 'valibot';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { ServiceError } from '#lib/errors.ts';
import { checkSavedSql } from '#lib/sql/saved-sql.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { notIndexed } from '#lib/store/glossary.ts';
import {
  addPattern,
  countsAgainstLimit,
  deletePattern as deletePatternRecord,
  findPattern,
  listPatterns,
  MAX_PATTERNS,
  normalisedQuestion,
  type PatternStatus,
  type PublicPattern,
  publicPattern,
  type QueryPattern,
  replacePattern,
} from '#lib/store/patterns.ts';
import { readSchemaIndex } from '#lib/store/schema-index.ts';
import { pageOf } from './access.ts';
import { databaseOf } from './databases.ts';
import type { PatternCreateBody, PatternUpdateBody } from './inputs.ts';

/** The SQL guard's verdict on a pattern's SQL: 400 with the guard's code when it refuses. */
export const checkPatternSql = async (database: DatabaseRecord, sql: string): Promise<void> => {
  const catalog = await readSchemaIndex(database);
  if (!catalog) throw notIndexed(database.id, 'a query pattern');
  const outcome = await checkSavedSql(sql, catalog, effectivePolicy(database));
  if (!outcome.allowed) {
    const message = `The SQL was refused by the SQL guard: ${outcome.code}: ${outcome.message}`;
    throw new ServiceError('VALIDATION', {
      message,
      detail: outcome.code,
      issues: [{ field: 'body.sql', message: outcome.message, code: outcome.code }],
    });
  }
};

const tooManyPatterns = (databaseId: string) =>
  new ServiceError('VALIDATION', {
    message: `Database ${databaseId} already has ${MAX_PATTERNS} query patterns, the most it keeps: delete one first`,
    detail: 'TOO_MANY_PATTERNS',
  });

const duplicateQuestion = () =>
  new ServiceError('DUPLICATE_ENTRY', {
    message: 'The database already has a query pattern for this question',
    issues: [
      { field: 'body.question', message: 'a pattern for this question exists', code: 'DUPLICATE_ENTRY' },
    ],
  });

const patternOf = async (databaseId: string, id: string): Promise<QueryPattern> => {
  const pattern = await findPattern(databaseId, id);
  if (!pattern) throw new ServiceError('PATTERN_NOT_FOUND', { message: `Query pattern ${id} not found` });
  return pattern;
};

/** Adds a pattern to a database of the organization (the admin command finds it by id alone). */
export const createPattern = async (
  database: DatabaseRecord,
  body: v.InferOutput<typeof PatternCreateBody>,
): Promise<PublicPattern> => {
  const existing = await listPatterns(database.id);
  const wanted = normalisedQuestion(body.question);
  if (existing.some((pattern) => normalisedQuestion(pattern.question) === wanted)) throw duplicateQuestion();
  if (existing.filter(countsAgainstLimit).length >= MAX_PATTERNS) throw tooManyPatterns(database.id);
  await checkPatternSql(database, body.sql);
  return publicPattern(await addPattern(database.id, body));
};

export const addDatabasePattern = async (
  organizationId: number,
  databaseId: string,
  body: v.InferOutput<typeof PatternCreateBody>,
): Promise<PublicPattern> => createPattern(await databaseOf(organizationId, databaseId), body);

export const listPatternPage = async (
  organizationId: number,
  databaseId: string,
  page: number,
  pageSize: number,
  status?: PatternStatus,
) => {
  await databaseOf(organizationId, databaseId);
  const all = await listPatterns(databaseId);
  const { items, totalItems } = pageOf(
    status === undefined ? all : all.filter((pattern) => pattern.status === status),
    page,
    pageSize,
  );
  return { items: items.map(publicPattern), totalItems };
};

export const updatePattern = async (
  organizationId: number,
  databaseId: string,
  id: string,
  body: v.InferOutput<typeof PatternUpdateBody>,
): Promise<PublicPattern> => {
  const database = await databaseOf(organizationId, databaseId);
  const current = await patternOf(databaseId, id);
  if (body.question !== undefined) {
    const wanted = normalisedQuestion(body.question);
    const others = (await listPatterns(databaseId)).filter((pattern) => pattern.id !== id);
    if (others.some((pattern) => normalisedQuestion(pattern.question) === wanted)) throw duplicateQuestion();
  }
  // The SQL is checked when it changes, and when a candidate is approved (the guard of today).
  const approving = body.status === 'approved' && current.status !== 'approved';
  // A visitor's candidate takes a place of the organization's patterns when it is approved.
  if (approving && !countsAgainstLimit(current)) {
    const taken = (await listPatterns(databaseId)).filter(countsAgainstLimit).length;
    if (taken >= MAX_PATTERNS) throw tooManyPatterns(database.id);
  }
  if (body.sql !== undefined || approving) await checkPatternSql(database, body.sql ?? current.sql);
  const { notes: _notes, ...rest } = current;
  const notes = body.notes === undefined ? current.notes : (body.notes ?? undefined);
  return publicPattern(
    await replacePattern({
      ...rest,
      ...(body.question !== undefined ? { question: body.question } : {}),
      ...(body.sql !== undefined ? { sql: body.sql } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(notes ? { notes } : {}),
    }),
  );
};

export const deletePattern = async (
  organizationId: number,
  databaseId: string,
  id: string,
): Promise<{ message: string }> => {
  await databaseOf(organizationId, databaseId);
  await deletePatternRecord(databaseId, id);
  return { message: `Query pattern ${id} is deleted` };
};
