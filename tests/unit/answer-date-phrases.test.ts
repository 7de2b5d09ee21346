// Date phrases and a few words of everyday phrasing on two schemas of different domains
// (periods.ts, scan.ts, columns.ts, resolve.ts): the start or end of a span, seasons, a week of a
// month, an ordinal day, holidays, "coming up"; a phrase a column holds as a value ("Spring 2025",
// a term) stays that value; a date column whose name abbreviates its relation's ("resv_ts" of
// reservations) dates its rows; the one date the question's words name; a named amount said
// without "amount"; "same again but …" as a follow-up; "single" as filler.
import { describe, expect, it } from 'vitest';
import { sameStem } from '#lib/answer/builtin/words.ts';
import { askOn, FIXTURE_NOW, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { lettingsCatalog, libraryCatalog } from '../fixtures/catalogs/unseen.ts';

const lettings = askOn(lettingsCatalog, 'agency_id');
const library = askOn(libraryCatalog, 'library_id');

describe('date phrases filter the rows’ date', () => {
  it.each([
    [lettings, 'how many leases started since the start of 2024', "l.start_date >= '2024-01-01'"],
    [library, 'how many loans since the start of 2024', "l.started_on >= '2024-01-01'"],
    [
      lettings,
      'leases that started in summer 2025',
      "l.start_date >= '2025-06-01' AND l.start_date < '2025-09-01'",
    ],
    [
      library,
      'how many loans over summer 2025, june to august',
      "l.started_on >= '2025-06-01' AND l.started_on < '2025-09-01'",
    ],
    [
      lettings,
      'leases starting in the first week of april 2026',
      "l.start_date >= '2026-04-01' AND l.start_date < '2026-04-08'",
    ],
    [library, 'loans since the 10th of this month', "l.started_on >= '2026-03-10'"],
    [
      library,
      'how many loans on christmas eve 2025',
      "l.started_on >= '2025-12-24' AND l.started_on < '2025-12-25'",
    ],
    [lettings, 'leases starting coming up', `l.start_date >= '${FIXTURE_NOW.toISOString().slice(0, 10)}'`],
  ] as const)('%#: %s', (ask, question, filter) => {
    expect(sqlOf(ask(question))).toContain(filter);
  });
});

/** Two schemas whose rows have a term or a season as a value. */
const college = catalogOf([
  {
    name: 'fee_invoices',
    columns: [
      col('id', 'integer', 'integer'),
      col('institution_id', 'integer', 'integer'),
      col('term', 'text', 'text', { samples: ['Spring 2025', 'Fall 2025'] }),
      col('issued_on', 'date', 'date'),
      col('total', 'decimal', 'numeric(10,2)'),
    ],
  },
]);
const farm = catalogOf([
  {
    name: 'harvests',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('season', 'text', 'text', { samples: ['Summer 2024', 'Winter 2024'] }),
      col('harvested_on', 'date', 'date'),
      col('tonnes', 'decimal', 'numeric(10,2)'),
    ],
  },
]);

describe('a season a column holds as a value is that value', () => {
  it.each([
    [askOn(college, 'institution_id'), 'list the invoices for spring 2025', "term = 'Spring 2025'"],
    [askOn(farm, 'coop_id'), 'total tonnes for summer 2024', "season = 'Summer 2024'"],
  ] as const)('%#: %s', (ask, question, filter) => {
    const sql = sqlOf(ask(question));
    expect(sql).toContain(filter);
    expect(sql).not.toMatch(/>= '\d{4}-\d\d-\d\d'/);
  });
});

describe('a date named by an abbreviation of its relation dates its rows', () => {
  const restaurant = catalogOf([
    {
      name: 'reservations',
      columns: [
        col('id', 'integer', 'integer'),
        col('group_id', 'integer', 'integer'),
        col('resv_ts', 'timestamp', 'timestamptz'),
        col('created_ts', 'timestamp', 'timestamptz'),
        col('party_size', 'integer', 'integer'),
      ],
    },
  ]);
  const brewery = catalogOf([
    {
      name: 'deliveries',
      columns: [
        col('id', 'integer', 'integer'),
        col('brewery_id', 'integer', 'integer'),
        col('created_at', 'timestamp', 'timestamptz'),
        col('dlv_dt', 'date', 'date'),
      ],
    },
  ]);
  it.each([
    [askOn(restaurant, 'group_id'), 'how many reservations in march 2026', 'r.resv_ts'],
    [askOn(brewery, 'brewery_id'), 'how many deliveries in march 2026', 'd.dlv_dt'],
  ] as const)('%#: %s', (ask, question, column) => {
    expect(sqlOf(ask(question))).toContain(`${column} >= '2026-03-01'`);
  });
});

/** A hire company and a clinic: rows with several dates, none of them the rows' own. */
const hires = catalogOf([
  {
    name: 'rentals',
    columns: [
      col('id', 'integer', 'integer'),
      col('operator_id', 'integer', 'integer'),
      col('booked_ts', 'timestamp', 'timestamptz'),
      col('pickup_ts', 'timestamp', 'timestamptz'),
      col('return_due_ts', 'timestamp', 'timestamptz'),
      col('daily_rate_amt', 'decimal', 'numeric(10,2)'),
      col('fuel_chg_amt', 'decimal', 'numeric(10,2)'),
      col('total_amt', 'decimal', 'numeric(10,2)'),
    ],
  },
]);
const clinic = catalogOf([
  {
    name: 'referrals',
    columns: [
      col('id', 'integer', 'integer'),
      col('clinic_id', 'integer', 'integer'),
      col('received_on', 'date', 'date'),
      col('triaged_on', 'date', 'date'),
      col('discharged_on', 'date', 'date', { nullable: true }),
      col('travel_cost_amt', 'decimal', 'numeric(10,2)'),
    ],
  },
]);
const askHires = askOn(hires, 'operator_id');
const askClinic = askOn(clinic, 'clinic_id');

describe('the one date the question’s words name', () => {
  it.each([
    [askHires, 'monthly count of pickups in 2026', 'r.pickup_ts'],
    [askHires, 'how many rentals are due back next week', 'r.return_due_ts'],
    [askClinic, 'how many referrals were triaged in march 2026', 'r.triaged_on'],
    [askClinic, 'referrals discharged last month', 'r.discharged_on'],
  ] as const)('%#: %s', (ask, question, column) => {
    expect(sqlOf(ask(question))).toContain(`${column} >=`);
  });

  it.each([
    [askHires, 'how many rentals in march 2026'],
    [askClinic, 'how many referrals in march 2026'],
  ] as const)('and asks when no word names one: %#', (ask, question) => {
    const proposal = ask(question);
    expect(proposal.kind === 'clarification' && proposal.message).toMatch(/^Which date of/);
  });
});

describe('a named amount is said without “amount”', () => {
  it.each([
    [askHires, 'average daily rate on rentals booked in 2025', 'AVG(r.daily_rate_amt)'],
    [askHires, 'total fuel chg for 2025 pickups', 'SUM(r.fuel_chg_amt)'],
    [askClinic, 'total travel cost of referrals received in 2025', 'SUM(r.travel_cost_amt)'],
  ] as const)('%#: %s', (ask, question, measure) => {
    expect(sqlOf(ask(question))).toContain(measure);
  });
});

describe('“same again but …” changes one part of the answer before', () => {
  /** The second question asked after the first, with the first's answer in the history. */
  const after = (ask: typeof lettings, first: string, second: string) => {
    const proposal = ask(first);
    if (proposal.kind !== 'sql') throw new Error(`expected SQL for “${first}”`);
    return ask(second, {
      history: [{ question: first, kind: 'sql', engine: 'builtin', state: proposal.state }],
    });
  };
  it.each([
    [lettings, 'how many leases started in 2025', 'same again but for 2024', "l.start_date >= '2024-01-01'"],
    [library, 'how many loans in 2025', 'same thing for 2024', "l.started_on >= '2024-01-01'"],
  ] as const)('%#: %s → %s', (ask, first, second, filter) => {
    const sql = sqlOf(after(ask, first, second));
    expect(sql).toContain(filter);
    expect(sql).toMatch(/^SELECT COUNT\(\*\)/);
  });
});

describe('“single” says nothing of the rows (“every single”, “biggest single”)', () => {
  it.each([
    [lettings, 'list every single lease that ended', "l.status = 'ended'"],
    [library, 'how many loans are lost, every single one', "l.status = 'lost'"],
  ] as const)('%#: %s', (ask, question, filter) => {
    expect(sqlOf(ask(question))).toContain(filter);
  });
});

describe('forms of one word', () => {
  it.each([
    ['placed', 'placements', true],
    ['booking', 'booked', true],
    ['pickups', 'pickup', true],
    ['applied', 'applications', true],
    ['meter', 'met', false],
    ['orders', 'ordinal', false],
    ['paid', 'pickup', false],
  ] as const)('%s ~ %s: %s', (word, name, same) => {
    expect(sameStem(word, name)).toBe(same);
  });
});
