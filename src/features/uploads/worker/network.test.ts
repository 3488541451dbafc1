import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitForNetwork, type NetworkWatch } from './network';

function watch(probes: boolean[]) {
  let online = false;
  const listeners = new Set<() => void>();
  const calls: number[] = [];
  const w: NetworkWatch & { goOnline(): void } = {
    isOnline: () => online,
    onOnline: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    probe: async () => {
      calls.push(Date.now());
      return probes.shift() ?? true;
    },
    goOnline() {
      online = true;
      for (const l of [...listeners]) l();
    },
  };
  return { w, calls };
}

describe('waiting for the network', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resumes at once on the online event once /ping answers', async () => {
    const { w, calls } = watch([true]);
    let done = false;
    void waitForNetwork(w, 4, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(done).toBe(false);
    expect(calls).toEqual([]);
    w.goOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('backs off between probes while the server is out of reach: 0.5 s, 1 s, 2 s … 10 s', async () => {
    const { w, calls } = watch(Array.from({ length: 8 }, () => false));
    w.goOnline();
    let done = false;
    const from = Date.now();
    void waitForNetwork(w, 0, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(15_000);
    // Issue 31: not a probe twice a second (25 status requests in 15 s), but 5.
    expect(calls.map((at) => at - from)).toEqual([500, 1000, 2000, 4000, 8000]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls.map((at) => at - from).slice(5)).toEqual([16_000, 26_000, 36_000]);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(true);
  });

  it("stops backing off when the browser reports 'online'", async () => {
    const { w, calls } = watch([false, false, false, false, true]);
    w.goOnline();
    let done = false;
    const from = Date.now();
    void waitForNetwork(w, 0, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(7000);
    expect(calls).toHaveLength(4);
    w.goOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(calls.at(-1)! - from).toBe(7000);
  });

  it('waits longer before the first probe after failures in a row', async () => {
    const { w, calls } = watch([true]);
    w.goOnline();
    void waitForNetwork(w, 2, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(3999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
  });

  it('stops when aborted', async () => {
    const { w } = watch([]);
    const controller = new AbortController();
    const waiting = waitForNetwork(w, 0, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
