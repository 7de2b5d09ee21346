// The value lookup against real databases (docs/design.md "Answering on unseen databases", "Values
// the question names"; lib/answer/values.ts, lib/answer/builtin/values.ts): names of a tenant's
// shippers and vets are never sampled, so the builtin engine looks them up with one probe, guarded
// and run as the asker exactly as the answer's query is. Two schemas of different domains (a
// haulage firm, a veterinary practice), each on PGlite, on a PostgreSQL server
// (TABLETALK_TEST_POSTGRES_URL) and on MySQL/MariaDB (TABLETALK_TEST_MYSQL_URL). A value that only
// tenant 2 has gives tenant 1 the very answer a value that exists nowhere gives, after the same
// one probe.
import { expect, it } from 'vitest';
import { builtinEngine } from '#lib/answer/builtin/index.ts';
import type { Proposal } from '#lib/answer/engine.ts';
import { lookUpValues } from '#lib/answer/values.ts';
import type { DialectName as Dialect } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { catalogOf, col, type TableSpec } from '../fixtures/catalogs/define.ts';
import { onEachEngine, type Runner } from '../helpers/each-engine.ts';

const NOW = new Date('2026-03-15T12:00:00Z');

const tables: TableSpec[] = [
  {
    name: 'shippers',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('name', 'text', 'text'),
    ],
  },
  {
    name: 'depots',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('name', 'text', 'text'),
    ],
  },
  {
    name: 'shipments',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('shipper_id', 'integer', 'integer', { references: 'shippers' }),
      col('depot_id', 'integer', 'integer', { references: 'depots' }),
      col('booked_on', 'date', 'date'),
    ],
  },
  {
    name: 'vets',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('first_name', 'text', 'text'),
      col('last_name', 'text', 'text'),
    ],
  },
  {
    name: 'appointments',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('vet_id', 'integer', 'integer', { references: 'vets' }),
      col('seen_on', 'date', 'date'),
    ],
  },
];

/**
 * Tenant 1: Meridian Pharma Ltd (3 shipments, 2 in 2025), Café Zürich (1), a depot and a shipper
 * both named Kestrel; Dr Whitfield (2 appointments). Tenant 2: Ullswater Meats (4 shipments) and
 * Dr Okonkwo (5 appointments).
 */
const ddl = `
CREATE TABLE shippers (id integer PRIMARY KEY, firm_id integer NOT NULL, name varchar(100) NOT NULL);
CREATE TABLE depots (id integer PRIMARY KEY, firm_id integer NOT NULL, name varchar(100) NOT NULL);
CREATE TABLE shipments (id integer PRIMARY KEY, firm_id integer NOT NULL,
  shipper_id integer NOT NULL REFERENCES shippers (id), depot_id integer NOT NULL REFERENCES depots (id),
  booked_on date NOT NULL);
CREATE TABLE vets (id integer PRIMARY KEY, firm_id integer NOT NULL, first_name varchar(50) NOT NULL,
  last_name varchar(50) NOT NULL);
CREATE TABLE appointments (id integer PRIMARY KEY, firm_id integer NOT NULL,
  vet_id integer NOT NULL REFERENCES vets (id), seen_on date NOT NULL);
INSERT INTO shippers VALUES (1, 1, 'Meridian Pharma Ltd'), (2, 1, 'Café Zürich'), (3, 1, 'Kestrel'),
  (4, 2, 'Ullswater Meats');
INSERT INTO depots VALUES (1, 1, 'Kestrel'), (2, 2, 'Fell Side');
INSERT INTO shipments VALUES (1, 1, 1, 1, '2025-02-01'), (2, 1, 1, 1, '2025-03-01'), (3, 1, 1, 1, '2024-05-01'),
  (4, 1, 2, 1, '2025-04-04'), (5, 1, 3, 1, '2025-06-06'),
  (6, 2, 4, 2, '2025-01-01'), (7, 2, 4, 2, '2025-01-02'), (8, 2, 4, 2, '2025-01-03'), (9, 2, 4, 2, '2025-01-04');
INSERT INTO vets VALUES (1, 1, 'Ann', 'Whitfield'), (2, 2, 'Chidi', 'Okonkwo');
INSERT INTO appointments VALUES (1, 1, 1, '2025-01-10'), (2, 1, 1, '2025-02-10'),
  (3, 2, 2, '2025-01-11'), (4, 2, 2, '2025-01-12'), (5, 2, 2, '2025-01-13'), (6, 2, 2, '2025-01-14'),
  (7, 2, 2, '2025-01-15')`;

const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'firm_id',
  policy: { tenant_column: 'firm_id', tables: {} },
});

const suite = (dialect: Dialect, schema: () => string, run: () => Runner) => {
  const guard = dialect === 'mysql' ? guardMysql : guardPostgres;
  /** The engine's proposal as `tenant` asks, its lookup run through the guard; and the probes run. */
  const propose = async (question: string, tenant = '1'): Promise<{ proposal: Proposal; probes: number }> => {
    const catalog = catalogOf(tables, { schema: schema(), dialect });
    let probes = 0;
    const proposal = await builtinEngine.propose({
      question,
      catalog,
      dialect,
      history: [],
      now: NOW,
      tenantColumn: 'firm_id',
      findValues: (probe) =>
        lookUpValues(
          {
            dialect,
            visible: catalog,
            guard: async (sql, rowCap) => guard({ sql, catalog, policy, tenant, rowCap }),
            run: async (sql, params) => {
              probes += 1;
              return run()(sql, [...params]);
            },
          },
          probe,
        ),
    });
    return { proposal, probes };
  };
  /** The one number tenant 1's answer comes to, run through the guard. */
  const number = async (question: string): Promise<number> => {
    const { proposal } = await propose(question);
    if (proposal.kind !== 'sql') throw new Error(`${question}: ${JSON.stringify(proposal)}`);
    const catalog = catalogOf(tables, { schema: schema(), dialect });
    const guarded = await guard({ sql: proposal.sql, catalog, policy, tenant: '1', rowCap: 100 });
    if (!guarded.allowed) throw new Error(guarded.message);
    const rows = await run()(guarded.sql, guarded.params);
    return Number(Object.values(rows[0]!)[0]);
  };

  it('reads a shipper named in lower case, by the start of its name, as a filter', async () => {
    expect(await number('how many shipments for meridian pharma were booked in 2025')).toBe(2);
    expect(await number('how many shipments for Meridian Pharma')).toBe(3);
  });

  it('matches without case and accents', async () => {
    expect(await number('how many shipments for cafe zurich')).toBe(1);
  });

  it('reads a vet by the last name after a title', async () => {
    expect(await number('how many appointments were handled by Dr. Whitfield')).toBe(2);
  });

  it('asks which one when the name is a shipper and a depot, each option answerable', async () => {
    const { proposal } = await propose('how many shipments for Kestrel');
    expect(proposal.kind).toBe('clarification');
    expect(proposal.kind === 'clarification' ? proposal.suggestions : []).toHaveLength(2);
  });

  it('gives tenant 1 for a name only tenant 2 has exactly what a name nobody has gives, after one probe', async () => {
    for (const [theirs, nobodys] of [
      ['how many shipments for Ullswater Meats', 'how many shipments for Quenby Mills'],
      [
        'how many appointments were handled by Dr. Okonkwo',
        'how many appointments were handled by Dr. Abernathy',
      ],
    ] as const) {
      const other = await propose(theirs);
      const none = await propose(nobodys);
      const words = (text: string) =>
        text
          .split(/for |by Dr\. /)[1]!
          .toLowerCase()
          .split(' ');
      // (Any case: a clarification quotes the name as it was written.)
      const masked = (proposal: Proposal, question: string) =>
        words(question).reduce(
          (json, word) => json.replace(new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), 'NAME'),
          JSON.stringify(proposal),
        );
      expect(masked(other.proposal, theirs)).toBe(masked(none.proposal, nobodys));
      expect(other.proposal.kind).toBe('clarification');
      expect([other.probes, none.probes]).toEqual([1, 1]);
      // The value is there for its own tenant: the test can tell.
      expect((await propose(theirs, '2')).proposal.kind).toBe('sql');
    }
  });
};

onEachEngine('the value lookup', ddl, suite);
