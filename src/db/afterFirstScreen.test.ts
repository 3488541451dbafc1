import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

async function load() {
  return import('./afterFirstScreen');
}

describe('afterFirstScreen', () => {
  it('runs at once when nobody watches for the first screen', async () => {
    const { afterFirstScreen } = await load();
    expect(await afterFirstScreen(async () => 'saved')).toBe('saved');
  });

  it('waits until the screen has been quiet for a while, then runs', async () => {
    vi.useFakeTimers();
    const { afterFirstScreen, watchFirstScreen, FIRST_SCREEN_QUIET_MS } = await load();
    let busy = true;
    const listeners = new Set<() => void>();
    const changed = () => listeners.forEach((listener) => listener());
    watchFirstScreen({
      busy: () => busy,
      subscribe(check) {
        listeners.add(check);
        return () => listeners.delete(check);
      },
    });
    const task = vi.fn(async () => 'saved');
    const result = afterFirstScreen(task);

    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_QUIET_MS * 2);
    expect(task).not.toHaveBeenCalled();

    // A short quiet moment between two answers does not count.
    busy = false;
    changed();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_QUIET_MS / 2);
    busy = true;
    changed();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_QUIET_MS);
    expect(task).not.toHaveBeenCalled();

    busy = false;
    changed();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_QUIET_MS + 600);
    expect(task).toHaveBeenCalledOnce();
    expect(await result).toBe('saved');
    expect(listeners.size).toBe(0);

    // Later work runs at once.
    expect(await afterFirstScreen(async () => 'later')).toBe('later');
  });

  it('never waits longer than the limit', async () => {
    vi.useFakeTimers();
    const { afterFirstScreen, watchFirstScreen, FIRST_SCREEN_MAX_WAIT_MS } = await load();
    watchFirstScreen({ busy: () => true, subscribe: () => () => {} });
    const task = vi.fn(async () => 'saved');
    const result = afterFirstScreen(task);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_MAX_WAIT_MS - 10);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(await result).toBe('saved');
  });

  it('runs at once when the user leaves the first screen before it is quiet', async () => {
    vi.useFakeTimers();
    const { afterFirstScreen, watchFirstScreen } = await load();
    let leave = () => {};
    let left = false;
    watchFirstScreen({
      busy: () => true,
      subscribe: () => () => {},
      onLeave(listener) {
        leave = listener;
        return () => {
          left = true;
        };
      },
    });
    const task = vi.fn(async () => 'saved');
    const result = afterFirstScreen(task);
    await vi.advanceTimersByTimeAsync(100);
    expect(task).not.toHaveBeenCalled();

    leave();
    expect(await result).toBe('saved');
    expect(task).toHaveBeenCalledOnce();
    expect(left).toBe(true);
  });
});
