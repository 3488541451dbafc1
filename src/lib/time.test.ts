// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  durationParts,
  expiresIn,
  formatDate,
  formatDateTime,
  isExpired,
  relativeTime,
} from './time';

const now = Date.parse('2026-06-15T12:00:00Z');
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('durationParts', () => {
  it('applies the thresholds of the specification', () => {
    expect(durationParts(366 * day)).toEqual({ value: 1, unit: 'year' });
    expect(durationParts(365 * day)).toEqual({ value: 12, unit: 'month' });
    expect(durationParts(32 * day)).toEqual({ value: 1, unit: 'month' });
    expect(durationParts(31 * day)).toEqual({ value: 4, unit: 'week' });
    expect(durationParts(7 * day)).toEqual({ value: 1, unit: 'week' });
    expect(durationParts(6 * day)).toEqual({ value: 6, unit: 'day' });
    expect(durationParts(day)).toEqual({ value: 1, unit: 'day' });
    expect(durationParts(23 * hour)).toEqual({ value: 23, unit: 'hour' });
    expect(durationParts(59 * minute)).toEqual({ value: 59, unit: 'minute' });
    expect(durationParts(10_000)).toEqual({ value: 0, unit: 'minute' });
  });
});

describe('relativeTime', () => {
  it('describes past and future moments', () => {
    expect(relativeTime(now - 3 * day, now)).toBe('3 days ago');
    expect(relativeTime(new Date(now - 2 * hour), now)).toBe('2 hours ago');
    expect(relativeTime(new Date(now - 400 * day).toISOString(), now)).toBe('1 year ago');
    expect(relativeTime(now + 5 * minute, now)).toBe('in 5 minutes');
  });
});

describe('expiresIn', () => {
  it("says 'expired' for past times", () => {
    expect(expiresIn(now - 1, now)).toBe('expired');
    expect(expiresIn(now, now)).toBe('expired');
  });
  it('gives the time left', () => {
    expect(expiresIn(now + 6 * day + hour, now)).toBe('6 days');
    expect(expiresIn(now + day, now)).toBe('1 day');
    expect(expiresIn(now + 90 * minute, now)).toBe('1 hour');
  });
});

describe('isExpired', () => {
  it('is true from the expiry moment on', () => {
    expect(isExpired(now - 1, now)).toBe(true);
    expect(isExpired(now, now)).toBe(true);
    expect(isExpired(new Date(now + 1000).toISOString(), now)).toBe(false);
  });
});

describe('formatDateTime and formatDate', () => {
  it('give the full date (and time) in the en-GB style', () => {
    expect(formatDateTime('2024-05-04T14:21:56Z', 'UTC')).toBe('4 May 2024, 14:21');
    expect(formatDate('2024-05-04T14:21:56.695035Z', 'UTC')).toBe('4 May 2024');
  });
  it('give nothing for unreadable values', () => {
    expect(formatDateTime('not a date')).toBe('');
    expect(formatDate('')).toBe('');
  });
});

describe('relativeTime thresholds in words', () => {
  it('uses years, months, weeks, days, hours and minutes', () => {
    expect(relativeTime(now - 366 * day, now)).toBe('1 year ago');
    expect(relativeTime(now - 365 * day, now)).toBe('12 months ago');
    expect(relativeTime(now - 32 * day, now)).toBe('1 month ago');
    expect(relativeTime(now - 31 * day, now)).toBe('4 weeks ago');
    expect(relativeTime(now - 7 * day, now)).toBe('1 week ago');
    expect(relativeTime(now - 6 * day, now)).toBe('6 days ago');
    expect(relativeTime(now - 5 * hour, now)).toBe('5 hours ago');
    expect(relativeTime(now - 3 * minute, now)).toBe('3 minutes ago');
  });
});
