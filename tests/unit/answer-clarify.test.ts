// The builtin engine's rule: answer only what maps unambiguously onto the schema, otherwise ask
// (NaLIR, ATHENA, PRECISE). Each clarification says what could match; none of these may become SQL.
import { describe, expect, it } from 'vitest';
import type { ClarificationProposal } from '#lib/answer/engine.ts';
import { ask } from '../fixtures/catalogs/ask.ts';
import { edgeCatalog } from '../fixtures/catalogs/edge.ts';

const clarification = (question: string, options: Parameters<typeof ask>[1] = {}): ClarificationProposal => {
  const proposal = ask(question, options);
  if (proposal.kind !== 'clarification') {
    throw new Error(
      `expected a clarification for “${question}”, got ${proposal.kind}${proposal.kind === 'sql' ? `: ${proposal.sql}` : ''}`,
    );
  }
  return proposal;
};

describe('ambiguous words', () => {
  it('asks which column a word means, and names the candidates', () => {
    const proposal = clarification('What is the total amount?');
    expect(proposal.message).toBe(
      '“amount” could be payments.amount or invoices.amount. Which one do you mean?',
    );
    expect(proposal.candidates).toEqual([
      { table: 'payments', column: 'amount' },
      { table: 'invoices', column: 'amount' },
    ]);
    expect(clarification('count by status').candidates).toEqual([
      { table: 'orders', column: 'status' },
      { table: 'invoices', column: 'status' },
    ]);
  });

  it('asks which column a value is in when several reachable columns hold it', () => {
    const proposal = clarification('orders from Madrid');
    expect(proposal.message).toContain('“Madrid” appears in');
    expect(proposal.candidates).toEqual(
      expect.arrayContaining([
        { table: 'customers', column: 'city' },
        { table: 'stores', column: 'city' },
      ]),
    );
  });

  it('does not ask when the question names the relation', () => {
    expect(ask('orders from customers in Madrid').kind).toBe('sql');
    expect(ask('total payment amount').kind).toBe('sql');
  });

  it('asks which link when two foreign keys lead to the same table', () => {
    const proposal = clarification('orders from Paris', { catalog: edgeCatalog, tenantColumn: null });
    expect(proposal.message).toContain('linked in more than one way');
    expect(proposal.candidates).toEqual([
      { table: 'order', column: 'billing_address_id' },
      { table: 'order', column: 'shipping_address_id' },
    ]);
  });
});

describe('questions it cannot map', () => {
  const cases: [string, RegExp][] = [
    ['how many widgets', /not sure what “widgets” means/],
    ['how many orders were returned by angry customers', /“angry”/],
    ['top 5 products', /^Top 5 products by what\? For example by price or revenue\.$/],
    ['What is the total?', /^The total of what\? Name what to add up/],
    ['what is the sum for 2025', /^The sum of what\?/],
    ['orders over 100', /of what\? Name the column/],
    ['average order value', /^Orders have no price or amount I can use/],
    ['sum of customer names', /not numbers I can add up/],
    ['products in 2025', /^Products have no date I can use for “in 2025”\.$/],
    ['orders per status per store', /one thing at a time/],
    ['how many orders in 2025 and 2024', /one period at a time/],
    ['customers not in 2025', /only leave out named values/],
    ['customers with fewer than 2 orders', /leave out those with none/],
    ['most expensive order', /no price or amount/],
    ['orders by', /^Per what\?/],
    ['products with employees', /only loosely related \(through order items, orders and stores\)/],
    ['employees of gold customers', /only loosely related/],
    ['what about last year?', /whole question/],
    ['show those', /whole question/],
    ['', /Ask me a question/],
    ['x'.repeat(1001), /too long/],
  ];

  it.each(cases)('%s', (question, message) => {
    expect(clarification(question).message).toMatch(message);
  });

  it('refuses to add up across a join that repeats rows', () => {
    expect(clarification('the total price of order items per customer').message).toContain('more than once');
  });

  it('asks about a value it could not print safely rather than escaping it', () => {
    const proposal = clarification("orders with status 'bad\\value'", {
      catalog: edgeCatalog,
      tenantColumn: null,
    });
    expect(proposal.message).toContain('characters I don');
  });
});
