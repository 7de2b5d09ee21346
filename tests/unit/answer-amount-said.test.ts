// The amount a verb of the question names (lib/answer/builtin/said-amount.ts): "how much was paid"
// adds up the amount paid, not the total billed; "owe" asks for a balance, asked back where no
// column holds one. Each on two schemas of different domains: a college's fee invoices and a
// garage's repair jobs.
import { describe, expect, it } from 'vitest';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const collegeCatalog = catalogOf([
  {
    name: 'students',
    columns: [
      col('id', 'integer', 'integer'),
      col('college_id', 'integer', 'integer'),
      col('first_name', 'text', 'text'),
      col('last_name', 'text', 'text'),
    ],
  },
  {
    name: 'fee_invoices',
    columns: [
      col('id', 'integer', 'integer'),
      col('college_id', 'integer', 'integer'),
      col('student_id', 'integer', 'integer', { references: 'students' }),
      col('issued_on', 'date', 'date'),
      col('total', 'decimal', 'numeric(12,2)'),
      col('amt_paid', 'decimal', 'numeric(12,2)'),
      col('paid_on', 'date', 'date', { nullable: true }),
    ],
  },
]);

const garageCustomers = {
  name: 'customers',
  columns: [
    col('id', 'integer', 'integer'),
    col('garage_id', 'integer', 'integer'),
    col('full_name', 'text', 'text'),
    col('phone', 'text', 'text'),
  ],
};

const garageCatalog = catalogOf([
  garageCustomers,
  {
    name: 'repair_jobs',
    columns: [
      col('id', 'integer', 'integer'),
      col('garage_id', 'integer', 'integer'),
      col('customer_id', 'integer', 'integer', { references: 'customers' }),
      col('job_dt', 'date', 'date'),
      col('total', 'decimal', 'numeric(12,2)'),
      col('amt_settled', 'decimal', 'numeric(12,2)'),
      col('settled_on', 'date', 'date', { nullable: true }),
    ],
  },
]);

/** The garage again, with a column holding what is still owed. */
const garageWithBalance = catalogOf([
  garageCustomers,
  {
    name: 'repair_jobs',
    columns: [
      col('id', 'integer', 'integer'),
      col('garage_id', 'integer', 'integer'),
      col('customer_id', 'integer', 'integer', { references: 'customers' }),
      col('job_dt', 'date', 'date'),
      col('total', 'decimal', 'numeric(12,2)'),
      col('amount_owed', 'decimal', 'numeric(12,2)'),
    ],
  },
]);

const askers = {
  college: askOn(collegeCatalog, 'college_id'),
  garage: askOn(garageCatalog, 'garage_id'),
  garageWithBalance: askOn(garageWithBalance, 'garage_id'),
} as const;

describe('a verb naming a money column is what "how much" adds up', () => {
  it.each<[keyof typeof askers, string, string]>([
    ['college', 'how much was paid in 2025', 'SUM(fi.amt_paid)'],
    ['college', 'how much was paid per student in march 2025', 'SUM(fi.amt_paid)'],
    ['garage', 'how much was settled in 2025', 'SUM(rj.amt_settled)'],
    ['garage', 'how much was settled per customer in 2024', 'SUM(rj.amt_settled)'],
    ['garageWithBalance', 'how much do customers owe', 'SUM(rj.amount_owed)'],
  ])('%s: %s', (schema, question, sum) => {
    expect(sqlOf(askers[schema](question))).toContain(sum);
  });

  it.each<[keyof typeof askers, string, string]>([
    ['college', 'total revenue in 2025', 'SUM(fi.total)'],
    ['garage', 'how much revenue in 2025', 'SUM(rj.total)'],
  ])('%s: no verb names an amount, revenue stands: %s', (schema, question, sum) => {
    expect(sqlOf(askers[schema](question))).toContain(sum);
  });
});

describe('"owe" with no column of what is owed is asked back, never the total billed', () => {
  it.each<[keyof typeof askers, string]>([
    ['college', 'how much do students still owe us'],
    ['college', 'which 5 students owe the most money'],
    ['garage', 'how much do customers owe'],
    ['garage', 'which customers owe the most money'],
  ])('%s: %s', (schema, question) => {
    const proposal = askers[schema](question);
    expect(proposal.kind).toBe('clarification');
  });
});
