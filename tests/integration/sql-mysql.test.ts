// The MySQL guard (lib/dialects/mysql/sql-guard.ts) against a real MariaDB/MySQL server, when
// TABLETALK_TEST_MYSQL_URL names one. The leak oracle: for each legitimate query and tenant
// context, the guarded SQL over the full data returns exactly the rows the original query
// returns over a copy holding only that context's rows. Every attack is refused, contained
// (the same oracle) or stopped by the statement timeout.
import { isDeepStrictEqual } from 'node:util';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MYSQL_FUNCTIONS } from '#lib/dialects/mysql/functions.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import type { GuardOutcome, GuardRequest } from '#lib/sql/types.ts';
import {
  attacks,
  type CorpusQuery,
  inDatabase,
  legitimateQueries,
  PORTABLE_REFUSED,
  portableQueries,
  sampleCatalog,
  samplePolicy,
  sharedAttacks,
} from '../unit/sql-mysql-corpus.ts';
import {
  createFilteredCopy,
  createSampleDatabase,
  dropDatabase,
  MYSQL_URL,
  openAdmin,
  outcome,
  QueryTimeout,
  ReadOnlyExecutor,
  type TenantContext,
  uniqueName,
} from './sql-mysql-harness.ts';

const CONTEXTS: TenantContext[] = [
  { tenant: 1 },
  { tenant: 2, scope: 'alice' },
  { tenant: 3, scope: 'bob' },
  { tenant: 1, scope: 'carol' },
  { tenant: 4 },
];
const ORACLE_TIMEOUT_MS = 5_000;
const ATTACK_TIMEOUT_MS = 1_000;

describe.runIf(MYSQL_URL)('MySQL guard on a real server', () => {
  const url = MYSQL_URL as string;
  const full = uniqueName('guard_test');
  let admin: mysql.Connection;
  let onFull: ReadOnlyExecutor;
  let onFullShort: ReadOnlyExecutor;
  const copies: { context: TenantContext; database: string; executor: ReadOnlyExecutor }[] = [];

  const guardFor = (sql: string, database: string, context: Partial<TenantContext>, rowCap = 10_000) =>
    guardMysql({
      sql: inDatabase(sql, database),
      catalog: sampleCatalog(database),
      policy: samplePolicy(),
      ...context,
      rowCap,
    } as GuardRequest) as GuardOutcome;

  beforeAll(async () => {
    admin = await openAdmin(url);
    await createSampleDatabase(admin, full);
    onFull = await ReadOnlyExecutor.open(url, full, ORACLE_TIMEOUT_MS);
    onFullShort = await ReadOnlyExecutor.open(url, full, ATTACK_TIMEOUT_MS);
    for (const [index, context] of CONTEXTS.entries()) {
      const database = `${full}_c${index}`;
      await createFilteredCopy(admin, full, database, context);
      copies.push({
        context,
        database,
        executor: await ReadOnlyExecutor.open(url, database, ORACLE_TIMEOUT_MS),
      });
    }
  }, 60_000);

  afterAll(async () => {
    for (const copy of copies) {
      await copy.executor.close();
      await dropDatabase(admin, copy.database);
    }
    await onFull?.close();
    await onFullShort?.close();
    if (admin) {
      await dropDatabase(admin, full);
      await admin.end();
    }
  });

  /** The leak oracle over queries × contexts: problems found, and how many results compared. */
  const leakOracle = async (queries: CorpusQuery[]): Promise<{ problems: string[]; compared: number }> => {
    const problems: string[] = [];
    let compared = 0;
    for (const query of queries) {
      for (const { context, database, executor } of copies) {
        const guarded = guardFor(query.sql, full, context);
        if (!guarded.allowed) {
          problems.push(`${query.id}: refused ${guarded.code} ${guarded.message}`);
          continue;
        }
        const got = await outcome(() => onFull.run(guarded.sql, guarded.params));
        const want = await outcome(() => executor.run(inDatabase(query.sql, database)));
        if ('error' in want) problems.push(`${query.id}: the original fails on the copy: ${want.error}`);
        else if (!isDeepStrictEqual(got, want)) {
          problems.push(`${query.id} ${JSON.stringify(context)}: ${JSON.stringify(got).slice(0, 300)}`);
        }
        compared += 1;
      }
    }
    return { problems, compared };
  };

  it('answers each legitimate query with exactly the rows of the context’s own copy', async () => {
    // Arrange
    const queries = legitimateQueries();
    // Act
    const { problems, compared } = await leakOracle(queries);
    // Assert
    expect(problems).toEqual([]);
    expect(compared).toBe(queries.length * CONTEXTS.length);
  });

  it('answers the portable queries of the PostgreSQL corpus the same way', async () => {
    const queries = portableQueries().filter((query) => !(query.id in PORTABLE_REFUSED));
    const { problems, compared } = await leakOracle(queries);
    expect(problems).toEqual([]);
    expect(compared).toBe(queries.length * CONTEXTS.length);
  });

  it('prints SQL that returns what the original returns when nothing is filtered', async () => {
    // The printer's fidelity: with no tenant filter the guard only qualifies names and caps rows.
    const problems: string[] = [];
    const portable = portableQueries().filter((query) => !(query.id in PORTABLE_REFUSED));
    for (const query of [...legitimateQueries(), ...portable]) {
      const guarded = guardMysql({
        sql: inDatabase(query.sql, full),
        catalog: sampleCatalog(full),
        policy: samplePolicy(false),
        rowCap: 10_000,
      }) as GuardOutcome;
      if (!guarded.allowed) {
        problems.push(`${query.id}: refused ${guarded.code}`);
        continue;
      }
      expect(guarded.params).toEqual([]);
      const got = await outcome(() => onFull.run(guarded.sql));
      const want = await outcome(() => onFull.run(inDatabase(query.sql, full)));
      if (!isDeepStrictEqual(got, want)) problems.push(`${query.id}: ${guarded.sql}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses, contains or stops every attack', async () => {
    const problems: string[] = [];
    for (const attack of attacks()) {
      for (const { context, database, executor } of copies.slice(0, 3)) {
        const guarded = guardFor(attack.sql, full, context);
        const expectRefusal = attack.expect !== 'CONTAINED' && attack.expect !== 'STOPPED';
        if (!guarded.allowed || expectRefusal) {
          const got = guarded.allowed ? 'ALLOWED' : guarded.code;
          if (got !== attack.expect) problems.push(`${attack.id}: expected ${attack.expect}, got ${got}`);
          continue;
        }
        if (attack.expect === 'STOPPED') {
          const started = performance.now();
          const result = await outcome(() => onFullShort.run(guarded.sql, guarded.params));
          const elapsed = performance.now() - started;
          if (!('error' in result)) {
            problems.push(`${attack.id}: ran to completion`);
          } else if (elapsed > ATTACK_TIMEOUT_MS * 5) {
            problems.push(`${attack.id}: stopped only after ${elapsed} ms`);
          }
          continue;
        }
        // CONTAINED: the same guarded query over the tenant's copy, where filtering removes
        // nothing, must return the same rows (attack text may be read differently by the server
        // and the parser, so the original is no reference here).
        const onCopy = guardFor(attack.sql, database, context);
        if (!onCopy.allowed) {
          problems.push(`${attack.id}: refused on the copy`);
          continue;
        }
        const got = await outcome(() => onFull.run(guarded.sql, guarded.params));
        const want = await outcome(() => executor.run(onCopy.sql, onCopy.params));
        const sameFailure = 'error' in got && 'error' in want;
        if (!sameFailure && !isDeepStrictEqual(got, want)) {
          problems.push(`${attack.id} ${JSON.stringify(context)}: ${JSON.stringify(got).slice(0, 200)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses, contains or stops the attacks of the PostgreSQL corpus', async () => {
    const problems: string[] = [];
    const { context, database, executor } = copies[1]!;
    for (const attack of sharedAttacks()) {
      const guarded = guardFor(attack.sql, full, context);
      if (!guarded.allowed) continue;
      const onCopy = guardFor(attack.sql, database, context);
      if (!onCopy.allowed) {
        problems.push(`${attack.id}: refused on the copy only`);
        continue;
      }
      const got = await outcome(() => onFullShort.run(guarded.sql, guarded.params));
      if ('error' in got) continue; // stopped: an error or the statement timeout
      const want = await outcome(() => executor.run(onCopy.sql, onCopy.params));
      if (!isDeepStrictEqual(got, want)) problems.push(`${attack.id}: ${JSON.stringify(got).slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('is tested with the catalog of the sample database (tests/corpus/mysql-catalog.json)', async () => {
    const [rows] = await admin.query<mysql.RowDataPacket[]>(
      `SELECT c.TABLE_NAME AS relation, c.COLUMN_NAME AS name, t.TABLE_TYPE AS type
       FROM information_schema.COLUMNS c JOIN information_schema.TABLES t USING (TABLE_SCHEMA, TABLE_NAME)
       WHERE c.TABLE_SCHEMA = ? ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
      [full],
    );
    const live = rows.map((row) => `${row.relation}.${row.name} ${row.type === 'VIEW' ? 'view' : 'table'}`);
    const catalog = sampleCatalog(full).relations.flatMap((relation) =>
      relation.columns.map((column) => `${relation.name}.${column.name} ${relation.kind}`),
    );
    expect(catalog.sort()).toEqual(live.sort());
  });

  it('stops a runaway query at the statement timeout', async () => {
    const guarded = guardFor(
      'SELECT COUNT(*) FROM orders a, orders b, orders c, orders d, orders e, orders f',
      full,
      { tenant: 1 },
    );
    expect(guarded.allowed).toBe(true);
    if (!guarded.allowed) return;
    await expect(onFullShort.run(guarded.sql, guarded.params)).rejects.toBeInstanceOf(QueryTimeout);
  });

  it('returns at most rowCap + 1 rows, whatever the query’s own LIMIT', async () => {
    const cases: [string, number][] = [
      ['SELECT id FROM orders', 6],
      ['SELECT id FROM orders ORDER BY id LIMIT 3', 3],
      ['SELECT id FROM orders ORDER BY id LIMIT 50', 6],
      ['SELECT id FROM orders ORDER BY id LIMIT 2, 50', 6],
      ['SELECT id FROM orders UNION ALL SELECT id FROM invoices', 6],
      ['(SELECT id FROM orders) UNION ALL (SELECT id FROM invoices) ORDER BY 1', 6],
      ['SELECT id, SUM(total) OVER w AS s FROM orders WINDOW w AS (ORDER BY id) ORDER BY id', 6],
      ['WITH o AS (SELECT id FROM orders) SELECT * FROM o', 6],
    ];
    for (const [sql, rows] of cases) {
      const guarded = guardFor(sql, full, { tenant: 2 }, 5);
      expect(guarded.allowed, sql).toBe(true);
      if (!guarded.allowed) continue;
      expect(await onFull.run(guarded.sql, guarded.params), sql).toHaveLength(rows);
    }
  });

  it('matches the scope exactly, not by the column’s collation', async () => {
    // Arrange: tickets.scope_id is case-insensitive; tenant 1 has an 'Alice' ticket.
    const naive = await onFull.run('SELECT scope_id FROM tickets WHERE org_id = 1 AND scope_id = ?', [
      'alice',
    ]);
    expect(naive.map(([scope]) => scope)).toContain('Alice');
    // Act
    const guarded = guardFor('SELECT scope_id FROM tickets', full, { tenant: 1, scope: 'alice' });
    // Assert
    expect(guarded.allowed).toBe(true);
    if (!guarded.allowed) return;
    const rows = await onFull.run(guarded.sql, guarded.params);
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map(([scope]) => scope))).toEqual(new Set(['alice']));
  });

  it('runs the same guarded aggregate twice on one connection', async () => {
    // The connector caches prepared statements; MariaDB 10.11 fails their re-execution under
    // ONLY_FULL_GROUP_BY for this shape, hence the pinned mode (sql-mysql-harness.ts).
    const guarded = guardFor('SELECT MAX(total) AS top FROM orders', full, { tenant: 1 });
    expect(guarded.allowed).toBe(true);
    if (!guarded.allowed) return;
    const first = await onFull.run(guarded.sql, guarded.params);
    expect(await onFull.run(guarded.sql, guarded.params)).toEqual(first);
  });

  it('allows only functions the server has (REGEXP_LIKE and GROUPING are MySQL 8 only, MariaDB 10.11 lacks them)', async () => {
    const missing: string[] = [];
    for (const name of MYSQL_FUNCTIONS) {
      // Any error but "FUNCTION … does not exist" (1305) means the server knows the name.
      const error = await admin.query(`SELECT ${name}()`).then(
        () => undefined,
        (caught: { errno?: number }) => caught,
      );
      if (error?.errno === 1305) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  it('reads exponent and leading-point numbers as the numbers they are, and runs them', async () => {
    for (const [sql, value] of [
      ['SELECT 1e308 AS n', 1e308],
      ['SELECT 1.5e3 AS n', 1500],
      ['SELECT .5e1 AS n', 5],
      ['SELECT 2E-3 AS n', 0.002],
      ['SELECT .5 AS n', 0.5],
    ] as const) {
      const guarded = guardFor(sql, full, { tenant: 1 });
      expect(guarded, sql).toMatchObject({ allowed: true });
      if (!guarded.allowed) continue;
      const rows = await onFull.run(guarded.sql, guarded.params);
      expect(Number(rows[0]?.[0]), sql).toBe(value);
    }
  });

  it('keeps the read-only transaction: a write inside it fails', async () => {
    await expect(onFull.run('UPDATE orders SET total = total WHERE id = 1')).rejects.toThrow(
      /read only|READ ONLY/i,
    );
  });
});
