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

  it('keeps, after the shown pages were read again, only the copies served again (issue 31)', async () => {
    const status = createOfflineStatus();
    status.served('left-page', 100);
    status.served('shown', 200);
    status.served('answered', 300);
    const listener = vi.fn();
    status.subscribe(listener);
    await status.recheck(async () => {
      status.served('shown', 200);
      status.fresh('answered');
    });
    expect(status.savedAt()).toBe(200);
    await status.recheck(async () => status.fresh('shown'));
    expect(status.savedAt()).toBeNull();
  });
});
