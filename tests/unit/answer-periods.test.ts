// Periods on the reference clock (lib/answer/time.ts, lib/answer/builtin/periods.ts): calendar
// words mean calendar units, "last N days" and "past week" mean rolling spans ending today, and a
// month without a year is its most recent occurrence. Ranges are half-open [from, to).
import { describe, expect, it } from 'vitest';
import { periodAt } from '#lib/answer/builtin/periods.ts';
import { tokenize } from '#lib/answer/builtin/tokens.ts';
import { addMonths, calendarRange, isoDate, lastDayBefore, parseIsoDate, startOf } from '#lib/answer/time.ts';

const now = new Date('2026-03-15T10:30:00.000Z'); // a Sunday

const period = (text: string, clock = now) => periodAt(tokenize(text), 0, clock)?.period;

describe('calendar helpers', () => {
  it('finds the start of each unit (weeks start on Monday)', () => {
    expect(isoDate(startOf(now, 'day'))).toBe('2026-03-15');
    expect(isoDate(startOf(now, 'week'))).toBe('2026-03-09');
    expect(isoDate(startOf(now, 'month'))).toBe('2026-03-01');
    expect(isoDate(startOf(now, 'quarter'))).toBe('2026-01-01');
    expect(isoDate(startOf(now, 'year'))).toBe('2026-01-01');
  });

  it('adds months clamped to the end of the month', () => {
    expect(isoDate(addMonths(new Date('2026-01-31T00:00:00Z'), 1))).toBe('2026-02-28');
    expect(isoDate(addMonths(new Date('2024-03-31T00:00:00Z'), -1))).toBe('2024-02-29');
  });

  it('shifts calendar units and names the last day of a range', () => {
    const last = calendarRange(now, 'month', -1);
    expect([isoDate(last.from), isoDate(last.to)]).toEqual(['2026-02-01', '2026-03-01']);
    expect(lastDayBefore('2026-03-01')).toBe('2026-02-28');
  });

  it('parses only real ISO dates', () => {
    expect(parseIsoDate('2025-02-29')).toBeUndefined();
    expect(parseIsoDate('2024-02-29')).toBeDefined();
    expect(parseIsoDate('2024-2-9')).toBeUndefined();
  });
});

describe('periodAt', () => {
  const cases: [string, string | undefined, string | undefined, string][] = [
    ['in 2025', '2025-01-01', '2026-01-01', 'in 2025'],
    ['last month', '2026-02-01', '2026-03-01', 'last month'],
    ['this month', '2026-03-01', '2026-04-01', 'this month'],
    ['this year', '2026-01-01', '2027-01-01', 'this year'],
    ['last year', '2025-01-01', '2026-01-01', 'last year'],
    ['last week', '2026-03-02', '2026-03-09', 'last week'],
    ['this week', '2026-03-09', '2026-03-16', 'this week'],
    ['last quarter', '2025-10-01', '2026-01-01', 'last quarter'],
    ['yesterday', '2026-03-14', '2026-03-15', 'yesterday'],
    ['today', '2026-03-15', '2026-03-16', 'today'],
    ['last 30 days', '2026-02-14', '2026-03-16', 'in the last 30 days'],
    ['in the last 7 days', '2026-03-09', '2026-03-16', 'in the last 7 days'],
    ['over the past 3 months', '2025-12-16', '2026-03-16', 'in the last 3 months'],
    ['past week', '2026-03-09', '2026-03-16', 'in the past week'],
    ['3 months ago', '2025-12-01', '2026-01-01', '3 months ago'],
    ['since March', '2026-03-01', undefined, 'since March 2026'],
    ['since April', '2025-04-01', undefined, 'since April 2025'],
    ['in May', '2025-05-01', '2025-06-01', 'in May 2025'],
    ['in March 2025', '2025-03-01', '2025-04-01', 'in March 2025'],
    ['in Q1 2025', '2025-01-01', '2025-04-01', 'in Q1 2025'],
    ['first quarter of 2024', '2024-01-01', '2024-04-01', 'in Q1 2024'],
    ['before 2025', undefined, '2025-01-01', 'before 2025'],
    ['after 2024', '2025-01-01', undefined, 'after 2024'],
    ['until March 2025', undefined, '2025-04-01', 'until March 2025'],
    ['between 2025-01-01 and 2025-03-31', '2025-01-01', '2025-04-01', 'between 2025-01-01 and 2025-03-31'],
    ['from January to March 2025', '2025-01-01', '2025-04-01', 'between January 2025 and March 2025'],
    ['on 2025-03-04', '2025-03-04', '2025-03-05', 'on 2025-03-04'],
    ['year to date', '2026-01-01', '2026-03-16', 'year to date'],
    // The first or last day of a span, and what starts or ends there.
    ['since the start of 2024', '2024-01-01', undefined, 'since the start of 2024'],
    ['since the end of March 2025', '2025-03-31', undefined, 'since the end of March 2025'],
    ['by the end of next week', undefined, '2026-03-23', 'by the end of next week'],
    // Seasons: three months, in a named year or the last one begun; the months said after it taken in.
    ['in summer 2025', '2025-06-01', '2025-09-01', 'in summer 2025'],
    ['over summer 2024, june to august', '2024-06-01', '2024-09-01', 'in summer 2024'],
    ['in winter 2024', '2024-12-01', '2025-03-01', 'in winter 2024'],
    ['last summer', '2024-06-01', '2024-09-01', 'in summer 2024'],
    // A week of a month, an ordinal day, a holiday.
    ['in the first week of December 2025', '2025-12-01', '2025-12-08', 'in the first week of December 2025'],
    ['the last week of February 2026', '2026-02-22', '2026-03-01', 'in the last week of February 2026'],
    ['since the 21st of this month', '2026-03-21', undefined, 'since 2026-03-21'],
    ['on the 3rd', '2026-03-03', '2026-03-04', 'on 2026-03-03'],
    ['on christmas eve 2025', '2025-12-24', '2025-12-25', 'christmas eve 2025'],
    // From today on, and a month "coming up" as its next one.
    ['coming up', '2026-03-15', undefined, 'from today on'],
    ['upcoming', '2026-03-15', undefined, 'from today on'],
    ['coming up in February', '2027-02-01', '2027-03-01', 'in February 2027'],
  ];

  it.each(cases)('%s', (text, from, to, label) => {
    const found = period(text);
    // A month or quarter said without its year is marked so (a follow-up takes the year before).
    const yearless = text === 'in May' ? { yearless: true } : {};
    expect(found).toEqual({ ...(from ? { from } : {}), ...(to ? { to } : {}), label, ...yearless });
  });

  it('reads no season, edge or ordinal in words that only look like one', () => {
    expect(period('the end of the queue')).toBeUndefined();
    expect(period('upcoming 5')).toBeUndefined();
    expect(period('the 45th')).toBeUndefined();
  });

  it('is not fooled by words that only look like periods', () => {
    expect(period('last name')).toBeUndefined();
    expect(period('may I see orders')).toBeUndefined();
    expect(period('in Spain')).toBeUndefined();
    expect(period('last 5 orders')).toBeUndefined();
    expect(period('3000')).toBeUndefined();
  });

  it('reports where the period ends, so the scanner can go on', () => {
    expect(periodAt(tokenize('in the last 30 days please'), 0, now)?.end).toBe(5);
  });

  it('follows the clock it is given', () => {
    expect(period('last month', new Date('2026-01-10T00:00:00Z'))).toMatchObject({
      from: '2025-12-01',
      to: '2026-01-01',
    });
  });
});
