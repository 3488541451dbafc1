// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parentFolder } from './paths';

describe('parentFolder', () => {
  it('gives the folder of a file path', () => {
    expect(parentFolder('a/b/c.gpkg')).toBe('a/b');
    expect(parentFolder('c.gpkg')).toBe('');
    expect(parentFolder('')).toBe('');
    expect(parentFolder('a/')).toBe('');
  });
});
