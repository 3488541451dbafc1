import { describe, expect, it } from 'vitest';
import { formatQt, parseQt, tokenize } from './qtDate';

const date = new Date(2026, 10, 5, 14, 7, 9, 45);

describe('Qt date patterns', () => {
  it('formats the QGIS defaults and other fields', () => {
    expect(formatQt(date, 'yyyy-MM-dd')).toBe('2026-11-05');
    expect(formatQt(date, 'dd.MM.yyyy HH:mm')).toBe('05.11.2026 14:07');
    expect(formatQt(date, 'd/M/yy h:mm AP')).toBe('5/11/26 2:07 PM');
    expect(formatQt(date, 'dddd d MMMM yyyy')).toBe('Thursday 5 November 2026');
    expect(formatQt(date, 'HH:mm:ss.zzz')).toBe('14:07:09.045');
    expect(formatQt(date, "yyyy-MM-dd'T'HH:mm:ss")).toBe('2026-11-05T14:07:09');
    expect(formatQt(date, "'it''s' yyyy")).toBe("it's 2026");
  });

  it('keeps quoted text and unknown letters as they are', () => {
    expect(tokenize("'at' HH")).toEqual([{ text: 'at ' }, { field: 'HH' }]);
    expect(formatQt(date, 'yyyy x')).toBe('2026 x');
  });

  it('reads a text back with its pattern, and refuses what does not match or exist', () => {
    expect(parseQt('05.11.2026 14:07', 'dd.MM.yyyy HH:mm')).toEqual(new Date(2026, 10, 5, 14, 7));
    expect(parseQt('5/11/26 2:07 PM', 'd/M/yy h:mm AP')).toEqual(new Date(2026, 10, 5, 14, 7));
    expect(parseQt('12:30 AM', 'h:mm AP')?.getHours()).toBe(0);
    expect(parseQt('2026-11-05', 'yyyy-MM-dd')).toEqual(new Date(2026, 10, 5));
    expect(parseQt('5 Nov 2026', 'd MMM yyyy')).toEqual(new Date(2026, 10, 5));
    expect(parseQt('31.02.2026', 'dd.MM.yyyy')).toBeNull();
    expect(parseQt('yesterday', 'dd.MM.yyyy')).toBeNull();
  });
});
