// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatCurrency } from './currency';

describe('formatCurrency', () => {
  it('formats in the en-GB style with the currency symbol', () => {
    expect(formatCurrency(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatCurrency(0, 'EUR')).toBe('€0.00');
    expect(formatCurrency(99, 'USD')).toBe('US$99.00');
  });
  it('shows negative amounts in brackets (accounting)', () => {
    expect(formatCurrency(-1234.5, 'GBP')).toBe('(£1,234.50)');
  });
  it('gives nothing for invalid amounts', () => {
    expect(formatCurrency(Number.NaN, 'GBP')).toBe('');
  });
});
