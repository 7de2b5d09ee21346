// Readings with evidence (lib/answer/builtin/readings.ts; docs/design.md "Answering on unseen
// databases"): words that link to nothing get candidate links and the question is read again as a
// whole; a clear best reading is answered, otherwise up to three complete questions come back as
// suggestions, each answered exactly as offered. Every mechanism is checked on two schemas of
// different domains (a lettings agency, a library) so that none is a rule for one question.
import { describe, expect, it } from 'vitest';
import type { Proposal } from '#lib/answer/engine.ts';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { SHOP_TENANT_COLUMN, shopCatalog } from '../fixtures/catalogs/shop.ts';
import { lettingsCatalog as lettings, libraryCatalog as library } from '../fixtures/catalogs/unseen.ts';

const askLettings = askOn(lettings, 'agency_id');
const askLibrary = askOn(library, 'library_id');

const interpretationOf = (proposal: Proposal): string =>
  proposal.kind === 'sql' ? (proposal.interpretation ?? '') : '';

describe('an empty phrase ("in the company", "on the books") is left out, and says so', () => {
  it.each([
    [askLettings, 'how many tenants are there in the company', 'FROM tenants', '“in the company”'],
    [askLibrary, 'how many members are in the scheme?', 'FROM members', '“in the scheme”'],
  ])('%#: %s', (ask, question, from, phrase) => {
    const proposal = ask(question);
    expect(sqlOf(proposal)).toMatch(new RegExp(`SELECT COUNT\\(\\*\\) AS \\w+ ${from} \\w+$`));
    expect(interpretationOf(proposal)).toContain(`leaving out ${phrase}`);
  });

  it('never leaves out a word that is not in an empty phrase (a named thing is asked about)', () => {
    expect(askLettings('how many tenants own a garden').kind).toBe('clarification');
    expect(askLibrary('how many members own a bicycle').kind).toBe('clarification');
  });
});

describe('a name after "in" or "from" is a value of the place column of the rows named', () => {
  it.each([
    [askLettings, 'properties in Bristol', "p.city = 'Bristol'"],
    [askLibrary, 'how many members from Ludlow', "m.town = 'Ludlow'"],
  ])('%#: %s', (ask, question, filter) => {
    const proposal = ask(question);
    expect(sqlOf(proposal)).toContain(filter);
    expect(interpretationOf(proposal)).toMatch(/as a (city|town)/);
  });

  it('never drops a name it cannot place: the question is asked back, with no reading that lacks it', () => {
    for (const [ask, question, name] of [
      [askLettings, 'list the properties owned by Gerald Whitcombe', 'Whitcombe'],
      [askLibrary, 'books borrowed by Harriet Oakes', 'Oakes'],
    ] as const) {
      const proposal = ask(question);
      expect(proposal.kind).toBe('clarification');
      for (const suggestion of proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : []) {
        expect(suggestion).toContain(name);
      }
    }
  });
});

describe('a word of a relation’s name with an unknown noun after it reads as that relation', () => {
  it.each([
    [askLettings, 'how many maintenance jobs were reported in 2025', 'FROM maintenance_requests'],
    [askLibrary, 'how many reading slips were requested in 2025', 'FROM reading_requests'],
  ])('%#: %s', (ask, question, from) => {
    const sql = sqlOf(ask(question));
    expect(sql).toContain(from);
    expect(sql).toMatch(/>= '2025-01-01' AND \w+\.\w+ < '2026-01-01'/);
  });
});

describe('a misspelled ordinary word one edit from a word the engine reads', () => {
  it.each([
    [askLettings, 'what is the totl cost of maintenance requests', 'SUM(mr.cost)'],
    [askLibrary, 'avrage fee of loans', 'AVG(l.fee)'],
  ])('%#: %s', (ask, question, measure) => {
    const proposal = ask(question);
    expect(sqlOf(proposal)).toContain(measure);
    expect(interpretationOf(proposal)).toContain('(a typo?)');
  });
});

describe('the participle of a relation’s own date is that date, not a status', () => {
  it.each([
    [askLettings, 'leases that started in 2025', 'l.start_date'],
    [askLettings, 'leases ending in the first half of 2026', 'l.end_date'],
    [askLibrary, 'loans ending in 2025', 'l.ended_on'],
    [askLibrary, 'how many loans started in March 2025', 'l.started_on'],
  ])('%#: %s', (ask, question, column) => {
    const sql = sqlOf(ask(question));
    expect(sql).toContain(`${column} >= '20`);
    expect(sql).not.toContain('status =');
  });
});

describe('a participle no status holds is asked back, never guessed nor dropped', () => {
  it.each([
    [askLettings, 'how many leases cancelled in 2025'],
    [askLibrary, 'how many loans cancelled in 2025'],
  ])('%#: followed by a period it may be the dated event, not a status: %s', (ask, question) => {
    expect(ask(question).kind).toBe('clarification');
  });

  it.each([
    [askLettings, 'cancelled leases'],
    [askLibrary, 'cancelled loans'],
  ])('%#: without a period it is looked up in the asker’s data, not invented: %s', (ask, question) => {
    // (A value the lookup finds reads as the status: tests/unit/answer-precision.test.ts.)
    expect(ask(question).kind).toBe('clarification');
  });

  it.each([
    [askLettings, 'disputed leases'],
    [askLettings, 'list flagged leases'],
    [askLibrary, 'disputed loans'],
    [askLibrary, 'how many archived loans'],
  ])('%#: a filler verb put before the relation restricts it: %s', (ask, question) => {
    expect(ask(question).kind).toBe('clarification');
  });

  it.each([
    [askLettings, 'terminated leases', "l.status = 'terminated'"],
    [askLibrary, 'returned loans', "l.status = 'returned'"],
  ])('%#: a participle the status holds is that value: %s', (ask, question, filter) => {
    expect(sqlOf(ask(question))).toContain(filter);
  });
});

describe('a status value that is the participle of its own date, before a period, is that date', () => {
  const askShop = askOn(shopCatalog, SHOP_TENANT_COLUMN);
  const askDesk = askOn(
    catalogOf([
      {
        name: 'tickets',
        columns: [
          col('id', 'integer', 'integer'),
          col('desk_id', 'integer', 'integer'),
          col('status', 'text', 'text', { samples: ['open', 'escalated', 'resolved'] }),
          col('opened_dt', 'date', 'date'),
          col('escalated_dt', 'date', 'date', { nullable: true }),
        ],
      },
    ]),
    'desk_id',
  );
  it.each([
    [askLettings, 'how many leases ended in 2025', 'l.end_date', "l.status = 'ended'"],
    [askDesk, 'how many tickets were escalated in 2024', 't.escalated_dt', "t.status = 'escalated'"],
    [askShop, 'how many orders were shipped in 2025', 'o.shipped_at', "o.status = 'shipped'"],
  ])('%#: %s', (ask, question, date, status) => {
    const sql = sqlOf(ask(question));
    expect(sql).toContain(`${date} >= '20`);
    expect(sql).not.toContain(status);
  });

  it.each([
    [askLettings, 'ended leases', "l.status = 'ended'"],
    [askDesk, 'escalated tickets', "t.status = 'escalated'"],
    [askShop, 'shipped orders', "o.status = 'shipped'"],
  ])('%#: without a period it is the status: %s', (ask, question, status) => {
    expect(sqlOf(ask(question))).toContain(status);
  });
});

describe("a parent's date dates rows only when the parent owns them by name", () => {
  const fleet = catalogOf([
    { name: 'depots', columns: [col('id', 'integer', 'integer'), col('opened_on', 'date', 'date')] },
    {
      name: 'trucks',
      columns: [
        col('id', 'integer', 'integer'),
        col('depot_id', 'integer', 'integer', { references: 'depots' }),
        col('make', 'text', 'text', { samples: ['DAF', 'Volvo'] }),
      ],
    },
  ]);
  const clinic = catalogOf([
    { name: 'owners', columns: [col('id', 'integer', 'integer'), col('registered_on', 'date', 'date')] },
    {
      name: 'pets',
      columns: [
        col('id', 'integer', 'integer'),
        col('owner_id', 'integer', 'integer', { references: 'owners' }),
        col('species', 'text', 'text', { samples: ['cat', 'dog'] }),
      ],
    },
  ]);
  it.each([
    [askOn(fleet, 'id'), 'trucks before 2017'],
    [askOn(clinic, 'id'), 'how many pets in 2024'],
  ])('%#: another parent’s date is asked, not guessed: %s', (ask, question) => {
    expect(ask(question).kind).toBe('clarification');
  });

  it('still dates order items by their order', () => {
    expect(sqlOf(askOn(shopCatalog, SHOP_TENANT_COLUMN)('how many order items in 2025'))).toContain(
      "o.ordered_at >= '2025",
    );
  });
});

describe('a period after one row named by a value dates the subject, not that row', () => {
  const plant = catalogOf([
    {
      name: 'prod_lines',
      columns: [
        col('id', 'integer', 'integer'),
        col('site_id', 'integer', 'integer'),
        col('line_name', 'text', 'text', { samples: ['Line A', 'Line B'] }),
        col('commissioned_on', 'date', 'date'),
      ],
    },
    {
      name: 'machines',
      columns: [
        col('id', 'integer', 'integer'),
        col('site_id', 'integer', 'integer'),
        col('prod_line_id', 'integer', 'integer', { references: 'prod_lines' }),
        col('machine_class', 'text', 'text', { samples: ['press', 'paint', 'weld'] }),
      ],
    },
    {
      name: 'stoppages',
      columns: [
        col('id', 'integer', 'integer'),
        col('site_id', 'integer', 'integer'),
        col('machine_id', 'integer', 'integer', { references: 'machines' }),
        col('stopped_at', 'timestamp', 'timestamp'),
      ],
    },
  ]);
  it.each([
    [
      askOn(plant, 'site_id'),
      'how many stoppages on the press line in 2024',
      's.stopped_at',
      'pl.commissioned_on',
    ],
    [
      askOn(shopCatalog, SHOP_TENANT_COLUMN),
      'how many orders at the Berlin store in 2025',
      'o.ordered_at',
      's.opened_on',
    ],
  ])('%#: %s', (ask, question, own, other) => {
    const sql = sqlOf(ask(question));
    expect(sql).toContain(`${own} >= '20`);
    expect(sql).not.toContain(`${other} >=`);
  });

  it('still dates related rows named as a set ("customers with orders in 2025")', () => {
    expect(sqlOf(askOn(shopCatalog, SHOP_TENANT_COLUMN)('customers with orders in 2025'))).toContain(
      "o.ordered_at >= '2025",
    );
  });
});

describe('"or" between conditions on different columns is asked, on one column answered', () => {
  it.each([
    [askLettings, 'flats or furnished properties', 'house or studio properties'],
    [askLibrary, 'crime books or books with more than 300 pages', 'crime or poetry books'],
  ])('%#: %s', (ask, across, within) => {
    expect(ask(across).kind).toBe('clarification');
    expect(sqlOf(ask(within))).toMatch(/IN \('\w+', '\w+'\)/);
  });
});

describe('words for things named otherwise, by word vectors', () => {
  it('reads a clear nearest relation ("writers" for authors)', () => {
    const proposal = askLibrary('how many writers are there');
    expect(sqlOf(proposal)).toContain('FROM authors');
    expect(interpretationOf(proposal)).toContain('“writers” as authors');
  });

  it.each([
    [
      askLettings,
      'how many repairs were reported in 2024',
      'how many maintenance requests were reported in 2024',
    ],
    [askLettings, 'how many apartments are furnished', 'how many properties are furnished'],
    [askLibrary, 'how many volumes does each author have', 'how many books does each author have'],
  ])('%#: offers a nearest relation that is not clear enough to answer: %s', (ask, question, offered) => {
    const proposal = ask(question);
    expect(proposal.kind === 'clarification' && proposal.suggestions).toContain(offered);
  });

  it('asks rather than read a word merely related in use ("readers" near authors)', () => {
    const proposal = askLibrary('how many readers does each branch have');
    expect(proposal.kind).toBe('clarification');
  });

  it('reads a word for people only as a relation of people ("borrowers" is never loans)', () => {
    const proposal = askLibrary('how many borrowers are there');
    if (proposal.kind === 'sql') expect(proposal.sql).not.toContain('FROM loans');
    for (const suggestion of proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : []) {
      expect(suggestion).not.toContain('loans');
    }
  });
});

describe('asking back with options', () => {
  it.each([
    [askLettings, 'how many homes do we have in each city'],
    [askLibrary, 'how many volumes does each author have'],
  ])(
    '%#: offers complete questions, each answered when asked, each a different reading: %s',
    (ask, question) => {
      const proposal = ask(question);
      expect(proposal.kind).toBe('clarification');
      const suggestions = proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : [];
      expect(suggestions.length).toBeGreaterThanOrEqual(1);
      expect(suggestions.length).toBeLessThanOrEqual(3);
      expect(proposal.kind === 'clarification' && proposal.message).toMatch(/Did you mean/);
      // The round trip: asking a suggestion answers it, as a first question and after the
      // clarification, with the same query; no two suggestions are the same reading.
      const asked = suggestions.map((suggestion) => sqlOf(ask(suggestion)));
      const afterClarification = suggestions.map((suggestion) =>
        sqlOf(
          ask(suggestion, {
            history: [{ question, kind: 'clarification', engine: 'builtin' }],
          }),
        ),
      );
      expect(afterClarification).toEqual(asked);
      expect(new Set(asked).size).toBe(asked.length);
    },
  );
});

describe('a phrase that could mean two columns is asked back with each meaning as a question', () => {
  it.each([
    [
      askLettings,
      'what is the average rent',
      ['what is the average monthly rent of properties', 'what is the average monthly rent of leases'],
    ],
    [askLibrary, 'how many per town', ['how many per town of branches', 'how many per town of members']],
  ])('%#: %s', (ask, question, offered) => {
    const proposal = ask(question);
    expect(proposal).toMatchObject({ kind: 'clarification', suggestions: offered });
    // Each answers as offered, and the two differ.
    const asked = offered.map((suggestion) => sqlOf(ask(suggestion)));
    expect(new Set(asked).size).toBe(2);
  });
});
