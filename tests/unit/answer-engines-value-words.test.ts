// Values and relations named in other words in the model engines' schema linking
// (lib/answer/engines/linking.ts, word-values.ts, word-links.ts): WordNet reads of sampled values
// ("finished" → completed), word vectors against a column's values as a whole ("area" → a column
// of north, south, …), relations holding several of the values a question names, the question's
// other words picking among them, and the words of a relation's description. Each on catalogs of
// two domains.
import { describe, expect, it } from 'vitest';
import { linkSchema } from '#lib/answer/engines/linking.ts';
import { sameMeaning } from '#lib/answer/engines/word-values.ts';
import { catalogOf, col, type TableSpec } from '../fixtures/catalogs/define.ts';
import { wideCatalog } from '../fixtures/catalogs/wide.ts';

const id = () => col('id', 'integer', 'integer');
const name = () => col('name', 'text', 'text');

/** Relation names by linking score, best first. */
const ranked = (catalog: ReturnType<typeof catalogOf>, question: string, tenantColumn?: string) =>
  [...linkSchema(catalog, question, { tenantColumn }).byKey.values()]
    .sort((a, b) => b.score - a.score)
    .map((linked) => linked.relation.name);

const scoreOf = (catalog: ReturnType<typeof catalogOf>, question: string, relation: string) =>
  linkSchema(catalog, question).byKey.get(`public.${relation}`)?.score ?? 0;

const linkedOf = (catalog: ReturnType<typeof catalogOf>, question: string, relation: string) => {
  const linked = linkSchema(catalog, question).byKey.get(`public.${relation}`);
  return { columns: [...(linked?.columns ?? [])], values: Object.fromEntries(linked?.values ?? []) };
};

// A shop: orders and returns with states; stores in regions.
const shop = catalogOf(
  [
    { name: 'customers', columns: [id(), name(), col('email', 'text', 'text')] },
    {
      name: 'orders',
      columns: [
        id(),
        col('customer_id', 'integer', 'integer', { references: 'customers' }),
        col('state', 'text', 'text', { samples: ['pending', 'shipped', 'completed', 'cancelled'] }),
        col('total', 'decimal', 'numeric(12,2)'),
      ],
    },
    {
      name: 'returns',
      columns: [
        id(),
        col('order_id', 'integer', 'integer', { references: 'orders' }),
        col('decision', 'text', 'text', { samples: ['approved', 'rejected', 'submitted'] }),
      ],
    },
    {
      name: 'stores',
      columns: [id(), name(), col('region', 'text', 'text', { samples: ['north', 'south', 'east', 'west'] })],
    },
  ],
  { indexedAt: '2026-03-02T00:00:00.000Z' },
);

// A lender: loan applications with decisions, branches with a location kind, borrowers' pets.
const lender = catalogOf(
  [
    {
      name: 'borrowers',
      columns: [id(), name(), col('pet', 'text', 'text', { samples: ['dog', 'cat', 'rabbit', 'horse'] })],
    },
    {
      name: 'branches',
      columns: [id(), name(), col('setting', 'text', 'text', { samples: ['internal', 'external'] })],
    },
    {
      name: 'applications',
      columns: [
        id(),
        col('borrower_id', 'integer', 'integer', { references: 'borrowers' }),
        col('branch_id', 'integer', 'integer', { references: 'branches' }),
        col('outcome', 'text', 'text', { samples: ['approved', 'rejected', 'pending'] }),
        col('amount', 'decimal', 'numeric(12,2)'),
      ],
    },
  ],
  { indexedAt: '2026-03-02T00:00:00.000Z' },
);

describe('values named in other words (WordNet)', () => {
  it('reads a word as a value through similar adjectives, pertainyms, synonyms and verb particles', () => {
    expect(sameMeaning('finished', 'completed')).toBe(true);
    expect(sameMeaning('northern', 'north')).toBe(true);
    expect(sameMeaning('outside', 'external')).toBe(true);
    expect(sameMeaning('turned down', 'rejected')).toBe(true);
    // Opposites and unrelated words are not the same value.
    expect(sameMeaning('finished', 'pending')).toBe(false);
    expect(sameMeaning('northern', 'south')).toBe(false);
    expect(sameMeaning('outside', 'internal')).toBe(false);
    expect(sameMeaning('approved', 'rejected')).toBe(false);
  });

  it('links the column and names the value, in a shop', () => {
    const finished = linkedOf(shop, 'how many finished orders', 'orders');
    expect(finished.columns).toContain('state');
    expect(finished.values).toEqual({ state: ['completed'] });
    expect(linkedOf(shop, 'list the northern stores', 'stores').values).toEqual({ region: ['north'] });
    expect(linkedOf(shop, 'returns that were turned down', 'returns').values).toEqual({
      decision: ['rejected'],
    });
  });

  it('links the column and names the value, at a lender', () => {
    expect(linkedOf(lender, 'applications turned down last month', 'applications').values).toEqual({
      outcome: ['rejected'],
    });
    expect(linkedOf(lender, 'branches outside the bank', 'branches').values).toEqual({
      setting: ['external'],
    });
  });
});

describe('columns whose values a word is near as a whole (word vectors)', () => {
  it('links a region column for "area", without naming a value', () => {
    const linked = linkedOf(shop, 'stores per area', 'stores');
    expect(linked.columns).toContain('region');
    expect(linked.values).toEqual({});
  });

  it('links a column of animals for "animal"', () => {
    const linked = linkedOf(lender, 'borrowers by animal', 'borrowers');
    expect(linked.columns).toContain('pet');
    expect(linked.values).toEqual({});
  });

  it('links no column for a word far from every value set', () => {
    expect(linkedOf(lender, 'borrowers by surname', 'borrowers').columns).not.toContain('pet');
  });
});

describe('relations holding several of the values a question names', () => {
  it('ranks the relation holding both values first (a help desk)', () => {
    const helpdesk = catalogOf(
      [
        {
          name: 'agents',
          columns: [id(), name(), col('tier', 'text', 'text', { samples: ['junior', 'senior'] })],
        },
        { name: 'tickets', columns: [id(), col('status', 'text', 'text', { samples: ['open', 'closed'] })] },
        {
          name: 'escalations',
          columns: [
            id(),
            col('status', 'text', 'text', { samples: ['open', 'closed'] }),
            col('level', 'text', 'text', { samples: ['senior', 'executive'] }),
          ],
        },
      ],
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    expect(ranked(helpdesk, 'how many are open at senior level')[0]).toBe('escalations');
    // More than what the two values give apart.
    expect(scoreOf(helpdesk, 'how many are open at senior level', 'escalations')).toBeGreaterThan(
      scoreOf(helpdesk, 'how many are open', 'escalations') +
        scoreOf(helpdesk, 'at senior level', 'escalations') +
        2,
    );
  });

  it('ranks the relation holding both values first (a lender), one read in other words', () => {
    // "turned down" is rejected (applications and appeals), "outside" external (appeals only).
    const appeals: TableSpec = {
      name: 'appeals',
      columns: [
        id(),
        col('outcome', 'text', 'text', { samples: ['approved', 'rejected'] }),
        col('reviewer', 'text', 'text', { samples: ['internal', 'external'] }),
      ],
    };
    const both = catalogOf(
      [
        {
          name: 'applications',
          columns: [id(), col('outcome', 'text', 'text', { samples: ['approved', 'rejected', 'pending'] })],
        },
        {
          name: 'branches',
          columns: [id(), col('setting', 'text', 'text', { samples: ['internal', 'external'] })],
        },
        appeals,
      ],
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    const question = 'how many were turned down by an outside reviewer';
    expect(ranked(both, question)[0]).toBe('appeals');
    expect(scoreOf(both, question, 'appeals')).toBeGreaterThan(
      scoreOf(both, 'how many were turned down', 'appeals') +
        scoreOf(both, 'an outside reviewer', 'appeals') +
        2,
    );
  });

  it('lets the other words pick among the relations holding them (50 relations)', () => {
    // Twelve relations hold north and completed; "shopping baskets" is nearest carts among them.
    const holders = (value: string) =>
      new Set(
        wideCatalog.relations
          .filter((relation) => Object.values(relation.samples).some((values) => values.includes(value)))
          .map((relation) => relation.name),
      );
    const both = new Set([...holders('north')].filter((relation) => holders('completed').has(relation)));
    expect(both.size).toBe(12);
    const order = ranked(wideCatalog, 'count northern shopping baskets that were finished', 'org_id');
    // (agents is there too, through "shopper", a kind of agent in WordNet.)
    expect(order.filter((relation) => both.has(relation) && relation !== 'agents')[0]).toBe('carts');
    // Thirteen hold external and open; "initiatives" is nearest projects among them.
    expect(ranked(wideCatalog, 'how many outside initiatives are still open', 'org_id')[0]).toBe('projects');
  });

  it('lets the other words pick among few relations holding one value (a clinic)', () => {
    const clinic = catalogOf(
      [
        ...['wards', 'physicians', 'nurses', 'rooms', 'shifts', 'invoices', 'suppliers'].map(
          (table): TableSpec => ({ name: table, columns: [id(), name()] }),
        ),
        {
          name: 'appointments',
          columns: [id(), col('status', 'text', 'text', { samples: ['booked', 'cancelled', 'attended'] })],
        },
        {
          name: 'prescriptions',
          columns: [id(), col('status', 'text', 'text', { samples: ['issued', 'cancelled'] })],
        },
      ],
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    // Both hold cancelled; "consultations" is nearer appointments (0.48) than a word must be to
    // any of all relations (0.6).
    const question = 'how many consultations were cancelled';
    expect(ranked(clinic, question)[0]).toBe('appointments');
    expect(scoreOf(clinic, question, 'appointments')).toBeGreaterThan(
      scoreOf(clinic, question, 'prescriptions'),
    );
  });
});

describe('relation descriptions', () => {
  it('counts the words of a relation’s description as evidence for it (a shop)', () => {
    const described = catalogOf(
      [
        ...['customers', 'products', 'suppliers'].map(
          (table): TableSpec => ({ name: table, columns: [id(), name()] }),
        ),
        {
          name: 'carts',
          columns: [id(), name()],
          description: 'Shopping baskets customers fill before checkout',
        },
      ],
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    expect(ranked(described, 'how many shopping baskets were abandoned')[0]).toBe('carts');
  });

  it('counts the words of a relation’s description as evidence for it (a fleet)', () => {
    const described = catalogOf(
      [
        ...['drivers', 'vehicles', 'depots'].map(
          (table): TableSpec => ({ name: table, columns: [id(), name()] }),
        ),
        {
          name: 'jobs',
          columns: [id(), name()],
          description: 'Deliveries and collections a driver makes on a route',
        },
      ],
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    expect(ranked(described, 'count collections per week')[0]).toBe('jobs');
    expect(scoreOf(described, 'count collections per week', 'jobs')).toBeGreaterThan(0);
    // Without the description nothing names them.
    // A word every description has says less about any one relation.
    const common = catalogOf(
      ['drivers', 'vehicles', 'depots', 'jobs'].map(
        (table): TableSpec => ({
          name: table,
          columns: [id(), name()],
          description: table === 'jobs' ? 'Records of collections' : `Records of ${table}`,
        }),
      ),
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    expect(scoreOf(common, 'count records', 'jobs')).toBeLessThan(
      scoreOf(common, 'count collections', 'jobs'),
    );
    const plain = catalogOf(
      described.relations.map((relation) => ({ name: relation.name, columns: [id(), name()] })),
      { indexedAt: '2026-03-02T00:00:00.000Z' },
    );
    expect(ranked(plain, 'count collections per week')).not.toContain('jobs');
  });
});
