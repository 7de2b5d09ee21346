// Relations read through their descriptions (lib/answer/builtin/described.ts, link.ts,
// readings.ts), on a farm co-op and a medical practice: what a description calls its rows links
// a question word to the relation, below every name, and the interpretation says so; kinds a
// description lists, names two descriptions share and the description's other nouns are only
// offered back; generic nouns never link. On PGlite, the comment reaches the answer through
// introspection.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedWords } from '#lib/answer/builtin/described.ts';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import { buildLexicon } from '#lib/answer/builtin/lexicon.ts';
import { linkWord } from '#lib/answer/builtin/link.ts';
import type { Proposal } from '#lib/answer/engine.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { introspectPostgres } from '#lib/dialects/postgres/introspect.ts';
import { catalogOf, col, ddlOf, type TableSpec } from '../fixtures/catalogs/define.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

const farmTables: TableSpec[] = [
  {
    name: 'members',
    description: 'Member farms of the cooperative (one row per farm business).',
    columns: [
      col('id', 'integer', 'integer'),
      col('farm_name', 'text', 'text'),
      col('joined_on', 'date', 'date'),
    ],
  },
  { name: 'crops', columns: [col('id', 'integer', 'integer'), col('crop_name', 'text', 'text')] },
  {
    name: 'fields',
    description: 'Fields / plots farmed by member farms.',
    columns: [
      col('id', 'integer', 'integer'),
      col('member_id', 'integer', 'integer', { references: 'members' }),
      col('field_name', 'text', 'text'),
      col('hectares', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'plantings',
    description: 'A crop put into a field for one harvest year.',
    columns: [
      col('id', 'integer', 'integer'),
      col('field_id', 'integer', 'integer', { references: 'fields' }),
      col('crop_id', 'integer', 'integer', { references: 'crops' }),
      col('harvest_year', 'integer', 'integer'),
    ],
  },
  {
    name: 'equipment',
    description: 'Machinery owned by the co-op and hired out to members.',
    columns: [
      col('id', 'integer', 'integer'),
      col('equip_name', 'text', 'text'),
      col('day_rate', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'equipment_hires',
    columns: [
      col('id', 'integer', 'integer'),
      col('equipment_id', 'integer', 'integer', { references: 'equipment' }),
      col('member_id', 'integer', 'integer', { references: 'members' }),
      col('started_on', 'date', 'date'),
      col('status', 'text', 'text', { samples: ['booked', 'cancelled', 'returned'] }),
    ],
  },
  {
    name: 'intakes',
    description: 'Loads weighed in over the weighbridge at the silo.',
    columns: [
      col('id', 'integer', 'integer'),
      col('tonnes', 'decimal', 'numeric(10,2)'),
      col('intake_on', 'date', 'date'),
    ],
  },
  {
    name: 'dispatches',
    description: 'Outbound lorry loads of grain sold to merchants.',
    columns: [
      col('id', 'integer', 'integer'),
      col('tonnes', 'decimal', 'numeric(10,2)'),
      col('dispatched_on', 'date', 'date'),
    ],
  },
  {
    name: 'input_purchases',
    description: 'Seed, fertiliser, agrochemicals and fuel bought by members.',
    columns: [
      col('id', 'integer', 'integer'),
      col('member_id', 'integer', 'integer', { references: 'members' }),
      col('amount', 'decimal', 'numeric(10,2)'),
      col('bought_on', 'date', 'date'),
    ],
  },
  {
    name: 'audit_entries',
    description: 'One row per change made by staff.',
    columns: [col('id', 'integer', 'integer'), col('changed_at', 'timestamp', 'timestamp')],
  },
  {
    name: 'archive',
    description: 'Records kept for the regulator.',
    columns: [col('id', 'integer', 'integer'), col('kept_on', 'date', 'date')],
  },
];

const clinicTables: TableSpec[] = [
  {
    name: 'clinicians',
    description: 'Doctors and nurses of the practice.',
    columns: [col('id', 'integer', 'integer'), col('full_name', 'text', 'text')],
  },
  {
    name: 'enrollees',
    description: 'Patients (clients / service users) registered with the practice.',
    columns: [
      col('id', 'integer', 'integer'),
      col('full_name', 'text', 'text'),
      col('town', 'text', 'text', { samples: ['Leeds', 'York'] }),
    ],
  },
  {
    name: 'consults',
    description: 'Appointments booked with a clinician.',
    columns: [
      col('id', 'integer', 'integer'),
      col('enrollee_id', 'integer', 'integer', { references: 'enrollees' }),
      col('clinician_id', 'integer', 'integer', { references: 'clinicians' }),
      col('consult_on', 'date', 'date'),
      col('status', 'text', 'text', { samples: ['attended', 'missed'] }),
    ],
  },
  {
    name: 'rx',
    description: 'Medicines prescribed at a consult.',
    columns: [
      col('id', 'integer', 'integer'),
      col('consult_id', 'integer', 'integer', { references: 'consults' }),
      col('issued_on', 'date', 'date'),
    ],
  },
  {
    name: 'invoices',
    description: 'Remittances requested from patients for private care.',
    columns: [
      col('id', 'integer', 'integer'),
      col('enrollee_id', 'integer', 'integer', { references: 'enrollees' }),
      col('total', 'decimal', 'numeric(10,2)'),
      col('issued_on', 'date', 'date'),
    ],
  },
  {
    name: 'claims',
    description: 'Remittances requested from insurers for covered care.',
    columns: [
      col('id', 'integer', 'integer'),
      col('enrollee_id', 'integer', 'integer', { references: 'enrollees' }),
      col('total', 'decimal', 'numeric(10,2)'),
      col('issued_on', 'date', 'date'),
    ],
  },
];

const farm = catalogOf(farmTables);
const clinic = catalogOf(clinicTables);
/** The same relations, their comments left out. */
const undescribed = (tables: readonly TableSpec[]): Catalog =>
  catalogOf(tables.map(({ description: _, ...table }) => table));

const ask = (question: string, catalog: Catalog): Proposal =>
  proposeBuiltin({ question, catalog, dialect: 'postgres', history: [], now: NOW });

const sqlOf = (proposal: Proposal) => {
  if (proposal.kind !== 'sql')
    throw new Error(`expected SQL, got ${proposal.kind}: ${'message' in proposal ? proposal.message : ''}`);
  return proposal;
};

const suggestionsOf = (proposal: Proposal): readonly string[] =>
  proposal.kind === 'clarification' ? (proposal.suggestions ?? []) : [];

describe('what a description calls its rows', () => {
  it.each([
    ['Machinery owned by the co-op and hired out to members.', ['machinery']],
    ['Fields / plots farmed by member farms.', ['field', 'plot']],
    ['Ticket buyers (customers / fans) with an account.', ['buyer', 'customer', 'fan']],
    ['Brokerage firms (tenants) using the claims platform.', ['firm', 'tenant']],
    ['A crop put into a field for one harvest year.', ['crop']],
    ['Discount codes buyers can enter at checkout.', ['code']],
    ['One row per change made by staff.', ['change']],
    ['Loads weighed in over the weighbridge at the silo.', ['load']],
  ])('%s → %j', (description, names) => {
    expect([...describedWords(description).names].sort()).toEqual(names);
  });

  it('reads listed kinds and the other nouns as words, never as names', () => {
    const shows = describedWords('Shows (gigs, club nights, comedy nights) put on by the promoter.');
    expect([...shows.names]).toEqual(['show']);
    expect([...shows.words]).toEqual(expect.arrayContaining(['gig', 'night', 'promoter']));
    const inputs = describedWords('Seed, fertiliser, agrochemicals and fuel bought by members.');
    expect([...inputs.names]).toEqual([]);
    expect([...inputs.words]).toEqual(expect.arrayContaining(['seed', 'fertiliser', 'agrochemical', 'fuel']));
    const staff = describedWords('Doctors and nurses of the practice.');
    expect([...staff.names]).toEqual([]);
    expect([...staff.words]).toEqual(expect.arrayContaining(['doctor', 'nurse']));
  });

  it('never names rows by a generic noun or a function word', () => {
    expect([...describedWords('Money given back to buyers against an order.').names]).toEqual([]);
    expect([...describedWords('Records kept for the regulator.').names]).toEqual([]);
    expect([...describedWords('The rows of the old system.').names]).toEqual([]);
    const refunds = describedWords('Money given back to buyers against an order.');
    expect([...refunds.words]).not.toContain('money');
    expect([...refunds.words]).not.toContain('against');
  });
});

describe('a farm co-op: words linked through descriptions', () => {
  it('reads "machines" as equipment (machinery), below a name, and says so', () => {
    const link = linkWord(buildLexicon(farm, undefined), 'machines');
    expect(link).toMatchObject({
      source: 'described',
      phrase: 'machinery',
      entries: [{ kind: 'relation', table: 'public.equipment' }],
    });
    expect(link!.score).toBeLessThan(0.5);
    const proposal = sqlOf(ask('how many machines', farm));
    expect(proposal.sql).toMatch(/FROM equipment e/);
    expect(proposal.interpretation).toContain('“machines” as equipments (by its description: machinery)');
    expect(ask('how many machines', undescribed(farmTables)).kind).toBe('clarification');
  });

  it('reads a name given with a slash, and a linked word with the next one as another name', () => {
    const plots = sqlOf(ask('total hectares of plots', farm));
    expect(plots.sql).toMatch(/SUM\(f\.hectares\)[\s\S]*FROM fields f/);
    expect(plots.interpretation).toContain('“plots” as fields (by its description)');
    const hires = sqlOf(ask('how many machine hires were cancelled', farm));
    expect(hires.sql).toMatch(/COUNT\(\*\)[\s\S]*FROM equipment_hires eh\s+WHERE eh\.status = 'cancelled'/);
    // A verb is not the noun a description gives: "change" in "how did … change" links to nothing.
    expect(linkWord(buildLexicon(farm, undefined), 'change')).toBeUndefined();
    expect(ask('how many changes', farm)).toMatchObject({
      kind: 'sql',
      sql: expect.stringMatching(/FROM audit_entries/),
    });
  });

  it('keeps a name over a description that uses the word', () => {
    // plantings is described as "A crop put into a field": crops is the relation's own name.
    expect(sqlOf(ask('how many crops', farm)).sql).toMatch(/FROM crops c$/m);
  });

  it('offers the kinds a description lists, and answers none of them', () => {
    expect(suggestionsOf(ask('list the agrochemicals', farm))).toEqual(['list the input purchases']);
    // One option, the tidiest wording of that reading: asking it counts the input purchases.
    const options = suggestionsOf(ask('how many fertiliser purchases', farm));
    expect(options).toHaveLength(1);
    expect(sqlOf(ask(options[0]!, farm)).sql).toMatch(/FROM input_purchases/);
  });

  it('links a name two descriptions give to neither, and generic nouns to nothing', () => {
    expect(linkWord(buildLexicon(farm, undefined), 'loads')).toBeUndefined();
    expect(ask('how many loads', farm).kind).not.toBe('sql');
    expect(linkWord(buildLexicon(farm, undefined), 'records')).toBeUndefined();
    expect(linkWord(buildLexicon(farm, undefined), 'rows')).toBeUndefined();
    expect(ask('how many records', farm).kind).not.toBe('sql');
  });
});

describe('a medical practice: words linked through descriptions', () => {
  it('reads "appointments" as consults, with the rest of the question', () => {
    const proposal = sqlOf(ask('missed appointments per clinician', clinic));
    expect(proposal.sql).toMatch(/FROM consults c\s+JOIN clinicians c2[\s\S]*WHERE c\.status = 'missed'/);
    expect(proposal.interpretation).toContain('“appointments” as consults (by its description)');
    expect(sqlOf(ask('how many medicines were issued in 2025', clinic)).sql).toMatch(/FROM rx r/);
    expect(ask('missed appointments per clinician', undescribed(clinicTables)).kind).toBe('clarification');
  });

  it('reads the names given in brackets', () => {
    for (const question of ['how many patients', 'how many clients in York']) {
      expect(sqlOf(ask(question, clinic)).sql).toMatch(/FROM enrollees e/);
    }
  });

  it('offers kinds and shared words back, each reading as offered', () => {
    const nurses = ask('how many nurses', clinic);
    expect(nurses.kind).toBe('clarification');
    expect(suggestionsOf(nurses)).toEqual(['how many clinicians']);
    const remittances = ask('how many remittances in 2025', clinic);
    expect(remittances.kind).toBe('clarification');
    expect([...suggestionsOf(remittances)].sort()).toEqual([
      'how many claims in 2025',
      'how many invoices in 2025',
    ]);
    for (const suggestion of suggestionsOf(remittances)) expect(ask(suggestion, clinic).kind).toBe('sql');
  });
});

describe('on PGlite: a table comment reaches the answer through introspection', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = new PGlite();
    await db.exec(ddlOf(farmTables));
  });
  afterAll(async () => {
    await db.close();
  });

  it('introspects the comments and links through them', async () => {
    const catalog = await introspectPostgres(
      async (sql, params) => (await db.query(sql, params as unknown[])).rows as Record<string, unknown>[],
    );
    const equipment = catalog.relations.find((relation) => relation.name === 'equipment');
    expect(equipment?.description).toBe('Machinery owned by the co-op and hired out to members.');
    expect(catalog.relations.find((relation) => relation.name === 'crops')).not.toHaveProperty('description');
    expect(sqlOf(ask('how many machines', catalog)).sql).toMatch(/FROM equipment e/);
  });
});
