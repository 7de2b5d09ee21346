// The statement the cost ceiling plans (lib/dialects/postgres/generic-plan.ts): value constants become
// parameters numbered after the bound ones; positions, LIMIT / OFFSET, type modifiers and unit or
// format arguments stay, so the plan holds for every value and the statement still prepares.
import { beforeAll, describe, expect, it } from 'vitest';
import { genericStatement } from '#lib/dialects/postgres/generic-plan.ts';
import { loadPostgresParser } from '#lib/dialects/postgres/parser.ts';

beforeAll(() => loadPostgresParser());

describe('genericStatement', () => {
  it('turns every compared value into a parameter after the bound ones', () => {
    const statement = genericStatement(
      "SELECT count(*) FROM (SELECT * FROM customers WHERE org_id = $1) a WHERE a.city = 'Kyoto' AND a.id < 5000 AND NOT true",
      1,
    );
    expect(statement?.parameters).toBe(4);
    expect(statement?.sql).not.toMatch(/Kyoto|5000|true/i);
    expect(statement?.sql).toContain('a.city = $2');
  });

  it('keeps what shapes the statement: positions, LIMIT, type modifiers, units and formats', () => {
    const statement = genericStatement(
      "SELECT date_trunc('month', d) AS m, to_char(d, 'YYYY'), x::varchar(10) FROM t WHERE s = 'x' GROUP BY 1 ORDER BY 1 LIMIT 10",
      0,
    );
    expect(statement?.sql).toContain("date_trunc('month', d)");
    expect(statement?.sql).toContain("to_char(d, 'YYYY')");
    expect(statement?.sql).toContain('varchar(10)');
    expect(statement?.sql).toMatch(/GROUP BY 1 ORDER BY 1 LIMIT 10$/);
    expect(statement?.sql).toContain('s = $1');
    expect(statement?.parameters).toBe(1);
  });

  it('parameterises values inside GROUP BY, ORDER BY and LIMIT, keeping only bare integers there', () => {
    const statement = genericStatement(
      "SELECT a.id FROM customers a GROUP BY 1, (SELECT count(*) FROM customers AS b WHERE b.city = 'Kyoto') ORDER BY 2 DESC, a.id + 7 LIMIT (SELECT count(*) FROM customers c WHERE c.city = 'Nara') OFFSET 3",
      0,
    );
    expect(statement?.sql).not.toMatch(/Kyoto|Nara|\+ 7/);
    expect(statement?.sql).toContain('GROUP BY 1, (SELECT count(*) FROM customers AS b WHERE b.city = $1)');
    expect(statement?.sql).toContain('ORDER BY 2 DESC, a.id + $2');
    expect(statement?.sql).toMatch(
      /LIMIT \(SELECT count\(\*\) FROM customers AS c WHERE c\.city = \$3\) OFFSET 3$/,
    );
    expect(statement?.parameters).toBe(3);
  });

  it('gives a typed form that casts each parameter to its constant’s own type', () => {
    const statement = genericStatement("SELECT 'x' IS NOT NULL, 5, 1.5, true FROM t WHERE $1 = 1", 1);
    expect(statement?.typedSql).toBe(
      'SELECT CAST($2 AS text) IS NOT NULL, CAST($3 AS integer), CAST($4 AS numeric), CAST($5 AS boolean) FROM t WHERE $1 = CAST($6 AS integer)',
    );
    expect(statement?.sql).toBe('SELECT $2 IS NOT NULL, $3, $4, $5 FROM t WHERE $1 = $6');
  });

  it('keeps the marks of a CYCLE clause, which the grammar wants constant', () => {
    const statement = genericStatement(
      "WITH RECURSIVE t AS (SELECT id FROM c WHERE name = 'x' UNION ALL SELECT c.id FROM c JOIN t ON c.parent_id = t.id) CYCLE id SET is_cycle TO true DEFAULT false USING path SELECT count(*) FROM t",
      0,
    );
    expect(statement?.sql).toContain('CYCLE id SET is_cycle TO true DEFAULT false USING path');
    expect(statement?.sql).toContain('name = $1');
    expect(statement?.parameters).toBe(1);
  });

  it('gives up on text that is not one statement', () => {
    expect(genericStatement('SELECT 1; SELECT 2', 0)).toBeUndefined();
    expect(genericStatement('SELEC nothing', 0)).toBeUndefined();
  });
});
