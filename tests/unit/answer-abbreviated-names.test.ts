// Names written short, on two schemas of different domains: words said in full for a column whose
// name abbreviates them (markers.ts `abbreviatedColumnAt`: "payment method" → pay_method,
// "frequency" → freq); a relation with no name column labelled by its code and description
// (columns.ts `labelsOf`); a number is a row's key only right after the relation's word.
import { describe, expect, it } from 'vitest';
import { askOn, sqlOf } from '../fixtures/catalogs/ask.ts';
import { catalogOf, col } from '../fixtures/catalogs/define.ts';

const charity = catalogOf([
  {
    name: 'donations',
    columns: [
      col('id', 'integer', 'integer'),
      col('charity_id', 'integer', 'integer'),
      col('amt', 'decimal', 'numeric(10,2)'),
      col('pay_method', 'text', 'text', { samples: ['card', 'cash'] }),
      col('gift_dt', 'date', 'date'),
    ],
  },
  {
    name: 'regular_gifts',
    columns: [
      col('id', 'integer', 'integer'),
      col('charity_id', 'integer', 'integer'),
      col('freq', 'text', 'text', { samples: ['monthly', 'annual'] }),
      col('amt', 'decimal', 'numeric(10,2)'),
    ],
  },
]);
const workshop = catalogOf([
  {
    name: 'parts',
    columns: [
      col('part_id', 'integer', 'integer'),
      col('manufacturer_id', 'integer', 'integer'),
      col('part_cd', 'text', 'text'),
      col('part_desc', 'text', 'text'),
      col('unit_cost', 'decimal', 'numeric(10,2)'),
    ],
    primaryKey: ['part_id'],
  },
  {
    name: 'suppliers',
    columns: [
      col('id', 'integer', 'integer'),
      col('manufacturer_id', 'integer', 'integer'),
      col('supplier_nm', 'text', 'text'),
      col('pay_terms_days', 'integer', 'integer'),
      col('delivery_freq', 'text', 'text', { samples: ['weekly', 'monthly'] }),
      col('dist_km', 'integer', 'integer'),
      col('supplier_type', 'text', 'text', { samples: ['distributors', 'makers'] }),
    ],
  },
]);
const askCharity = askOn(charity, 'charity_id');
const askWorkshop = askOn(workshop, 'manufacturer_id');

describe('words said in full for a column whose name abbreviates them', () => {
  it.each([
    [askCharity, 'number of donations per payment method', 'GROUP BY d.pay_method'],
    [askCharity, 'how many regular gifts for each frequency', 'GROUP BY rg.freq'],
    [askWorkshop, 'suppliers per delivery frequency', 'GROUP BY s.delivery_freq'],
    [askWorkshop, 'average payment terms of suppliers', 'AVG(s.pay_terms_days)'],
  ] as const)('%#: %s', (ask, question, sql) => {
    expect(sqlOf(ask(question))).toContain(sql);
  });

  it('not a word the index knows otherwise (a value that begins like a column)', () => {
    const sql = sqlOf(askWorkshop('list the distributors'));
    expect(sql).toContain("s.supplier_type = 'distributors'");
    expect(sql).not.toContain('dist_km >');
  });
});

describe('a relation with no name column is labelled by its code and its description', () => {
  it.each([
    [askWorkshop, 'list the parts', ['p.part_cd', 'p.part_desc']],
    [askWorkshop, 'top 3 parts by unit cost', ['p.part_cd', 'p.part_desc']],
  ] as const)('%#: %s', (ask, question, labels) => {
    const sql = sqlOf(ask(question));
    for (const label of labels) expect(sql).toContain(label);
  });
});

describe('a number is a row’s key only right after the relation’s word', () => {
  it.each([
    [askWorkshop, 'which suppliers are on 60 day payment terms', 's.id = 60'],
    [askCharity, 'donations that were for 25 on the card', 'd.id = 25'],
  ] as const)('%#: %s', (ask, question, key) => {
    const proposal = ask(question);
    if (proposal.kind === 'sql') expect(proposal.sql.replace(/\s+/g, ' ')).not.toContain(key);
  });

  it.each([
    [askWorkshop, 'show supplier 7', 's.id = 7'],
    [askCharity, 'show donation #12', 'd.id = 12'],
  ] as const)('%#: %s', (ask, question, key) => {
    expect(sqlOf(ask(question))).toContain(key);
  });
});

const recruiting = catalogOf([
  {
    name: 'candidates',
    columns: [
      col('id', 'integer', 'integer'),
      col('firm_id', 'integer', 'integer'),
      col('full_nm', 'text', 'text'),
      col('yrs_exp', 'integer', 'integer'),
      col('skill_cd', 'text', 'text', { samples: ['NURSE', 'DEV'] }),
    ],
  },
]);
const fleet = catalogOf([
  {
    name: 'drivers',
    columns: [
      col('id', 'integer', 'integer'),
      col('company_id', 'integer', 'integer'),
      col('driver_nm', 'text', 'text'),
      col('hrs_wkd', 'decimal', 'numeric(6,1)'),
      col('grade_cd', 'text', 'text', { samples: ['D1', 'D2'] }),
    ],
  },
]);
const askRecruiting = askOn(recruiting, 'firm_id');
const askFleet = askOn(fleet, 'company_id');

describe('plurals, codes and headcounts said in full', () => {
  it.each([
    [askRecruiting, 'average years experience of candidates', 'AVG(c.yrs_exp)'],
    [askFleet, 'total hours worked by drivers', 'SUM(d.hrs_wkd)'],
    [askRecruiting, 'headcount of candidates per skill', 'GROUP BY c.skill_cd'],
    [askFleet, 'headcount of drivers at each grade', 'GROUP BY d.grade_cd'],
  ] as const)('%#: %s', (ask, question, sql) => {
    const text = sqlOf(ask(question));
    expect(text).toContain(sql);
    if (question.startsWith('headcount')) expect(text).toContain('COUNT(*)');
  });
});

describe('“how many Xs” of an x_type column does not count the different types', () => {
  const museum = catalogOf([
    {
      name: 'ticket_sales',
      columns: [
        col('id', 'integer', 'integer'),
        col('museum_id', 'integer', 'integer'),
        col('ticket_type', 'text', 'text', { samples: ['adult', 'child'] }),
        col('sale_ts', 'timestamp', 'timestamptz'),
      ],
    },
  ]);
  const charityFunds = catalogOf([
    {
      name: 'donations',
      columns: [
        col('id', 'integer', 'integer'),
        col('charity_id', 'integer', 'integer'),
        col('fund_cd', 'text', 'text', { samples: ['GENERAL', 'ACQ'] }),
        col('amt', 'decimal', 'numeric(10,2)'),
      ],
    },
  ]);
  it.each([
    [askOn(museum, 'museum_id'), 'how many tickets last month', 'COUNT(DISTINCT ts.ticket_type)'],
    [askOn(charityFunds, 'charity_id'), 'how many funds in 2025', 'COUNT(DISTINCT d.fund_cd)'],
  ] as const)('%#: %s', (ask, question, wrong) => {
    const proposal = ask(question);
    if (proposal.kind === 'sql') expect(proposal.sql.replace(/\s+/g, ' ')).not.toContain(wrong);
  });

  it.each([
    [askOn(museum, 'museum_id'), 'how many different ticket types', 'COUNT(DISTINCT ts.ticket_type)'],
    [askOn(charityFunds, 'charity_id'), 'how many different funds are there', 'COUNT(DISTINCT d.fund_cd)'],
  ] as const)('but does when the kinds are asked: %#', (ask, question, sql) => {
    expect(sqlOf(ask(question))).toContain(sql);
  });
});

describe('revenue of two relations: the one the question names a word of', () => {
  const museumSales = catalogOf([
    {
      name: 'shop_sales',
      columns: [
        col('id', 'integer', 'integer'),
        col('museum_id', 'integer', 'integer'),
        col('product_cat', 'text', 'text', { samples: ['books', 'prints'] }),
        col('line_total_amt', 'decimal', 'numeric(10,2)'),
        col('sale_ts', 'timestamp', 'timestamptz'),
      ],
    },
    {
      name: 'ticket_sales',
      columns: [
        col('id', 'integer', 'integer'),
        col('museum_id', 'integer', 'integer'),
        col('channel', 'text', 'text', { samples: ['online', 'desk'] }),
        col('total_amt', 'decimal', 'numeric(10,2)'),
        col('sale_ts', 'timestamp', 'timestamptz'),
      ],
    },
  ]);
  const venue = catalogOf([
    {
      name: 'bar_orders',
      columns: [
        col('id', 'integer', 'integer'),
        col('venue_id', 'integer', 'integer'),
        col('total_amt', 'decimal', 'numeric(10,2)'),
      ],
    },
    {
      name: 'room_hires',
      columns: [
        col('id', 'integer', 'integer'),
        col('venue_id', 'integer', 'integer'),
        col('room_nm', 'text', 'text'),
        col('total_amt', 'decimal', 'numeric(10,2)'),
      ],
    },
  ]);
  it.each([
    [askOn(museumSales, 'museum_id'), 'total ticket revenue this year', 'SUM(ts.total_amt)'],
    [askOn(museumSales, 'museum_id'), 'total shop revenue this year', 'SUM(ss.line_total_amt)'],
    [askOn(venue, 'venue_id'), 'total revenue of room hires', 'SUM(rh.total_amt)'],
  ] as const)('%#: %s', (ask, question, measure) => {
    expect(sqlOf(ask(question))).toContain(measure);
  });

  it('and asks when it names neither', () => {
    const proposal = askOn(venue, 'venue_id')('total revenue in 2025');
    expect(proposal.kind === 'clarification' && proposal.message).toMatch(/^Revenue could be computed from/);
  });
});
