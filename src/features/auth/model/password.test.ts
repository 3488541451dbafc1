// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { meetsPasswordRule, passwordCategories } from './password';

describe('password rule', () => {
  it('counts categories', () => {
    expect(passwordCategories('abc')).toBe(1);
    expect(passwordCategories('aB1!')).toBe(4);
    expect(passwordCategories('ABC123')).toBe(2);
  });
  it('needs 8 characters and 3 categories', () => {
    expect(meetsPasswordRule('Abcdef1')).toBe(false);
    expect(meetsPasswordRule('Abcdefg1')).toBe(true);
    expect(meetsPasswordRule('abcdefg1')).toBe(false);
    expect(meetsPasswordRule('abcdefg1!')).toBe(true);
  });
});
