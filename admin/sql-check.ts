// `admin sql check` (docs/design.md "Operating it: the admin command"): what the SQL guard makes of
// each query for one tenant, and with --execute what the database answers. One JSON line per
// query, written as soon as that query is done:
//   {"id", "allowed": true, "sql": "<as run>", "params": [...], "rows": [...]}   (rows with --execute)
//   {"id", "allowed": false, "code": "<refusal code>", "message": "..."}
//   {"id", "allowed": true, "sql", "params", "error": {"code": "DB_QUERY_FAILED", "detail": "QUERY_TIMEOUT", "message"}}
// The failure line keeps sql and params so the operator sees which statement failed.
// A --jsonl line that is not a query (not JSON, no sql, an unknown field) is answered in its
// place with {"id", "allowed": false, "code": "INVALID_INPUT", "message"} and the run goes on:
// one bad line of a long batch must not cost the answers to all the others.
import { readFileSync } from 'node:fs';
import type { TenantValues } from '#lib/auth/tenant.ts';
import { defaultLimits } from '#lib/connectors/index.ts';
import type { Connector } from '#lib/connectors/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { engineNamed } from '#lib/dialects/index.ts';
import { guardOf } from '#lib/dialects/machinery.ts';
import { errorCatalogue, toServiceError } from '#lib/errors.ts';
import type { Guard } from '#lib/sql/types.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { UsageError } from './args.ts';

/** Rows an answer shows at most (docs/design.md "Chat answers"); the guard adds LIMIT cap+1. */
const ROW_CAP = 100;

interface CheckQuery {
  id: string | number;
  sql: string;
}

/** A --jsonl line that is not a query: answered as INVALID_INPUT, never run. */
interface InvalidLine {
  id: string | number;
  invalid: string;
}

type CheckItem = CheckQuery | InvalidLine;

/** The code answering a line that is not a query; no guard refusal code (lib/sql) is spelled so. */
const INVALID_INPUT = 'INVALID_INPUT';

const lineId = (value: unknown): string | number | undefined =>
  (typeof value === 'string' && value !== '') || typeof value === 'number' ? value : undefined;

/** Field names as the message shows them: quoted, cut short, at most five. */
const fieldNames = (names: readonly string[]): string =>
  names
    .slice(0, 5)
    .map((name) => JSON.stringify(name.slice(0, 40)))
    .join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');

/**
 * One record of a .jsonl file: `{"id": string | number, "sql": "..."}` and nothing else, or the
 * reasons it is not one. Its id is the line's own when that is usable, else `line-<n>`.
 */
const readLine = (line: string, number: number): CheckItem => {
  const fallbackId = `line-${number}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : '';
    return { id: fallbackId, invalid: `line ${number} is not JSON${reason ? ` (${reason})` : ''}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      id: fallbackId,
      invalid: `line ${number} is not a JSON object like {"id": "q1", "sql": "SELECT ..."}`,
    };
  }
  const record = parsed as Record<string, unknown>;
  const id = lineId(record.id);
  const problems: string[] = [];
  if (id === undefined)
    problems.push(record.id === undefined ? 'id is missing' : 'id must be a non-empty string or a number');
  if (record.sql === undefined) problems.push('sql is missing');
  else if (typeof record.sql !== 'string') problems.push('sql must be a string');
  else if (record.sql.trim() === '') problems.push('sql is empty');
  // A field the command does not read (a per-line "tenant", say) would be silently ignored and
  // the query checked for another tenant than the operator meant: refused instead.
  const unknown = Object.keys(record).filter((name) => name !== 'id' && name !== 'sql');
  if (unknown.length > 0) {
    problems.push(
      `unknown field${unknown.length > 1 ? 's' : ''} ${fieldNames(unknown)} (a line holds id and sql only)`,
    );
  }
  if (id === undefined || typeof record.sql !== 'string' || problems.length > 0) {
    return { id: id ?? fallbackId, invalid: `line ${number}: ${problems.join('; ')}` };
  }
  return { id, sql: record.sql };
};

/**
 * The records of a .jsonl file, one per line that is not blank, in order. A line that is empty or
 * only whitespace is not a record and gets no answer (a trailing newline, a separating blank
 * line); every other line gets exactly one. A file without a single record is a UsageError.
 */
export const readQueries = (path: string): CheckItem[] => {
  const items: CheckItem[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() !== '') items.push(readLine(line, index + 1));
    });
  if (items.length === 0) throw new UsageError('--jsonl: the file holds no queries');
  return items;
};

/** The guard of an engine's dialect, imported only when needed (the parsers are heavy). */
const guardFor = (engine: string): Promise<Guard> => guardOf(engineNamed(engine).dialect.name);

interface SqlCheckInput {
  database: DatabaseRecord;
  catalog: Catalog;
  queries: readonly CheckItem[];
  tenantValues: TenantValues;
  /** Present with --execute: the database's connector. */
  connector?: () => Promise<Connector>;
  timeoutMs?: number;
  emit: (line: unknown) => Promise<void>;
}

/** How many lines were answered, and how many of them are failures rather than answers. */
interface SqlCheckSummary {
  lines: number;
  /** INVALID_INPUT: lines that were not queries. */
  invalid: number;
  /** GUARD_ERROR: the guard itself failed on the query (a refusal is an answer, not a failure). */
  guardErrors: number;
  /** With --execute: allowed queries the database failed or timed out on. */
  queryErrors: number;
}

export const runSqlCheck = async (input: SqlCheckInput): Promise<SqlCheckSummary> => {
  const guard = await guardFor(input.database.engine);
  const policy = effectivePolicy(input.database);
  const limits = defaultLimits(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {});
  const summary: SqlCheckSummary = { lines: 0, invalid: 0, guardErrors: 0, queryErrors: 0 };
  for (const query of input.queries) {
    summary.lines += 1;
    if ('invalid' in query) {
      summary.invalid += 1;
      await input.emit({ id: query.id, allowed: false, code: INVALID_INPUT, message: query.invalid });
      continue;
    }
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
      summary.guardErrors += 1;
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
      summary.queryErrors += 1;
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
  return summary;
};
