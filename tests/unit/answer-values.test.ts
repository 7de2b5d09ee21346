// Values the question names and light verbs (docs/design.md "Answering on unseen databases"):
// the value lookup's phrases and probe (lib/answer/builtin/values.ts, lib/answer/values.ts), the
// two passes around it (value-pass.ts), and light verbs left unexplained (roles.ts). Each
// mechanism on two schemas of different domains (a lettings agency, a library). The probe against
// real databases and other tenants: tests/integration/answer-value-lookup.test.ts.
import { describe, expect, it } from 'vitest';
import { nameRuns } from '#lib/answer/builtin/values.ts';
import type { ValueProbe } from '#lib/answer/engine.ts';
import { foundValues, probeQuery } from '#lib/answer/values.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { MAX_SQL_LENGTH } from '#lib/sql/types.ts';
import { askFinding, askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { lettingsCatalog as lettings, libraryCatalog as library } from '../fixtures/catalogs/unseen.ts';

const askWith = askFinding;

const lettingsValues = askWith(lettings, 'agency_id', [
  { schema: 'public', relation: 'tenants', column: 'last_name', value: 'Whitcombe' },
  { schema: 'public', relation: 'properties', column: 'address', value: '12 Mill Lane' },
  { schema: 'public', relation: 'properties', column: 'city', value: 'Ludlow' },
  { schema: 'public', relation: 'tenants', column: 'last_name', value: 'Ashby' },
  { schema: 'public', relation: 'properties', column: 'city', value: 'Ashby' },
]);
const libraryValues = askWith(library, 'library_id', [
  { schema: 'public', relation: 'authors', column: 'name', value: 'Harriet Oakes Vance' },
  { schema: 'public', relation: 'branches', column: 'name', value: 'Kestrel' },
  { schema: 'public', relation: 'rooms', column: 'name', value: 'Kestrel' },
]);

describe('phrases that may name a value: runs of words that link to nothing', () => {
  it('takes a capitalized run, a code with digits and a lowercase run after "for", titles left out', () => {
    expect(
      nameRuns('how many loads for Hartley Home Stores', new Set(['hartley', 'home', 'stores'])),
    ).toEqual([
      expect.objectContaining({
        phrases: ['Hartley Home Stores', 'Hartley Home', 'Home Stores', 'Hartley', 'Home', 'Stores'],
      }),
    ]);
    expect(nameRuns('jobs on CNC-015 in 2025', new Set(['cnc', '015']))[0]?.phrases).toEqual(['CNC-015']);
    expect(
      nameRuns('what did we invoice greenvale dairies', new Set(['greenvale', 'dairies']))[0]?.phrases,
    ).toEqual(['greenvale dairies', 'greenvale']);
    expect(nameRuns('visits handled by Dr. Whitfield', new Set(['dr', 'whitfield']))[0]?.phrases).toEqual([
      'Whitfield',
    ]);
    // A capitalized word goes on with a name begun ("Calculus I").
    expect(nameRuns('the average grade in Calculus I', new Set(['calculus']))[0]?.phrases[0]).toBe(
      'Calculus I',
    );
  });

  it('takes no ordinary lowercase word that no preposition leads to a name', () => {
    expect(nameRuns('how many pet friendly homes', new Set(['friendly', 'homes']))).toEqual([]);
  });
});

describe('the probe: one query both guards accept, tenant-filtered, phrases only as safe literals', () => {
  const policy = effectivePolicy({
    requiresOrganizationScoping: true,
    tenantFilterColumn: 'agency_id',
    policy: { tenant_column: 'agency_id', tables: {} },
  });
  const probe: ValueProbe = {
    phrases: ["O'Brien", 'Zürich', "x' OR 1=1 --", 'a\\b', '50%', 'PH-T07'],
    columns: [
      { schema: 'public', relation: 'tenants', column: 'last_name' },
      { schema: 'public', relation: 'properties', column: 'city' },
      { schema: 'public', relation: 'properties', column: 'monthly_rent' },
      { schema: 'public', relation: 'nowhere', column: 'name' },
    ],
  };

  it.each(['postgres', 'mysql'] as const)('%s', async (dialect) => {
    const catalog = { ...lettings, dialect };
    const query = probeQuery(dialect, catalog, probe)!;
    // Quotes doubled; a phrase with a backslash, a wildcard or SQL punctuation is not looked up.
    expect(query.phrases).toEqual(["o'brien", 'zurich', 'ph-t07']);
    // Only text columns of the catalog.
    expect(query.columns.map((column) => column.column)).toEqual(['last_name', 'city']);
    const guard = dialect === 'mysql' ? guardMysql : guardPostgres;
    const guarded = await guard({ sql: query.sql, catalog, policy, tenant: '1', rowCap: 24 });
    if (!guarded.allowed) throw new Error(guarded.message);
    expect(guarded.sql).toMatch(/agency_id/);
    expect(guarded.params.map(String)).toContain('1');
  });

  it('keeps the probe within the length the guard reads, leaving out the last columns asked for', async () => {
    const phrases = [
      'saint marys general',
      'riverside property',
      'mill lane',
      'north',
      'south',
      'east',
      'west',
      'zurich',
    ];
    const many = Array.from({ length: 24 }, (_, index) => ({
      schema: 'public',
      relation: index % 2 === 0 ? 'tenants' : 'properties',
      column: index % 2 === 0 ? 'last_name' : 'city',
    }));
    const query = probeQuery('postgres', lettings, { phrases, columns: many })!;
    expect(query.sql.length).toBeLessThanOrEqual(MAX_SQL_LENGTH);
    expect(query.columns.length).toBeGreaterThan(0);
    expect(query.columns.length).toBeLessThan(many.length);
    const guarded = await guardPostgres({
      sql: query.sql,
      catalog: lettings,
      policy,
      tenant: '1',
      rowCap: 24,
    });
    expect(guarded.allowed).toBe(true);
  });

  it('reads exact matches always, prefix matches only when the rows were not cut', () => {
    const query = probeQuery('postgres', lettings, { phrases: ['mill'], columns: probe.columns })!;
    const rows = [{ probe_column: 1, probe_value: 'Mill Lane', probe_rank: 1 }];
    expect(foundValues(query, rows, false)).toEqual([
      expect.objectContaining({ phrase: 'mill', value: 'Mill Lane', exact: false, column: 'city' }),
    ]);
    expect(foundValues(query, rows, true)).toEqual([]);
  });
});

describe('a value the question names is looked up once and filters its column', () => {
  it.each([
    [lettingsValues, 'how many leases does Whitcombe have', "t.last_name = 'Whitcombe'", 'JOIN tenants'],
    [libraryValues, 'books written by harriet oakes', "a.name = 'Harriet Oakes Vance'", 'JOIN authors'],
  ])('%#: %s', async (asker, question, filter, join) => {
    const before = asker.probes.length;
    const proposal = await asker.ask(question);
    expect(sqlOf(proposal)).toContain(filter);
    expect(sqlOf(proposal)).toContain(join);
    expect(asker.probes.length - before).toBe(1);
  });

  it('names a value read from a shorter phrase in the interpretation', async () => {
    const proposal = await libraryValues.ask('books written by harriet oakes');
    expect(proposal.kind === 'sql' && proposal.interpretation).toContain(
      "“harriet oakes” as 'Harriet Oakes Vance'",
    );
  });

  it('asks which column when the value is in two, each option a question that reads without a lookup', async () => {
    const proposal = await libraryValues.ask('how many rooms are there at Kestrel');
    expect(proposal.kind).toBe('clarification');
    const suggestions = proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : [];
    expect(suggestions.length).toBe(2);
    const ask = askOn(library, 'library_id');
    for (const suggestion of suggestions) expect(sqlOf(ask(suggestion))).toContain("= 'Kestrel'");
  });

  it.each([
    [lettingsValues, 'list the Ashby properties', "p.city = 'Ashby'"],
    [libraryValues, 'how many rooms does the kestrel branch have', "b.name = 'Kestrel'"],
  ])('takes the value of the relation named right after it: %#', async (asker, question, filter) => {
    expect(sqlOf(await asker.ask(question))).toContain(filter);
  });

  it('answers as without the lookup when nothing is found, and looks nothing up for a clear question', async () => {
    const nothing = askWith(lettings, 'agency_id', []);
    const plain = askOn(lettings, 'agency_id');
    for (const question of [
      'how many leases does Pemberton have',
      'properties owned by Gerald Fairweather',
    ]) {
      expect(await nothing.ask(question)).toEqual(plain(question));
    }
    const before = nothing.probes.length;
    await nothing.ask('how many leases are active');
    expect(nothing.probes.length).toBe(before);
  });
});

describe('a light verb standing as a verb is not a word to ask about', () => {
  const askLettings = askOn(lettings, 'agency_id');
  const askLibrary = askOn(library, 'library_id');

  it.each([
    [askLettings, 'how many properties do we manage', 'FROM properties'],
    [askLettings, 'which furnished flats do we offer', "property_type = 'flat'"],
    [askLibrary, 'how many books do we stock', 'FROM books'],
    [askLibrary, 'how many rooms did we run', 'FROM rooms'],
  ])('%#: %s', (ask, question, part) => {
    expect(sqlOf(ask(question))).toContain(part);
  });

  it('still asks about a verb that may name a condition: a status value, a date or a yes/no column', () => {
    const machines = catalogOf([
      {
        name: 'machines',
        columns: [
          col('id', 'integer', 'integer'),
          col('plant_id', 'integer', 'integer'),
          col('name', 'text', 'text'),
          col('state', 'text', 'text', { samples: ['running', 'idle'] }),
        ],
      },
      {
        name: 'operators',
        columns: [
          col('id', 'integer', 'integer'),
          col('plant_id', 'integer', 'integer'),
          col('full_name', 'text', 'text'),
          col('hired_on', 'date', 'date'),
        ],
      },
    ]);
    const ask = askOn(machines, 'plant_id');
    // "run" is a form of the sampled state 'running': not left out.
    const run = ask('how many machines do we run');
    expect(run.kind === 'sql' ? run.sql : '').not.toMatch(/^SELECT COUNT\(\*\) AS \w+ FROM machines \w+$/);
    // "hire" is what hired_on dates: never a count of every operator.
    const hire = ask('how many operators did we hire in 2025');
    expect(hire.kind === 'sql' ? hire.sql : 'hired_on').toContain('hired_on');
  });
});

describe('a value after "by" says whose rows, not a grouping', () => {
  it.each([
    [lettingsValues, 'how many leases by Whitcombe', "t.last_name = 'Whitcombe'"],
    [libraryValues, 'list the books by harriet oakes', "a.name = 'Harriet Oakes Vance'"],
  ])('%#: %s', async (asker, question, filter) => {
    const sql = sqlOf(await asker.ask(question));
    expect(sql).toContain(filter);
    expect(sql).not.toContain('GROUP BY');
  });
});

describe('a question asking for a decision is asked back, whatever names it carries', () => {
  it.each([
    [lettingsValues, 'do you think we should put the rents up in Ludlow?'],
    [libraryValues, 'should we close the Kestrel branch'],
  ])('%#: %s', async (asker, question) => {
    const before = asker.probes.length;
    expect((await asker.ask(question)).kind).toBe('clarification');
    expect(asker.probes.length).toBe(before);
  });
});
