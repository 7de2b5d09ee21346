// The glossary's check when it is saved (every metric and filter through the SQL guard, every
// synonym a name of the schema), column descriptions files, and the eval's gold-query expansion.
import { describe, expect, it } from 'vitest';
import { checkGlossary, probeSql } from '#lib/answer/glossary.ts';
import { parseDescriptions, withDescriptions } from '#lib/connectors/descriptions.ts';
import { effectivePolicy } from '#lib/core/row-policy.ts';
import { guardPostgres } from '#lib/dialects/postgres/sql-guard.ts';
import { parseGlossary } from '#lib/store/glossary.ts';
import { goldQueries, sameRows } from '../../eval/judge.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';

const policy = effectivePolicy({
  requiresOrganizationScoping: true,
  tenantFilterColumn: 'org_id',
  policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
});

describe('checkGlossary', () => {
  it('accepts metrics and filters the guard accepts', async () => {
    const glossary = parseGlossary({
      synonyms: { clients: 'customers', spend: 'order_items.unit_price' },
      metrics: { revenue: 'SUM(order_items.quantity * order_items.unit_price)' },
      filters: { vip: "customers.tier = 'gold'" },
    });
    await expect(
      checkGlossary(glossary, { catalog: shopCatalog, policy, guard: guardPostgres }),
    ).resolves.toBeUndefined();
  });

  it('names every entry it refuses', async () => {
    // Arrange
    const glossary = parseGlossary({
      synonyms: { vets: 'veterinarian' },
      metrics: { secrets: 'SUM(pg_catalog.pg_authid.rolpassword)', bare: 'SUM(amount)' },
      filters: { sneaky: 'customers.id IN (SELECT usesysid FROM pg_catalog.pg_user)' },
    });

    // Act
    const failure = await checkGlossary(glossary, {
      catalog: shopCatalog,
      policy,
      guard: guardPostgres,
    }).catch((error: unknown) => error);

    // Assert
    expect((failure as { issues: { field: string }[] }).issues.map((issue) => issue.field)).toEqual([
      'glossary.synonyms.vets',
      'glossary.metrics.secrets',
      'glossary.metrics.bare',
      'glossary.filters.sneaky',
    ]);
  });

  it('probes a metric and a filter with a query over the relations they name', () => {
    expect(probeSql('metric', 'SUM(orders.total)')).toBe('SELECT SUM(orders.total) AS value FROM orders');
    expect(probeSql('filter', "customers.tier = 'a.b'")).toBe(
      "SELECT 1 AS value FROM customers WHERE customers.tier = 'a.b'",
    );
    expect(probeSql('metric', 'SUM(total)')).toBeUndefined();
  });

  it.each([
    [
      'a subquery with an alias',
      'EXISTS (SELECT 1 FROM order_items oi WHERE oi.order_id = orders.id AND oi.quantity > 5)',
      'orders',
    ],
    [
      'a join inside a subquery, aliased with AS',
      'customers.id IN (SELECT o.customer_id FROM orders AS o JOIN payments p ON p.order_id = o.id)',
      'customers',
    ],
    [
      'a comma join of schema-qualified relations inside a subquery',
      'customers.id IN (SELECT o.customer_id FROM public.orders o, public.payments p WHERE p.order_id = o.id)',
      'customers',
    ],
  ])(
    'probes a filter over %s with the relations outside it, and the guard accepts it',
    async (_, filter, from) => {
      const relations = new Set(shopCatalog.relations.map((relation) => relation.name));
      expect(probeSql('filter', filter, relations)).toBe(`SELECT 1 AS value FROM ${from} WHERE ${filter}`);
      await expect(
        checkGlossary(parseGlossary({ synonyms: {}, metrics: {}, filters: { named: filter } }), {
          catalog: shopCatalog,
          policy,
          guard: guardPostgres,
        }),
      ).resolves.toBeUndefined();
    },
  );
});

describe('descriptions files', () => {
  it('apply to the catalog by table and column', () => {
    // Arrange
    const descriptions = parseDescriptions({
      table_metadata: {
        customers: [
          {
            column_name: 'tier',
            column_description: 'Loyalty tier: bronze, silver or gold',
            data_type: 'text',
          },
          { column_name: 'city', column_description: '' },
        ],
      },
    });

    // Act
    const catalog = withDescriptions(shopCatalog, descriptions);

    // Assert
    const customers = catalog.relations.find((relation) => relation.name === 'customers')!;
    expect(customers.columns.find((column) => column.name === 'tier')?.description).toBe(
      'Loyalty tier: bronze, silver or gold',
    );
    expect(customers.columns.find((column) => column.name === 'city')?.description).toBeUndefined();
    expect(
      shopCatalog.relations.find((relation) => relation.name === 'customers')!.columns[0],
    ).not.toHaveProperty('description');
  });
});

describe('gold queries of the external set', () => {
  it('expands column alternatives and alternative queries', () => {
    expect(goldQueries('SELECT {a.x, a.y}, count(*) FROM a GROUP BY {};SELECT 1')).toEqual([
      'SELECT a.x, count(*) FROM a GROUP BY a.x',
      'SELECT a.y, count(*) FROM a GROUP BY a.y',
      'SELECT a.x, a.y, count(*) FROM a GROUP BY a.x, a.y',
      'SELECT 1',
    ]);
  });

  it('matches rows by column values, extra answer columns allowed', () => {
    expect(sameRows([{ n: 'a', c: 2 }], [{ id: 1, name: 'a', count: '2' }])).toBe(true);
    expect(sameRows([{ n: 'a', c: 2 }], [{ id: 1, name: 'a', count: '3' }])).toBe(false);
  });
});
