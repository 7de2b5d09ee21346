// `admin pattern add` and `admin pattern list` (docs/model-engines.md "Query patterns"): query patterns are
// question → SQL examples the model engines show to the model. Adding one is the control plane's
// operation (lib/manage/patterns.ts): the SQL guard checks it on entry, against the database's
// schema index and row policy with a placeholder tenant of the tenant column's type
// (lib/sql/saved-sql.ts), so a query the guard would refuse at answer time is never stored as an
// example to imitate. The guard still checks every query an engine proposes.
import * as v from 'valibot';
import { isServiceError } from '#lib/errors.ts';
import { createPattern } from '#lib/manage/patterns.ts';
import { listPatterns, NewPattern, publicPattern } from '#lib/store/patterns.ts';
import { AdminError, UsageError } from './args.ts';
import { databaseById, type Run, uuidOption } from './command.ts';

export const patternAdd: Run = async (values, connect) => {
  const databaseId = uuidOption('database', values.database);
  const parsed = v.safeParse(NewPattern, { question: values.question, sql: values.sql });
  if (!parsed.success) throw new UsageError(parsed.issues.map((issue) => issue.message).join('; '));

  await connect();
  const database = await databaseById(databaseId);
  // The control plane's operation (lib/manage/patterns.ts), with the command's messages.
  try {
    return await createPattern(database, parsed.output);
  } catch (error) {
    if (!isServiceError(error)) throw error;
    if (error.detail === 'SCHEMA_NOT_INDEXED')
      throw new AdminError(
        `database ${databaseId} has no schema index: run database index --id ${databaseId} first`,
      );
    const refusal = error.issues.find((issue) => issue.field === 'body.sql');
    if (refusal) throw new UsageError(`--sql refused by the SQL guard: ${refusal.code}: ${refusal.message}`);
    if (error.kind === 'DUPLICATE_ENTRY')
      throw new AdminError(`database ${databaseId} already has a pattern for this question`);
    throw error;
  }
};

export const patternList: Run = async (values, connect) => {
  const databaseId = uuidOption('database', values.database);
  await connect();
  await databaseById(databaseId);
  return { patterns: (await listPatterns(databaseId)).map(publicPattern) };
};
