/**
 * Relative time (spec 000 §9 and 001 §9): years above 365 days, months above 31, weeks above 6,
 * then days, hours, minutes; 'expired' for expiry times in the past.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type TimeUnit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

/** The unit and whole count the specification's thresholds pick for a duration. */
export function durationParts(ms: number): { value: number; unit: TimeUnit } {
  const abs = Math.abs(ms);
  const days = Math.floor(abs / DAY);
  if (days > 365) return { value: Math.floor(days / 365), unit: 'year' };
  if (days > 31) return { value: Math.floor(days / 30), unit: 'month' };
  if (days > 6) return { value: Math.floor(days / 7), unit: 'week' };
  if (days >= 1) return { value: days, unit: 'day' };
  if (abs >= HOUR) return { value: Math.floor(abs / HOUR), unit: 'hour' };
  return { value: Math.floor(abs / MINUTE), unit: 'minute' };
}

export type TimeInput = Date | string | number;

function toTime(value: TimeInput): number {
  return value instanceof Date ? value.getTime() : new Date(value).getTime();
}

const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** '3 days ago', '2 hours ago', 'in 5 minutes'... for a moment relative to `now`. */
export function relativeTime(value: TimeInput, now: number = Date.now()): string {
  const diff = toTime(value) - now;
  const { value: count, unit } = durationParts(diff);
  return formatter.format(diff < 0 ? -count : count, unit);
}

/** Time left until an expiry ('3 days', '1 hour'), or 'expired' once it has passed. */
export function expiresIn(value: TimeInput, now: number = Date.now()): string {
  const diff = toTime(value) - now;
  if (diff <= 0) return 'expired';
  const { value: count, unit } = durationParts(diff);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Whether an expiry time has passed. */
export function isExpired(value: TimeInput, now: number = Date.now()): boolean {
  return toTime(value) - now <= 0;
}

/** The full date and time, e.g. '4 May 2024, 14:21' (tooltips beside relative times). */
export function formatDateTime(value: TimeInput, timeZone?: string): string {
  const time = toTime(value);
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(time);
}

/** The date alone, e.g. '4 May 2024'. */
export function formatDate(value: TimeInput, timeZone?: string): string {
  const time = toTime(value);
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone }).format(time);
}
