// `admin pattern add` / `admin pattern list` against DynamoDB Local: a query pattern is stored
// only when the SQL guard accepts its SQL for the database's schema index and row policy (with a
// placeholder tenant of the tenant column's type); a refused one is not stored and the command
// exits 2 naming the guard's code.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '#lib/core/catalog.ts';
import type { RowPolicy } from '#lib/core/row-policy.ts';
import { addDatabase, newDatabaseId } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { listPatterns } from '#lib/store/patterns.ts';
import { writeSchemaIndex } from '#lib/store/schema-index.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { shopTables } from '../fixtures/catalogs/shop.ts';
import { adminFails, adminOk } from '../helpers/admin.ts';

interface PublicPattern {
  id: string;
  database_id: string;
  question: string;
  sql: string;
  created_at: string;
}

/** The shop, plus a table without the tenant column that the policy does not list. */
const shopCatalog = catalogOf([
  ...shopTables,
  { name: 'audit_log', columns: [col('id', 'integer', 'integer'), col('message', 'text', 'text')] },
]);
const shopPolicy: RowPolicy = { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } };

let organizationId: number;

const addIndexedDatabase = async (
  catalog: Catalog | undefined,
  options: { engine?: 'postgres' | 'mysql'; tenantColumn?: string; policy?: RowPolicy } = {},
): Promise<string> => {
  const id = newDatabaseId();
  const pointer = catalog ? await writeSchemaIndex(id, catalog) : undefined;
  const tenantColumn = options.tenantColumn ?? 'org_id';
  await addDatabase({
    id,
    organizationId,
    name: 'Patterns shop',
    engine: options.engine ?? 'postgres',
    requiresOrganizationScoping: true,
    tenantFilterColumn: tenantColumn,
    policy: options.policy ?? { ...shopPolicy, tenant_column: tenantColumn },
    connectionRef: 'enc:v1:not-a-real-secret',
    ...(pointer ? { schemaIndex: pointer } : {}),
  });
  return id;
};

let shopId: string;

beforeAll(async () => {
  organizationId = (await createOrganization({ name: 'Patterns Co', plan: 'professional' })).id;
  shopId = await addIndexedDatabase(shopCatalog);
});

const add = (database: string, question: string, sql: string) => [
  'pattern',
  'add',
  '--database',
  database,
  '--question',
  question,
  '--sql',
  sql,
];

describe('admin pattern add', () => {
  it('stores a pattern the guard accepts and lists it', async () => {
    // Act
    const added = await adminOk<PublicPattern>(
      add(
        shopId,
        'How many cancelled orders were placed last month?',
        "SELECT count(*) AS cancelled_orders FROM orders WHERE status = 'cancelled' AND ordered_at >= date_trunc('month', now()) - interval '1 month' AND ordered_at < date_trunc('month', now())",
      ),
    );
    // Assert: the output, the command's list and the store agree.
    expect(added).toMatchObject({
      database_id: shopId,
      question: 'How many cancelled orders were placed last month?',
    });
    expect(added.sql).toMatch(/^SELECT count\(\*\) AS cancelled_orders FROM orders/);
    const listed = await adminOk<{ patterns: PublicPattern[] }>(['pattern', 'list', '--database', shopId]);
    expect(listed.patterns).toContainEqual(added);
    const stored = await listPatterns(shopId);
    expect(stored.map((pattern) => pattern.id)).toContain(added.id);
    expect(stored.find((pattern) => pattern.id === added.id)).toMatchObject({
      question: added.question,
      sql: added.sql,
    });
  });

  it.each([
    ['a DROP TABLE', 'DROP TABLE orders', 'NOT_SELECT'],
    ['two statements', 'SELECT 1; DELETE FROM orders', 'NOT_ONE_STATEMENT'],
    ['a system catalog', 'SELECT * FROM pg_catalog.pg_authid', 'SYSTEM_CATALOG'],
    ['an unknown table', 'SELECT * FROM secrets', 'UNKNOWN_RELATION'],
    ['a table without the tenant column', 'SELECT message FROM audit_log', 'RELATION_NOT_ALLOWED'],
    ['a function outside the allowlist', 'SELECT pg_sleep(5)', 'FUNCTION_NOT_ALLOWED'],
    ['a placeholder', 'SELECT * FROM orders WHERE id = $1', 'PLACEHOLDER'],
  ])('refuses %s with the guard’s code and stores nothing (exit 2)', async (_, sql, code) => {
    const before = (await listPatterns(shopId)).length;
    const stderr = await adminFails(2, add(shopId, 'An unsafe example', sql));
    expect(stderr).toContain('refused by the SQL guard');
    expect(stderr).toContain(code);
    expect(await listPatterns(shopId)).toHaveLength(before);
  });

  it('checks with a placeholder tenant of the tenant column’s type (uuid)', async () => {
    const tenant = col('tenant_id', 'uuid', 'uuid');
    const catalog = catalogOf([
      { name: 'projects', columns: [col('id', 'integer', 'integer'), tenant, col('title', 'text', 'text')] },
    ]);
    const id = await addIndexedDatabase(catalog, {
      tenantColumn: 'tenant_id',
      policy: { tenant_column: 'tenant_id', tables: {} },
    });
    const added = await adminOk<PublicPattern>(
      add(id, 'How many projects?', 'SELECT count(*) FROM projects'),
    );
    expect(added.database_id).toBe(id);
  });

  it('uses the MySQL guard for a MySQL database', async () => {
    const catalog = catalogOf(shopTables, { dialect: 'mysql', schema: 'shop' });
    const id = await addIndexedDatabase(catalog, { engine: 'mysql' });
    await adminOk(
      add(id, 'Orders per status', 'SELECT `status`, COUNT(*) AS n FROM orders GROUP BY `status`'),
    );
    expect(await adminFails(2, add(id, 'Bad', 'DELETE FROM orders'))).toMatch(
      /refused by the SQL guard: NOT_SELECT/,
    );
  });

  it('exits 1 for a database without a schema index, naming the fix', async () => {
    const id = await addIndexedDatabase(undefined);
    expect(await adminFails(1, add(id, 'How many orders?', 'SELECT count(*) FROM orders'))).toMatch(
      /has no schema index: run database index/,
    );
  });

  it('exits 1 for an unknown database', async () => {
    expect(await adminFails(1, add(newDatabaseId(), 'How many orders?', 'SELECT 1'))).toMatch(/not found/);
  });

  it('exits 2 for a bad command line: no UUID, missing or empty options', async () => {
    expect(await adminFails(2, add('not-a-uuid', 'q', 'SELECT 1'))).toMatch(/--database must be a UUID/);
    expect(await adminFails(2, ['pattern', 'add', '--database', shopId, '--sql', 'SELECT 1'])).toMatch(
      /needs --question/,
    );
    expect(await adminFails(2, add(shopId, '   ', 'SELECT 1'))).toMatch(/question must not be empty/);
  });
});

describe('admin pattern list', () => {
  it('lists nothing for a database without patterns and exits 1 for an unknown one', async () => {
    const id = await addIndexedDatabase(shopCatalog);
    expect(await adminOk(['pattern', 'list', '--database', id])).toEqual({ patterns: [] });
    expect(await adminFails(1, ['pattern', 'list', '--database', newDatabaseId()])).toMatch(/not found/);
  });
});
