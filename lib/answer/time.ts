// Calendar arithmetic on the reference clock `now` (EngineInput.now), in UTC: relative periods
// ("last month", "in the last 30 days") become fixed ISO dates that the builtin engine prints as
// SQL literals, so both dialects give the same rows and a test can fix the clock.

/** A half-open range of days [from, to): either end may be open. ISO dates (YYYY-MM-DD). */
export interface DateRange {
  from?: string;
  to?: string;
}

export type CalendarUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

const DAY_MS = 86_400_000;

/** Midnight UTC of the day `date` falls on. */
export const startOfDay = (date: Date): Date =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

export const parseIsoDate = (text: string): Date | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return isoDate(date) === text ? date : undefined;
};

export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);

/** Same day of month `months` later, clamped to the month's last day (Jan 31 + 1 → Feb 28). */
export const addMonths = (date: Date, months: number): Date => {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
};

/** The first day of the calendar unit that contains `date` (weeks start on Monday). */
export const startOf = (date: Date, unit: CalendarUnit): Date => {
  const day = startOfDay(date);
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return addDays(day, -((day.getUTCDay() + 6) % 7));
    case 'month':
      return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
    case 'quarter':
      return new Date(Date.UTC(day.getUTCFullYear(), Math.floor(day.getUTCMonth() / 3) * 3, 1));
    case 'year':
      return new Date(Date.UTC(day.getUTCFullYear(), 0, 1));
  }
};

/** `date` moved by `count` calendar units. */
export const addUnits = (date: Date, unit: CalendarUnit, count: number): Date => {
  switch (unit) {
    case 'day':
      return addDays(date, count);
    case 'week':
      return addDays(date, 7 * count);
    case 'month':
      return addMonths(date, count);
    case 'quarter':
      return addMonths(date, 3 * count);
    case 'year':
      return addMonths(date, 12 * count);
  }
};

/** The calendar unit containing `date`, shifted by `offset` units (0 = this, -1 = last). */
export const calendarRange = (date: Date, unit: CalendarUnit, offset = 0): { from: Date; to: Date } => {
  const from = addUnits(startOf(date, unit), unit, offset);
  return { from, to: addUnits(from, unit, 1) };
};

/** The last day inside a half-open range that ends before `to` (for descriptions). */
export const lastDayBefore = (to: string): string => {
  const date = parseIsoDate(to);
  return date ? isoDate(addDays(date, -1)) : to;
};

export const monthNames = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/** "2025-03" → "March 2025". */
export const monthLabel = (year: number, monthIndex: number): string => {
  const name = monthNames[monthIndex] ?? '';
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${year}`;
};
