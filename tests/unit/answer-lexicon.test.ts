// The schema index of the builtin engine: phrases for relations, columns and sample values, the
// join graph, dates, labels and revenue, built once per catalog and never showing the tenant
// column.
import { describe, expect, it } from 'vitest';
import { buildLexicon, lexiconFor, mainRelations } from '#lib/answer/builtin/lexicon.ts';
import type { Entry } from '#lib/answer/builtin/types.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { edgeCatalog } from '../fixtures/catalogs/edge.ts';
import { shopCatalog } from '../fixtures/catalogs/shop.ts';
import { wideCatalog } from '../fixtures/catalogs/wide.ts';

const shop = buildLexicon(shopCatalog, 'org_id');
const entries = (phrase: string): Entry[] => shop.phrases.get(phrase) ?? [];

describe('relation phrases', () => {
  it('knows a relation by its singular words, its synonyms and its head word, in that rank', () => {
    expect(entries('order item')).toContainEqual({ kind: 'relation', table: 'public.order_items', rank: 3 });
    expect(entries('customer')).toContainEqual({ kind: 'relation', table: 'public.customers', rank: 3 });
    expect(entries('client')).toContainEqual({ kind: 'relation', table: 'public.customers', rank: 2 });
    expect(entries('staff')).toContainEqual({ kind: 'relation', table: 'public.employees', rank: 2 });
    expect(entries('item')).toEqual(
      expect.arrayContaining([
        { kind: 'relation', table: 'public.products', rank: 2 },
        { kind: 'relation', table: 'public.order_items', rank: 1 },
      ]),
    );
  });

  it('names relations for sentences and aliases them for SQL', () => {
    const items = shop.relations.get('public.order_items')!;
    expect([items.one, items.other, items.alias]).toEqual(['order item', 'order items', 'oi']);
    expect(shop.relations.get('public.categories')).toBeUndefined();
  });

  it('never uses a reserved word as an alias', () => {
    const lexicon = buildLexicon(
      catalogOf([{ name: 'order_regions', columns: [col('id', 'integer', 'integer')] }]),
    );
    expect(lexicon.relations.get('public.order_regions')!.alias).toBe('or1');
  });
});

describe('column phrases', () => {
  it('knows columns by name, by "relation column" and by shorter forms', () => {
    expect(entries('unit price')).toContainEqual({
      kind: 'column',
      table: 'public.order_items',
      column: 'unit_price',
      rank: 3,
    });
    expect(entries('customer country')).toContainEqual({
      kind: 'column',
      table: 'public.customers',
      column: 'country',
      rank: 3,
      qualified: true,
    });
    expect(entries('ordered')).toContainEqual({
      kind: 'column',
      table: 'public.orders',
      column: 'ordered_at',
      rank: 2,
    });
    expect(entries('order date')).toContainEqual(
      expect.objectContaining({ table: 'public.orders', column: 'ordered_at' }),
    );
    expect(entries('cost')).toContainEqual({
      kind: 'column',
      table: 'public.products',
      column: 'price',
      rank: 2,
    });
  });

  it('flags money, numbers, dates and keys', () => {
    const products = shop.relations.get('public.products')!;
    expect(products.byName.get('price')).toMatchObject({ money: true, numeric: true, key: false });
    expect(products.byName.get('id')).toMatchObject({ key: true, numeric: false });
    const items = shop.relations.get('public.order_items')!;
    expect(items.byName.get('quantity')).toMatchObject({ numeric: true, money: false });
    expect(items.byName.get('product_id')).toMatchObject({ key: true, numeric: false });
  });

  it('picks label columns and the date that dates a row', () => {
    expect(shop.relations.get('public.customers')!.labels).toEqual(['name']);
    expect(shop.relations.get('public.employees')!.labels).toEqual(['first_name', 'last_name']);
    expect(shop.relations.get('public.orders')!.labels).toEqual([]);
    expect(shop.relations.get('public.orders')!.primaryDate?.name).toBe('ordered_at');
    expect(shop.relations.get('public.customers')!.primaryDate?.name).toBe('created_at');
    expect(shop.relations.get('public.order_items')!.primaryDate).toBeUndefined();
  });

  it('dates a row by its own event before a deadline or a later step', () => {
    const rentals = buildLexicon(
      catalogOf([
        {
          name: 'rentals',
          columns: [
            col('id', 'integer', 'integer'),
            col('due_on', 'date', 'date'),
            col('returned_on', 'date', 'date', { nullable: true }),
            col('started_at', 'timestamp', 'timestamp'),
            col('updated_at', 'timestamp', 'timestamp'),
          ],
        },
      ]),
    );
    const relation = rentals.relations.get('public.rentals')!;
    expect(relation.primaryDate?.name).toBe('started_at');
    expect(relation.dates.map((date) => date.name)).toEqual([
      'started_at',
      'due_on',
      'returned_on',
      'updated_at',
    ]);
  });
});

describe('head words of columns', () => {
  const lexicon = buildLexicon(
    catalogOf([
      {
        name: 'tickets',
        columns: [
          col('id', 'integer', 'integer'),
          col('base_fare', 'decimal', 'numeric(10,2)'),
          col('unit_cost', 'decimal', 'numeric(10,2)'),
          col('status_code', 'text', 'text'),
        ],
      },
      {
        name: 'routes',
        columns: [
          col('id', 'integer', 'integer'),
          col('name', 'text', 'text'),
          col('peak_fare', 'decimal', 'numeric(10,2)'),
        ],
      },
    ]),
  );

  it('knows a multi-word column by its last word too, at the lowest rank, one entry per column', () => {
    expect(lexicon.phrases.get('fare')).toEqual([
      { kind: 'column', table: 'public.tickets', column: 'base_fare', rank: 1 },
      { kind: 'column', table: 'public.routes', column: 'peak_fare', rank: 1 },
    ]);
    expect(lexicon.phrases.get('ticket fare')).toEqual([
      { kind: 'column', table: 'public.tickets', column: 'base_fare', rank: 3, qualified: true },
    ]);
  });

  it('leaves alone words the scanner reads otherwise and words that already name something', () => {
    expect(lexicon.phrases.get('cost')).toBeUndefined();
    expect(lexicon.phrases.get('code')).toBeUndefined();
    expect(lexicon.phrases.get('name')).toEqual([
      expect.objectContaining({ kind: 'column', table: 'public.routes', column: 'name' }),
    ]);
  });
});

describe('sample values', () => {
  it('maps each sampled value to its column, keeping the value as stored', () => {
    expect(entries('cancelled')).toEqual([
      { kind: 'value', table: 'public.orders', column: 'status', value: 'cancelled' },
    ]);
    expect(entries('united kingdom')).toEqual([
      { kind: 'value', table: 'public.customers', column: 'country', value: 'United Kingdom' },
    ]);
    expect(entries('book')).toContainEqual({
      kind: 'value',
      table: 'public.products',
      column: 'category',
      value: 'Books',
    });
    expect(entries('madrid')).toHaveLength(2);
  });
});

describe('the tenant column', () => {
  it('is not a column, not a join and not a value', () => {
    const withTenant = buildLexicon(
      catalogOf([
        { name: 'organizations', columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text')] },
        {
          name: 'notes',
          columns: [
            col('id', 'integer', 'integer'),
            col('org_id', 'text', 'text', { references: 'organizations', samples: ['acme', 'globex'] }),
          ],
        },
      ]),
      'org_id',
    );
    expect(withTenant.relations.get('public.notes')!.byName.has('org_id')).toBe(false);
    expect(withTenant.phrases.get('org id')).toBeUndefined();
    expect(withTenant.phrases.get('acme')).toBeUndefined();
    expect(withTenant.edges.get('public.notes')).toBeUndefined();
  });

  it('is only hidden when it is the tenant column', () => {
    const open = buildLexicon(shopCatalog);
    expect(open.relations.get('public.orders')!.byName.has('org_id')).toBe(true);
    expect(open.edges.get('public.organizations')?.length).toBeGreaterThan(0);
  });
});

describe('joins and revenue', () => {
  it('keeps foreign keys as edges between relations, both ways', () => {
    const orders = shop.edges.get('public.orders')!;
    expect(orders.map((edge) => `${edge.child}→${edge.parent}`).sort()).toEqual([
      'public.invoices→public.orders',
      'public.order_items→public.orders',
      'public.orders→public.customers',
      'public.orders→public.stores',
      'public.payments→public.orders',
    ]);
    // The self-reference (employees.manager_id) is not a join path.
    expect(shop.edges.get('public.employees')!.every((edge) => edge.child !== edge.parent)).toBe(true);
  });

  it('finds revenue as quantity × unit price of one row', () => {
    expect(shop.revenue).toEqual({
      kind: 'one',
      value: {
        kind: 'product',
        left: { table: 'public.order_items', column: 'quantity' },
        right: { table: 'public.order_items', column: 'unit_price' },
      },
    });
    expect(shop.unitsSold).toEqual({
      kind: 'one',
      value: { table: 'public.order_items', column: 'quantity' },
    });
  });

  it('prefers a table over a view for revenue, and keeps the view as a later tier', () => {
    const catalog = catalogOf([
      {
        name: 'sales',
        columns: [
          col('id', 'integer', 'integer'),
          col('quantity', 'integer', 'integer'),
          col('price', 'decimal', 'numeric'),
        ],
      },
      {
        name: 'monthly_summary',
        primaryKey: [],
        columns: [col('month', 'date', 'date'), col('revenue', 'decimal', 'numeric')],
      },
    ]);
    catalog.relations[1]!.kind = 'view';
    const lexicon = buildLexicon(catalog);
    expect(lexicon.revenueTiers).toHaveLength(2);
    expect(lexicon.revenueTiers[0]![0]).toMatchObject({ kind: 'product' });
    expect(lexicon.revenueTiers[1]![0]).toMatchObject({ kind: 'column', ref: { column: 'revenue' } });
  });

  it('lists the main relations, most referenced first', () => {
    expect(mainRelations(shop, 3).map((relation) => relation.name)).toEqual([
      'orders',
      'stores',
      'customers',
    ]);
  });
});

describe('lexiconFor', () => {
  it('builds once per catalog and tenant column', () => {
    expect(lexiconFor(shopCatalog, 'org_id')).toBe(lexiconFor(shopCatalog, 'org_id'));
    expect(lexiconFor(shopCatalog, 'org_id')).not.toBe(lexiconFor(shopCatalog));
  });

  it('never serves one database’s index to another indexed at the same moment with the same shape', () => {
    // Arrange: the same tables, columns and indexedAt; only a sampled value differs
    const other: Catalog = structuredClone(shopCatalog);
    const customers = other.relations.find((relation) => relation.name === 'customers')!;
    customers.samples = { ...customers.samples, city: ['Atlantis'] };

    // Act
    const lexicon = lexiconFor(other, 'org_id');

    // Assert
    expect(lexicon).not.toBe(lexiconFor(shopCatalog, 'org_id'));
    expect(lexicon.phrases.has('atlantis')).toBe(true);
    expect(lexiconFor(shopCatalog, 'org_id').phrases.has('atlantis')).toBe(false);
  });

  it('serves the same index to a copy of the catalog with the same content', () => {
    const copy: Catalog = structuredClone(wideCatalog);
    expect(lexiconFor(copy, 'org_id')).toBe(lexiconFor(wideCatalog, 'org_id'));
  });

  it('builds a new index when the catalog is re-indexed', () => {
    const reindexed: Catalog = { ...edgeCatalog, indexedAt: '2026-04-01T00:00:00.000Z' };
    expect(lexiconFor(reindexed)).not.toBe(lexiconFor(edgeCatalog));
  });
});
