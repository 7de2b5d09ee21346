// Property test of the MySQL guard on a real server (TABLETALK_TEST_MYSQL_URL): random queries
// over the sample shop (tests/unit/sql-mysql-arbitraries.ts), guarded and run over the full
// data, return exactly what the original returns over a copy holding only the context's rows.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import type { GuardOutcome } from '#lib/sql/types.ts';
import { sampleQuery } from '../unit/sql-mysql-arbitraries.ts';
import { sampleCatalog, samplePolicy } from '../unit/sql-mysql-corpus.ts';
import {
  createFilteredCopy,
  createSampleDatabase,
  dropDatabase,
  MYSQL_URL,
  openAdmin,
  outcome,
  ReadOnlyExecutor,
  type TenantContext,
  uniqueName,
} from './sql-mysql-harness.ts';

const CONTEXTS: TenantContext[] = [
  { tenant: 2 },
  { tenant: 1, scope: 'alice' },
  { tenant: 3, scope: 'carol' },
];

describe.runIf(MYSQL_URL)('MySQL guard property on a real server', () => {
  const url = MYSQL_URL as string;
  const full = uniqueName('guard_prop');
  let admin: mysql.Connection;
  let onFull: ReadOnlyExecutor;
  const copies: { context: TenantContext; database: string; executor: ReadOnlyExecutor }[] = [];

  beforeAll(async () => {
    admin = await openAdmin(url);
    await createSampleDatabase(admin, full);
    onFull = await ReadOnlyExecutor.open(url, full, 5_000);
    for (const [index, context] of CONTEXTS.entries()) {
      const database = `${full}_c${index}`;
      await createFilteredCopy(admin, full, database, context);
      copies.push({ context, database, executor: await ReadOnlyExecutor.open(url, database, 5_000) });
    }
  }, 60_000);

  afterAll(async () => {
    for (const copy of copies) {
      await copy.executor.close();
      await dropDatabase(admin, copy.database);
    }
    await onFull?.close();
    if (admin) {
      await dropDatabase(admin, full);
      await admin.end();
    }
  });

  it('returns the context’s own rows for random queries', async () => {
    await fc.assert(
      fc.asyncProperty(sampleQuery, fc.nat({ max: CONTEXTS.length - 1 }), async (sql, pick) => {
        const { context, executor } = copies[pick]!;
        const guarded = guardMysql({
          sql,
          catalog: sampleCatalog(full),
          policy: samplePolicy(),
          ...context,
          rowCap: 100_000,
        }) as GuardOutcome;
        expect(guarded).toMatchObject({ allowed: true });
        if (!guarded.allowed) return;
        const got = await outcome(() => onFull.run(guarded.sql, guarded.params));
        const want = await outcome(() => executor.run(sql));
        expect('error' in want ? want.error : '').toBe('');
        expect(isDeepStrictEqual(got, want), `${sql}\n${JSON.stringify(got)}\n${JSON.stringify(want)}`).toBe(
          true,
        );
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
