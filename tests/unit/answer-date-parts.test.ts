// Grouping by parts of a date beyond year, quarter and month (lib/answer/builtin/render.ts
// `timeExpressions`): the ISO weekday ("per weekday", "by day of the week"), the hour of the day
// and the ISO week, on a lettings and a library schema and on the shop; through both guards, on
// PGlite with known dates, and worded by the answer (Monday, 09:00, 2025-W14).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import { composeAnswer } from '#lib/answer/compose.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { askOn, FIXTURE_NOW as NOW, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col, ddlOf, type TableSpec } from '../fixtures/catalogs/define.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { lettingsCatalog as lettings, libraryCatalog as library } from '../fixtures/catalogs/unseen.ts';

const askLettings = askOn(lettings, 'agency_id');
const askLibrary = askOn(library, 'library_id');
const askShop = askOn(shopCatalog, 'org_id');

describe('a part of a date groups the rows', () => {
  it.each([
    [askLettings, 'leases per weekday', 'EXTRACT(ISODOW FROM l.start_date) AS period_weekday'],
    [
      askLettings,
      'how many maintenance requests by day of the week',
      'EXTRACT(ISODOW FROM mr.reported_on) AS period_weekday',
    ],
    [askLibrary, 'loans per day of week', 'EXTRACT(ISODOW FROM l.started_on) AS period_weekday'],
    [
      askLibrary,
      'loans per week in 2025',
      'EXTRACT(ISOYEAR FROM l.started_on) * 100 + EXTRACT(WEEK FROM l.started_on) AS period_week',
    ],
    [askShop, 'orders by hour of the day', 'EXTRACT(HOUR FROM o.ordered_at) AS period_hour'],
    [askShop, 'weekly orders', 'AS period_week'],
  ])('%#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it('ranks the parts ("which day of the week has the most loans")', () => {
    expect(sqlOf(askLibrary('which day of the week has the most loans'))).toMatch(
      /GROUP BY EXTRACT\(ISODOW FROM l\.started_on\) ORDER BY loan_count DESC, .* LIMIT 1$/,
    );
  });

  it('groups by a column named like the unit, when there is one', () => {
    const shifts = catalogOf([
      {
        name: 'shifts',
        columns: [
          col('id', 'integer', 'integer'),
          col('org_id', 'integer', 'integer'),
          col('week', 'integer', 'integer'),
          col('started_at', 'timestamp', 'timestamp'),
        ],
      },
    ]);
    expect(sqlOf(askOn(shifts, 'org_id')('shifts per week'))).toContain('GROUP BY s.week');
  });

  it('asks back for the hour of a date that has none', () => {
    const proposal = askLettings('maintenance requests per hour of the day');
    expect(proposal.kind).toBe('clarification');
    expect(proposal.kind === 'clarification' && proposal.message).toContain('no time of day');
  });

  it('renders MySQL with WEEKDAY and YEARWEEK', () => {
    expect(sqlOf(askLibrary('loans per weekday', { dialect: 'mysql' }))).toContain(
      'WEEKDAY(l.started_on) + 1 AS period_weekday',
    );
    expect(sqlOf(askLibrary('loans per week', { dialect: 'mysql' }))).toContain(
      'YEARWEEK(l.started_on, 3) AS period_week',
    );
  });
});

describe('through the guards', () => {
  const tables: TableSpec[] = [
    {
      name: 'loans',
      columns: [
        col('id', 'integer', 'integer'),
        col('library_id', 'integer', 'integer'),
        col('started_at', 'timestamp', 'timestamp'),
      ],
    },
  ];
  const catalog = catalogOf(tables);
  const policy = effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'library_id',
    policy: { tenant_column: 'library_id', tables: {} },
  });
  const ask = askOn(catalog, 'library_id');
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(ddlOf(tables));
    // 2025-03-31 is a Monday (ISO week 14), 2025-04-06 a Sunday; tenant 2's loans are not counted.
    await db.exec(`
      INSERT INTO loans VALUES
        (1, 1, '2025-03-31 09:15'), (2, 1, '2025-03-31 09:45'), (3, 1, '2025-04-06 17:00'),
        (4, 2, '2025-03-31 09:00'), (5, 2, '2025-03-31 09:00');
    `);
    // PGlite's first start is slow on a loaded machine.
  }, 30_000);

  afterAll(async () => {
    await db.close();
  });

  const run = async (question: string) => {
    const proposal = ask(question);
    const guarded = await guardPostgres({ sql: sqlOf(proposal), catalog, policy, tenant: '1', rowCap: 100 });
    if (!guarded.allowed) throw new Error(guarded.message);
    const rows = (await db.query<Record<string, unknown>>(guarded.sql, guarded.params)).rows;
    const columns = Object.keys(rows[0] ?? {});
    return { rows, text: composeAnswer(proposal as never, { columns, rows, truncated: false }).text };
  };

  it.each([
    [
      'loans per weekday',
      [
        [1, 2],
        [7, 1],
      ],
      ['Monday', 'Sunday'],
    ],
    [
      'loans by hour of the day',
      [
        [9, 2],
        [17, 1],
      ],
      ['09:00', '17:00'],
    ],
    ['loans per week', [[202514, 3]], ['2025-W14']],
  ])('%s', async (question, expected, words) => {
    const { rows, text } = await run(question);
    expect(rows.map((row) => Object.values(row).map(Number))).toEqual(expected);
    for (const word of words) expect(text).toContain(word);
  });

  it('is allowed by the MySQL guard', async () => {
    const mysqlCatalog = catalogOf(tables, { dialect: 'mysql', schema: 'lib' });
    for (const question of ['loans per weekday', 'loans per week', 'loans by hour of the day']) {
      const proposal = proposeBuiltin({
        question,
        catalog: mysqlCatalog,
        dialect: 'mysql',
        history: [],
        now: NOW,
        tenantColumn: 'library_id',
      });
      const guarded = await guardMysql({
        sql: sqlOf(proposal),
        catalog: mysqlCatalog,
        policy,
        tenant: '1',
        rowCap: 100,
      });
      expect(guarded.allowed, question).toBe(true);
    }
  });
});
