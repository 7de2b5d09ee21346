// Precision on schemas written with short identifiers and on questions whose words could be taken
// for filters they are not (lib/answer/builtin/): each mechanism on two schemas of different
// domains, an insurer's claims and a haulier's loads, whose columns are named the short way
// (line_nm, first_nm, closed_dt) as many databases name them.
import { describe, expect, it } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import type { FoundValue, PriorTurn, Proposal, ValueProbe } from '#lib/answer/engine.ts';
import { foldValue } from '#lib/answer/values.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { askOn, FIXTURE_NOW, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { SHOP_TENANT_COLUMN, shopCatalog } from '../fixtures/catalogs/shop.ts';

const claimsCatalog = catalogOf([
  {
    name: 'coverage_lines',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('line_cd', 'text', 'text'),
      col('line_nm', 'text', 'text'),
    ],
  },
  {
    name: 'adjusters',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('first_nm', 'text', 'text'),
      col('last_nm', 'text', 'text'),
      col('email', 'text', 'text'),
      col('is_licensed', 'boolean', 'boolean'),
    ],
  },
  {
    name: 'policies',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('policy_no', 'text', 'text'),
      col('cov_line_id', 'integer', 'integer', { references: 'coverage_lines' }),
      col('start_dt', 'date', 'date'),
    ],
  },
  {
    name: 'claims',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('policy_id', 'integer', 'integer', { references: 'policies' }),
      col('adjuster_id', 'integer', 'integer', { references: 'adjusters', nullable: true }),
      col('fnol_dt', 'date', 'date'),
      col('closed_dt', 'date', 'date', { nullable: true }),
      col('paid_dt', 'date', 'date', { nullable: true }),
      col('status', 'text', 'text', { samples: ['open', 'under_review', 'settled', 'denied'] }),
      col('channel', 'text', 'text', { samples: ['broker', 'direct', 'aggregator'] }),
      col('claimed_amt', 'decimal', 'numeric(12,2)'),
    ],
  },
  {
    name: 'premium_invoices',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('policy_id', 'integer', 'integer', { references: 'policies' }),
      col('inv_dt', 'date', 'date'),
      col('total', 'decimal', 'numeric(12,2)'),
    ],
  },
  {
    name: 'salvage_sales',
    columns: [
      col('id', 'integer', 'integer'),
      col('brokerage_id', 'integer', 'integer'),
      col('claim_id', 'integer', 'integer', { references: 'claims' }),
      col('ss_status', 'text', 'text', { samples: ['listed', 'sold', 'withdrawn'] }),
      col('ss_amt', 'decimal', 'numeric(12,2)'),
    ],
  },
]);

const freightCatalog = catalogOf([
  {
    name: 'carriers',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('carrier_nm', 'text', 'text'),
      col('scac', 'text', 'text'),
      col('is_bonded', 'boolean', 'boolean'),
      col('tier', 'text', 'text', { samples: ['gold', 'silver', 'bronze'] }),
    ],
  },
  {
    name: 'drivers',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('fname', 'text', 'text'),
      col('lname', 'text', 'text'),
      col('phone', 'text', 'text'),
      col('hired_dt', 'date', 'date'),
    ],
  },
  {
    name: 'loads',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('carrier_id', 'integer', 'integer', { references: 'carriers' }),
      col('driver_id', 'integer', 'integer', { references: 'drivers', nullable: true }),
      col('booked_dt', 'date', 'date'),
      col('pickup_dt', 'date', 'date', { nullable: true }),
      col('delivered_dt', 'date', 'date', { nullable: true }),
      col('status', 'text', 'text', { samples: ['booked', 'in_transit', 'delivered', 'cancelled'] }),
      col('weight_kg', 'integer', 'integer'),
    ],
  },
  {
    name: 'fuel_purchases',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('driver_id', 'integer', 'integer', { references: 'drivers' }),
      col('fp_status', 'text', 'text', { samples: ['approved', 'queried', 'rejected'] }),
      col('fp_dt', 'date', 'date'),
    ],
  },
]);

const askClaims = askOn(claimsCatalog, 'brokerage_id');
const askFreight = askOn(freightCatalog, 'company_id');
const askers = { claims: askClaims, freight: askFreight } as const;

describe('a name column written short (line_nm, first_nm/last_nm, fname/lname) labels its rows', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'number of policies per coverage line', 'GROUP BY cl.id, cl.line_nm'],
    ['claims', 'how many claims has each adjuster got', 'a.first_nm, a.last_nm'],
    ['freight', 'number of loads per carrier', 'GROUP BY c.id, c.carrier_nm'],
    ['freight', 'how many loads per driver', 'd.fname, d.lname'],
  ])('%s: %s', (schema, question, shown) => {
    expect(sqlOf(askers[schema](question))).toContain(shown);
  });
});

describe('a date column named <verb>_dt is the date of that verb ("closed in", "delivered in")', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'claims closed in september 2025', "c.closed_dt >= '2025-09-01'"],
    ['claims', 'how many claims were closed in 2025', "c.closed_dt >= '2025-01-01'"],
    ['freight', 'loads delivered in march 2026', "l.delivered_dt >= '2026-03-01'"],
    ['freight', 'how many loads were delivered in 2025', "l.delivered_dt >= '2025-01-01'"],
  ])('%s: %s', (schema, question, filter) => {
    const sql = sqlOf(askers[schema](question));
    expect(sql).toContain(filter);
    expect(sql).not.toMatch(/status =/);
  });
});

/** The engine with a lookup that finds `values` in the asker's data, recording what it was asked. */
const askWithValues = (
  catalog: Catalog,
  tenantColumn: string,
  values: Omit<FoundValue, 'phrase' | 'exact'>[],
) => {
  const probes: ValueProbe[] = [];
  const ask = (question: string): Promise<Proposal> =>
    builtinEngine.propose({
      question,
      catalog,
      dialect: 'postgres',
      history: [],
      now: FIXTURE_NOW,
      tenantColumn,
      findValues: async (probe) => {
        probes.push(probe);
        return probe.phrases.flatMap((phrase) =>
          values.flatMap((value) =>
            foldValue(value.value) === foldValue(phrase)
              ? [{ ...value, phrase: foldValue(phrase), exact: true }]
              : [],
          ),
        );
      },
    });
  return { ask, probes };
};

describe('a participle no status sample holds is a status value only when the asker’s data has it', () => {
  const claimsData = askWithValues(claimsCatalog, 'brokerage_id', [
    { schema: 'public', relation: 'claims', column: 'status', value: 'reopened' },
  ]);
  const freightData = askWithValues(freightCatalog, 'company_id', [
    { schema: 'public', relation: 'loads', column: 'status', value: 'delayed' },
  ]);

  it.each([
    [claimsData, 'how many reopened claims', "c.status = 'reopened'"],
    [freightData, 'list the delayed loads', "l.status = 'delayed'"],
  ])('%#: found in the status column: %s', async ({ ask, probes }, question, filter) => {
    expect(sqlOf(await ask(question))).toContain(filter);
    expect(probes.at(-1)?.columns[0]?.column).toBe('status');
  });

  it.each([
    [claimsData, 'how many claims are sitting without an adjuster assigned'],
    [freightData, 'how many loads are waiting without a driver'],
  ])('%#: found nowhere, it is asked back, never invented: %s', async ({ ask }, question) => {
    const proposal = await ask(question);
    expect(proposal.kind).toBe('clarification');
  });

  it('reads a sampled one without a lookup', () => {
    expect(sqlOf(askClaims('how many denied claims'))).toContain("c.status = 'denied'");
    expect(sqlOf(askFreight('list the cancelled loads'))).toContain("l.status = 'cancelled'");
  });
});

describe('a period after a relation each subject row points at dates the subject, not that relation', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'claims on policies in 2025', "c.fnol_dt >= '2025-01-01'"],
    ['freight', 'loads of drivers in 2025', "l.booked_dt >= '2025-01-01'"],
  ])('%s: %s', (schema, question, filter) => {
    expect(sqlOf(askers[schema](question))).toContain(filter);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'policies with claims in 2025', "c.fnol_dt >= '2025-01-01'"],
    ['freight', 'drivers with loads in 2025', "l.booked_dt >= '2025-01-01'"],
  ])('%s: rows pointing at the subject are still dated by their own date: %s', (schema, question, filter) => {
    expect(sqlOf(askers[schema](question))).toContain(filter);
  });
});

describe('a verb right before a period that names one date of the rows is that date', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'how many claims did we pay in 2025', "c.paid_dt >= '2025-01-01'"],
    ['freight', 'how many loads did we deliver last year', "l.delivered_dt >= '2025-01-01'"],
    ['freight', 'loads picked up on 14 feb 2026', "l.pickup_dt >= '2026-02-14'"],
  ])('%s: %s', (schema, question, filter) => {
    expect(sqlOf(askers[schema](question))).toContain(filter);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'how many claims did we get in 2025', "c.fnol_dt >= '2025-01-01'"],
    ['freight', 'how many loads did we have in 2025', "l.booked_dt >= '2025-01-01'"],
  ])('%s: a verb that names no date leaves the rows’ own date: %s', (schema, question, filter) => {
    expect(sqlOf(askers[schema](question))).toContain(filter);
  });
});

describe('a column prefixed with its relation’s initials answers to the rest (wo_status → "status")', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'salvage sales per status', 'GROUP BY ss.ss_status'],
    ['freight', 'fuel purchases by status', 'GROUP BY fp.fp_status'],
  ])('%s: %s', (schema, question, grouping) => {
    expect(sqlOf(askers[schema](question))).toContain(grouping);
  });
});

/** A conversation on one schema: each question asked with the turns before it. */
const conversation = (schema: keyof typeof askers, questions: readonly string[]): Proposal[] => {
  const history: PriorTurn[] = [];
  return questions.map((question) => {
    const proposal = askers[schema](question, { history: [...history] });
    history.push({
      question,
      kind: proposal.kind,
      engine: 'builtin',
      ...(proposal.kind === 'sql' ? { state: JSON.parse(JSON.stringify(proposal.state)) } : {}),
    });
    return proposal;
  });
};

describe('follow-ups keep what they refer to, or ask', () => {
  it.each<[keyof typeof askers, string, string, string]>([
    ['claims', 'how many claims per adjuster', 'only count the denied ones', "c.status = 'denied' GROUP BY"],
    [
      'freight',
      'how many loads per carrier',
      'only count the delivered ones',
      "l.status = 'delivered' GROUP BY",
    ],
  ])('%s: the same measure said again keeps the grouping: %s → %s', (schema, first, second, kept) => {
    expect(sqlOf(conversation(schema, [first, second])[1]!)).toContain(kept);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'how many claims were filed by the fnords', 'and in 2025?'],
    ['claims', 'how many claims were filed by the fnords', 'split that by status'],
    ['freight', 'how many loads did the wibbles carry', 'how does that break down by status'],
    ['freight', 'how many loads did the wibbles carry', 'and the cancelled ones?'],
  ])(
    '%s: after a question asked back, one that refers to it is asked back: %s → %s',
    (schema, first, second) => {
      const [asked, followUp] = conversation(schema, [first, second]);
      expect(asked!.kind).toBe('clarification');
      expect(followUp!.kind).toBe('clarification');
    },
  );

  it.each<[keyof typeof askers, string, string, string]>([
    ['claims', 'list the denied claims', 'which adjusters are they with', "c.status = 'denied'"],
    ['freight', 'list the cancelled loads', 'which carriers are they with', "l.status = 'cancelled'"],
  ])(
    '%s: rows referred to keep their conditions on a new subject: %s → %s',
    (schema, first, second, kept) => {
      const sql = sqlOf(conversation(schema, [first, second])[1]!);
      expect(sql).toContain(kept);
      expect(sql).toMatch(/^SELECT DISTINCT/);
    },
  );

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'how many claims in march 2025', "c.fnol_dt >= '2025-04-01' AND c.fnol_dt < '2025-05-01'"],
    ['freight', 'how many loads in march 2024', "l.booked_dt >= '2024-04-01' AND l.booked_dt < '2024-05-01'"],
  ])('%s: a month without its year takes the year before: %s → and in april?', (schema, first, period) => {
    expect(sqlOf(conversation(schema, [first, 'and in april?'])[1]!)).toContain(period);
  });
});

describe('words that change which rows are counted are never dropped nor misread', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'how many claims came direct rather than through a broker', "c.channel <> 'broker'"],
    ['freight', 'carriers in gold tier as opposed to silver', "c.tier <> 'silver'"],
  ])('%s: "rather than", "as opposed to" exclude what follows: %s', (schema, question, excluded) => {
    expect(sqlOf(askers[schema](question))).toContain(excluded);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'which adjusters have licensing', 'a.is_licensed = TRUE'],
    ['freight', 'which carriers have bonding', 'c.is_bonded = TRUE'],
  ])('%s: a verb form naming a yes/no column is that condition: %s', (schema, question, flag) => {
    expect(sqlOf(askers[schema](question))).toContain(flag);
  });

  it.each<[keyof typeof askers, string]>([
    ['claims', 'claims above 20000 on policies'],
    ['freight', 'loads over 500 for carriers'],
  ])('%s: a number before a relation each row has one of is no count of it: %s', (schema, question) => {
    expect(askers[schema](question).kind).toBe('clarification');
  });
});

describe('a question for rows of a relation is never answered by one number over all of them', () => {
  it.each<[string, string, (question: string) => Proposal]>([
    ['claims', 'which policies have been billed more than $1,000 in total', askClaims],
    ['shop', 'which customers have spent more than $1,000 in total', askOn(shopCatalog, SHOP_TENANT_COLUMN)],
  ])('%s: %s', (_schema, question, ask) => {
    const proposal = ask(question);
    if (proposal.kind === 'sql') expect(proposal.sql).toMatch(/GROUP BY/);
    else expect(proposal.message).toMatch(/one number/);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['claims', 'which adjusters have more than 5 claims', 'HAVING COUNT(*) > 5'],
    ['freight', 'which carriers have more than 5 loads', 'HAVING COUNT(*) > 5'],
  ])('%s: a count per row still reads: %s', (schema, question, having) => {
    expect(sqlOf(askers[schema](question))).toContain(having);
  });
});

describe('a list shows the columns the question filters on, however wide the rows', () => {
  /** A relation with many columns before the one the question names. */
  const wide = (name: string, tenant: string, last: ReturnType<typeof col>) =>
    catalogOf([
      {
        name,
        columns: [
          col('id', 'integer', 'integer'),
          col(tenant, 'integer', 'integer'),
          ...Array.from({ length: 14 }, (_, index) => col(`note_${index + 1}`, 'integer', 'integer')),
          col('created_at', 'date', 'date'),
          last,
        ],
      },
    ]);
  it.each<[string, (question: string) => Proposal, string, string]>([
    [
      'clinic',
      askOn(
        wide('visits', 'clinic_id', col('discharged_at', 'date', 'date', { nullable: true })),
        'clinic_id',
      ),
      'visits discharged in 2025',
      'v.discharged_at FROM visits',
    ],
    [
      'hotel',
      askOn(
        wide('bookings', 'hotel_id', col('cancelled_on', 'date', 'date', { nullable: true })),
        'hotel_id',
      ),
      'bookings cancelled in 2025',
      'b.cancelled_on FROM bookings',
    ],
  ])('%s', (_schema, ask, question, shown) => {
    expect(sqlOf(ask(question))).toContain(shown);
  });
});
