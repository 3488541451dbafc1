// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isValidEmail, joinEmails, splitEmails } from './email';

describe('email helpers', () => {
  it('accepts standard addresses and IP literals', () => {
    expect(isValidEmail('jane.doe@example.com')).toBe(true);
    expect(isValidEmail('a+b@sub.example.org')).toBe(true);
    expect(isValidEmail('x@[192.168.0.1]')).toBe(true);
    expect(isValidEmail('"odd name"@example.com')).toBe(true);
  });
  it('rejects malformed addresses', () => {
    for (const bad of ['', 'plain', 'a@b', 'a@@b.com', 'a b@c.com', '@example.com', 'a@.com']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
  it('splits on whitespace, commas and semicolons and joins with semicolons', () => {
    expect(splitEmails(' a@x.com, b@x.com;c@x.com\nd@x.com  ')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
      'd@x.com',
    ]);
    expect(joinEmails(['a@x.com', 'b@x.com'])).toBe('a@x.com;b@x.com');
  });
});
