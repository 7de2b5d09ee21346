// Fixed counting windows on the UTC clock: the clock minute, the clock hour, the UTC day and the
// calendar month. A window is named by an integer id that only grows (minutes, hours and days
// since the epoch, months as year·12 + month), so "is this count still current" is one comparison.
import type { WindowName } from '#lib/store/limit-counters.ts';

export type WindowUnit = 'minute' | 'hour' | 'day' | 'month';

/** The unit of each window the limiter counts (lib/store/limit-counters.ts WindowName). */
export const unitOf: Record<WindowName, WindowUnit> = {
  minute: 'minute',
  hour: 'hour',
  month: 'month',
  messageMinute: 'minute',
  messageHour: 'hour',
  scopeMessageMinute: 'minute',
  scopeMessageHour: 'hour',
  scopeMessageDay: 'day',
  keyMessageMinute: 'minute',
  keyMessageHour: 'hour',
  keyMessageDay: 'day',
};

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const windowId = (unit: WindowUnit, nowMs: number): number => {
  if (unit === 'minute') return Math.floor(nowMs / MINUTE_MS);
  if (unit === 'hour') return Math.floor(nowMs / HOUR_MS);
  if (unit === 'day') return Math.floor(nowMs / DAY_MS);
  const date = new Date(nowMs);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
};

export const windowStart = (unit: WindowUnit, id: number): number => {
  if (unit === 'minute') return id * MINUTE_MS;
  if (unit === 'hour') return id * HOUR_MS;
  if (unit === 'day') return id * DAY_MS;
  return Date.UTC(Math.floor(id / 12), id % 12, 1);
};

/** When the window ends (ms since the epoch): the start of the next one. */
export const windowEnd = (unit: WindowUnit, id: number): number => windowStart(unit, id + 1);

/** `2026-11`: a calendar month (UTC) as a key part. */
export const monthKey = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 7);

/** Whole seconds until `atMs`, at least 1: a Retry-After value. */
export const secondsUntil = (atMs: number, nowMs: number): number =>
  Math.max(1, Math.ceil((atMs - nowMs) / 1000));
