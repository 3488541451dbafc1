import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createLatch } from './latch';

describe('createLatch', () => {
  it('goes on once, re-renders its readers, and stays on until reset', () => {
    const latch = createLatch();
    const { result } = renderHook(() => latch.useIsSet());
    expect(result.current).toBe(false);
    act(() => latch.set());
    expect(result.current).toBe(true);
    act(() => latch.set());
    expect(result.current).toBe(true);
    act(() => latch.reset());
    expect(result.current).toBe(false);
  });
});
