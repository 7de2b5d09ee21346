// The columns a list shows when its relation has more than 12 (render.ts `listColumns`): keys,
// labels and the columns the question names, then what says most of a row (its total or amount,
// then other amounts, texts and its date), then others, and bookkeeping and free text last. On two
// schemas of different domains.
import { describe, expect, it } from 'vitest';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

/** A wide relation: many measures before the total, bookkeeping and notes among them. */
const wide = (name: string, tenant: string, total: string) =>
  catalogOf([
    {
      name,
      columns: [
        col('id', 'integer', 'integer'),
        col(tenant, 'integer', 'integer'),
        col('ref_no', 'text', 'text'),
        col('created_at', 'timestamp', 'timestamptz'),
        col('updated_at', 'timestamp', 'timestamptz'),
        col('internal_notes', 'text', 'text', { nullable: true }),
        ...['elec_kwh', 'gas_kwh', 'peak_kwh', 'offpeak_kwh', 'meter_reads', 'est_reads', 'days_billed'].map(
          (column) => col(column, 'integer', 'integer'),
        ),
        col('status', 'text', 'text', { samples: ['paid', 'overdue'] }),
        col('issue_dt', 'date', 'date'),
        col(total, 'decimal', 'numeric(12,2)'),
      ],
    },
  ]);

describe('a wide list keeps what says most of a row', () => {
  it.each([
    [askOn(wide('bills', 'retailer_id', 'total_amt'), 'retailer_id'), 'list the overdue bills', 'total_amt'],
    [
      askOn(wide('invoices', 'firm_id', 'gross_total'), 'firm_id'),
      'list the overdue invoices',
      'gross_total',
    ],
  ] as const)('%#: %s', (ask, question, total) => {
    const sql = sqlOf(ask(question));
    const listed = /^SELECT (.*?) FROM/.exec(sql)?.[1]?.split(', ') ?? [];
    expect(listed.length).toBe(12);
    expect(listed.some((column) => column.endsWith(`.${total}`))).toBe(true);
    expect(listed.some((column) => column.endsWith('.status'))).toBe(true);
    expect(listed.some((column) => /\.(internal_notes|updated_at)$/.test(column))).toBe(false);
  });
});
