// MySQL numbers node-sql-parser does not read (lib/dialects/mysql/parser.ts normaliseNumbers): an
// exponent without a point and a leading point are written with both, the same values, and
// nothing inside strings, quoted identifiers, comments or identifiers changes. Text MySQL reads as a
// number and node-sql-parser as a name (`0b1`, `1e3e3`) is refused, never printed as a name.
import { describe, expect, it } from 'vitest';
import { normaliseNumbers } from '#lib/dialects/mysql/parser.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { sampleCatalog, samplePolicy } from './sql-mysql-corpus.ts';

describe('normaliseNumbers', () => {
  it('writes exponents and leading or trailing points out in full', () => {
    expect(normaliseNumbers('SELECT 1e308, 2E-3, 1.5e3, .5e1, .5, 1., 10, 0.25')).toBe(
      'SELECT 1.0e308, 2.0e-3, 1.5e3, 0.5e1, 0.5, 1.0, 10, 0.25',
    );
  });

  it('leaves strings, quoted identifiers, comments and identifiers alone', () => {
    const sql =
      "SELECT '1e3', \"2e5\", `1e3`, t1e3, a.1e3, 123abc, 1ea, 0x1F FROM x -- 1e5 0b1\n/* .5 1e3x */ WHERE y = 'it''s 1e2 0b1' # 3e4";
    expect(normaliseNumbers(sql)).toBe(sql);
  });

  it('refuses what MySQL reads as a number and node-sql-parser as a name or another number', () => {
    for (const text of ['0b1', '0B1', '0X1F', '0xg1', '1e3e3', '1e3x', '1.5e3x', '1.e3a', '1e3.5'])
      expect(() => normaliseNumbers(`SELECT ${text} FROM t`), text).toThrow(/is not a number/);
  });
});

describe('the MySQL guard on such numbers', () => {
  it('refuses a bit value or a number glued to a name, as a parse error', async () => {
    for (const sql of ['SELECT 0b1 AS n', 'SELECT 1e3e3', 'SELECT 0X1e3 AS n', "SELECT 0x1e3, 0b1, X'1e'"]) {
      const outcome = await guardMysql({
        sql,
        catalog: sampleCatalog(),
        policy: samplePolicy(),
        tenant: 1,
        rowCap: 100,
      });
      expect(outcome, sql).toMatchObject({ allowed: false, code: 'PARSE_ERROR' });
    }
  });

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
