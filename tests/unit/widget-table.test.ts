// The widget's table cells (web/src/format.ts, used by web/src/table.ts): numbers as the answer's text writes them, numeric
// strings included (PostgreSQL sends numerics as text), numbers that are names left alone, and
// key columns left out when a name beside them says which row it is.
import { describe, expect, it } from 'vitest';
import { cellText, shownColumns } from '../../web/src/format.ts';

describe('cellText', () => {
  it('writes numbers and numeric strings as the text does: grouped, at most two decimals', () => {
    expect(cellText('157592.59')).toBe('157,592.59');
    expect(cellText('166.8888000000000000')).toBe('166.89');
    expect(cellText(1234567.891)).toBe('1,234,567.89');
    expect(cellText('-42')).toBe('-42');
    expect(cellText(0.001234)).toBe('0.00123');
    expect(cellText(0)).toBe('0');
  });

  it('leaves numbers that are names as they are: years, ids, codes with a leading zero, huge digits', () => {
    expect(cellText(2025, 'period_year')).toBe('2025');
    expect(cellText('2025', 'year')).toBe('2025');
    expect(cellText(12345, 'customer_id')).toBe('12345');
    expect(cellText(12345, 'customerId')).toBe('12345');
    expect(cellText('01234')).toBe('01234');
    expect(cellText('12345678901234567890')).toBe('12345678901234567890');
    // A column that merely ends in "id" letters is an amount.
    expect(cellText('1500.5', 'paid')).toBe('1,500.5');
  });

  it('writes other values as text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('yes');
    expect(cellText('Camp Kitchen')).toBe('Camp Kitchen');
  });
});

describe('shownColumns', () => {
  it('leaves out key columns beside a name, keeps them when nothing else says which row', () => {
    const named = [
      { id: 1, name: 'Tents', customer_id: 7, total_revenue: '154544.72' },
      { id: 2, name: 'Backpacks', customer_id: 8, total_revenue: '123378.05' },
    ];
    expect(shownColumns(named)).toEqual(['name', 'total_revenue']);
    const numbered = [
      { id: 1, total: 3 },
      { id: 2, total: 4 },
    ];
    expect(shownColumns(numbered)).toEqual(['id', 'total']);
  });
});
