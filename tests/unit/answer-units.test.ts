// Units of measure (lib/answer/builtin/units.ts, the table `MEASURE_UNITS` in phrases.ts): a column
// measured in a unit, by its name (qty_t, labor_hrs, weight_kg) or its description ("Tonnes on the
// lorry."), answers to the unit's words; "how many tonnes" adds it up; another unit of its dimension
// converts it; a price or rate per unit is never the quantity. Money words ("value", "worth", "quid")
// reach the money column that says what a row is worth. Checked on a grain co-op, a workshop and a
// haulier schema.
import { describe, expect, it } from 'vitest';
import { lexiconFor } from '#lib/answer/builtin/lexicon.ts';
import { columnUnit } from '#lib/answer/builtin/units.ts';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col, type TableSpec } from '../fixtures/catalogs/define.ts';

const coopTables: TableSpec[] = [
  {
    name: 'deliveries',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('buyer_name', 'text', 'text', { samples: ['Cargill', 'Muntons'] }),
      col('dispatch_dt', 'date', 'date'),
      col('qty_t', 'decimal', 'numeric(10,2)', { description: 'Tonnes on the lorry.' }),
      col('price_per_t', 'decimal', 'numeric(10,2)'),
      col('total', 'decimal', 'numeric(10,2)', { description: 'Invoice value of the load in pounds.' }),
    ],
  },
  {
    name: 'intakes',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('intake_ts', 'timestamp', 'timestamp'),
      col('gross_kg', 'integer', 'integer'),
      col('tare_kg', 'integer', 'integer'),
      col('net_kg', 'integer', 'integer', { description: 'Weight of grain delivered.' }),
      col('grade', 'text', 'text', { samples: ['A', 'B', 'feed'] }),
    ],
  },
  {
    name: 'fields',
    columns: [
      col('id', 'integer', 'integer'),
      col('coop_id', 'integer', 'integer'),
      col('field_name', 'text', 'text'),
      col('size', 'decimal', 'numeric(10,2)', { description: 'Cropped area of the field in hectares.' }),
      col('soil_type', 'text', 'text', { samples: ['clay', 'loam'] }),
    ],
  },
];

const workshopTables: TableSpec[] = [
  {
    name: 'work_orders',
    columns: [
      col('id', 'integer', 'integer'),
      col('site_id', 'integer', 'integer'),
      col('opened_at', 'timestamp', 'timestamp'),
      col('wo_type', 'text', 'text', { samples: ['preventive', 'corrective'] }),
      col('labor_hrs', 'decimal', 'numeric(10,2)'),
      col('parts_amt', 'decimal', 'numeric(10,2)'),
    ],
  },
  {
    name: 'fuel_purchases',
    columns: [
      col('id', 'integer', 'integer'),
      col('site_id', 'integer', 'integer'),
      col('fuel_dt', 'date', 'date'),
      col('litres_qty', 'decimal', 'numeric(10,2)'),
      col('ppl', 'decimal', 'numeric(10,2)', { description: 'Pump price in pence per litre.' }),
      col('amt', 'decimal', 'numeric(10,2)'),
    ],
  },
];

const haulierTables: TableSpec[] = [
  {
    name: 'shipments',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('delivered_at', 'timestamp', 'timestamp'),
      col('weight_kg', 'integer', 'integer'),
      col('distance_mi', 'decimal', 'numeric(10,2)'),
      col('freight_amt', 'decimal', 'numeric(10,2)'),
      col('status', 'text', 'text', { samples: ['delivered', 'cancelled'] }),
    ],
  },
];

const coop = catalogOf(coopTables);
const askCoop = askOn(coop, 'coop_id');
const askWorkshop = askOn(catalogOf(workshopTables), 'site_id');
const askHaulier = askOn(catalogOf(haulierTables), 'company_id');

describe('the unit a column is measured in', () => {
  it.each([
    [['qty', 't'], undefined, false, 'tonne'],
    [['labor', 'hrs'], undefined, false, 'hour'],
    [['litres', 'qty'], undefined, false, 'litre'],
    [['area', 'ha'], undefined, false, 'hectare'],
    [['load'], 'Tonnes on the lorry.', false, 'tonne'],
    [['size'], 'Cropped area of the field in hectares.', false, 'hectare'],
    [['total'], 'Invoice value of the load in pounds.', true, 'pound'],
  ])('%#: %j', (words, description, money, unit) => {
    expect(columnUnit(words, description, money)?.name).toBe(unit);
  });

  it.each([
    [['price', 'per', 't'], undefined, true],
    [['base', 'price', 't'], undefined, true],
    [['seed', 'rate', 'kg', 'ha'], undefined, false],
    [['ref', 'price'], 'Pool reference price per tonne.', true],
    [['ppl'], 'Pump price in pence per litre.', false],
    [['t', 'count'], undefined, false],
  ])('a rate or a price per unit has none: %#: %j', (words, description, money) => {
    expect(columnUnit(words, description, money)).toBeUndefined();
  });

  it('links the unit words to the quantity, never to a price per unit or a gross or tare weight', () => {
    const lexicon = lexiconFor(coop, 'coop_id');
    const columns = (phrase: string) =>
      (lexicon.phrases.get(phrase) ?? []).flatMap((entry) => (entry.kind === 'column' ? [entry.column] : []));
    expect(columns('tonne').sort()).toEqual(['net_kg', 'qty_t']);
    expect(columns('hectare')).toEqual(['size']);
    // "loads" is a synonym of "tons" in WordNet, never an amount in tonnes.
    expect(sqlOf(askCoop('number of loads per grade'))).toContain('COUNT(*)');
  });
});

describe('a question that names a unit', () => {
  it.each([
    [askCoop, 'how many tonnes of deliveries in 2025', 'SUM(d.qty_t)'],
    [askCoop, 'total tonnes of deliveries per buyer name', 'SUM(d.qty_t)'],
    [askWorkshop, 'how many labour hours on preventive work orders', 'SUM(wo.labor_hrs)'],
    [askWorkshop, 'total litres of fuel purchases in 2025', 'SUM(fp.litres_qty)'],
    [askCoop, 'hectares by soil type', 'SUM(f.size)'],
  ])('adds up the column measured in it: %#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it.each([
    [askCoop, 'total tonnes of intakes in 2025', 'SUM((i.net_kg / 1000.0)) AS total_net_kg_in_tonnes'],
    [askHaulier, 'total tonnes of shipments delivered in 2025', 'SUM((s.weight_kg / 1000.0))'],
    [askHaulier, 'total km of shipments', 'SUM((s.distance_mi * 1.609344))'],
  ])('converts another unit of the dimension: %#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it('says the unit it converted to', () => {
    const proposal = askCoop('total tonnes of intakes');
    expect(proposal.kind === 'sql' && proposal.description).toBe('Adding up net kg in tonnes of intakes');
  });

  it('asks back when two relations hold the unit and the question names neither', () => {
    expect(askCoop('total tonnes').kind).toBe('clarification');
  });

  it('still counts rows with "how many" of a relation', () => {
    expect(sqlOf(askCoop('how many deliveries in 2025'))).toContain('COUNT(*)');
    expect(sqlOf(askWorkshop('how many work orders'))).toContain('COUNT(*)');
  });
});

describe('money words', () => {
  it.each([
    [askCoop, 'total value of deliveries in 2025', 'SUM(d.total)'],
    [askCoop, 'value of deliveries per buyer name', 'SUM(d.total)'],
    [askWorkshop, 'fuel purchases worth more than 500', 'fp.amt > 500'],
    [askHaulier, 'total value of shipments', 'SUM(s.freight_amt)'],
  ])('reach the money column that says what a row is worth: %#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it.each([
    [askWorkshop, 'fuel purchases over 500 quid', 'fp.amt > 500'],
    [askHaulier, 'shipments over 900 pounds', 's.freight_amt > 900'],
  ])('a currency word makes the number money: %#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });

  it('never reads a price or a charge alone as what a row is worth', () => {
    const lexicon = lexiconFor(catalogOf(workshopTables), 'site_id');
    const worth = (lexicon.phrases.get('value') ?? []).flatMap((entry) =>
      entry.kind === 'column' ? [`${entry.table}.${entry.column}`] : [],
    );
    expect(worth.sort()).toEqual(['public.fuel_purchases.amt', 'public.work_orders.parts_amt']);
  });
});

describe('a span named by a word for a length of time', () => {
  const spanTables: TableSpec[] = [
    {
      name: 'downtime_events',
      columns: [
        col('id', 'integer', 'integer'),
        col('plant_id', 'integer', 'integer'),
        col('start_ts', 'timestamp', 'timestamp'),
        col('end_ts', 'timestamp', 'timestamp', { nullable: true }),
        col('reason_cd', 'text', 'text', { samples: ['jam', 'power'] }),
      ],
    },
    {
      name: 'leave_requests',
      columns: [
        col('id', 'integer', 'integer'),
        col('plant_id', 'integer', 'integer'),
        col('start_date', 'date', 'date'),
        col('end_date', 'date', 'date'),
        col('status', 'text', 'text', { samples: ['approved', 'pending'] }),
      ],
    },
  ];
  const askPlant = askOn(catalogOf(spanTables), 'plant_id');

  it.each([
    ['total downtime in hours in 2025', 'SUM(EXTRACT(EPOCH FROM (de.end_ts - de.start_ts)) / 3600)'],
    ['downtime hours per reason cd', 'SUM(EXTRACT(EPOCH FROM (de.end_ts - de.start_ts)) / 3600)'],
    ['average downtime in minutes', 'AVG(EXTRACT(EPOCH FROM (de.end_ts - de.start_ts)) / 60)'],
    ['average leave in days', 'AVG((lr.end_date - lr.start_date))'],
  ])('%#: %s', (question, expression) => {
    expect(sqlOf(askPlant(question))).toContain(expression);
  });

  it('counts the rows when the relation is named', () => {
    expect(sqlOf(askPlant('how many downtime events in 2025'))).toContain('COUNT(*)');
  });
});

describe('a question that refers back to one asked back', () => {
  const coopCatalog = catalogOf(coopTables);
  const workshopCatalog = catalogOf(workshopTables);
  it.each([
    [coopCatalog, 'coop_id', 'list the fields of the Zorblax Trust', 'how many hectares is that altogether?'],
    [
      workshopCatalog,
      'site_id',
      'list the work orders for the Quuxbridge job',
      'how many labour hours was that',
    ],
  ])('%#: asks back rather than answering for every row', (catalog, tenant, first, second) => {
    const ask = askOn(catalog, tenant);
    const asked = ask(first);
    expect(asked.kind).toBe('clarification');
    const history = [{ question: first, kind: asked.kind, engine: 'builtin' as const }];
    expect(ask(second, { history }).kind).toBe('clarification');
    // Without the turn before, the same words read as a question of their own.
    expect(ask(second).kind).toBe('sql');
  });
});

describe('a bound and a unit written out', () => {
  const fleetTables: TableSpec[] = [
    {
      name: 'trucks',
      columns: [
        col('id', 'integer', 'integer'),
        col('company_id', 'integer', 'integer'),
        col('max_payload_kg', 'integer', 'integer'),
      ],
    },
    {
      name: 'loads',
      columns: [
        col('id', 'integer', 'integer'),
        col('company_id', 'integer', 'integer'),
        col('truck_id', 'integer', 'integer', { references: 'trucks' }),
        col('delivered_on', 'date', 'date'),
        col('weight_kg', 'integer', 'integer'),
      ],
    },
    {
      name: 'vendors',
      columns: [
        col('id', 'integer', 'integer'),
        col('company_id', 'integer', 'integer'),
        col('lead_time_days', 'integer', 'integer'),
      ],
    },
  ];
  const askFleet = askOn(catalogOf(fleetTables), 'company_id');

  it('reads the unit words as the amount, never the bound', () => {
    expect(sqlOf(askFleet('total tonnes delivered in 2025'))).toContain('SUM((l.weight_kg / 1000.0))');
  });

  it.each([
    [askFleet, 'average lead time of vendors', 'AVG(v.lead_time_days)'],
    [askWorkshop, 'average labor of work orders', 'AVG(wo.labor_hrs)'],
  ])('names the column without its unit written out: %#: %s', (ask, question, expression) => {
    expect(sqlOf(ask(question))).toContain(expression);
  });
});
