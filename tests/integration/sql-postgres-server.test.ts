// The PostgreSQL guard on a real PostgreSQL server (runs when TABLETALK_TEST_POSTGRES_URL is
// set, as in CI): the leak oracle over the corpus, the random-query property and the attacks
// stopped at execution, as tests/integration/sql-postgres-leaks.test.ts does on PGlite. Each run
// works in databases of its own (guard_test_<random>_*), dropped afterwards, so parallel suites
// never meet: one with the full data, one copy per tenant context.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import { PostgresConnector } from '#lib/dialects/postgres/connector.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import {
  CONTEXTS,
  copyDeletions,
  corpusAttacks,
  corpusPolicy,
  corpusQueries,
  difference,
  pgRunner,
  type Run,
  runOracle,
  schemaSql,
} from '../corpus/postgres-oracle.ts';
import { randomQuery } from '../corpus/postgres-random.ts';

const serverUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const ROW_CAP = 5_000;
const TIMEOUT_MS = 5_000;
const policy = corpusPolicy();

const urlOf = (database: string): string => {
  const url = new URL(serverUrl!);
  url.pathname = `/${database}`;
  return url.toString();
};

describe.runIf(serverUrl)('PostgreSQL guard on a PostgreSQL server', () => {
  const prefix = `guard_test_${randomBytes(4).toString('hex')}`;
  const fullName = `${prefix}_full`;
  const databases: string[] = [];
  const clients: pg.Client[] = [];
  const copyRuns = new Map<string, Run>();
  let admin: pg.Client;
  let full: pg.Client;
  let catalog: Catalog;

  const connect = async (database: string): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${fullName}`);
    databases.push(fullName);
    const seeding = new pg.Client({ connectionString: urlOf(fullName) });
    await seeding.connect();
    await seeding.query(schemaSql());
    await seeding.query('ANALYZE');
    await seeding.end();
    // Copies from the seeded database as a template (it must have no open connection meanwhile).
    for (const [index, context] of CONTEXTS.entries()) {
      const name = `${prefix}_c${index}`;
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${fullName}`);
      databases.push(name);
      const copy = await connect(name);
      await copy.query(copyDeletions(context));
      copyRuns.set(context.label, pgRunner(copy, false, TIMEOUT_MS));
    }
    full = await connect(fullName);
    catalog = await introspectPostgres(async (sql, params = []) => (await full.query(sql, [...params])).rows);
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.end()));
    for (const name of databases) await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  it('every legitimate corpus query returns exactly the context copy rows, in every context', async () => {
    // Arrange
    const queries = corpusQueries();

    // Act
    const report = await runOracle(queries, CONTEXTS, {
      guard: guardPostgres,
      catalog,
      policy,
      rowCap: ROW_CAP,
      guarded: pgRunner(full, true, TIMEOUT_MS),
      unguarded: pgRunner(full, false, TIMEOUT_MS),
      copies: copyRuns,
    });
    console.info(
      `PostgreSQL oracle: ${queries.length} queries × ${CONTEXTS.length} contexts, ${report.compared} compared, ` +
        `${report.nonEmpty} with rows, ${report.findings.length} findings; ` +
        `${report.sensitive} queries would leak without the guard`,
    );

    // Assert
    expect(report.findings).toEqual([]);
    expect(report.compared).toBe(queries.length * CONTEXTS.length);
    expect(report.sensitive).toBeGreaterThan(queries.length * 0.6);
  }, 120_000);

  it('random queries never return another tenant’s rows', async () => {
    const guarded = pgRunner(full, true, TIMEOUT_MS);
    await fc.assert(
      fc.asyncProperty(fc.gen(), fc.constantFrom(...CONTEXTS), async (g, context) => {
        // Arrange
        const sql = randomQuery(g);
        const expected = await copyRuns.get(context.label)!(sql);
        expect(expected, `the generator wrote a query PostgreSQL rejects: ${sql}`).toMatchObject({
          ok: true,
        });

        // Act
        const outcome = await guardPostgres({
          sql,
          catalog,
          policy,
          rowCap: ROW_CAP,
          tenant: context.tenant!,
          ...(context.scope ? { scope: context.scope } : {}),
        });
        if (!outcome.allowed) throw new Error(`refused ${outcome.code}: ${outcome.message}\n${sql}`);
        const actual = await guarded(outcome.sql, outcome.params);

        // Assert
        const problem = difference(expected, actual, false);
        if (problem) throw new Error(`${context.label}: ${problem}\n${sql}\n${outcome.sql}`);
      }),
      { numRuns: 100, seed: Number(process.env.GUARD_PROPERTY_SEED ?? 20_250_101) },
    );
  }, 120_000);

  it('stops attacks at execution (statement timeout, cost ceiling, row cap), never returning another tenant’s row', async () => {
    // Arrange: the production connector (read-only transaction, statement_timeout, pinned search_path)
    const connector = new PostgresConnector({ url: urlOf(fullName) });
    const rowCap = 100;
    try {
      for (const attack of corpusAttacks()) {
        const outcome = await guardPostgres({
          sql: attack.sql,
          catalog,
          policy,
          tenant: 1,
          scope: 'alice',
          rowCap,
        });
        if (attack.expect === 'refused') {
          expect(outcome, attack.id).toMatchObject({ allowed: false });
          continue;
        }
        if (!outcome.allowed) continue;

        // Act
        const started = performance.now();
        const result = await connector
          .execute(outcome.sql, outcome.params, { timeoutMs: 1_000, maxCost: 1_000_000 })
          .catch((error: unknown) => error as Error);

        // Assert
        expect(performance.now() - started, attack.id).toBeLessThan(5_000);
        if (result instanceof Error) continue;
        expect(result.rows.length, attack.id).toBeLessThanOrEqual(rowCap + 1);
        for (const row of result.rows) {
          for (const [column, value] of Object.entries(row)) {
            if (column.startsWith('org_id')) expect([1, null], `${attack.id}: ${column}`).toContain(value);
          }
        }
      }
    } finally {
      await connector.close();
    }
  }, 60_000);
});
