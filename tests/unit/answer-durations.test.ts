// Durations (lib/answer/builtin/lexicon.ts `durationPairs`): two time columns of one row that begin
// and end a span (start_date/end_date, started_on/ended_on, opened_at/solved_at) are paired by their
// names and types; "average lease duration", "how long did loans take on average (days)", "the
// longest lease" read the span, and a unit word chooses its scale. Checked on three schemas of
// different domains (a lettings agency, a library, a help desk), and through both SQL guards and
// on PGlite with known values.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationPairs } from '#lib/answer/builtin/durations.ts';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import { lexiconFor } from '#lib/answer/builtin/lexicon.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { askOn, FIXTURE_NOW as NOW, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col, ddlOf, type TableSpec } from '../fixtures/catalogs/define.ts';
import { lettingsCatalog as lettings, libraryCatalog as library } from '../fixtures/catalogs/unseen.ts';

const helpdeskTables: TableSpec[] = [
  {
    name: 'tickets',
    columns: [
      col('id', 'integer', 'integer'),
      col('workspace_id', 'integer', 'integer'),
      col('subject', 'text', 'text'),
      col('channel', 'text', 'text', { samples: ['email', 'phone', 'chat'] }),
      col('opened_at', 'timestamp', 'timestamp'),
      col('solved_at', 'timestamp', 'timestamp', { nullable: true }),
      col('updated_at', 'timestamp', 'timestamp'),
    ],
  },
];
const helpdesk = catalogOf(helpdeskTables);

const askLettings = askOn(lettings, 'agency_id');
const askLibrary = askOn(library, 'library_id');
const askHelpdesk = askOn(helpdesk, 'workspace_id');

describe('two time columns of one row are paired by their names', () => {
  it.each([
    [lettings, 'public.leases', ['start_date', 'end_date']],
    [library, 'public.loans', ['started_on', 'ended_on']],
    [helpdesk, 'public.tickets', ['opened_at', 'solved_at']],
  ])('%#: %s', (catalog, table, [start, end]) => {
    const relation = lexiconFor(catalog, undefined).relations.get(table)!;
    const pairs = durationPairs(relation).map((pair) => [pair.start.name, pair.end.name]);
    // updated_at ends nothing: bookkeeping is no span.
    expect(pairs).toEqual([[start, end]]);
  });

  it('pairs nothing in a relation with one date', () => {
    const relation = lexiconFor(lettings, undefined).relations.get('public.maintenance_requests')!;
    expect(durationPairs(relation)).toEqual([]);
  });
});

describe('a duration is averaged, in the unit asked for', () => {
  it.each([
    [askLettings, 'average lease duration', 'AVG((l.end_date - l.start_date))'],
    [askLibrary, 'average loan duration in weeks', 'AVG((l.ended_on - l.started_on) / 7.0)'],
    [askLibrary, 'how long did loans take on average (days)', 'AVG((l.ended_on - l.started_on))'],
    [askLettings, 'how long did leases last on average in days', 'AVG((l.end_date - l.start_date))'],
    [
      askHelpdesk,
      'average time to solve tickets in hours',
      'AVG(EXTRACT(EPOCH FROM (t.solved_at - t.opened_at)) / 3600)',
    ],
    [
      askHelpdesk,
      'average ticket duration in minutes',
      'AVG(EXTRACT(EPOCH FROM (t.solved_at - t.opened_at)) / 60)',
    ],
  ])('%#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it('says which span and unit it read', () => {
    const proposal = askHelpdesk('average time to solve tickets in hours');
    expect(proposal.kind === 'sql' && proposal.description).toBe(
      'Averaging time to solve in hours (time from opened at to solved at) of tickets',
    );
  });

  it('groups a duration like any measure', () => {
    expect(sqlOf(askLibrary('average loan duration per status'))).toMatch(
      /SELECT l\.status, AVG\(\(l\.ended_on - l\.started_on\)\) AS average_loan_duration_in_days FROM loans l GROUP BY l\.status/,
    );
  });

  it('renders MySQL with DATEDIFF and TIMESTAMPDIFF', () => {
    expect(sqlOf(askLettings('average lease duration', { dialect: 'mysql' }))).toContain(
      'AVG(DATEDIFF(l.end_date, l.start_date))',
    );
    expect(sqlOf(askHelpdesk('average ticket duration in hours', { dialect: 'mysql' }))).toContain(
      'AVG(TIMESTAMPDIFF(SECOND, t.opened_at, t.solved_at) / 3600)',
    );
  });

  it('still asks about a span the schema does not hold', () => {
    expect(askHelpdesk('how long did phone calls last on average').kind).toBe('clarification');
    expect(askLettings('average maintenance request duration').kind).toBe('clarification');
  });
});

describe('a word of length ranks the rows by their span', () => {
  it.each([
    [
      askLettings,
      'the longest lease',
      /\(l\.end_date - l\.start_date\) AS duration_in_days .* ORDER BY duration_in_days DESC, l\.id LIMIT 1$/,
    ],
    [
      askLibrary,
      'the 3 shortest loans in weeks',
      /\(l\.ended_on - l\.started_on\) \/ 7\.0 AS duration_in_weeks FROM loans l WHERE l\.ended_on IS NOT NULL ORDER BY duration_in_weeks ASC, l\.id LIMIT 3$/,
    ],
    [
      askHelpdesk,
      'the slowest tickets',
      /WHERE t\.solved_at IS NOT NULL ORDER BY duration_in_hours DESC, t\.id LIMIT 5$/,
    ],
  ])('%#: %s', (ask, question, pattern) => {
    expect(sqlOf(ask(question))).toMatch(pattern);
  });
});

describe('through the guards', () => {
  const policy = effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'workspace_id',
    policy: { tenant_column: 'workspace_id', tables: {} },
  });
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(ddlOf(helpdeskTables));
    // Tenant 1: 2 h and 4 h; tenant 2: 100 h; an open ticket counts for nothing.
    await db.exec(`
      INSERT INTO tickets VALUES
        (1, 1, 'a', 'email', '2025-01-01 08:00', '2025-01-01 10:00', '2025-01-02 00:00'),
        (2, 1, 'b', 'phone', '2025-01-01 08:00', '2025-01-01 12:00', '2025-01-02 00:00'),
        (3, 1, 'c', 'chat', '2025-01-01 08:00', NULL, '2025-01-02 00:00'),
        (4, 2, 'd', 'chat', '2025-01-01 08:00', '2025-01-05 12:00', '2025-01-02 00:00');
    `);
    // PGlite's first start is slow on a loaded machine.
  }, 30_000);

  afterAll(async () => {
    await db.close();
  });

  it("averages tenant 1's time to solve in hours on PostgreSQL", async () => {
    const proposal = askHelpdesk('average time to solve tickets in hours');
    const guarded = await guardPostgres({
      sql: sqlOf(proposal),
      catalog: helpdesk,
      policy,
      tenant: '1',
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(guarded.message);
    const rows = (await db.query<Record<string, string>>(guarded.sql, guarded.params)).rows;
    expect(Number(Object.values(rows[0]!)[0])).toBe(3);
  });

  it("ranks tenant 1's tickets by time to solve", async () => {
    const proposal = askHelpdesk('the longest ticket');
    const guarded = await guardPostgres({
      sql: sqlOf(proposal),
      catalog: helpdesk,
      policy,
      tenant: '1',
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(guarded.message);
    const rows = (await db.query<{ id: number }>(guarded.sql, guarded.params)).rows;
    expect(rows.map((row) => row.id)).toEqual([2]);
  });

  it('is allowed by the MySQL guard', async () => {
    const mysqlCatalog = catalogOf(helpdeskTables, { dialect: 'mysql', schema: 'desk' });
    const proposal = proposeBuiltin({
      question: 'average ticket duration in hours',
      catalog: mysqlCatalog,
      dialect: 'mysql',
      history: [],
      now: NOW,
      tenantColumn: 'workspace_id',
    });
    const guarded = await guardMysql({
      sql: sqlOf(proposal),
      catalog: mysqlCatalog,
      policy,
      tenant: '1',
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(guarded.message);
    expect(guarded.sql).toContain('TIMESTAMPDIFF(SECOND');
  });
});
