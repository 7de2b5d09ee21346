// The PostgreSQL guard against real query execution on PGlite (in-process PostgreSQL), on every
// machine: the leak oracle over the whole corpus (tests/corpus/postgres-oracle.ts), a property
// test over random queries, and the corpus attacks meant to be stopped at execution (through
// the production PGlite connector, whose worker is terminated on timeout).
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { PgliteConnector } from '#lib/dialects/postgres/pglite.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import {
  CONTEXTS,
  copyDeletions,
  corpusAttacks,
  corpusCatalog,
  corpusPolicy,
  corpusQueries,
  difference,
  pgliteRunner,
  type Run,
  runOracle,
  schemaFile,
  schemaSql,
  stableCatalog,
} from '../corpus/postgres-oracle.ts';
import { randomQuery } from '../corpus/postgres-random.ts';

const ROW_CAP = 5_000;
const policy = corpusPolicy();

let full: PGlite;
const copies: PGliteInterface[] = [];
const copyRuns = new Map<string, Run>();
let catalog: Catalog;

beforeAll(async () => {
  full = await PGlite.create();
  await full.exec(schemaSql());
  catalog = await introspectPostgres(
    async (sql, params = []) => (await full.query<Record<string, unknown>>(sql, [...params])).rows,
  );
  for (const context of CONTEXTS) {
    const copy = await full.clone();
    await copy.exec(copyDeletions(context));
    copies.push(copy);
    copyRuns.set(context.label, pgliteRunner(copy, false));
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([full?.close(), ...copies.map((copy) => copy.close())]);
});

describe('PostgreSQL guard on PGlite: the leak oracle', () => {
  it('tests/corpus/catalog.json is what introspecting schema.sql returns', () => {
    // Assert: the unit tests' catalog has not drifted (regenerate: node tests/corpus/postgres-oracle.ts --write-catalog)
    expect({ ...stableCatalog(catalog), indexedAt: corpusCatalog().indexedAt }).toEqual(corpusCatalog());
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
      guarded: pgliteRunner(full, true),
      unguarded: pgliteRunner(full, false),
      copies: copyRuns,
    });
    console.info(
      `PGlite oracle: ${queries.length} queries × ${CONTEXTS.length} contexts, ${report.compared} compared, ` +
        `${report.nonEmpty} with rows, ${report.findings.length} findings; ` +
        `${report.sensitive} queries would leak without the guard`,
    );

    // Assert: zero differences, and a corpus that would have caught a leak
    expect(report.findings).toEqual([]);
    expect(report.compared).toBe(queries.length * CONTEXTS.length);
    expect(report.sensitive).toBeGreaterThan(queries.length * 0.6);
    expect(report.nonEmpty).toBeGreaterThan(report.compared * 0.6);
  }, 120_000);

  it('random queries (joins, LATERAL, subqueries, set operations, shadowing CTEs) never return another tenant’s rows', async () => {
    const guarded = pgliteRunner(full, true);
    let withRows = 0;
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
        if (actual.ok && actual.rows.length > 0) withRows++;
      }),
      { numRuns: 150, seed: Number(process.env.GUARD_PROPERTY_SEED ?? 20_250_101) },
    );
    // A property over empty results proves little.
    expect(withRows).toBeGreaterThan(50);
  }, 120_000);
});

describe('PostgreSQL guard on PGlite: attacks', () => {
  it('refuses every attack marked refused, with its code', async () => {
    const attacks = corpusAttacks().filter((attack) => attack.expect === 'refused');
    for (const attack of attacks) {
      const outcome = await guardPostgres({ sql: attack.sql, catalog, policy, tenant: 1, rowCap: 100 });
      expect(outcome, attack.id).toMatchObject({
        allowed: false,
        ...(attack.code ? { code: attack.code } : {}),
      });
    }
  });

  it('stops the rest at execution: an error, the cost ceiling or the timeout; never another tenant’s row', async () => {
    // Arrange: the production PGlite connector (worker thread, terminated on timeout)
    const connector = new PgliteConnector({ seedFile: schemaFile });
    const rowCap = 100;
    try {
      for (const attack of corpusAttacks().filter((a) => a.expect === 'stopped')) {
        const outcome = await guardPostgres({
          sql: attack.sql,
          catalog,
          policy,
          tenant: 1,
          scope: 'alice',
          rowCap,
        });
        if (!outcome.allowed) continue; // refusing is stopping too

        // Act
        const result = await connector
          .execute(outcome.sql, outcome.params, { timeoutMs: 1_000, maxCost: 1_000_000 })
          .catch((error: unknown) => error as Error);

        // Assert
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
