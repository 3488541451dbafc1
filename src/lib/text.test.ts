// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { initials, shorten } from './text';

describe('shorten', () => {
  it('keeps names up to 15 characters', () => {
    expect(shorten('')).toBe('');
    expect(shorten('admin')).toBe('admin');
    expect(shorten('abcdefghijklmno')).toBe('abcdefghijklmno');
  });
  it('cuts longer names to 15 characters plus an ellipsis', () => {
    expect(shorten('abcdefghijklmnop')).toBe('abcdefghijklmno…');
    expect(shorten('a.very.long.username@example.com')).toBe('a.very.long.use…');
  });
  it('accepts another limit and counts characters, not code units', () => {
    expect(shorten('abcdef', 3)).toBe('abc…');
    expect(shorten('😀😀😀😀', 3)).toBe('😀😀😀…');
  });
});

describe('initials', () => {
  it('uses the first letters of the first and last word of the name', () => {
    expect(initials('John Doe', 'jd')).toBe('JD');
    expect(initials('  anna  maria  smith ', 'x')).toBe('AS');
  });
  it('uses one letter for a one-word name', () => {
    expect(initials('Cher', 'cher99')).toBe('C');
  });
  it('falls back to the first two letters of the username', () => {
    expect(initials('', 'admin')).toBe('AD');
    expect(initials(null, 'bob')).toBe('BO');
    expect(initials('   ', 'q')).toBe('Q');
  });
});
