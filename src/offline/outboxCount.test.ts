import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { showAppBadge } from './appBadge';
import { setOutboxCount, useOutboxCount } from './outboxCount';

describe('outbox count', () => {
  it('is what the engine last reported', () => {
    const { result } = renderHook(() => useOutboxCount());
    expect(result.current).toBe(0);
    act(() => setOutboxCount(2));
    expect(result.current).toBe(2);
    act(() => setOutboxCount(0));
    expect(result.current).toBe(0);
  });

  it('shows the count on the app icon where the browser has badges, and clears it at 0', () => {
    const nav = {
      setAppBadge: vi.fn(async () => undefined),
      clearAppBadge: vi.fn(async () => undefined),
    };
    showAppBadge(3, nav);
    expect(nav.setAppBadge).toHaveBeenCalledWith(3);
    showAppBadge(0, nav);
    expect(nav.clearAppBadge).toHaveBeenCalled();
    expect(() => showAppBadge(1, {})).not.toThrow();
  });
});

describe('outbox count with field edits', () => {
  it('adds the projects with queued edits to the uploads', () => {
    const { result } = renderHook(() => useOutboxCount());
    act(() => setOutboxCount(1));
    act(() => setOutboxCount(2, 'edits'));
    expect(result.current).toBe(3);
    act(() => setOutboxCount(0));
    expect(result.current).toBe(2);
    act(() => setOutboxCount(0, 'edits'));
    expect(result.current).toBe(0);
  });
});
