// How often one word counts in linking (lib/answer/engines/linking.ts): a word in the
// descriptions of many columns of one relation is one word about that relation, not one per
// column; a relation many linked keys refer to comes along once, not once per key; money asked
// of a relation holding none is in the relation recording it. On schemas of different domains:
// van hire, staffing, a kitchen, a fleet.
import { describe, expect, it } from 'vitest';
import { linkSchema } from '#lib/answer/engines/linking.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const id = () => col('id', 'integer', 'integer');
const tenant = () => col('org_id', 'integer', 'integer');

/** `count` columns of one relation whose descriptions all say `word`. */
const describedColumns = (prefix: string, word: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    col(`${prefix}_${index + 1}`, 'text', 'text', { description: `Note on the ${word}, part ${index + 1}.` }),
  );

const scoreOf = (catalog: ReturnType<typeof catalogOf>, question: string, name: string) =>
  linkSchema(catalog, question, { tenantColumn: 'org_id' }).byKey.get(`public.${name}`);

describe('a word in many column descriptions of one relation', () => {
  const hireWith = (count: number) =>
    catalogOf([
      { name: 'hires', columns: [id(), tenant(), ...describedColumns('hire_note', 'van', count)] },
      { name: 'depots', columns: [id(), tenant(), col('depot_nm', 'text', 'text')] },
    ]);
  const agencyWith = (count: number) =>
    catalogOf([
      { name: 'placements', columns: [id(), tenant(), ...describedColumns('plc_note', 'contractor', count)] },
      { name: 'clients', columns: [id(), tenant(), col('client_nm', 'text', 'text')] },
    ]);

  it('counts little more for ten columns than for one, and links all ten (van hire)', () => {
    const one = scoreOf(hireWith(1), 'which van was out longest', 'hires')!;
    const ten = scoreOf(hireWith(10), 'which van was out longest', 'hires')!;
    expect(ten.columns.size).toBe(10);
    expect(ten.score).toBeLessThan(one.score * 3);
  });

  it('counts little more for ten columns than for one, and links all ten (staffing)', () => {
    const one = scoreOf(agencyWith(1), 'how many contractor starts this month', 'placements')!;
    const ten = scoreOf(agencyWith(10), 'how many contractor starts this month', 'placements')!;
    expect(ten.columns.size).toBe(10);
    expect(ten.score).toBeLessThan(one.score * 3);
  });
});

describe('a relation many linked keys refer to', () => {
  /** `count` relations whose key to `parent` is described with `word`, which the question uses. */
  const referring = (parent: string, word: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      name: `ledger_${index + 1}`,
      columns: [
        id(),
        tenant(),
        col(`${parent}_id`, 'integer', 'integer', {
          references: parent,
          description: `The ${word} this line is for.`,
        }),
      ],
    }));

  it('comes along once however many keys refer to it (staffing: clients)', () => {
    const question = 'which sponsor is largest';
    const schema = (count: number) =>
      catalogOf([
        { name: 'clients', columns: [id(), tenant(), col('client_nm', 'text', 'text')] },
        ...referring('clients', 'sponsor', count),
      ]);
    const one = scoreOf(schema(1), question, 'clients')!;
    const five = scoreOf(schema(5), question, 'clients')!;
    expect(one.score).toBeGreaterThan(0);
    expect(five.score).toBe(one.score);
    expect(five.columns.has('id')).toBe(true);
  });

  it('comes along once however many keys refer to it (van hire: depots)', () => {
    const question = 'which yard is busiest';
    const schema = (count: number) =>
      catalogOf([
        { name: 'depots', columns: [id(), tenant(), col('depot_nm', 'text', 'text')] },
        ...referring('depots', 'yard', count),
      ]);
    const one = scoreOf(schema(1), question, 'depots')!;
    const four = scoreOf(schema(4), question, 'depots')!;
    expect(one.score).toBeGreaterThan(0);
    expect(four.score).toBe(one.score);
  });
});

describe('money asked of a relation that holds none', () => {
  const money = (name: string) => col(name, 'decimal', 'numeric(10,2)');

  it('brings the relation recording money about it, with its money columns (kitchen: suppliers)', () => {
    const kitchen = catalogOf([
      {
        name: 'vendors',
        columns: [
          id(),
          tenant(),
          col('vendor_nm', 'text', 'text'),
          col('supply_cat', 'text', 'text', { samples: ['fish', 'meat'] }),
        ],
      },
      {
        name: 'deliveries',
        columns: [
          id(),
          tenant(),
          col('vendor_id', 'integer', 'integer', { references: 'vendors' }),
          money('invoice_amt'),
        ],
      },
      {
        name: 'bills',
        columns: [id(), tenant(), money('total_amt'), col('opened_ts', 'timestamp', 'timestamp')],
      },
    ]);
    const deliveries = scoreOf(kitchen, 'how much did we spend on fish', 'deliveries');
    expect(deliveries?.score).toBeGreaterThan(0);
    expect(deliveries?.columns.has('invoice_amt')).toBe(true);
    // Without a word for money, no money column comes.
    const plain = scoreOf(kitchen, 'which vendors sell fish', 'deliveries');
    expect(plain?.columns.has('invoice_amt') ?? false).toBe(false);
  });

  it('brings the relation recording money about it, with its money columns (fleet: garages)', () => {
    const fleet = catalogOf([
      {
        name: 'garages',
        columns: [
          id(),
          tenant(),
          col('garage_nm', 'text', 'text'),
          col('specialty', 'text', 'text', { samples: ['bodywork', 'tyres'] }),
        ],
      },
      {
        name: 'repairs',
        columns: [
          id(),
          tenant(),
          col('garage_id', 'integer', 'integer', { references: 'garages' }),
          money('cost_amt'),
        ],
      },
    ]);
    const repairs = scoreOf(fleet, 'how much have we spent on bodywork', 'repairs');
    expect(repairs?.score).toBeGreaterThan(0);
    expect(repairs?.columns.has('cost_amt')).toBe(true);
  });
});
