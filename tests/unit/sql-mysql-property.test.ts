// Property test of the MySQL guard without a server: for random queries over the sample shop
// (tests/unit/sql-mysql-arbitraries.ts), the printed SQL reads every tenant table only through
// its filtering derived table. Checked twice: on the text with regular expressions (no parser)
// and with the tree check of lib/dialects/mysql/verify.ts. The server-side version, with the leak
// oracle, is tests/integration/sql-mysql-property.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStatements } from '#lib/dialects/mysql/parser.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { filteringProblems } from '#lib/dialects/mysql/verify.ts';
import type { GuardOutcome } from '#lib/sql/types.ts';
import { SAMPLE_TABLES, sampleQuery } from './sql-mysql-arbitraries.ts';
import {
  attacks,
  inDatabase,
  legitimateQueries,
  portableQueries,
  sampleCatalog,
  samplePolicy,
} from './sql-mysql-corpus.ts';

/** The sample policy written out: tenant column and scope column per table. */
const FILTERED: Record<string, { tenant: string; scope?: string }> = {
  organizations: { tenant: 'id' },
  customers: { tenant: 'org_id', scope: 'scope_id' },
  products: { tenant: 'org_id' },
  orders: { tenant: 'org_id', scope: 'scope_id' },
  order_items: { tenant: 'org_id' },
  invoices: { tenant: 'organization_id' },
  tickets: { tenant: 'org_id', scope: 'scope_id' },
  order_summary: { tenant: 'org_id', scope: 'scope_id' },
};

const filterText = (table: string, scoped: boolean): string => {
  const { tenant, scope } = FILTERED[table]!;
  const scopeTerms =
    scoped && scope
      ? ` AND \`${table}\`.\`${scope}\` = ? AND CAST(\`${table}\`.\`${scope}\` AS BINARY) = ?`
      : '';
  return `(SELECT * FROM \`shop\`.\`${table}\` WHERE \`${table}\`.\`${tenant}\` = ?${scopeTerms} LIMIT 18446744073709551615) AS `;
};

/** Problems seen in the printed text alone. */
const textProblems = (sql: string, params: readonly unknown[], scoped: boolean): string[] => {
  const problems: string[] = [];
  for (const match of sql.matchAll(/`shop`\.`(\w+)`/g)) {
    const table = match[1]!;
    if (!(table in FILTERED)) continue;
    const start = match.index - '(SELECT * FROM '.length;
    const expected = filterText(table, scoped);
    if (sql.slice(start, start + expected.length) !== expected)
      problems.push(`${table} read without its filter`);
  }
  const names = SAMPLE_TABLES.map((t) => t.name).join('|');
  for (const match of sql.matchAll(new RegExp(`(FROM|JOIN) \`(${names})\`(?!\\.)`, 'g'))) {
    problems.push(`unqualified ${match[2]}`);
  }
  const outsideStrings = sql.replace(/'(?:[^']|'')*'/g, "''");
  if (outsideStrings.split('?').length - 1 !== params.length) problems.push('placeholder count');
  return problems;
};

describe('guardMysql property: every tenant table is read through its filter', () => {
  for (const context of [{ tenant: 3 }, { tenant: 1, scope: 'alice' }]) {
    it(`holds for random queries (${JSON.stringify(context)})`, () => {
      fc.assert(
        fc.property(sampleQuery, (sql) => {
          const outcome = guardMysql({
            sql,
            catalog: sampleCatalog(),
            policy: samplePolicy(),
            ...context,
            rowCap: 100,
          }) as GuardOutcome;
          expect(outcome).toMatchObject({ allowed: true });
          if (!outcome.allowed) return;
          expect(textProblems(outcome.sql, outcome.params, 'scope' in context)).toEqual([]);
          const tree = parseStatements(outcome.sql)[0]!;
          expect(
            filteringProblems(
              tree,
              { catalog: sampleCatalog(), policy: samplePolicy(), ...context },
              outcome.params.length,
            ),
          ).toEqual([]);
          for (const value of outcome.params)
            expect([context.tenant, 'scope' in context ? context.scope : 0]).toContain(value);
        }),
        { numRuns: 200 },
      );
    });
  }
});

/** Fragments spliced into corpus queries at random places. */
const FRAGMENTS = [
  ' UNION SELECT * FROM platform_admins',
  ' UNION ALL SELECT 1',
  '(',
  ')',
  ' WITH x AS (SELECT 1) ',
  ' JOIN orders o9 ON 1 = 1',
  ' WHERE 1 = 1',
  ',',
  "'",
  '"',
  '`',
  ' AND EXISTS (SELECT 1 FROM customers)',
  ' OVER ()',
  ' INTERVAL 1 DAY',
  ' NOT',
  ' LATERAL',
  ' RECURSIVE',
  ' -',
  ' @a',
  ' INTO @x',
  ' FOR UPDATE',
  ' (SELECT id FROM orders)',
  ' orders',
  ' shop.orders',
  ' mysql.user',
  ' .',
  ' ;',
];

describe('guardMysql property: mangled corpus queries', () => {
  it('never throws, and whatever it allows reads tenant tables through their filter', () => {
    const corpus = [...legitimateQueries(), ...portableQueries(), ...attacks()].map((q) =>
      inDatabase(q.sql, 'shop'),
    );
    const edit = fc.tuple(fc.nat(), fc.constantFrom(...FRAGMENTS), fc.nat({ max: 6 }));
    fc.assert(
      fc.property(
        fc.constantFrom(...corpus),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (base, edits) => {
          let sql = base;
          for (const [at, fragment, cut] of edits) {
            const position = at % (sql.length + 1);
            sql = `${sql.slice(0, position)}${fragment}${sql.slice(position + cut)}`;
          }
          const context = { catalog: sampleCatalog(), policy: samplePolicy(), tenant: 1, scope: 'alice' };
          const outcome = guardMysql({ sql, ...context, rowCap: 100 }) as GuardOutcome;
          if (!outcome.allowed) return;
          // The tree check only: mangled text can hold `shop`.`orders` as a column reference.
          expect(filteringProblems(parseStatements(outcome.sql)[0]!, context, outcome.params.length)).toEqual(
            [],
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
