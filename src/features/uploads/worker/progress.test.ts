import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadProgress } from '../model/types';
import { ProgressTracker, SpeedMeter } from './progress';

describe('speed meter', () => {
  it('measures over the recent window only', () => {
    const meter = new SpeedMeter(10_000);
    meter.add(0, 0);
    expect(meter.bytesPerSecond(500)).toBeNull();
    meter.add(1000, 1_000_000);
    expect(meter.bytesPerSecond(1000)).toBe(1_000_000);
    // A slow start leaves the window: only the last 10 s count.
    for (let t = 2000; t <= 30_000; t += 1000) meter.add(t, 1_000_000 + (t - 1000) * 2000);
    expect(meter.bytesPerSecond(30_000)).toBeCloseTo(2_000_000, -3);
    // Nothing for 5 s: the speed drops.
    expect(meter.bytesPerSecond(35_000)).toBeCloseTo(1_000_000, -3);
  });
});

describe('progress tracker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports at most once per interval, phase changes at once, with speed and time left', () => {
    const reports: UploadProgress[] = [];
    const tracker = new ProgressTracker({
      id: 'u',
      projectPath: 'ws/p',
      totalBytes: 100_000_000,
      chunksTotal: 100,
      now: () => Date.now(),
      emit: (p) => reports.push(p),
      intervalMs: 250,
    });
    tracker.setPhase('uploading');
    expect(reports).toHaveLength(1);
    for (let i = 0; i < 40; i++) {
      vi.advanceTimersByTime(50);
      tracker.chunkDone(1_000_000);
    }
    vi.advanceTimersByTime(250);
    // 2 s of chunks at 1 MB each 50 ms: about 8 reports, not 40.
    expect(reports.length).toBeGreaterThan(5);
    expect(reports.length).toBeLessThanOrEqual(10);
    const last = reports[reports.length - 1]!;
    expect(last).toMatchObject({ phase: 'uploading', loadedBytes: 40_000_000, chunksDone: 40 });
    expect(last.bytesPerSecond).toBeGreaterThan(15_000_000);
    expect(last.bytesPerSecond).toBeLessThan(21_000_000);
    expect(last.secondsLeft).toBe(Math.ceil(60_000_000 / last.bytesPerSecond!));
    // A stalled chunk: the speed shown keeps falling, time left grows.
    const count = reports.length;
    vi.advanceTimersByTime(3000);
    expect(reports.length).toBe(count + 3);
    expect(reports[reports.length - 1]!.bytesPerSecond).toBeLessThan(last.bytesPerSecond!);
    tracker.setPhase('retrying', { retryInSeconds: 4 });
    expect(reports[reports.length - 1]).toMatchObject({
      phase: 'retrying',
      retryInSeconds: 4,
      bytesPerSecond: null,
      secondsLeft: null,
    });
    tracker.dispose();
  });
});
