// What a row is read by without being named (lib/answer/engines/row-columns.ts) and how the
// schema details use it: labels, the row's own number, its date when a period is asked, its
// state; relations of people for a question about people; keys a column's description names;
// and the best relation detailed short when it is too long whole. On two schemas of different
// domains: a clinic and a haulage firm, neither declaring the keys of their people.
import { describe, expect, it } from 'vitest';
import { linkSchema } from '#lib/answer/engines/linking.ts';
import { asksPeople, asksPeriod, rowColumnsOf } from '#lib/answer/engines/row-columns.ts';
import { selectRelations } from '#lib/answer/engines/schema-details.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const id = () => col('id', 'integer', 'integer');
const tenant = () => col('org_id', 'integer', 'integer');
/** Columns no question names, so that a relation is wide. */
const filler = (count: number) =>
  Array.from({ length: count }, (_, index) => col(`note_${index + 1}`, 'text', 'text'));

const clinic = catalogOf([
  {
    name: 'clinicians',
    columns: [
      id(),
      tenant(),
      col('first_nm', 'text', 'text'),
      col('last_nm', 'text', 'text'),
      col('grade_cd', 'text', 'text'),
    ],
  },
  {
    name: 'appointments',
    columns: [
      id(),
      tenant(),
      col('appt_no', 'text', 'text'),
      col('phone_no', 'text', 'text'),
      col('seen_by_id', 'integer', 'integer', {
        description: 'Clinician (clinicians.id) who saw the patient.',
      }),
      col('appt_ts', 'timestamp', 'timestamp'),
      col('reminder_dt', 'date', 'date'),
      col('status', 'text', 'text', { samples: ['booked', 'attended', 'cancelled'] }),
      col('fee_amt', 'decimal', 'numeric(10,2)'),
      ...filler(16),
    ],
  },
]);

const haulage = catalogOf([
  {
    name: 'drivers',
    columns: [id(), tenant(), col('driver_nm', 'text', 'text'), col('licence_cat', 'text', 'text')],
  },
  {
    name: 'shipments',
    columns: [
      id(),
      tenant(),
      col('shipment_no', 'text', 'text'),
      col('drv_id', 'integer', 'integer', { description: 'Driver (drivers.id) who carried the load.' }),
      col('shipped_dt', 'date', 'date'),
      col('state', 'text', 'text', { samples: ['planned', 'in_transit', 'delivered'] }),
      col('weight_kg', 'decimal', 'numeric(10,2)'),
      ...filler(16),
    ],
  },
]);

const shortForm = (catalog: typeof clinic, question: string, relation: string) =>
  [
    ...(selectRelations(catalog, question, {
      maxRelations: 20,
      schemaTokens: 120,
      wideColumns: 14,
      tenantColumn: 'org_id',
    }).find((each) => each.relation.name === relation)?.columns ?? []),
  ].sort();

describe('row columns', () => {
  it('reads a row’s labels (names, its own number), its date, its state and whether it is a person', () => {
    const clinicRows = rowColumnsOf(clinic, 'org_id', undefined);
    expect(clinicRows.get('public.clinicians')).toMatchObject({
      labels: ['first_nm', 'last_nm'],
      people: true,
    });
    expect(clinicRows.get('public.appointments')).toMatchObject({
      labels: ['appt_no'],
      date: 'appt_ts',
      status: 'status',
      people: false,
    });
    const haulageRows = rowColumnsOf(haulage, 'org_id', undefined);
    expect(haulageRows.get('public.drivers')).toMatchObject({ labels: ['driver_nm'], people: true });
    expect(haulageRows.get('public.shipments')).toMatchObject({
      labels: ['shipment_no'],
      date: 'shipped_dt',
      status: 'state',
      people: false,
    });
  });

  it('tells a period or time grain from a question without one', () => {
    for (const question of ['fees in Q1', 'shipments last month', 'monthly totals', 'loads in 2025'])
      expect(asksPeriod(question), question).toBe(true);
    for (const question of ['list the cancelled appointments', 'heaviest loads per driver'])
      expect(asksPeriod(question), question).toBe(false);
  });

  it('tells a question about people from its unexplained words', () => {
    expect(asksPeople(['who', 'the', 'most'])).toBe(true);
    expect(asksPeople(['which', 'lawyer'])).toBe(true);
    expect(asksPeople(['daniel', 'finch'])).toBe(true);
    // "have" is filed as a person under a rare noun sense; it is a verb first.
    expect(asksPeople(['how', 'many', 'emails', 'have'])).toBe(false);
  });
});

describe('row columns in the schema details', () => {
  it('keeps a short relation’s labels and own number, and its state when the question is about it', () => {
    expect(shortForm(clinic, 'appointments with a fee over 100', 'appointments')).toEqual([
      'appt_no',
      'fee_amt',
      'id',
      'status',
    ]);
    expect(shortForm(haulage, 'shipments over 500 kg', 'shipments')).toEqual([
      'id',
      'shipment_no',
      'state',
      'weight_kg',
    ]);
  });

  it('keeps a short relation’s date when the question names a period', () => {
    expect(shortForm(clinic, 'appointments with a fee over 100 last month', 'appointments')).toContain(
      'appt_ts',
    );
    expect(shortForm(haulage, 'shipments over 500 kg in 2025', 'shipments')).toContain('shipped_dt');
    // Beside another date the question's words name.
    expect(shortForm(clinic, 'appointments with a reminder in 2025', 'appointments')).toEqual(
      expect.arrayContaining(['appt_ts', 'reminder_dt']),
    );
  });

  it('brings the relation of people a question about people needs, by a key its description names', () => {
    const clinicLinks = linkSchema(clinic, 'who had the most cancelled appointments', {
      tenantColumn: 'org_id',
    });
    expect(clinicLinks.byKey.has('public.clinicians')).toBe(true);
    expect(clinicLinks.joins).toContainEqual(['public.appointments', 'public.clinicians']);
    const haulageLinks = linkSchema(haulage, 'shipments Daniel carried in transit', {
      tenantColumn: 'org_id',
    });
    expect(haulageLinks.byKey.has('public.drivers')).toBe(true);
    expect(haulageLinks.joins).toContainEqual(['public.shipments', 'public.drivers']);
    // No person asked about: the relation of people stays out.
    expect(
      linkSchema(haulage, 'shipments in transit', { tenantColumn: 'org_id' }).byKey.has('public.drivers'),
    ).toBe(false);
  });
});

describe('the budget of the schema details', () => {
  const described = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      col(`detail_${index + 1}`, 'text', 'text', {
        description: `A detail of the row that no question here names, number ${index + 1}.`,
      }),
    );
  const narrow = (name: string) => ({
    name,
    description: `The ${name} of the firm, with a long description that costs tokens in the whole form of the relation.`,
    columns: [id(), tenant(), col(`${name.slice(0, -1)}_nm`, 'text', 'text'), ...described(6)],
  });
  const hire = catalogOf([
    {
      name: 'bookings',
      columns: [
        id(),
        tenant(),
        col('branch_id', 'integer', 'integer', { references: 'branches' }),
        col('vehicle_id', 'integer', 'integer', { references: 'vehicles' }),
        // Columns the question names by a word of their descriptions: a long short form.
        ...Array.from({ length: 16 }, (_, index) =>
          col(`charge_${index + 1}`, 'decimal', 'numeric(10,2)', {
            description: `A charge of the booking for its vehicle hire, kind ${index + 1}, before any discount.`,
          }),
        ),
        ...described(20),
      ],
    },
    narrow('branches'),
    narrow('vehicles'),
  ]);

  it('details the best relation short when it is too long whole, before weaker ones take the budget whole', () => {
    const selected = selectRelations(hire, 'hire charges of bookings per branch and vehicle', {
      maxRelations: 20,
      schemaTokens: 760,
      wideColumns: 14,
      tenantColumn: 'org_id',
    });
    expect(selected.map((each) => each.relation.name)).toContain('bookings');
  });
});
