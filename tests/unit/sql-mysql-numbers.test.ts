// MySQL numbers node-sql-parser does not read (lib/sql/mysql-parser.ts normaliseNumbers): an
// exponent without a point and a leading point are written with both, the same values, and
// nothing inside strings, quoted identifiers, comments or identifiers changes.
import { describe, expect, it } from 'vitest';
import { guardMysql } from '#lib/sql/mysql.ts';
import { normaliseNumbers } from '#lib/sql/mysql-parser.ts';
import { sampleCatalog, samplePolicy } from './sql-mysql-corpus.ts';

describe('normaliseNumbers', () => {
  it('writes exponents and leading or trailing points out in full', () => {
    expect(normaliseNumbers('SELECT 1e308, 2E-3, 1.5e3, .5e1, .5, 1., 10, 0.25')).toBe(
      'SELECT 1.0e308, 2.0e-3, 1.5e3, 0.5e1, 0.5, 1.0, 10, 0.25',
    );
  });

  it('leaves strings, quoted identifiers, comments and identifiers alone', () => {
    const sql =
      "SELECT '1e3', \"2e5\", `1e3`, t1e3, 1e3x, a.1e3 FROM x -- 1e5\n/* .5 */ WHERE y = 'it''s 1e2' # 3e4";
    expect(normaliseNumbers(sql)).toBe(sql);
  });
});

describe('the MySQL guard on such numbers', () => {
  it('prints them as numbers, never as columns', async () => {
    for (const sql of ['SELECT 1e308 AS n', 'SELECT 2E-3 AS n', 'SELECT .5e1 AS n', 'SELECT 1.5e3 AS n']) {
      const outcome = await guardMysql({
        sql,
        catalog: sampleCatalog(),
        policy: samplePolicy(),
        tenant: 1,
        rowCap: 100,
      });
      expect(outcome, sql).toMatchObject({ allowed: true });
      if (outcome.allowed) expect(outcome.sql, sql).not.toContain('`1e');
    }
  });
});
