// The builtin engine on questions typed the way users type them (issue 15): absences ("with no",
// "never", "no longer"), plural values that stand for rows ("how many dogs"), words misspelled
// past the schema's own names ("custmers" for a relation named owners), contractions, and
// possessive names. The absence's NOT EXISTS runs through the SQL guard on PGlite: the tenant
// fence reaches inside it, so another tenant's rows never decide which of ours have none.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import type { EngineInput, Proposal } from '#lib/answer/engine.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { parseGlossary } from '#lib/store/glossary.ts';
import { type ColumnSpec, catalogOf, col, ddlOf, type TableSpec } from '../fixtures/catalogs/define.ts';
import { SHOP_NOW, SHOP_TENANT_COLUMN, shopCatalog } from '../fixtures/catalogs/shop.ts';

const tenant = col('org_id', 'integer', 'integer');

/** A small practice: shared species, owners, pets (microchip may be missing), vets. */
const tables: TableSpec[] = [
  {
    name: 'species',
    columns: [
      col('id', 'integer', 'integer'),
      col('name', 'text', 'text', { samples: ['cat', 'dog', 'rabbit'] }),
    ],
  },
  {
    name: 'owners',
    columns: [
      col('id', 'integer', 'integer'),
      tenant,
      col('first_name', 'text', 'text'),
      col('last_name', 'text', 'text'),
      col('phone', 'text', 'text', { nullable: true }),
    ],
  },
  {
    name: 'pets',
    columns: [
      col('id', 'integer', 'integer'),
      tenant,
      col('owner_id', 'integer', 'integer', { references: 'owners' }),
      col('species_id', 'integer', 'integer', { references: 'species' }),
      col('name', 'text', 'text'),
      col('microchip', 'text', 'text', { nullable: true }),
    ],
  },
  {
    name: 'vets',
    columns: [
      col('id', 'integer', 'integer'),
      tenant,
      col('first_name', 'text', 'text'),
      col('last_name', 'text', 'text'),
      col('is_active', 'boolean', 'boolean'),
    ],
  },
];
const catalog = catalogOf(tables);
const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: { species: { shared: true } } },
});

/** The practice's owners and pets, pets with one more column. */
const withPetColumn = (column: ColumnSpec): Catalog =>
  catalogOf([...tables.slice(0, 2), { name: 'pets', columns: [...tables[2]!.columns, column] }]);

/** Asks of `on` as a first question (or after `extra.history`), in PostgreSQL unless said. */
const askOn =
  (on: Catalog, tenantColumn = 'org_id') =>
  (question: string, extra: Partial<EngineInput> = {}): Proposal =>
    proposeBuiltin({
      question,
      catalog: on,
      dialect: 'postgres',
      history: [],
      now: SHOP_NOW,
      tenantColumn,
      ...extra,
    });
const ask = askOn(catalog);
const askShop = askOn(shopCatalog, SHOP_TENANT_COLUMN);

/** The SQL proposal, its SQL on one line. */
const sqlOf = (proposal: Proposal) => {
  if (proposal.kind !== 'sql')
    throw new Error(`expected SQL, got ${proposal.kind}: ${'message' in proposal ? proposal.message : ''}`);
  return { ...proposal, sql: proposal.sql.replace(/\s+/g, ' ') };
};

describe('absences', () => {
  it.each([
    ['pets with no microchip', /WHERE p\.microchip IS NULL/],
    ['how many pets dont have a microchip', /WHERE p\.microchip IS NULL/],
    ['owners without a phone', /WHERE o\.phone IS NULL/],
    ['owners who have no pets', /NOT EXISTS \(SELECT 1 FROM pets p_none WHERE p_none\.owner_id = o\.id\)/],
    ['vets no longer active', /WHERE v\.is_active = FALSE/],
    [
      'owners who have never booked a pet',
      /NOT EXISTS \(SELECT 1 FROM pets p_none WHERE p_none\.owner_id = o\.id\)/,
    ],
  ])('%s', (question, sql) => {
    expect(sqlOf(ask(question)).sql).toMatch(sql);
  });

  it('reads "never ordered" of products as no order items (the rows whose keys point back)', () => {
    expect(sqlOf(askShop('products that have never been ordered')).sql).toMatch(
      /NOT EXISTS \(SELECT 1 FROM order_items oi_none WHERE oi_none\.product_id = p\.id\)/,
    );
  });

  it('reads "never" and a verb that names a relation as no such rows', () => {
    // Act
    const proposal = sqlOf(askShop('customers who never ordered'));

    // Assert
    expect(proposal.sql).toMatch(
      /NOT EXISTS \(SELECT 1 FROM orders o_none WHERE o_none\.customer_id = c\.id\)/,
    );
    expect(proposal.description).toBe('Listing customers with no orders');
  });

  it('is fenced by the MySQL guard too, at every relation of the subquery', async () => {
    // Arrange
    const mysqlCatalog = catalogOf(
      [
        ...tables.slice(1, 3),
        {
          name: 'visits',
          columns: [
            col('id', 'integer', 'integer'),
            tenant,
            col('pet_id', 'integer', 'integer', { references: 'pets' }),
          ],
        },
      ],
      { dialect: 'mysql', schema: 'practice' },
    );
    const proposal = sqlOf(
      askOn(mysqlCatalog)('how many owners have never booked a visit', { dialect: 'mysql' }),
    );

    // Act
    const guarded = await guardMysql({
      sql: proposal.sql,
      catalog: mysqlCatalog,
      policy,
      tenant: '1',
      rowCap: 100,
    });

    // Assert
    if (!guarded.allowed) throw new Error(guarded.message);
    for (const table of ['owners', 'visits', 'pets'])
      expect(guarded.sql).toContain(
        `(SELECT * FROM \`practice\`.\`${table}\` WHERE \`${table}\`.\`org_id\` = ?`,
      );
    expect(guarded.params).toEqual([1, 1, 1]);
  });

  it('reads "no longer" before a glossary condition as that condition turned around', () => {
    // Arrange
    const glossary = parseGlossary({ filters: { working: 'vets.is_active' } });

    // Act
    const proposal = sqlOf(ask('list the vets who are no longer working', { glossary }));

    // Assert
    expect(proposal.sql).toMatch(/WHERE v\.is_active = FALSE/);
  });

  it('does not read another relation’s column as no related rows', () => {
    const proposal = ask('owners without a microchip');
    expect(proposal.kind).toBe('clarification');
  });

  it('asks when every row has the column', () => {
    const proposal = ask('pets with no name');
    expect(proposal.kind).toBe('clarification');
    expect('message' in proposal ? proposal.message : '').toMatch(/Every pet has a name/);
  });

  describe('on PGlite, through the guard', () => {
    let db: PGlite;

    beforeAll(async () => {
      db = new PGlite();
      await db.exec(ddlOf(tables));
      // Owner 1 of tenant 1 has no pet; tenant 2's pet points at owner id 1 of its own.
      await db.exec(`
        INSERT INTO species VALUES (1, 'cat'), (2, 'dog');
        INSERT INTO owners VALUES (1, 1, 'Ada', 'Moreno', NULL), (2, 1, 'Ben', 'Ito', '555'), (1001, 2, 'Cy', 'Roe', NULL);
        INSERT INTO pets VALUES (1, 1, 2, 1, 'Tom', NULL), (2, 2, 1, 2, 'Rex', 'X1');
      `);
    });

    afterAll(async () => {
      await db.close();
    });

    it("counts tenant 1's owners who never booked a visit, through their pets, fenced at every step", async () => {
      // Arrange: visits → pets → owners; tenant 2's pet and visit reuse tenant 1's ids
      const withVisits = catalogOf([
        ...tables,
        {
          name: 'visits',
          columns: [
            col('id', 'integer', 'integer'),
            tenant,
            col('pet_id', 'integer', 'integer', { references: 'pets' }),
          ],
        },
      ]);
      await db.exec(`
        CREATE TABLE visits (id integer PRIMARY KEY, org_id integer NOT NULL, pet_id integer NOT NULL);
        INSERT INTO owners VALUES (3, 1, 'Cal', 'Diaz', NULL);
        INSERT INTO pets VALUES (3, 1, 3, 2, 'Bo', NULL);
        INSERT INTO visits VALUES (1, 1, 1), (2, 2, 2), (3, 2, 3);
      `);
      const proposal = sqlOf(askOn(withVisits)('how many owners have never booked a visit'));

      // Act
      const guarded = await guardPostgres({
        sql: proposal.sql,
        catalog: withVisits,
        policy,
        tenant: '1',
        rowCap: 100,
      });
      if (!guarded.allowed) throw new Error(guarded.message);
      const rows = (await db.query<{ owner_count: number }>(guarded.sql, guarded.params)).rows;

      // Assert: owners 1 (no pet) and 3 (a pet never seen); tenant 2's visits change nothing
      expect(proposal.sql).toMatch(
        /NOT EXISTS \(SELECT 1 FROM visits v_none2 JOIN pets p_none ON v_none2\.pet_id = p_none\.id WHERE p_none\.owner_id = o\.id\)/,
      );
      expect(rows).toEqual([{ owner_count: 2 }]);
    });

    it("counts tenant 1's owners with no pets: tenant 2's pet pointing at owner id 1 changes nothing", async () => {
      // Arrange
      const proposal = sqlOf(ask('how many owners have no pets'));

      // Act
      const guarded = await guardPostgres({ sql: proposal.sql, catalog, policy, tenant: '1', rowCap: 100 });
      if (!guarded.allowed) throw new Error(guarded.message);
      const rows = (await db.query<{ owner_count: number }>(guarded.sql, guarded.params)).rows;

      // Assert: the fence is inside the subquery too
      expect(guarded.sql).toMatch(
        /NOT \(EXISTS \(SELECT 1 FROM \( SELECT \* FROM public\.pets WHERE pets\.org_id = \$1/,
      );
      expect(rows).toEqual([{ owner_count: 1 }]);
    });
  });
});

describe('plural values that stand for rows', () => {
  it('counts the rows of the one relation that refers to the value ("how many dogs")', () => {
    // Act
    const proposal = sqlOf(ask('how many dogs do we have'));

    // Assert
    expect(proposal.sql).toBe(
      "SELECT COUNT(*) AS pet_count FROM pets p JOIN species s ON p.species_id = s.id WHERE s.name = 'dog'",
    );
  });

  it('keeps the value a filter when the question names the rows itself ("how many dog owners")', () => {
    expect(sqlOf(ask('how many dog owners')).sql).toMatch(
      /COUNT\(DISTINCT o\.id\) AS owner_count FROM owners o/,
    );
  });

  it('follows up with another value on the same rows ("and cats?")', () => {
    // Arrange
    const first = sqlOf(ask('how many dogs do we have'));

    // Act
    const second = ask('and cats?', {
      history: [{ question: 'how many dogs do we have', kind: 'sql', engine: 'builtin', state: first.state }],
    });

    // Assert
    expect(sqlOf(second).sql).toMatch(
      /SELECT COUNT\(\*\) AS pet_count FROM pets p .* WHERE s\.name = 'cat'$/,
    );
  });
});

describe('misspellings past the schema’s own names', () => {
  it('reads a word one edit from a dictionary word that links, through the glossary ("custmers")', () => {
    // Arrange
    const glossary = parseGlossary({ synonyms: { customers: 'owners' } });

    // Act
    const proposal = sqlOf(ask('how many custmers do we have', { glossary }));

    // Assert
    expect(proposal.sql).toBe('SELECT COUNT(*) AS owner_count FROM owners o');
    expect(proposal.interpretation).toMatch(/“custmers” as owners \(a typo\?\)/);
  });

  it('reads a transposed plural of a name ("micorchips")', () => {
    expect(sqlOf(ask('pets with no micorchips')).sql).toMatch(/p\.microchip IS NULL/);
  });
});

describe('words broader than a relation’s name', () => {
  it('reads "animals" as the one relation of animals (pets)', () => {
    expect(sqlOf(ask('how many animals are there')).sql).toBe('SELECT COUNT(*) AS pet_count FROM pets p');
  });

  it('never reads "people" as one relation of people', () => {
    expect(ask('how many people are there').kind).toBe('clarification');
  });
});

describe('money in other words', () => {
  it('reads "spend" as revenue when no column answers to it', () => {
    // Act
    const proposal = sqlOf(askShop('total spend of customers in Spain'));

    // Assert
    expect(proposal.sql).toBe(
      "SELECT SUM(oi.quantity * oi.unit_price) AS total_revenue FROM order_items oi JOIN orders o ON oi.order_id = o.id JOIN customers c ON o.customer_id = c.id WHERE c.country = 'Spain'",
    );
  });

  it('never takes a qualified cost (shipping_cost) for what an order costs', () => {
    const orders = catalogOf([
      {
        name: 'orders',
        columns: [col('id', 'integer', 'integer'), tenant, col('shipping_cost', 'decimal', 'numeric(10,2)')],
      },
    ]);
    expect(askOn(orders)('orders over $500').kind).toBe('clarification');
  });

  it('takes a relation’s only money column, whatever its name, as its price ("most expensive")', () => {
    // Arrange: a fee is the only money column of visits
    const withFees = catalogOf([
      ...tables,
      {
        name: 'visits',
        columns: [
          col('id', 'integer', 'integer'),
          tenant,
          col('pet_id', 'integer', 'integer', { references: 'pets' }),
          col('fee', 'decimal', 'numeric(10,2)'),
        ],
      },
    ]);

    // Act
    const proposal = sqlOf(askOn(withFees)('the most expensive visit'));

    // Assert
    expect(proposal.sql).toMatch(/ORDER BY v\.fee DESC/);
  });

  it('reads a column without the unit its name ends in ("weight" for weight_kg)', () => {
    // Arrange
    const weighed = withPetColumn(col('weight_kg', 'decimal', 'numeric(10,2)'));

    // Act
    const proposal = sqlOf(askOn(weighed)('average weight of pets'));

    // Assert
    expect(proposal.sql).toBe('SELECT AVG(p.weight_kg) AS average_weight_kg FROM pets p');
  });
});

describe('different values, halves of a year, who was last', () => {
  it('counts the different values of a text column ("how many different names of dogs")', () => {
    // Act
    const proposal = sqlOf(ask('how many different names do our dogs have'));

    // Assert
    expect(proposal.sql).toBe(
      "SELECT COUNT(DISTINCT p.name) AS name_count FROM pets p JOIN species s ON p.species_id = s.id WHERE s.name = 'dog'",
    );
    expect(proposal.description).toBe("Counting the different names of pets of species with name 'dog'");
  });

  it('reads "the first half of 2025" as January to June', () => {
    expect(sqlOf(askShop('orders placed in the first half of 2025')).sql).toMatch(
      /o\.ordered_at >= '2025-01-01' AND o\.ordered_at < '2025-07-01'/,
    );
  });

  it('answers "who is the most recently hired" with the row, not the date', () => {
    expect(sqlOf(askShop('who is the most recently hired employee?')).sql).toMatch(
      /^SELECT e\.id, .* FROM employees e ORDER BY e\.hired_at DESC, e\.id LIMIT 1$/,
    );
  });
});

describe('units and the most common value', () => {
  it('reads "38 kg" as a number of the column measured in kg', () => {
    // Arrange
    const weighed = withPetColumn(col('weight_kg', 'decimal', 'numeric(10,2)'));

    // Act
    const proposal = sqlOf(askOn(weighed)('which pets weigh more than 38 kg'));

    // Assert
    expect(proposal.sql).toMatch(/WHERE p\.weight_kg > 38 /);
  });

  it('ranks the values of a column by how many rows have them ("the most common status")', () => {
    expect(sqlOf(askShop('what is the most common status of orders')).sql).toBe(
      'SELECT o.status, COUNT(*) AS order_count FROM orders o GROUP BY o.status ORDER BY order_count DESC, o.status LIMIT 1',
    );
  });
});

describe('a relation named tenants', () => {
  // A lettings agency's tenants are its own rows (they carry the tenant column), not other tenants.
  const lettings = catalogOf([
    { name: 'tenants', columns: [col('id', 'integer', 'integer'), tenant, col('full_name', 'text', 'text')] },
    {
      name: 'leases',
      columns: [
        col('id', 'integer', 'integer'),
        tenant,
        col('tenant_id', 'integer', 'integer', { references: 'tenants' }),
        col('monthly_rent', 'decimal', 'numeric(10,2)'),
      ],
    },
  ]);
  const askLettings = askOn(lettings);

  it.each(['how many leases does each tenant have', 'list the names of all tenants', 'leases of tenants'])(
    'answers "%s" about its own rows',
    (question) => {
      expect(askLettings(question).kind).not.toBe('refused');
    },
  );

  it('still refuses other organizations and the tenant column', () => {
    expect(askLettings('leases of other organizations').kind).toBe('refused');
    expect(askLettings('leases where org_id = 2').kind).toBe('refused');
  });

  it('still refuses "all tenants" where the relation is the registry of tenants, keyed by the tenant column', () => {
    const registry = catalogOf([
      {
        name: 'tenants',
        primaryKey: ['org_id'],
        columns: [tenant, col('name', 'text', 'text'), col('plan', 'text', 'text')],
      },
    ]);
    const proposal = askOn(registry)('list the plans of all tenants');
    expect(proposal.kind).toBe('refused');
  });

  it('still refuses "each tenant" where tenants are not a relation of the data', () => {
    expect(ask('how many pets does each tenant have').kind).toBe('refused');
  });
});

describe('an average of counts', () => {
  it('is asked about, never answered with the counts alone', () => {
    const proposal = ask('how many pets does each owner have on average');
    expect(proposal.kind).toBe('clarification');
    expect('message' in proposal ? proposal.message : '').toMatch(/not average counts/);
  });
});

describe('a yes/no column both ways', () => {
  it('counts per value ("how many vets are active vs not active")', () => {
    expect(sqlOf(ask('how many vets are active vs not active')).sql).toBe(
      'SELECT v.is_active, COUNT(*) AS vet_count FROM vets v GROUP BY v.is_active ORDER BY vet_count DESC, v.is_active LIMIT 100',
    );
  });

  it('asks in a list', () => {
    expect(ask('list active and not active vets').kind).toBe('clarification');
  });
});

describe('birth dates', () => {
  const born = withPetColumn(col('birth_date', 'date', 'date'));
  const askBorn = askOn(born);

  it('dates a row only when the question says born', () => {
    expect(sqlOf(askBorn('how many pets were born in 2020')).sql).toMatch(/p\.birth_date >= '2020-01-01'/);
  });

  it('never takes a birth date for when a row happened ("pets seen in 2024")', () => {
    expect(askBorn('how many pets did we see in 2024').kind).toBe('clarification');
  });
});

describe('a helpdesk, as its users type', () => {
  const helpdesk = catalogOf([
    {
      name: 'accounts',
      columns: [
        col('id', 'integer', 'integer'),
        tenant,
        col('name', 'text', 'text'),
        col('plan', 'text', 'text', { samples: ['enterprise', 'free', 'team'] }),
        col('country', 'text', 'text', { samples: ['Germany', 'United Kingdom', 'United States'] }),
        col('created_on', 'date', 'date'),
      ],
    },
    {
      name: 'contacts',
      columns: [
        col('id', 'integer', 'integer'),
        tenant,
        col('account_id', 'integer', 'integer', { references: 'accounts' }),
        col('full_name', 'text', 'text'),
        col('phone', 'text', 'text', { nullable: true }),
      ],
    },
    {
      name: 'agents',
      columns: [
        col('id', 'integer', 'integer'),
        tenant,
        col('full_name', 'text', 'text'),
        col('team', 'text', 'text', { samples: ['Billing', 'Tier 1', 'Tier 2'] }),
      ],
    },
    {
      name: 'tickets',
      columns: [
        col('id', 'integer', 'integer'),
        tenant,
        col('contact_id', 'integer', 'integer', { references: 'contacts' }),
        col('assignee_id', 'integer', 'integer', { references: 'agents', nullable: true }),
        col('channel', 'text', 'text', { samples: ['chat', 'email', 'phone'] }),
        col('status', 'text', 'text', { samples: ['closed', 'open', 'pending', 'solved'] }),
        col('opened_at', 'timestamp', 'timestamp'),
      ],
    },
  ]);
  const askDesk = (question: string) => sqlOf(askOn(helpdesk)(question));

  it.each([
    ['how many unassigned tickets do we have', /WHERE t\.assignee_id IS NULL$/],
    ['enterprise accounts in the US', /WHERE a\.plan = 'enterprise' AND a\.country = 'United States'/],
    ['contacts with no phone', /FROM contacts c WHERE c\.phone IS NULL/],
    ['show me the agents on the Tier 1 team', /FROM agents a WHERE a\.team = 'Tier 1' ORDER BY/],
    [
      'tickets created in Q2 2024',
      /FROM tickets t WHERE t\.opened_at >= '2024-04-01' AND t\.opened_at < '2024-07-01'/,
    ],
    ['tickets from february 2025', /t\.opened_at >= '2025-02-01' AND t\.opened_at < '2025-03-01'/],
    [
      'count of agnets in each team',
      /SELECT a\.team, COUNT\(\*\) AS agent_count FROM agents a GROUP BY a\.team/,
    ],
    [
      'how many diferent countries are our accounts in',
      /SELECT COUNT\(DISTINCT a\.country\) AS country_count FROM accounts a$/,
    ],
    [
      'how many open cases are there',
      /SELECT COUNT\(\*\) AS ticket_count FROM tickets t WHERE t\.status = 'open'$/,
    ],
    ['when was the very first ticket opened', /^SELECT MIN\(t\.opened_at\) AS min_opened_at FROM tickets t$/],
    ['the last 3 tickets', /ORDER BY t\.opened_at DESC, t\.id LIMIT 3$/],
    [
      'which month of 2024 had the fewest tickets',
      /GROUP BY EXTRACT\(YEAR FROM t\.opened_at\), EXTRACT\(MONTH FROM t\.opened_at\) ORDER BY ticket_count ASC, .* LIMIT 1$/,
    ],
    [
      'who is the contact that opened the most tickets',
      /GROUP BY c\.id, c\.full_name ORDER BY ticket_count DESC, c\.id, c\.full_name LIMIT 1$/,
    ],
    [
      'top 3 accounts by number of tickets',
      /GROUP BY a\.id, a\.name ORDER BY ticket_count DESC, a\.id, a\.name LIMIT 3$/,
    ],
  ])('%s', (question, sql) => {
    expect(askDesk(question).sql).toMatch(sql);
  });
});

describe('contractions and possessive names', () => {
  it('expands "don\'t" and "doesn\'t" into a negation', () => {
    expect(sqlOf(ask("which owners don't have a phone")).sql).toMatch(/o\.phone IS NULL/);
  });

  it('does not read "X\'s pets" as pets named X', () => {
    expect(ask("Show me the Riverside Animal Hospital's pets").kind).toBe('clarification');
    expect(ask("Show me Northwind Athletics' pets").kind).toBe('clarification');
  });
});
