// Fixed counting windows on the UTC clock: the clock minute, the clock hour and the calendar
// month. A window is named by an integer id that only grows (minutes and hours since the epoch,
// months as year·12 + month), so "is this count still current" is one comparison.

export type WindowUnit = 'minute' | 'hour' | 'month';

/** The windows the limiter counts (docs/limits.md). */
// `scopeMessageMinute` and `keyMessageMinute`: an embed session scope's and a pk_ key's own
// message window, kept in that visitor's counters item (lib/store/limit-counters.ts).
export type WindowName =
  | 'minute'
  | 'hour'
  | 'month'
  | 'messageMinute'
  | 'messageHour'
  | 'scopeMessageMinute'
  | 'keyMessageMinute';

export const unitOf: Record<WindowName, WindowUnit> = {
  minute: 'minute',
  hour: 'hour',
  month: 'month',
  messageMinute: 'minute',
  messageHour: 'hour',
  scopeMessageMinute: 'minute',
  keyMessageMinute: 'minute',
};

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export const windowId = (unit: WindowUnit, nowMs: number): number => {
  if (unit === 'minute') return Math.floor(nowMs / MINUTE_MS);
  if (unit === 'hour') return Math.floor(nowMs / HOUR_MS);
  const date = new Date(nowMs);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};

export const windowStart = (unit: WindowUnit, id: number): number => {
  if (unit === 'minute') return id * MINUTE_MS;
  if (unit === 'hour') return id * HOUR_MS;
  return Date.UTC(Math.floor(id / 12), id % 12, 1);
};

/** When the window ends (ms since the epoch): the start of the next one. */
export const windowEnd = (unit: WindowUnit, id: number): number => windowStart(unit, id + 1);

/** `2026-11`: a calendar month (UTC) as a key part. */
export const monthKey = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 7);

/** Whole seconds until `atMs`, at least 1: a Retry-After value. */
export const secondsUntil = (atMs: number, nowMs: number): number =>
  Math.max(1, Math.ceil((atMs - nowMs) / 1000));
