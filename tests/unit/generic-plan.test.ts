// The statement the cost ceiling plans (lib/sql/generic-plan.ts): value constants become
// parameters numbered after the bound ones; positions, LIMIT / OFFSET, type modifiers and unit or
// format arguments stay, so the plan holds for every value and the statement still prepares.
import { beforeAll, describe, expect, it } from 'vitest';
import { genericStatement } from '#lib/sql/generic-plan.ts';
import { loadPostgresParser } from '#lib/sql/postgres-parser.ts';

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

  it('gives up on text that is not one statement', () => {
    expect(genericStatement('SELECT 1; SELECT 2', 0)).toBeUndefined();
    expect(genericStatement('SELEC nothing', 0)).toBeUndefined();
  });
});
