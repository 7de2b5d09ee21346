// The leak oracle of the PostgreSQL guard's tests (tests/integration/sql-postgres-*.test.ts):
// for a tenant (and scope) context, the guarded query run on the full database must return
// exactly what the ORIGINAL query returns on a copy that holds only that context's rows. Any
// row of another tenant or scope would make the two differ.
//
// Also here: the corpus files, the sample database's row ownership (written out by hand, not
// derived from the guard's own policy code), test-only executors for PGlite and `pg` that run
// like production (read-only transaction, search_path pinned to pg_catalog), and the result
// comparison. `node tests/corpus/postgres-oracle.ts --write-catalog` rewrites catalog.json from
// schema.sql (the unit tests read that file instead of loading a database).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGliteInterface } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Catalog } from '#lib/core/catalog.ts';
import { type EffectivePolicy, effectivePolicy } from '#lib/core/row-policy.ts';
import { loadPostgresParser, parseStatements } from '#lib/dialects/postgres/parser.ts';
import type { Guard } from '#lib/sql/types.ts';

const corpusFile = (name: string): string => fileURLToPath(new URL(name, import.meta.url));

export const schemaFile = corpusFile('schema.sql');
export const schemaSql = (): string => readFileSync(schemaFile, 'utf8');

export interface CorpusQuery {
  id: string;
  sql: string;
  /** Portable to MySQL/MariaDB (the MySQL guard's tests run these too). */
  mysql?: true;
}

export interface CorpusAttack {
  id: string;
  sql: string;
  /** refused by the guard, or stopped at execution (error, timeout, row cap; never another tenant's row). */
  expect: 'refused' | 'stopped';
  /** The refusal code expected (attacks.jsonl records it where it is deterministic). */
  code?: string;
}

const jsonLines = <T>(name: string): T[] =>
  readFileSync(corpusFile(name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export const corpusQueries = (): CorpusQuery[] => jsonLines<CorpusQuery>('queries.jsonl');
export const corpusAttacks = (): CorpusAttack[] => jsonLines<CorpusAttack>('attacks.jsonl');

/** The row policy of the sample database (policy.json), as the guard applies it. */
export const corpusPolicy = (requiresScoping = true): EffectivePolicy =>
  effectivePolicy({
    requiresOrganizationScoping: requiresScoping,
    policy: JSON.parse(readFileSync(corpusFile('policy.json'), 'utf8')),
  });

/** The sample database's catalog as introspection returns it (catalog.json). */
export const corpusCatalog = (): Catalog =>
  JSON.parse(readFileSync(corpusFile('catalog.json'), 'utf8')) as Catalog;

/** What catalog.json keeps of an introspected catalog: no time stamp, estimates or samples. */
export const stableCatalog = (catalog: Catalog): Catalog => ({
  ...catalog,
  indexedAt: '2025-01-01T00:00:00.000Z',
  relations: catalog.relations.map((relation) => ({ ...relation, rowEstimate: 0, samples: {} })),
});

// ---- Contexts and per-context copies -------------------------------------------------------

export interface TenantContext {
  label: string;
  tenant?: number;
  scope?: string;
}

/** Tenants 1-3 hold rows, 4 holds none; scopes cut further (NULL-scope rows belong to no scope). */
export const CONTEXTS: TenantContext[] = [
  { label: 'tenant 1', tenant: 1 },
  { label: 'tenant 2 / alice', tenant: 2, scope: 'alice' },
  { label: 'tenant 3 / bob', tenant: 3, scope: 'bob' },
  { label: 'tenant 4 (no rows)', tenant: 4 },
];

/** Which rows belong to whom in schema.sql, stated independently of the guard's policy code. */
const OWNED: { table: string; tenant: string; scope?: string }[] = [
  { table: 'public.organizations', tenant: 'id' },
  { table: 'public.customers', tenant: 'org_id', scope: 'scope_id' },
  { table: 'public.products', tenant: 'org_id' },
  { table: 'public.orders', tenant: 'org_id', scope: 'scope_id' },
  { table: 'public.order_items', tenant: 'org_id' },
  { table: 'public.invoices', tenant: 'organization_id' },
  { table: 'public.tickets', tenant: 'org_id', scope: 'scope_id' },
  { table: 'public.categories', tenant: 'org_id' },
  { table: 'public."AuditLog"', tenant: 'org_id' },
  { table: 'analytics.daily_metrics', tenant: 'org_id' },
];

const literal = (value: string | number): string =>
  typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;

/** SQL that turns a full copy into the context's copy (foreign keys are not checked meanwhile). */
export const copyDeletions = (context: TenantContext): string => {
  const statements = ['SET session_replication_role = replica'];
  for (const { table, tenant, scope } of OWNED) {
    if (context.tenant !== undefined) {
      statements.push(`DELETE FROM ${table} WHERE ${tenant} IS DISTINCT FROM ${literal(context.tenant)}`);
    }
    if (scope && context.scope !== undefined) {
      statements.push(`DELETE FROM ${table} WHERE ${scope} IS DISTINCT FROM ${literal(context.scope)}`);
    }
  }
  statements.push('SET session_replication_role = DEFAULT');
  return `${statements.join(';\n')};`;
};

// ---- Executors ------------------------------------------------------------------------------

export type Outcome = { ok: true; columns: string[]; rows: string[] } | { ok: false; error: string };

/** Runs one query; `pinned` runs it as production runs guarded SQL. */
export type Run = (sql: string, params?: readonly unknown[]) => Promise<Outcome>;

const cell = (value: unknown): unknown => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(cell);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, child]) => [key, cell(child)]),
    );
  }
  return value;
};

/** Each row as one comparable string. */
const serialize = (rows: unknown[][]): string[] => rows.map((row) => JSON.stringify(row.map(cell)));

const PIN = 'SET LOCAL search_path = pg_catalog';

/** PGlite has no statement_timeout: only queries known to finish may run through this. */
export const pgliteRunner =
  (db: PGliteInterface, pinned: boolean): Run =>
  async (sql, params = []) => {
    await db.exec(pinned ? `BEGIN READ ONLY; ${PIN}` : 'BEGIN READ ONLY');
    try {
      const result = await db.query<unknown[]>(sql, [...params], { rowMode: 'array' });
      return { ok: true, columns: result.fields.map((field) => field.name), rows: serialize(result.rows) };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    } finally {
      await db.exec('ROLLBACK');
    }
  };

export const pgRunner =
  (client: pg.Client, pinned: boolean, timeoutMs: number): Run =>
  async (sql, params = []) => {
    await client.query(
      `BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeoutMs}${pinned ? `; ${PIN}` : ''}`,
    );
    try {
      const result = await client.query<unknown[]>({ text: sql, values: [...params], rowMode: 'array' });
      return { ok: true, columns: result.fields.map((field) => field.name), rows: serialize(result.rows) };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    } finally {
      await client.query('ROLLBACK');
    }
  };

// ---- Comparison -----------------------------------------------------------------------------

/** Whether the statement's result has an order (a top-level ORDER BY). */
export const isOrdered = async (sql: string): Promise<boolean> => {
  await loadPostgresParser();
  const [statement] = parseStatements(sql);
  const select = statement?.SelectStmt as { sortClause?: unknown[] } | undefined;
  return (select?.sortClause?.length ?? 0) > 0;
};

/** Why two outcomes differ, or undefined when they agree (as multisets, and in order when ordered). */
export const difference = (expected: Outcome, actual: Outcome, ordered: boolean): string | undefined => {
  if (!expected.ok || !actual.ok) {
    if (expected.ok === actual.ok) return undefined;
    return expected.ok
      ? `the guarded query failed: ${(actual as { error: string }).error}`
      : `the original failed (${(expected as { error: string }).error}) but the guarded query returned rows`;
  }
  if (expected.columns.join('\u0000') !== actual.columns.join('\u0000')) {
    return `columns differ: ${expected.columns.join(',')} vs ${actual.columns.join(',')}`;
  }
  const left = [...expected.rows].sort();
  const right = [...actual.rows].sort();
  const extra = right.filter((row) => !left.includes(row));
  if (left.length !== right.length || left.some((row, i) => row !== right[i])) {
    return `rows differ: expected ${left.length}, got ${right.length}; unexpected rows ${extra.slice(0, 3).join(' ')}`;
  }
  if (ordered && expected.rows.some((row, i) => row !== actual.rows[i])) return 'same rows in another order';
  return undefined;
};

// ---- The oracle -----------------------------------------------------------------------------

export interface OracleFinding {
  id: string;
  context: string;
  problem: string;
  sql?: string;
}

export interface OracleReport {
  /** (query, context) pairs compared. */
  compared: number;
  /** Pairs where the guarded result had at least one row. */
  nonEmpty: number;
  /** Queries whose unguarded run on the full data differs from the copy in some context. */
  sensitive: number;
  findings: OracleFinding[];
}

export interface OracleTarget {
  guard: Guard;
  catalog: Catalog;
  policy: EffectivePolicy;
  rowCap: number;
  /** Full data, guarded SQL (pinned search_path). */
  guarded: Run;
  /** Full data, original SQL: only to show the corpus would leak without the guard. */
  unguarded: Run;
  /** Per context label: the copy holding only that context's rows, original SQL. */
  copies: Map<string, Run>;
}

export const runOracle = async (
  queries: readonly CorpusQuery[],
  contexts: readonly TenantContext[],
  target: OracleTarget,
): Promise<OracleReport> => {
  const report: OracleReport = { compared: 0, nonEmpty: 0, sensitive: 0, findings: [] };
  for (const query of queries) {
    const ordered = await isOrdered(query.sql);
    const unguarded = await target.unguarded(query.sql);
    let sensitive = false;
    for (const context of contexts) {
      const outcome = await target.guard({
        sql: query.sql,
        catalog: target.catalog,
        policy: target.policy,
        rowCap: target.rowCap,
        ...(context.tenant !== undefined ? { tenant: context.tenant } : {}),
        ...(context.scope !== undefined ? { scope: context.scope } : {}),
      });
      if (!outcome.allowed) {
        report.findings.push({
          id: query.id,
          context: context.label,
          problem: `refused ${outcome.code}: ${outcome.message}`,
        });
        continue;
      }
      const expected = await target.copies.get(context.label)!(query.sql);
      if (!expected.ok) {
        report.findings.push({
          id: query.id,
          context: context.label,
          problem: `the original fails on the copy: ${expected.error}`,
        });
        continue;
      }
      const actual = await target.guarded(outcome.sql, outcome.params);
      report.compared++;
      if (actual.ok && actual.rows.length > 0) report.nonEmpty++;
      if (difference(expected, unguarded, ordered) !== undefined) sensitive = true;
      const problem = difference(expected, actual, ordered);
      if (problem) report.findings.push({ id: query.id, context: context.label, problem, sql: outcome.sql });
    }
    if (sensitive) report.sensitive++;
  }
  return report;
};

// `node tests/corpus/postgres-oracle.ts --write-catalog`: catalog.json from schema.sql.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write-catalog')) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { introspectPostgres } = await import('#lib/dialects/postgres/introspect.ts');
  const db = await PGlite.create();
  await db.exec(schemaSql());
  const catalog = await introspectPostgres(
    async (sql, params = []) => (await db.query<Record<string, unknown>>(sql, [...params])).rows,
  );
  writeFileSync(corpusFile('catalog.json'), `${JSON.stringify(stableCatalog(catalog), null, 2)}\n`);
  await db.close();
  console.log(`wrote tests/corpus/catalog.json (${catalog.relations.length} relations)`);
}
