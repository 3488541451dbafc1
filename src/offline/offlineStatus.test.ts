import { describe, expect, it, vi } from 'vitest';
import { createOfflineStatus } from './offlineStatus';

describe('offline status', () => {
  it('reports the oldest copy shown until each is fresh again, and tells listeners', () => {
    const status = createOfflineStatus();
    const listener = vi.fn();
    const stop = status.subscribe(listener);
    status.served('a', 300);
    status.served('b', 100);
    expect(status.savedAt()).toBe(100);
    status.fresh('b');
    expect(status.savedAt()).toBe(300);
    status.fresh('unknown');
    expect(listener).toHaveBeenCalledTimes(3);
    status.reset();
    expect(status.savedAt()).toBeNull();
    stop();
    status.served('c', 1);
    expect(listener).toHaveBeenCalledTimes(4);
  });
});
