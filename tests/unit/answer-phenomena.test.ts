// Phenomena of questions as people type them, each a general mechanism of the builtin engine
// checked on two schemas of different domains (a lettings agency, a library): dates written with
// a day, days and weeks relative to today, phrases of exclusion that negate the filter after them.
// Clock: Sunday 2026-03-15.
import { describe, expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import type { Proposal } from '#lib/answer/engine.ts';
import { askOn, FIXTURE_NOW as NOW } from '../fixtures/catalogs/ask.ts';
import { lettingsCatalog, libraryCatalog } from '../fixtures/catalogs/unseen.ts';

const askLettings = askOn(lettingsCatalog, 'agency_id');
const askLibrary = askOn(libraryCatalog, 'library_id');

const whereOf = (proposal: Proposal): string => {
  if (proposal.kind !== 'sql') throw new Error(`expected SQL, got ${JSON.stringify(proposal)}`);
  return proposal.sql
    .replace(/\s+/g, ' ')
    .replace(/^.* WHERE /, '')
    .replace(/ ORDER BY .*$/, '');
};

describe('a date written with a day is that day', () => {
  it.each([
    [
      askLettings,
      'leases that started from 3 May to 9 June 2025',
      "l.start_date >= '2025-05-03' AND l.start_date < '2025-06-10'",
    ],
    [
      askLettings,
      'leases started on May 3rd, 2025',
      "l.start_date >= '2025-05-03' AND l.start_date < '2025-05-04'",
    ],
    [
      askLibrary,
      'loans between 1 Feb and 28 Feb 2025',
      "l.started_on >= '2025-02-01' AND l.started_on < '2025-03-01'",
    ],
    [
      askLibrary,
      'loans started on the 3rd of March 2025',
      "l.started_on >= '2025-03-03' AND l.started_on < '2025-03-04'",
    ],
  ])('%#: %s', (ask, question, where) => {
    expect(whereOf(ask(question))).toBe(where);
  });

  it('never reads a day that does not exist, nor "may" the verb, as a date', () => {
    expect(askLibrary('loans started on 31 February 2025').kind).toBe('clarification');
    expect(
      askLettings('how many leases may 3 tenants have').kind === 'sql' &&
        whereOf(askLettings('how many leases may 3 tenants have')),
    ).not.toMatch(/2026-05-03/);
  });
});

describe('days and weeks relative to today', () => {
  it.each([
    [
      askLettings,
      'leases that started the day before yesterday',
      "l.start_date >= '2026-03-13' AND l.start_date < '2026-03-14'",
    ],
    [askLettings, 'leases ending next week', "l.end_date >= '2026-03-16' AND l.end_date < '2026-03-23'"],
    [
      askLettings,
      'leases starting next Monday',
      "l.start_date >= '2026-03-16' AND l.start_date < '2026-03-17'",
    ],
    [askLibrary, 'loans ending tomorrow', "l.ended_on >= '2026-03-16' AND l.ended_on < '2026-03-17'"],
    [askLibrary, 'loans started last Friday', "l.started_on >= '2026-03-13' AND l.started_on < '2026-03-14'"],
    [
      askLibrary,
      'loans ending in the next 30 days',
      "l.ended_on >= '2026-03-15' AND l.ended_on < '2026-04-14'",
    ],
  ])('%#: %s', (ask, question, where) => {
    expect(whereOf(ask(question))).toBe(where);
  });
});

describe('a phrase of exclusion negates the filter after it', () => {
  it.each([
    [askLettings, 'leases apart from the terminated ones', "l.status <> 'terminated'"],
    [askLettings, 'how many properties not counting flats', "p.property_type <> 'flat'"],
    [askLibrary, 'loans leaving aside lost ones', "l.status <> 'lost'"],
    [askLibrary, 'how many books other than crime books', "b.genre <> 'crime'"],
  ])('%#: %s', (ask, question, where) => {
    expect(whereOf(ask(question))).toBe(where);
  });
});

describe('a follow-up whose parent was asked back', () => {
  it.each([
    [lettingsCatalog, 'agency_id', 'which agent looks after the Harbour flats', 'list their properties'],
    [libraryCatalog, 'library_id', 'which member borrowed the Sutton atlas', 'list their loans'],
  ])(
    '%#: asks what it refers to instead of answering about every row',
    (catalog, tenantColumn, parent, question) => {
      const ask = (
        text: string,
        history: { question: string; kind: 'clarification'; engine: string }[] = [],
      ) => proposeBuiltin({ question: text, catalog, dialect: 'postgres', history, now: NOW, tenantColumn });
      expect(ask(parent).kind).toBe('clarification');
      const followUp = ask(question, [{ question: parent, kind: 'clarification', engine: 'builtin' }]);
      expect(followUp).toMatchObject({
        kind: 'clarification',
        message: expect.stringMatching(/^What are you referring to/),
      });
    },
  );
});

describe('a request for a grouping ("break … down by") is the grouping the "by" names', () => {
  it.each([
    [askLettings, 'break down leases by status', 'GROUP BY l.status'],
    [askLettings, 'a breakdown of properties by property type', 'GROUP BY p.property_type'],
    [askLibrary, 'split loans up by status', 'GROUP BY l.status'],
    [askLibrary, 'break the books down per genre', 'GROUP BY b.genre'],
  ])('%#: %s', (ask, question, grouping) => {
    const proposal = ask(question);
    expect(proposal.kind === 'sql' && proposal.sql.replace(/\s+/g, ' ')).toContain(grouping);
  });
});

describe('money quoted per a period of time', () => {
  it.each([
    [askLettings, 'any studios under $900 a month?', 'p.monthly_rent < 900'],
    [askLibrary, 'rooms under $20 an hour', 'r.hourly_fee < 20'],
  ])('%#: the rate after an amount says how it is quoted: %s', (ask, question, where) => {
    expect(whereOf(ask(question))).toContain(where);
  });

  it.each([
    [askLettings, 'the 3 most expensive properties', 'ORDER BY p.monthly_rent DESC'],
    [askLibrary, 'the most expensive room', 'ORDER BY r.hourly_fee DESC'],
  ])('%#: a money column qualified by its period is what a row costs: %s', (ask, question, order) => {
    const proposal = ask(question);
    expect(proposal.kind === 'sql' && proposal.sql.replace(/\s+/g, ' ')).toContain(order);
  });
});

describe('the values of a column asked for on their own', () => {
  it.each([
    [askLettings, 'what are the distinct property types', 'GROUP BY p.property_type'],
    [askLibrary, 'what are the different genres', 'GROUP BY b.genre'],
  ])('%#: are listed with how many rows have each: %s', (ask, question, grouping) => {
    const proposal = ask(question);
    expect(proposal.kind === 'sql' && proposal.sql.replace(/\s+/g, ' ')).toContain(grouping);
  });
});

describe('"which X has the highest average Y": the aggregate per group, ranked, the first', () => {
  it.each([
    [
      askLettings,
      'which city has the highest average rent of properties?',
      'GROUP BY p.city ORDER BY average_monthly_rent DESC, p.city LIMIT 1',
    ],
    [
      askLibrary,
      'which genre has the lowest average pages',
      'GROUP BY b.genre ORDER BY average_pages ASC, b.genre LIMIT 1',
    ],
    [
      askLibrary,
      'which branch has the highest total fee of loans',
      'ORDER BY total_fee DESC, b.id, b.name LIMIT 1',
    ],
  ])('%#: %s', (ask, question, ranking) => {
    const proposal = ask(question);
    expect(proposal.kind === 'sql' && proposal.sql.replace(/\s+/g, ' ')).toContain(ranking);
  });
});
