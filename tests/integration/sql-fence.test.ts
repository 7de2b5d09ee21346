// Each wrapped relation is an optimisation fence (docs/design.md "Tenant filtering and the SQL
// guard"): the fence corpus (tests/corpus/fence.ts) run through the guards on PGlite, on a
// PostgreSQL server (TABLETALK_TEST_POSTGRES_URL) and on MySQL/MariaDB (TABLETALK_TEST_MYSQL_URL).
// For every query and context: no error and no row when it targets another tenant's or scope's
// row, and no value of that row in the output; the same query on the caller's own row still
// fails (the probe is real); EXPLAIN shows every tenant table scanned with its filter and nothing
// but leakproof conditions beside it. Then the same checks on the guard's output with the fences
// taken out (what the rewrite printed before them), which must catch the leak: the corpus and
// the plan check would fail without the defence they test.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import type { GuardOutcome } from '#lib/sql/types.ts';
import {
  type FenceContext,
  type FenceQuery,
  fenceQueries,
  fill,
  MYSQL_FENCE_CONTEXTS,
  mysqlFenceQueries,
  mysqlPlanProblems,
  POSTGRES_FENCE_CONTEXTS,
  postgresPlanProblems,
  unfenced,
} from '../corpus/fence.ts';
import { corpusPolicy, pgliteRunner, pgRunner, type Run, schemaSql } from '../corpus/postgres-oracle.ts';
import { sampleCatalog, samplePolicy } from '../unit/sql-mysql-corpus.ts';
import {
  createSampleDatabase,
  dropDatabase,
  MYSQL_URL,
  openAdmin,
  outcome,
  ReadOnlyExecutor,
  uniqueName,
} from './sql-mysql-harness.ts';

const POSTGRES_URL = process.env.TABLETALK_TEST_POSTGRES_URL;
const ROW_CAP = 100;

/** Values of the rows a context must not see, and their first characters (error texts quote those). */
const foreignValues = (rows: readonly Record<string, unknown>[]): string[] => {
  const values = new Set<string>();
  for (const row of rows) {
    for (const value of Object.values(row)) {
      if (typeof value !== 'string' || value.length < 4) continue;
      values.add(value);
      values.add(value.slice(0, 4));
    }
  }
  return [...values];
};

const leakedValue = (output: unknown, values: readonly string[]): string | undefined => {
  // Case-folded: PostgreSQL lower-cases a unit it quotes back (`unit "slow export #2"`).
  const text = JSON.stringify(output).toLowerCase();
  return values.find((value) => text.includes(value.toLowerCase()));
};

// ---- PostgreSQL (PGlite and a server) --------------------------------------------------------

interface PostgresTarget {
  catalog: Catalog;
  run: Run;
  explain: (sql: string, params: readonly unknown[]) => Promise<unknown>;
  /** Runs a session-level SET (planner settings). */
  set: (sql: string) => Promise<void>;
  /** Unguarded, for the values of the targeted rows. */
  rows: (sql: string) => Promise<Record<string, unknown>[]>;
}

/** Planner settings each check runs under: the default plans, and index scans everywhere. */
const PLANNERS = [
  { label: 'default plans', sql: 'RESET enable_seqscan; RESET enable_bitmapscan' },
  { label: 'index scans', sql: 'SET enable_seqscan = off; SET enable_bitmapscan = off' },
];

/** The rows each context's foreign keys name, unguarded (schema.sql). */
const TARGETS_SQL = (keys: FenceContext['foreign']) => `
  SELECT email, name FROM public.customers WHERE id = ${keys.customer}
  UNION ALL SELECT name, name FROM public.organizations WHERE id = ${keys.org}
  UNION ALL SELECT subject, subject FROM public.tickets WHERE id = ${keys.ticket}
  UNION ALL SELECT name, category FROM public.products WHERE id = ${keys.product}
  UNION ALL SELECT status, status FROM public.orders WHERE id = ${keys.order}`;

const postgresFenceSuite = (target: () => PostgresTarget) => {
  const policy = corpusPolicy();
  const guard = (sql: string, context: FenceContext, pushDown = true): Promise<GuardOutcome> =>
    Promise.resolve(
      guardPostgres({
        sql,
        catalog: target().catalog,
        policy,
        tenant: context.tenant,
        ...(context.scope !== undefined ? { scope: context.scope } : {}),
        rowCap: ROW_CAP,
        pushDown,
      }),
    );

  /** Each (query, context, which) with its filled SQL. */
  const cases = (which: 'foreign' | 'own') =>
    fenceQueries().flatMap((query) =>
      POSTGRES_FENCE_CONTEXTS.flatMap((context) => {
        const sql = fill(query.sql, context[which]);
        return sql === undefined ? [] : [{ query, context, sql }];
      }),
    );

  it('holds at least 60 queries, each allowed by the guard', async () => {
    expect(fenceQueries().length).toBeGreaterThanOrEqual(60);
    for (const { query, context, sql } of [...cases('foreign'), ...cases('own')]) {
      expect(await guard(sql, context), `${query.id} (${context.label})`).toMatchObject({ allowed: true });
    }
  });

  for (const planner of PLANNERS) {
    it(`answers every query aimed at another tenant's or scope's row with no error and no row (${planner.label})`, async () => {
      // Arrange
      await target().set(planner.sql);
      const problems: string[] = [];
      for (const context of POSTGRES_FENCE_CONTEXTS) {
        const values = foreignValues(await target().rows(TARGETS_SQL(context.foreign)));
        expect(values.length).toBeGreaterThan(4);
        for (const query of fenceQueries()) {
          const sql = fill(query.sql, context.foreign)!;
          // Act
          const outcome = await guard(sql, context);
          if (!outcome.allowed) throw new Error(`${query.id}: refused ${outcome.code}`);
          const result = await target().run(outcome.sql, outcome.params);
          // Assert (collected: one report for the whole corpus)
          const leaked = leakedValue(result, values);
          if (!result.ok) problems.push(`${query.id} (${context.label}): error ${result.error}`);
          else if (result.rows.length > 0)
            problems.push(`${query.id} (${context.label}): ${result.rows.length} rows`);
          if (leaked) problems.push(`${query.id} (${context.label}): output holds ${leaked}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('still runs the controls: the same condition on the caller’s own row fails', async () => {
    await target().set(PLANNERS[0]!.sql);
    const quiet: string[] = [];
    for (const { query, context, sql } of cases('own')) {
      if (query.own === 'any') continue;
      const outcome = await guard(sql, context);
      if (!outcome.allowed) throw new Error(`${query.id}: refused ${outcome.code}`);
      const result = await target().run(outcome.sql, outcome.params);
      if (result.ok) quiet.push(`${query.id} (${context.label}): ${result.rows.length} rows, no error`);
    }
    expect(quiet).toEqual([]);
  });

  it('EXPLAIN: every tenant table is scanned with its filter and only leakproof conditions beside it, for the whole corpus', async () => {
    const problems: string[] = [];
    let plans = 0;
    for (const planner of PLANNERS) {
      await target().set(planner.sql);
      for (const pushDown of [true, false]) {
        for (const { query, context, sql } of [...cases('foreign'), ...cases('own')]) {
          const outcome = await guard(sql, context, pushDown);
          if (!outcome.allowed) throw new Error(`${query.id}: refused ${outcome.code}`);
          const found = postgresPlanProblems(await target().explain(outcome.sql, outcome.params), context);
          plans++;
          for (const problem of found)
            problems.push(`${query.id} (${context.label}, ${planner.label}): ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(plans).toBeGreaterThan(4 * fenceQueries().length * 2);
  });

  it('catches an unfenced wrapper: the plan check fails on the whole corpus and index scans leak rows’ values', async () => {
    // Arrange: index scans fetch the targeted row by key before the tenant filter is applied.
    await target().set(PLANNERS[1]!.sql);
    const unsafePlans = new Set<string>();
    const leaking = new Set<string>();
    for (const context of POSTGRES_FENCE_CONTEXTS) {
      const values = foreignValues(await target().rows(TARGETS_SQL(context.foreign)));
      for (const query of fenceQueries()) {
        const outcome = await guard(fill(query.sql, context.foreign)!, context, false);
        if (!outcome.allowed) throw new Error(`${query.id}: refused ${outcome.code}`);
        // Act
        const sql = unfenced(outcome.sql);
        const plan = await target().explain(sql, outcome.params);
        const result = await target().run(sql, outcome.params);
        // Assert (below)
        if (postgresPlanProblems(plan, context).length > 0) unsafePlans.add(query.id);
        if (!result.ok && leakedValue(result.error, values)) leaking.add(query.id);
      }
    }
    // A condition in the select list, ORDER BY, GROUP BY, HAVING or a window runs above WHERE,
    // fence or not; every WHERE and ON condition of the corpus must show up.
    expect(unsafePlans.size).toBeGreaterThan(fenceQueries().length * 0.7);
    expect(leaking.size).toBeGreaterThanOrEqual(8);
  });
};

describe('the fence on PGlite', () => {
  let db: PGlite;
  let catalog: Catalog;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(schemaSql());
    await db.exec('ANALYZE');
    catalog = await introspectPostgres(
      async (sql, params = []) => (await db.query<Record<string, unknown>>(sql, [...params])).rows,
    );
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  postgresFenceSuite(() => ({
    catalog,
    run: pgliteRunner(db, true),
    explain: async (sql, params) => {
      const result = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, [...params]);
      return result.rows[0]?.['QUERY PLAN'];
    },
    set: async (sql) => {
      await db.exec(sql);
    },
    rows: async (sql) => (await db.query<Record<string, unknown>>(sql)).rows,
  }));
});

describe.runIf(POSTGRES_URL)('the fence on a PostgreSQL server', () => {
  const name = `fence_test_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let client: pg.Client;
  let catalog: Catalog;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_URL!);
    url.pathname = `/${name}`;
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(schemaSql());
    await client.query('ANALYZE');
    catalog = await introspectPostgres(
      async (sql, params = []) => (await client.query<Record<string, unknown>>(sql, [...params])).rows,
    );
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  postgresFenceSuite(() => ({
    catalog,
    run: pgRunner(client, true, 5_000),
    explain: async (sql, params) => {
      const result = await client.query<{ 'QUERY PLAN': unknown }>({
        text: `EXPLAIN (FORMAT JSON) ${sql}`,
        values: [...params],
      });
      return result.rows[0]?.['QUERY PLAN'];
    },
    set: async (sql) => {
      await client.query(sql);
    },
    rows: async (sql) => (await client.query<Record<string, unknown>>(sql)).rows,
  }));
});

// ---- MySQL / MariaDB ------------------------------------------------------------------------

describe.runIf(MYSQL_URL)('the fence on MySQL/MariaDB', () => {
  const url = MYSQL_URL as string;
  const name = uniqueName('fence_test');
  let admin: mysql.Connection;
  let executor: ReadOnlyExecutor;

  beforeAll(async () => {
    admin = await openAdmin(url);
    await createSampleDatabase(admin, name);
    await admin.query(`USE \`${name}\``);
    executor = await ReadOnlyExecutor.open(url, name, 5_000);
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    if (admin) {
      await dropDatabase(admin, name);
      await admin.end();
    }
  });

  const guard = (sql: string, context: FenceContext): GuardOutcome =>
    guardMysql({
      sql,
      catalog: sampleCatalog(name),
      policy: samplePolicy(),
      tenant: context.tenant,
      ...(context.scope !== undefined ? { scope: context.scope } : {}),
      rowCap: ROW_CAP,
    }) as GuardOutcome;

  const allowed = (query: FenceQuery, sql: string, context: FenceContext) => {
    const outcome = guard(sql, context);
    if (!outcome.allowed) throw new Error(`${query.id}: refused ${outcome.code} ${outcome.message}`);
    return outcome;
  };

  const explain = async (sql: string, params: readonly unknown[]): Promise<unknown> => {
    const [rows] = await admin.execute<mysql.RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`, [
      ...params,
    ] as mysql.ExecuteValues);
    return JSON.parse(String(rows[0]?.EXPLAIN));
  };

  const targetValues = async (context: FenceContext): Promise<string[]> => {
    const keys = context.foreign;
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT email AS a, name AS b FROM customers WHERE id = ${keys.customer}
       UNION ALL SELECT name, name FROM organizations WHERE id = ${keys.org}
       UNION ALL SELECT subject, subject FROM tickets WHERE id = ${keys.ticket}`,
    );
    return foreignValues(rows);
  };

  it('holds the MySQL variant of the corpus, each query allowed by the guard', () => {
    expect(mysqlFenceQueries().length).toBeGreaterThanOrEqual(30);
    for (const query of mysqlFenceQueries()) {
      for (const context of MYSQL_FENCE_CONTEXTS) {
        for (const keys of [context.foreign, context.own]) allowed(query, fill(query.sql, keys)!, context);
      }
    }
  });

  it('answers every query aimed at another tenant’s or scope’s row with no error and no row', async () => {
    // Arrange
    const problems: string[] = [];
    for (const context of MYSQL_FENCE_CONTEXTS) {
      const values = await targetValues(context);
      expect(values.length).toBeGreaterThan(4);
      for (const query of mysqlFenceQueries()) {
        const guarded = allowed(query, fill(query.sql, context.foreign)!, context);
        // Act
        const result = await outcome(() => executor.run(guarded.sql, guarded.params));
        // Assert (collected)
        if ('error' in result) problems.push(`${query.id} (${context.label}): error ${result.error}`);
        else if (result.rows.length > 0)
          problems.push(`${query.id} (${context.label}): ${result.rows.length} rows`);
        const leaked = leakedValue(result, values);
        if (leaked) problems.push(`${query.id} (${context.label}): output holds ${leaked}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('still runs the controls: the same condition on the caller’s own row fails', async () => {
    const quiet: string[] = [];
    for (const query of mysqlFenceQueries()) {
      if (query.own === 'any') continue;
      for (const context of MYSQL_FENCE_CONTEXTS) {
        const guarded = allowed(query, fill(query.sql, context.own)!, context);
        const result = await outcome(() => executor.run(guarded.sql, guarded.params));
        if (!('error' in result)) quiet.push(`${query.id} (${context.label}): no error`);
      }
    }
    expect(quiet).toEqual([]);
  });

  it('EXPLAIN: every tenant table is a materialized derived table with only its filter inside', async () => {
    const problems: string[] = [];
    for (const query of mysqlFenceQueries()) {
      for (const context of MYSQL_FENCE_CONTEXTS) {
        for (const keys of [context.foreign, context.own]) {
          const guarded = allowed(query, fill(query.sql, keys)!, context);
          const plan = await explain(guarded.sql, guarded.params).catch((error: Error) => error);
          if (plan instanceof Error) {
            // EXPLAIN of the controls may fail on the caller's own row (the server folds a
            // one-row derived table while planning); the foreign targets may not.
            if (keys === context.foreign) problems.push(`${query.id} (${context.label}): ${plan.message}`);
            continue;
          }
          for (const problem of mysqlPlanProblems(plan, context)) {
            problems.push(`${query.id} (${context.label}): ${problem}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('catches an unfenced wrapper: merged or pushed-down tables, and errors that read the targeted row', async () => {
    const unsafe = new Set<string>();
    const leaking = new Set<string>();
    for (const context of MYSQL_FENCE_CONTEXTS) {
      for (const query of mysqlFenceQueries()) {
        const guarded = allowed(query, fill(query.sql, context.foreign)!, context);
        const sql = unfenced(guarded.sql);
        const plan = await explain(sql, guarded.params).catch((error: Error) => error);
        if (plan instanceof Error || mysqlPlanProblems(plan, context).length > 0) unsafe.add(query.id);
        const result = await outcome(() => executor.run(sql, guarded.params));
        if ('error' in result) leaking.add(query.id);
      }
    }
    // The rest read the targeted row as a constant table while planning, and their plans name
    // no table at all ("Impossible WHERE noticed after reading const tables").
    expect(unsafe.size).toBeGreaterThan(mysqlFenceQueries().length * 0.5);
    expect(leaking.size).toBeGreaterThanOrEqual(15);
  });
});
