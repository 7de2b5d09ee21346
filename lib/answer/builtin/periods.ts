// Periods in questions ("in 2025", "last month", "since March", "in the last 30 days",
// "between 2025-01-01 and 2025-03-31") read at a token position and turned into a half-open range
// of ISO dates on the reference clock (lib/answer/time.ts). Calendar words ("last month", "this
// year") mean calendar units; "past week" and "last 30 days" mean rolling spans ending today.
import {
  addDays,
  addUnits,
  type CalendarUnit,
  calendarRange,
  isoDate,
  monthLabel,
  monthNames,
  parseIsoDate,
  startOf,
  startOfDay,
} from '../time.ts';
import type { Period, Token } from './types.ts';
import { numberWord, wordTable } from './words.ts';

export interface PeriodMatch {
  period: Period;
  /** Index after the last token used. */
  end: number;
}

interface Span {
  from: Date;
  to: Date;
  label: string;
  /** A named date ("2025", "March 2025") takes "in"; a relative one ("last month") does not. */
  absolute: boolean;
  /** A month or quarter named without its year: the first month, so a range can take a later year. */
  yearless?: number;
}

const units: Record<string, CalendarUnit> = wordTable({
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  quarter: 'quarter',
  quarters: 'quarter',
  year: 'year',
  years: 'year',
});

const monthIndex = (word: string): number | undefined => {
  const full = monthNames.indexOf(word as (typeof monthNames)[number]);
  if (full >= 0) return full;
  if (word === 'sept') return 8;
  const short = monthNames.findIndex((name) => name.slice(0, 3) === word);
  return word.length === 3 && short >= 0 ? short : undefined;
};

const ordinals: Record<string, number> = wordTable({
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
});

const wordAt = (tokens: readonly Token[], index: number): string | undefined => {
  const token = tokens[index];
  return token?.kind === 'word' ? token.text : undefined;
};

const yearAt = (tokens: readonly Token[], index: number): number | undefined => {
  const token = tokens[index];
  if (token?.kind !== 'number' || token.money || token.percent) return undefined;
  const { value } = token;
  return Number.isInteger(value) && value >= 1900 && value <= 2100 && /^\d{4}$/.test(token.raw)
    ? value
    : undefined;
};

const countAt = (tokens: readonly Token[], index: number): number | undefined => {
  const token = tokens[index];
  if (token?.kind === 'number' && !token.money && !token.percent && Number.isInteger(token.value)) {
    return token.value > 0 && token.value <= 1000 ? token.value : undefined;
  }
  const word = wordAt(tokens, index);
  return word === undefined ? undefined : numberWord(word);
};

/** The most recent start of `month` (0-based) that is not in the future. */
const recentMonth = (today: Date, month: number): number =>
  month <= today.getUTCMonth() ? today.getUTCFullYear() : today.getUTCFullYear() - 1;

/** Phrase knowledge: days named relative to today, longest first. */
const RELATIVE_DAYS: readonly (readonly [string, number])[] = [
  ['day before yesterday', -2],
  ['day after tomorrow', 2],
  ['yesterday', -1],
  ['today', 0],
  ['tomorrow', 1],
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Phrase knowledge: seasons (northern hemisphere, meteorological), by the month they start and their length. */
const SEASONS: Record<string, { month: number; months: number }> = {
  spring: { month: 2, months: 3 },
  summer: { month: 5, months: 3 },
  autumn: { month: 8, months: 3 },
  fall: { month: 8, months: 3 },
  winter: { month: 11, months: 3 },
};

/** Phrase knowledge: days of the year named by a holiday of fixed date (month 0-based, day), longest first. */
const HOLIDAYS: readonly (readonly [string, number, number])[] = [
  ["new year's eve", 11, 31],
  ['new years eve', 11, 31],
  ["new year's day", 0, 1],
  ['new years day', 0, 1],
  ['christmas eve', 11, 24],
  ['christmas day', 11, 25],
  ['boxing day', 11, 26],
  ["valentine's day", 1, 14],
  ['valentines day', 1, 14],
  ['halloween', 9, 31],
  ['christmas', 11, 25],
];

/** Where a span's part is: its first day, or its last. */
const EDGES: Record<string, 'first' | 'last'> = { start: 'first', beginning: 'first', end: 'last' };

/** The words of `phrase` at `start` (a possessive's "'s" is its own token), and where they end. */
const phraseEnd = (tokens: readonly Token[], start: number, phrase: string): number | undefined => {
  let at = start;
  for (const part of phrase.split(' ')) {
    const possessive = /^(.+)'s$/.exec(part);
    if (possessive) {
      if (wordAt(tokens, at) !== possessive[1]) return undefined;
      at += 1;
      if (wordAt(tokens, at) === 's') at += 1;
      else if (tokens[at]?.kind === 'symbol' && wordAt(tokens, at + 1) === 's') at += 2;
      continue;
    }
    if (wordAt(tokens, at) !== part) return undefined;
    at += 1;
  }
  return at;
};

/** A day of the month said as an ordinal ("21st", "the 3rd"): the day and where it ends. */
const ordinalDayAt = (tokens: readonly Token[], index: number): { day: number; end: number } | undefined => {
  const token = tokens[index];
  const word = wordAt(tokens, index);
  const joined = word === undefined ? undefined : /^([1-9]|[12]\d|3[01])(st|nd|rd|th)$/.exec(word);
  if (joined) return { day: Number(joined[1]), end: index + 1 };
  if (token?.kind !== 'number' || token.money || token.percent || !/^\d{1,2}$/.test(token.raw))
    return undefined;
  if (token.value < 1 || token.value > 31 || !/^(st|nd|rd|th)$/.test(wordAt(tokens, index + 1) ?? ''))
    return undefined;
  return { day: token.value, end: index + 2 };
};

/**
 * "21st", "the 3rd of March 2025", "the 21st of this month" at `index`: a day of a month (this
 * one when none is said).
 */
const ordinalDaySpan = (
  tokens: readonly Token[],
  index: number,
  now: Date,
): { span: Span; end: number } | undefined => {
  const ordinalDay = ordinalDayAt(tokens, index);
  if (!ordinalDay) return undefined;
  let end = ordinalDay.end;
  if (wordAt(tokens, end) === 'of') end += 1;
  const month = spanAt(tokens, end, now, true);
  // Only a month says which month ("this month", "March 2025"), not any span after it.
  const named =
    month !== undefined &&
    month.span.from.getUTCDate() === 1 &&
    addUnits(month.span.from, 'month', 1).getTime() === month.span.to.getTime();
  const base = named ? month.span.from : startOf(startOfDay(now), 'month');
  const from = addDays(base, ordinalDay.day - 1);
  if (from.getUTCMonth() !== base.getUTCMonth()) return undefined;
  return {
    span: { from, to: addDays(from, 1), label: isoDate(from), absolute: true },
    end: named ? month.end : ordinalDay.end,
  };
};

/** One date expression at `index`: a day, a calendar unit, a rolling span. */
const spanAt = (
  tokens: readonly Token[],
  index: number,
  now: Date,
  introduced = false,
): { span: Span; end: number } | undefined => {
  const today = startOfDay(now);
  const token = tokens[index];
  if (token?.kind === 'date') {
    const date = parseIsoDate(token.iso);
    return date
      ? { span: { from: date, to: addDays(date, 1), label: token.iso, absolute: true }, end: index + 1 }
      : undefined;
  }
  const year = yearAt(tokens, index);
  if (year !== undefined) {
    const from = new Date(Date.UTC(year, 0, 1));
    return {
      span: { from, to: addUnits(from, 'year', 1), label: String(year), absolute: true },
      end: index + 1,
    };
  }
  // "3 days ago", "two months ago": that calendar unit.
  const agoCount = countAt(tokens, index);
  if (agoCount !== undefined && wordAt(tokens, index + 2) === 'ago') {
    const unit = units[wordAt(tokens, index + 1) ?? ''];
    if (!unit) return undefined;
    const { from, to } = calendarRange(today, unit, -agoCount);
    const label = `${agoCount} ${agoCount === 1 ? unit : `${unit}s`} ago`;
    return { span: { from, to, label, absolute: false }, end: index + 3 };
  }
  let word = wordAt(tokens, index);
  let start = index;
  if (word === 'the') {
    start += 1;
    word = wordAt(tokens, start);
  }
  const ordinalDay = ordinalDaySpan(tokens, start, now);
  if (ordinalDay) return ordinalDay;
  if (word === undefined) return undefined;

  // Days relative to today, from a table ("the day before yesterday", "tomorrow").
  for (const [phrase, offset] of RELATIVE_DAYS) {
    const words = phrase.split(' ');
    if (words.every((part, at) => wordAt(tokens, start + at) === part)) {
      const from = addDays(today, offset);
      return {
        span: {
          from,
          to: addDays(from, 1),
          label: words.length > 1 ? `the ${phrase}` : phrase,
          absolute: false,
        },
        end: start + words.length,
      };
    }
  }
  // "the start of 2024", "the end of March 2026": the first or the last day of a span.
  const edge = EDGES[word];
  if (edge !== undefined && wordAt(tokens, start + 1) === 'of') {
    const inner = spanAt(tokens, start + 2, now, true);
    if (!inner) return undefined;
    const from = edge === 'first' ? inner.span.from : addDays(inner.span.to, -1);
    const label = `the ${word} of ${inner.span.label}`;
    return { span: { from, to: addDays(from, 1), label, absolute: false }, end: inner.end };
  }
  // "the first week of December": days 1–7 of a month (8–14, …; the last week its last 7 days).
  const weekOrdinal = word === 'last' ? 0 : ordinals[word];
  if (
    weekOrdinal !== undefined &&
    wordAt(tokens, start + 1) === 'week' &&
    wordAt(tokens, start + 2) === 'of'
  ) {
    const inner = spanAt(tokens, start + 3, now, true);
    if (!inner) return undefined;
    const from =
      weekOrdinal === 0 ? addDays(inner.span.to, -7) : addDays(inner.span.from, (weekOrdinal - 1) * 7);
    if (from >= inner.span.to) return undefined;
    const to = addDays(from, 7) < inner.span.to ? addDays(from, 7) : inner.span.to;
    const label = `the ${word} week of ${inner.span.label}`;
    return { span: { from, to, label, absolute: false }, end: inner.end };
  }
  // "summer 2024", "last winter", "over the summer": three months of a season, in a named year or
  // the last one begun ("winter 2024" runs from December 2024).
  const seasonWord = word === 'last' || word === 'this' ? wordAt(tokens, start + 1) : word;
  const season = seasonWord === undefined ? undefined : SEASONS[seasonWord];
  if (season !== undefined) {
    let end = word === seasonWord ? start + 1 : start + 2;
    if (wordAt(tokens, end) === 'of') end += 1;
    let seasonYear = yearAt(tokens, end);
    if (seasonYear !== undefined) end += 1;
    else {
      if (wordAt(tokens, end - 1) === 'of') end -= 1;
      const begun = today >= new Date(Date.UTC(today.getUTCFullYear(), season.month, 1));
      seasonYear = today.getUTCFullYear() - (begun ? 0 : 1) - (word === 'last' ? 1 : 0);
    }
    const from = new Date(Date.UTC(seasonYear, season.month, 1));
    // ", june to august": the months the season was just said to be, taken in.
    const comma = tokens[end]?.kind === 'symbol' || tokens[end]?.kind === 'break' ? end + 1 : end;
    const first = monthIndex(wordAt(tokens, comma) ?? '');
    const joiner = wordAt(tokens, comma + 1);
    const last = monthIndex(wordAt(tokens, comma + 2) ?? '');
    if (
      first === season.month &&
      last === (season.month + season.months - 1) % 12 &&
      (joiner === 'to' || joiner === 'through' || joiner === 'till' || joiner === 'until')
    )
      end = comma + 3;
    return {
      span: {
        from,
        to: addUnits(from, 'month', season.months),
        label: `${seasonWord} ${seasonYear}`,
        absolute: true,
      },
      end,
    };
  }
  // "Christmas Eve", "Christmas Eve 2025": a holiday's day, this year's when no year is said.
  for (const [phrase, month, day] of HOLIDAYS) {
    const after = phraseEnd(tokens, start, phrase);
    if (after === undefined) continue;
    const holidayYear = yearAt(tokens, after);
    const from = new Date(Date.UTC(holidayYear ?? today.getUTCFullYear(), month, day));
    return {
      span: { from, to: addDays(from, 1), label: `${phrase} ${from.getUTCFullYear()}`, absolute: false },
      end: holidayYear === undefined ? after : after + 1,
    };
  }
  // "next Monday", "last Friday", "this Tuesday": that day of the week.
  const weekday = WEEKDAYS.indexOf(wordAt(tokens, start + 1) ?? '');
  if (weekday >= 0 && (word === 'next' || word === 'last' || word === 'this' || word === 'coming')) {
    const current = today.getUTCDay();
    const ahead = (weekday - current + 7) % 7;
    const offset =
      word === 'last' ? -((current - weekday + 7) % 7 || 7) : word === 'this' ? ahead : ahead || 7;
    const from = addDays(today, offset);
    return {
      span: { from, to: addDays(from, 1), label: `${word} ${WEEKDAYS[weekday]}`, absolute: false },
      end: start + 2,
    };
  }
  // "next week", "the coming month", "the next 7 days": ahead of today.
  if (word === 'next' || word === 'coming' || word === 'upcoming' || word === 'following') {
    const count = countAt(tokens, start + 1);
    if (count !== undefined) {
      const unit = units[wordAt(tokens, start + 2) ?? ''];
      if (!unit) return undefined;
      const label = `the next ${count} ${count === 1 ? unit : `${unit}s`}`;
      return {
        span: { from: today, to: addUnits(today, unit, count), label, absolute: false },
        end: start + 3,
      };
    }
    const unit = units[wordAt(tokens, start + 1) ?? ''];
    if (!unit) return undefined;
    const { from, to } = calendarRange(today, unit, 1);
    return { span: { from, to, label: `next ${unit}`, absolute: false }, end: start + 2 };
  }
  if (
    word === 'ytd' ||
    (word === 'year' && wordAt(tokens, start + 1) === 'to' && wordAt(tokens, start + 2) === 'date')
  ) {
    return {
      span: { from: startOf(today, 'year'), to: addDays(today, 1), label: 'year to date', absolute: false },
      end: word === 'ytd' ? start + 1 : start + 3,
    };
  }
  if (
    word === 'mtd' ||
    (word === 'month' && wordAt(tokens, start + 1) === 'to' && wordAt(tokens, start + 2) === 'date')
  ) {
    return {
      span: { from: startOf(today, 'month'), to: addDays(today, 1), label: 'month to date', absolute: false },
      end: word === 'mtd' ? start + 1 : start + 3,
    };
  }

  if (word === 'this' || word === 'current') {
    const unit = units[wordAt(tokens, start + 1) ?? ''];
    if (!unit || unit === 'day') return undefined;
    const { from, to } = calendarRange(today, unit, 0);
    return { span: { from, to, label: `this ${unit}`, absolute: false }, end: start + 2 };
  }
  if (word === 'last' || word === 'past' || word === 'previous' || word === 'prior' || word === 'recent') {
    const count = countAt(tokens, start + 1);
    if (count !== undefined) {
      const unit = units[wordAt(tokens, start + 2) ?? ''];
      if (!unit) return undefined;
      // A rolling span of `count` units that ends with today.
      const from = addDays(addUnits(today, unit, -count), 1);
      const label = `the last ${count} ${count === 1 ? unit : `${unit}s`}`;
      return { span: { from, to: addDays(today, 1), label, absolute: false }, end: start + 3 };
    }
    const unit = units[wordAt(tokens, start + 1) ?? ''];
    if (!unit || word === 'recent') return undefined;
    if (word === 'past') {
      const from = addDays(addUnits(today, unit, -1), 1);
      return {
        span: { from, to: addDays(today, 1), label: `the past ${unit}`, absolute: false },
        end: start + 2,
      };
    }
    const { from, to } = calendarRange(today, unit, -1);
    return { span: { from, to, label: `last ${unit}`, absolute: false }, end: start + 2 };
  }

  // "Q1 2025", "first quarter of 2025", "Q3"
  const quarterWord = /^q([1-4])$/.exec(word);
  let quarter: number | undefined;
  let afterQuarter = start + 1;
  if (quarterWord) quarter = Number(quarterWord[1]);
  else if (ordinals[word] !== undefined && wordAt(tokens, start + 1) === 'quarter') {
    quarter = ordinals[word];
    afterQuarter = start + 2;
  }
  if (quarter !== undefined) {
    let end = afterQuarter;
    if (wordAt(tokens, end) === 'of') end += 1;
    let quarterYear = yearAt(tokens, end);
    const yearless = quarterYear === undefined ? (quarter - 1) * 3 : undefined;
    if (quarterYear !== undefined) end += 1;
    else {
      end = afterQuarter;
      quarterYear = recentMonth(today, (quarter - 1) * 3);
    }
    const from = new Date(Date.UTC(quarterYear, (quarter - 1) * 3, 1));
    const span: Span = {
      from,
      to: addUnits(from, 'quarter', 1),
      label: `Q${quarter} ${quarterYear}`,
      absolute: true,
    };
    return { span: yearless === undefined ? span : { ...span, yearless }, end };
  }

  // "the first half of 2023", "second half of 2024", "H1 2025": six months of a named year.
  const halfWord = /^h([12])$/.exec(word);
  const half = halfWord
    ? Number(halfWord[1])
    : (word === 'first' || word === 'second') && wordAt(tokens, start + 1) === 'half'
      ? ordinals[word]
      : undefined;
  if (half !== undefined) {
    let end = halfWord ? start + 1 : start + 2;
    if (wordAt(tokens, end) === 'of') end += 1;
    const halfYear = yearAt(tokens, end);
    if (halfYear !== undefined) {
      const from = new Date(Date.UTC(halfYear, (half - 1) * 6, 1));
      return {
        span: { from, to: addUnits(from, 'month', 6), label: `H${half} ${halfYear}`, absolute: true },
        end: end + 1,
      };
    }
  }

  // "March", "March 2025", "mar 2025"; "may" only with a year after it.
  const month = monthIndex(word);
  // "may" is a month only after a preposition or before a year ("in May", "May 2025").
  if (month !== undefined && (word !== 'may' || introduced || yearAt(tokens, start + 1) !== undefined)) {
    const monthNumber = month;
    let end = start + 1;
    if (wordAt(tokens, end) === 'of') end += 1;
    let monthYear = yearAt(tokens, end);
    const yearless = monthYear === undefined ? monthNumber : undefined;
    if (monthYear !== undefined) end += 1;
    else {
      end = start + 1;
      monthYear = recentMonth(today, monthNumber);
    }
    const from = new Date(Date.UTC(monthYear, monthNumber, 1));
    const span: Span = {
      from,
      to: addUnits(from, 'month', 1),
      label: monthLabel(monthYear, monthNumber),
      absolute: true,
    };
    return { span: yearless === undefined ? span : { ...span, yearless }, end };
  }
  return undefined;
};

const inWords = new Set(['in', 'during', 'for', 'of', 'on', 'within', 'over', 'throughout']);
const untilWords = new Set(['until', 'till', 'through', 'thru', 'to']);

const phraseOf = (span: Span): string =>
  span.absolute
    ? `${/^\d{4}-\d\d-\d\d$/.test(span.label) ? 'on' : 'in'} ${span.label}`
    : span.label.startsWith('the ')
      ? `in ${span.label}`
      : span.label;

const range = (from: Date | undefined, to: Date | undefined, label: string): Period => ({
  ...(from ? { from: isoDate(from) } : {}),
  ...(to ? { to: isoDate(to) } : {}),
  label,
});

/** A period starting at `index`, or undefined. */
export const periodAt = (tokens: readonly Token[], index: number, now: Date): PeriodMatch | undefined => {
  const word = wordAt(tokens, index);
  const next = index + 1;

  if (word === 'between' || word === 'from') {
    const first = spanAt(tokens, next, now, true);
    if (first) {
      const joiner = wordAt(tokens, first.end);
      if (joiner === 'and' || (joiner !== undefined && untilWords.has(joiner))) {
        const second = spanAt(tokens, first.end + 1, now, true);
        if (second) {
          // "from January to March 2025": the first month takes the year of the second.
          let from = first.span.from;
          let firstLabel = first.span.label;
          if (first.span.yearless !== undefined && second.span.yearless === undefined) {
            const year = second.span.from.getUTCFullYear();
            from = new Date(Date.UTC(year, first.span.yearless, 1));
            if (from > second.span.from) from = new Date(Date.UTC(year - 1, first.span.yearless, 1));
            firstLabel = firstLabel.replace(/\d{4}$/, String(from.getUTCFullYear()));
          }
          return {
            period: range(from, second.span.to, `between ${firstLabel} and ${second.span.label}`),
            end: second.end,
          };
        }
      }
      // "invoices from February 2025", "orders from last year": from a span with no end is in it.
      if (word === 'from') {
        const { from, to, label } = first.span;
        return { period: range(from, to, label), end: first.end };
      }
    }
    return undefined;
  }
  if (
    word === 'since' ||
    word === 'after' ||
    word === 'before' ||
    (word !== undefined && untilWords.has(word) && word !== 'to')
  ) {
    const span = spanAt(tokens, next, now, true);
    if (!span) return undefined;
    const { from, to, label } = span.span;
    if (word === 'since') return { period: range(from, undefined, `since ${label}`), end: span.end };
    if (word === 'after') return { period: range(to, undefined, `after ${label}`), end: span.end };
    if (word === 'before') return { period: range(undefined, from, `before ${label}`), end: span.end };
    return { period: range(undefined, to, `until ${label}`), end: span.end };
  }
  // "by the end of Monday": until then.
  if (word === 'by' && wordAt(tokens, next) === 'the' && EDGES[wordAt(tokens, next + 1) ?? ''] === 'last') {
    const span = spanAt(tokens, next, now, true);
    if (span) return { period: range(undefined, span.span.to, `by ${span.span.label}`), end: span.end };
  }
  // "upcoming", "coming up", "still to come": from today on (a unit after it is "the next …").
  if (
    (word === 'upcoming' && !units[wordAt(tokens, next) ?? ''] && countAt(tokens, next) === undefined) ||
    (word === 'coming' && wordAt(tokens, next) === 'up')
  ) {
    const after = word === 'coming' ? next + 1 : next;
    // "coming up in December": that month's next one.
    const introducedAfter = inWords.has(wordAt(tokens, after) ?? '') ? after + 1 : after;
    const month = spanAt(tokens, introducedAfter, now, true);
    if (month?.span.yearless !== undefined && !month.span.label.startsWith('Q')) {
      const today = startOfDay(now);
      const year = today.getUTCFullYear() + (month.span.yearless < today.getUTCMonth() ? 1 : 0);
      const from = new Date(Date.UTC(year, month.span.yearless, 1));
      return {
        period: range(from, addUnits(from, 'month', 1), `in ${monthLabel(year, month.span.yearless)}`),
        end: month.end,
      };
    }
    return { period: range(startOfDay(now), undefined, 'from today on'), end: after };
  }
  if (word === 'prior' && wordAt(tokens, next) === 'to') {
    const span = spanAt(tokens, next + 1, now);
    if (span) return { period: range(undefined, span.span.from, `before ${span.span.label}`), end: span.end };
  }
  const introduced = word !== undefined && inWords.has(word);
  const span = spanAt(tokens, introduced ? next : index, now, introduced);
  if (!span) return undefined;
  const period = range(span.span.from, span.span.to, phraseOf(span.span));
  return { period: span.span.yearless === undefined ? period : { ...period, yearless: true }, end: span.end };
};
