// `admin sql check` (DESIGN.md "Operating it: the admin command"): what the SQL guard makes of
// each query for one tenant, and with --execute what the database answers. One JSON line per
// query, written as soon as that query is done:
//   {"id", "allowed": true, "sql": "<as run>", "params": [...], "rows": [...]}   (rows with --execute)
//   {"id", "allowed": false, "code": "<refusal code>", "message": "..."}
//   {"id", "allowed": true, "sql", "params", "error": {"code": "DB_QUERY_FAILED", "detail": "QUERY_TIMEOUT", "message"}}
// The failure line keeps sql and params so the operator sees which statement failed.
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import type { TenantValues } from '#lib/auth/tenant.ts';
import { defaultLimits } from '#lib/connectors/index.ts';
import type { Catalog, Connector } from '#lib/connectors/types.ts';
import { errorCatalogue, toServiceError } from '#lib/errors.ts';
import { effectivePolicy } from '#lib/sql/policy.ts';
import type { Guard } from '#lib/sql/types.ts';
import type { DatabaseRecord, Engine } from '#lib/store/databases.ts';
import { UsageError } from './args.ts';

/** Rows an answer shows at most (DESIGN.md "Chat answers"); the guard adds LIMIT cap+1. */
export const ROW_CAP = 100;

export interface CheckQuery {
  id: string | number;
  sql: string;
}

const QueryLine = v.object({
  id: v.union([v.pipe(v.string(), v.minLength(1)), v.number()]),
  sql: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
});

/** The queries of a .jsonl file; a bad line is a UsageError naming its number. */
export const readQueries = (path: string): CheckQuery[] => {
  const queries: CheckQuery[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new UsageError(`--jsonl: line ${index + 1} is not JSON`);
      }
      const result = v.safeParse(QueryLine, parsed);
      if (!result.success) {
        const issue = result.issues[0];
        throw new UsageError(
          `--jsonl: line ${index + 1}: ${v.getDotPath(issue) ?? 'line'} ${issue.message.includes('Invalid') ? 'must be given ({"id": "...", "sql": "..."})' : issue.message}`,
        );
      }
      queries.push(result.output);
    });
  if (queries.length === 0) throw new UsageError('--jsonl: the file holds no queries');
  return queries;
};

/** The guard of an engine's dialect, imported only when needed (the parsers are heavy). */
export const guardFor = async (engine: Engine): Promise<Guard> =>
  engine === 'mysql'
    ? (await import('#lib/sql/mysql.ts')).guardMysql
    : (await import('#lib/sql/postgres.ts')).guardPostgres;

export interface SqlCheckInput {
  database: DatabaseRecord;
  catalog: Catalog;
  queries: readonly CheckQuery[];
  tenantValues: TenantValues;
  /** Present with --execute: the database's connector. */
  connector?: () => Promise<Connector>;
  timeoutMs?: number;
  emit: (line: unknown) => Promise<void>;
}

export const runSqlCheck = async (input: SqlCheckInput): Promise<void> => {
  const guard = await guardFor(input.database.engine);
  const policy = effectivePolicy(input.database);
  const limits = defaultLimits(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {});
  for (const query of input.queries) {
    let outcome: Awaited<ReturnType<Guard>>;
    try {
      outcome = await guard({
        sql: query.sql,
        catalog: input.catalog,
        policy,
        ...input.tenantValues,
        rowCap: ROW_CAP,
      });
    } catch (error) {
      await input.emit({
        id: query.id,
        allowed: false,
        code: 'GUARD_ERROR',
        message: `The guard failed: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    if (!outcome.allowed) {
      await input.emit({ id: query.id, allowed: false, code: outcome.code, message: outcome.message });
      continue;
    }
    const allowed = { id: query.id, allowed: true, sql: outcome.sql, params: outcome.params };
    if (!input.connector) {
      await input.emit(allowed);
      continue;
    }
    try {
      const result = await (await input.connector()).execute(outcome.sql, outcome.params, limits);
      await input.emit({ ...allowed, rows: result.rows });
    } catch (error) {
      const failure = toServiceError(error);
      await input.emit({
        ...allowed,
        error: {
          code: errorCatalogue[failure.kind].code,
          ...(failure.detail !== undefined ? { detail: failure.detail } : {}),
          message: failure.message,
        },
      });
    }
  }
};
