// Scored linking of the builtin engine on schemas it was not written for (issue 15): words read
// through WordNet synonyms, typos and joined words, filler skipped, content that links to nothing
// asked about; keys inferred where a database declares none; the glossary; the interpretation.
import { describe, expect, it } from 'vitest';
import { proposeBuiltin } from '#lib/answer/builtin/index.ts';
import { inferKeys } from '#lib/answer/builtin/keys.ts';
import { buildLexicon } from '#lib/answer/builtin/lexicon.ts';
import { editDistance, linkWord, roleOf } from '#lib/answer/builtin/link.ts';
import { lexicalDatabase } from '#lib/answer/builtin/wordnet.ts';
import type { EngineInput, Proposal } from '#lib/answer/engine.ts';
import type { Catalog } from '#lib/core/catalog.ts';
import { parseGlossary } from '#lib/store/glossary.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';
import { SHOP_NOW, SHOP_TENANT_COLUMN, shopCatalog } from '../fixtures/catalogs/shop.ts';

const ask = (question: string, extra: Partial<EngineInput> = {}, catalog: Catalog = shopCatalog): Proposal =>
  proposeBuiltin({
    question,
    catalog,
    dialect: 'postgres',
    history: [],
    now: SHOP_NOW,
    tenantColumn: SHOP_TENANT_COLUMN,
    ...extra,
  });

/** A question on a catalog without a tenant column. */
const askOpen = (question: string, catalog: Catalog): Proposal =>
  proposeBuiltin({ question, catalog, dialect: 'postgres', history: [], now: SHOP_NOW });

const sqlOf = (proposal: Proposal) => {
  if (proposal.kind !== 'sql')
    throw new Error(`expected SQL, got ${proposal.kind}: ${'message' in proposal ? proposal.message : ''}`);
  return proposal;
};

describe('the lexical database', () => {
  it('loads lazily and tells word classes and synonyms', () => {
    // Arrange
    const wordnet = lexicalDatabase();

    // Assert
    expect(wordnet).toBeDefined();
    expect(wordnet!.loadMs).toBeLessThan(1_000);
    expect(wordnet!.dominantClass('published')).toBe('v');
    expect(wordnet!.dominantClass('takeout')).toBe('n');
    expect(wordnet!.dominantClass('custmers')).toBeUndefined();
    expect(wordnet!.related('clients', 'n').synonyms).toContain('customer');
  });
});

describe('linking words the schema does not name', () => {
  const lexicon = buildLexicon(shopCatalog, SHOP_TENANT_COLUMN);

  it('measures edits, transpositions included', () => {
    expect(editDistance('custmer', 'customer')).toBe(1);
    expect(editDistance('instrucotr', 'instructor')).toBe(1);
    expect(editDistance('cat', 'dog', 1)).toBe(2);
  });

  it('reads synonyms and typos as names, with their source', () => {
    expect(linkWord(lexicon, 'clients')).toMatchObject({ source: 'synonym', phrase: 'customer' });
    expect(linkWord(lexicon, 'custmers')).toMatchObject({ source: 'typo', phrase: 'customer' });
    expect(linkWord(lexicon, 'takeout')).toBeUndefined();
  });

  it('skips filler and keeps content', () => {
    expect(roleOf('published')).toBe('filler');
    expect(roleOf('database')).toBe('filler');
    expect(roleOf('takeout')).toBe('content');
    expect(roleOf('never')).toBe('content');
    expect(roleOf('vary')).toBe('content');
  });
});

describe('questions typed like users type them', () => {
  it.each([
    ['How many customers are in our system?', 'SELECT COUNT(*) AS customer_count\nFROM customers c'],
    ['how many products do we have on file', 'SELECT COUNT(*) AS product_count\nFROM products p'],
    ['Number of employees currently on staff?', 'SELECT COUNT(*) AS employee_count\nFROM employees e'],
    ['How many clients do we have?', 'SELECT COUNT(*) AS customer_count\nFROM customers c'],
    ['how many custmers', 'SELECT COUNT(*) AS customer_count\nFROM customers c'],
  ])('%s', (question, sql) => {
    expect(sqlOf(ask(question)).sql).toBe(sql);
  });

  it('says how it read a word through a link', () => {
    expect(sqlOf(ask('how many custmers')).interpretation).toBe(
      'Counting customers; reading “custmers” as customers (a typo?)',
    );
  });

  it.each([
    ['customers who opted in to marketing', /“marketing”/],
    ['orders handled by employees in the North region', /“handled” connects orders and employees/],
  ])('asks about %s', (question, message) => {
    const proposal = ask(question);
    expect(proposal.kind).toBe('clarification');
    expect('message' in proposal ? proposal.message : '').toMatch(message);
  });
});

describe('keys a database does not declare', () => {
  const catalog = catalogOf(
    [
      {
        name: 'geographic',
        primaryKey: [],
        columns: [col('city_name', 'text', 'text'), col('region', 'text', 'text')],
      },
      {
        name: 'restaurant',
        primaryKey: [],
        columns: [
          col('id', 'integer', 'integer'),
          col('name', 'text', 'text'),
          col('city_name', 'text', 'text'),
          col('rating', 'decimal', 'real'),
        ],
      },
      {
        name: 'location',
        primaryKey: [],
        columns: [
          col('restaurant_id', 'integer', 'integer'),
          col('street_name', 'text', 'text'),
          col('city_name', 'text', 'text'),
        ],
      },
      {
        name: 'author',
        primaryKey: [],
        columns: [col('aid', 'integer', 'integer'), col('name', 'text', 'text')],
      },
      {
        name: 'writes',
        primaryKey: [],
        columns: [col('aid', 'integer', 'integer'), col('pid', 'integer', 'integer')],
      },
      {
        name: 'publication',
        primaryKey: [],
        columns: [
          col('pid', 'integer', 'integer'),
          col('title', 'text', 'text'),
          col('year', 'integer', 'integer'),
        ],
      },
    ],
    { indexedAt: '2026-03-01T00:00:00.000Z' },
  );

  it('infers primary and foreign keys from names', () => {
    // Act
    const keys = inferKeys(catalog);

    // Assert
    expect(keys.primaryKeys.get('public.restaurant')).toEqual(['id']);
    expect(keys.primaryKeys.get('public.author')).toEqual(['aid']);
    expect(keys.primaryKeys.get('public.geographic')).toEqual(['city_name']);
    expect(keys.foreignKeys.get('public.location')).toEqual([
      {
        columns: ['restaurant_id'],
        references: { schema: 'public', name: 'restaurant', columns: ['id'] },
        inferred: true,
      },
      {
        columns: ['city_name'],
        references: { schema: 'public', name: 'geographic', columns: ['city_name'] },
        inferred: true,
      },
    ]);
    expect(keys.foreignKeys.get('public.writes')?.map((key) => key.references.name)).toEqual([
      'author',
      'publication',
    ]);
  });

  it('answers across inferred joins and whole-number years', () => {
    expect(sqlOf(askOpen('How many restaurants are there in each region?', catalog)).sql).toContain(
      'JOIN geographic g ON r.city_name = g.city_name',
    );
    expect(sqlOf(askOpen('How many publications per year?', catalog)).sql).toContain('GROUP BY p.year');
    expect(sqlOf(askOpen('How many publications in 2021?', catalog)).sql).toContain('p.year = 2021');
  });
});

describe('the glossary', () => {
  const glossary = parseGlossary({
    synonyms: { patrons: 'customers' },
    metrics: { turnover: 'SUM(payments.amount)' },
    filters: { vip: "customers.tier = 'gold'" },
  });

  it('reads synonyms, metrics and filters of the simple forms', () => {
    expect(sqlOf(ask('how many patrons', { glossary })).sql).toContain('FROM customers c');
    expect(sqlOf(ask('how many vip customers', { glossary })).sql).toContain("c.tier = 'gold'");
    expect(sqlOf(ask('turnover per method', { glossary })).sql).toContain('SUM(p.amount)');
  });

  it('refuses entries that are not words or names', () => {
    expect(() => parseGlossary({ synonyms: { __proto__x: 'a b' } })).toThrow(/glossary/);
    expect(() => parseGlossary({ other: {} })).toThrow(/glossary/);
  });
});
