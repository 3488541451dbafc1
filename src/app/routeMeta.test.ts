// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { needsWorkspace } from './routeMeta';

describe('needsWorkspace', () => {
  it('is true when a matched route asks for a workspace', () => {
    expect(needsWorkspace([{}, { staticData: { needsWorkspace: true } }])).toBe(true);
    expect(needsWorkspace([{}, { staticData: {} }])).toBe(false);
  });
});
