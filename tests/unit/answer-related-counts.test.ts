// "Which X has the most / fewest Y" where Y are rows that point at X (lib/answer/builtin/render.ts
// `fewestRelated`): the count of related rows per X, ranked. Fewest first reads from X's side with
// a LEFT JOIN, so an X with none counts 0 and conditions on Y stay in the join; "the N most common
// values of a column" is the rows counted per value. On a lettings and a library schema, through
// the PostgreSQL guard on PGlite with another tenant's rows present, and the MySQL guard.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import type { Proposal } from '#lib/answer/engine.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardMysql } from '#lib/dialects/mysql/sql-guard.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { FIXTURE_NOW as NOW, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col, ddlOf, type TableSpec } from '../fixtures/catalogs/define.ts';

const lettingsTables: TableSpec[] = [
  {
    name: 'tenants',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer'),
      col('full_name', 'text', 'text'),
    ],
  },
  {
    name: 'leases',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer'),
      col('tenant_id', 'integer', 'integer', { references: 'tenants' }),
      col('status', 'text', 'text', { samples: ['active', 'ended'] }),
    ],
  },
];
const libraryTables: TableSpec[] = [
  {
    name: 'branches',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer'),
      col('name', 'text', 'text'),
    ],
  },
  {
    name: 'rooms',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer'),
      col('branch_id', 'integer', 'integer', { references: 'branches' }),
      col('kind', 'text', 'text', { samples: ['study', 'meeting'] }),
    ],
  },
];
const lettings = catalogOf(lettingsTables);
const library = catalogOf(libraryTables);
const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: {} },
});

const ask = (catalog: Catalog, question: string, dialect: 'postgres' | 'mysql' = 'postgres'): Proposal =>
  proposeBuiltin({ question, catalog, dialect, history: [], now: NOW, tenantColumn: 'org_id' });

describe('the fewest related rows count the groups that have none', () => {
  it.each([
    [
      lettings,
      'which tenant has the fewest leases',
      'FROM tenants t LEFT JOIN leases l ON l.tenant_id = t.id',
    ],
    [
      library,
      'the 2 branches with the fewest rooms',
      'FROM branches b LEFT JOIN rooms r ON r.branch_id = b.id',
    ],
  ])('%#: %s', (catalog, question, from) => {
    const sql = sqlOf(ask(catalog, question));
    expect(sql).toContain(from);
    expect(sql).toMatch(/COUNT\(\w+\.\w+_id\) AS \w+_count/);
    expect(sql).toMatch(/ORDER BY \w+_count ASC/);
  });

  it('keeps a condition on the counted rows in the join', () => {
    expect(sqlOf(ask(lettings, 'which tenant has the fewest active leases'))).toContain(
      "LEFT JOIN leases l ON l.tenant_id = t.id AND l.status = 'active'",
    );
  });

  it('counts the most with an inner join, as before', () => {
    expect(sqlOf(ask(library, 'which branch has the most rooms'))).toContain(
      'FROM rooms r JOIN branches b ON r.branch_id = b.id',
    );
  });

  it('lists the N most common values of a column', () => {
    expect(sqlOf(ask(library, 'the 2 most common room kinds'))).toMatch(
      /SELECT r\.kind, COUNT\(\*\) AS room_count FROM rooms r GROUP BY r\.kind ORDER BY room_count DESC, r\.kind LIMIT 2$/,
    );
    expect(sqlOf(ask(lettings, 'the 2 most common lease statuses'))).toMatch(
      /SELECT l\.status, COUNT\(\*\) AS lease_count FROM leases l GROUP BY l\.status ORDER BY lease_count DESC, l\.status LIMIT 2$/,
    );
  });
});

describe('through the guards', () => {
  let db: PGlite;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(ddlOf(lettingsTables));
    await db.exec(ddlOf(libraryTables));
    // Tenant 1: Ada 2 leases (1 active), Ben 1 ended, Cy none; tenant 2's lease points at Cy's id.
    await db.exec(`
      INSERT INTO tenants VALUES (1, 1, 'Ada'), (2, 1, 'Ben'), (3, 1, 'Cy'), (4, 2, 'Dee');
      INSERT INTO leases VALUES (1, 1, 1, 'active'), (2, 1, 1, 'ended'), (3, 1, 2, 'ended'), (4, 2, 3, 'active');
      INSERT INTO branches VALUES (1, 1, 'Central'), (2, 1, 'Hill'), (3, 2, 'Other');
      INSERT INTO rooms VALUES (1, 1, 1, 'study'), (2, 2, 2, 'study');
    `);
    // PGlite's first start is slow on a loaded machine.
  }, 30_000);

  afterAll(async () => {
    await db.close();
  });

  const run = async (catalog: Catalog, question: string) => {
    const guarded = await guardPostgres({
      sql: sqlOf(ask(catalog, question)),
      catalog,
      policy,
      tenant: '1',
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(guarded.message);
    return (await db.query<Record<string, unknown>>(guarded.sql, guarded.params)).rows;
  };

  it("finds tenant 1's tenant with no lease, though another tenant's lease points at its id", async () => {
    const rows = await run(lettings, 'which tenant has the fewest leases');
    expect(rows.map((row) => [row.full_name, Number(row.lease_count)])).toEqual([['Cy', 0]]);
  });

  it('counts only the active leases, every tenant kept', async () => {
    const rows = await run(lettings, 'the 3 tenants with the fewest active leases');
    expect(rows.map((row) => [row.full_name, Number(row.lease_count)])).toEqual([
      ['Ben', 0],
      ['Cy', 0],
      ['Ada', 1],
    ]);
  });

  it("ranks tenant 1's branches by rooms, fewest first, another tenant's room not counted", async () => {
    // Room 2 is tenant 2's, pointing at branch id 2 (Hill): Hill has none of tenant 1's.
    const rows = await run(library, 'the 2 branches with the fewest rooms');
    expect(rows.map((row) => [row.name, Number(row.room_count)])).toEqual([
      ['Hill', 0],
      ['Central', 1],
    ]);
  });

  it('is allowed by the MySQL guard, each relation fenced', async () => {
    const mysqlCatalog = catalogOf(lettingsTables, { dialect: 'mysql', schema: 'lets' });
    const guarded = await guardMysql({
      sql: sqlOf(ask(mysqlCatalog, 'which tenant has the fewest leases', 'mysql')),
      catalog: mysqlCatalog,
      policy,
      tenant: '1',
      rowCap: 100,
    });
    if (!guarded.allowed) throw new Error(guarded.message);
    expect(guarded.sql).toContain('LEFT JOIN');
    expect(guarded.params).toEqual([1, 1]);
  });
});
