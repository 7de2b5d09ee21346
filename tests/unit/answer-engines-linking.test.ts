// Schema linking and value retrieval of the model engines (lib/answer/engines/linking.ts and the
// schema details of prompt.ts): which relations, columns and sampled values a question brings
// into the prompt on a 50-table schema, and what a database's egress settings keep out.
import { describe, expect, it } from 'vitest';
import type { EngineInput } from '#lib/answer/engine.ts';
import { linkSchema } from '#lib/answer/engines/linking.ts';
import { buildPrompt } from '#lib/answer/engines/prompt.ts';
import { renderRelation, selectRelations } from '#lib/answer/engines/schema-details.ts';
import { countTokens } from '#lib/answer/engines/tokens.ts';
import type { Glossary } from '#lib/store/glossary.ts';
import { catalogOf, col, type TableSpec } from '../fixtures/catalogs/define.ts';
import { wideTables } from '../fixtures/catalogs/wide.ts';
import { engineInput } from '../helpers/engines.ts';

const categories = [
  'Backpacks',
  'Camp Kitchen',
  'Chairs',
  'Climbing',
  'Coolers',
  'Footwear',
  'Headlamps',
  'Jackets',
  'Navigation',
  'Sleeping Bags',
  'Stoves',
  'Tents',
];
const countries = [
  'Canada',
  "Côte d'Ivoire",
  'Denmark',
  'France',
  'Germany',
  'Japan',
  'Mexico',
  'Norway',
  'Spain',
  'Sweden',
  'United Kingdom',
  'United States',
];
const extraColumns = Array.from({ length: 24 }, (_, index) => col(`attribute_${index + 1}`, 'text', 'text'));

const tables: TableSpec[] = [
  ...wideTables,
  {
    name: 'countries',
    columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text', { samples: countries })],
  },
  {
    name: 'products',
    columns: [
      col('id', 'integer', 'integer'),
      col('org_id', 'integer', 'integer', { references: 'organizations' }),
      col('title', 'text', 'text'),
      col('category', 'text', 'text', { samples: categories }),
      col('country_id', 'integer', 'integer', { references: 'countries' }),
      col('unit_price', 'decimal', 'numeric(12,2)'),
      ...extraColumns,
    ],
  },
];
const catalog = catalogOf(tables, { indexedAt: '2026-03-02T00:00:00.000Z' });

const ask = (question: string, extra: Partial<EngineInput> = {}) => {
  const prompt = buildPrompt(engineInput({ question, catalog, tenantColumn: 'org_id', ...extra }), 'openai');
  const user = prompt.messages[0]!.content;
  const schema = user.slice(user.indexOf('<schema>'), user.indexOf('</schema>'));
  const detailed = [...schema.matchAll(/^(\w+) \(/gm)].map((match) => match[1]);
  return { prompt, schema, detailed, tokens: countTokens(`${prompt.system}\n${user}`) };
};

/** The values shown for `relation.column` in the schema details. */
const valuesOf = (schema: string, target: string): string[] => {
  const [relation, column] = target.split('.');
  const block = schema.slice(schema.indexOf(`\n${relation} (`));
  const line = block.split('\n').find((text) => text.startsWith(`  ${column} `)) ?? '';
  return [...line.slice(line.indexOf('values: ')).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    JSON.parse(`"${match[1]}"`),
  );
};

describe('value retrieval', () => {
  it('puts the values a question names first in their column’s sample, past the first ten', () => {
    const { schema, detailed } = ask('revenue from tents in the united states');
    expect(detailed).toEqual(expect.arrayContaining(['products', 'countries']));
    expect(valuesOf(schema, 'products.category')[0]).toBe('Tents');
    expect(valuesOf(schema, 'countries.name')[0]).toBe('United States');
  });

  it('matches values without case or accents, with a typo, and by a prefix', () => {
    expect(valuesOf(ask('orders shipped to cote d ivoire').schema, 'countries.name')[0]).toBe(
      "Côte d'Ivoire",
    );
    expect(valuesOf(ask('how many sleepng bags did we sell').schema, 'products.category')[0]).toBe(
      'Sleeping Bags',
    );
    expect(valuesOf(ask('sales of headlamp gear').schema, 'products.category')[0]).toBe('Headlamps');
  });
});

describe('schema linking', () => {
  it('brings a relation in through a glossary synonym, and through the SQL of a glossary metric', () => {
    const glossary: Glossary = {
      synonyms: { lorries: 'vehicles' },
      metrics: { 'fleet spend': 'SUM(expenses.amount)' },
      filters: {},
    };
    expect(ask('how many lorries do we run', { glossary }).detailed).toContain('vehicles');
    expect(ask('what was the fleet spend in 2025', { glossary }).detailed).toContain('expenses');
  });

  it('reads a word through WordNet: "trucks" are vehicles', () => {
    expect(ask('how many trucks do we have').detailed).toContain('vehicles');
  });

  it('prunes a wide relation to its keys, labels and the columns the question names when the budget is short', () => {
    const selected = selectRelations(catalog, 'average unit price of tents', {
      maxRelations: 20,
      schemaTokens: 200,
      wideColumns: 14,
      tenantColumn: 'org_id',
    });
    const products = selected.find((each) => each.relation.name === 'products');
    expect(products?.columns && [...products.columns].sort()).toEqual([
      'category',
      'country_id',
      'id',
      'title',
      'unit_price',
    ]);
    const schema = renderRelation(catalog, products!.relation, 'org_id', products);
    expect(schema).not.toMatch(/attribute_7/);
    expect(schema).toMatch(/\(24 more columns, named in <relations>\)/);
  });

  it('shows the relation the question is about whole when the budget allows', () => {
    const { schema } = ask('average unit price of tents');
    expect(schema).toMatch(/^ {2}unit_price /m);
    expect(schema).toMatch(/^ {2}attribute_7 /m);
  });

  it('brings in the relation a linked key refers to, declared or named after its key', () => {
    const maintenance = catalogOf([
      {
        name: 'technicians',
        primaryKey: ['tech_id'],
        columns: [col('tech_id', 'integer', 'integer'), col('first_name', 'text', 'text')],
      },
      {
        name: 'work_orders',
        primaryKey: ['wo_id'],
        columns: [
          col('wo_id', 'integer', 'integer'),
          col('assigned_tech_id', 'integer', 'integer'),
          col('opened_at', 'timestamp', 'timestamp'),
        ],
      },
    ]);
    const links = linkSchema(maintenance, 'list work orders and who is assigned');
    expect(links.byKey.get('public.technicians')?.columns.has('tech_id')).toBe(true);
  });

  it('reads capital acronyms, word forms and the columns earlier queries read', () => {
    const ranked = (question: string, context: string[] = []) =>
      [...linkSchema(catalog, question, { tenantColumn: 'org_id', context }).byKey.values()]
        .sort((a, b) => b.score - a.score)
        .map((linked) => linked.relation.name);
    const acronyms = catalogOf([
      {
        name: 'purchase_orders',
        columns: [col('id', 'integer', 'integer'), col('total', 'decimal', 'numeric')],
      },
      { name: 'parts', columns: [col('id', 'integer', 'integer'), col('name', 'text', 'text')] },
    ]);
    expect([...linkSchema(acronyms, 'how many POs came in late').byKey.keys()]).toEqual([
      'public.purchase_orders',
    ]);
    expect(ranked('how much was invoiced in 2025')[0]).toBe('invoices');
    const followUp = linkSchema(catalog, 'and in 2025?', {
      tenantColumn: 'org_id',
      context: ["SELECT count(*) FROM shipments s WHERE s.shipment_status = 'active'"],
    });
    expect(followUp.byKey.get('public.shipments')?.columns.has('shipment_status')).toBe(true);
  });

  it('keeps the prompt of a 52-relation schema within 2,500 tokens', () => {
    expect(
      ask('list each depot with the truck assigned to it and its open tickets last month').tokens,
    ).toBeLessThanOrEqual(2_500);
  });
});

describe('word vectors in schema linking', () => {
  /** Relations by linking score, best first. */
  const ranked = (target: typeof catalog, question: string, tenantColumn: string) =>
    [...linkSchema(target, question, { tenantColumn }).byKey.values()]
      .sort((a, b) => b.score - a.score)
      .map((linked) => linked.relation.name);

  it('links a word no name or WordNet sense reaches to the nearest relation (50 relations)', () => {
    expect(ranked(catalog, 'how many laptops do we have', 'org_id')[0]).toBe('devices');
    expect(ranked(catalog, 'how many emails do we have', 'org_id')[0]).toBe('messages');
    expect(ask('how many laptops do we have').detailed).toContain('devices');
  });

  it('ranks a relation the question names above one only word vectors reach', () => {
    const order = ranked(catalog, 'laptops per warehouse', 'org_id');
    expect(order.slice(0, 2)).toEqual(['warehouses', 'devices']);
  });

  const id = () => col('id', 'integer', 'integer');
  const hospital = catalogOf(
    [
      { name: 'wards', columns: [id(), col('name', 'text', 'text'), col('bed_count', 'integer', 'integer')] },
      {
        name: 'physicians',
        columns: [id(), col('full_name', 'text', 'text'), col('specialty', 'text', 'text')],
      },
      {
        name: 'patients',
        columns: [id(), col('full_name', 'text', 'text'), col('birth_date', 'date', 'date')],
      },
      {
        name: 'prescriptions',
        columns: [
          id(),
          col('patient_id', 'integer', 'integer', { references: 'patients' }),
          col('physician_id', 'integer', 'integer', { references: 'physicians' }),
          col('drug', 'text', 'text'),
          col('dose_mg', 'decimal', 'numeric'),
        ],
      },
    ],
    { indexedAt: '2026-03-02T00:00:00.000Z' },
  );

  it('links a database without a tenant column too', () => {
    expect([...linkSchema(hospital, 'how many clinicians').byKey.keys()]).toEqual(['public.physicians']);
  });

  it('links relations and columns of another domain: clinicians, milligrams', () => {
    expect(ranked(hospital, 'how many clinicians', 'tenant_id')).toEqual(['physicians']);
    const links = linkSchema(hospital, 'average milligrams', { tenantColumn: 'tenant_id' });
    expect([...links.byKey.keys()]).toEqual(['public.prescriptions']);
    expect([...(links.byKey.get('public.prescriptions')?.columns ?? [])]).toEqual(['dose_mg']);
  });
});

describe('data egress in the prompt', () => {
  it('sends no sample value with schema_only', () => {
    const { prompt, schema } = ask('revenue from tents in the united states', { modelData: 'schema_only' });
    expect(schema).not.toContain('values:');
    expect(`${prompt.system}${prompt.messages[0]!.content}`).not.toContain('Tents');
  });

  it('never names a redacted column, in the summary or the details', () => {
    const { prompt } = ask('revenue per product category', { redactedColumns: ['products.category'] });
    const user = prompt.messages[0]!.content;
    const text = `${prompt.system}\n${user.slice(0, user.indexOf('<question>'))}`;
    expect(text).not.toMatch(/\bcategory\b/);
    expect(text).not.toContain('Tents');
  });
});
