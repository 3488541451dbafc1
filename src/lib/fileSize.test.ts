// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatFileSize } from './fileSize';

describe('formatFileSize', () => {
  it('picks B, kB, MB or GB', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1536)).toBe('1.5 kB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3072.0 GB');
  });
  it('can force a unit and precision', () => {
    expect(formatFileSize(25324, 'MB')).toBe('0.0 MB');
    expect(formatFileSize(1024 * 1024 * 2.25, 'MB', 2)).toBe('2.25 MB');
  });
  it('gives nothing for invalid input', () => {
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
  });
});
