import { describe, expect, it } from 'vitest';
import {
  AT_RISK_MS,
  INITIAL_IN_FLIGHT,
  InFlightControl,
  MAX_IN_FLIGHT,
  OVERLAP_FRACTION,
  type RequestTiming,
} from './inFlight';

const CHUNK = 10 * 1024 * 1024;
/** Bytes per millisecond of a link of `mbit` Mbit/s. */
const rate = (mbit: number) => (mbit * 1e6) / 8 / 1000;

/** `count` chunk requests one after another on a link, each with `gapMs` of round trip. */
function serial(count: number, bytesPerMs: number, gapMs: number): RequestTiming[] {
  const timings: RequestTiming[] = [];
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    const endedAt = at + CHUNK / bytesPerMs + gapMs;
    timings.push({ bytes: CHUNK, startedAt: at, endedAt });
    at = endedAt;
  }
  return timings;
}

function measured(timings: RequestTiming[], max = MAX_IN_FLIGHT): InFlightControl {
  const control = new InFlightControl(max);
  for (const t of timings) control.completed(t);
  return control;
}

describe('requests in flight', () => {
  it('starts with a few before anything is measured', () => {
    const control = new InFlightControl();
    expect(control.steadyLimit(CHUNK)).toBe(INITIAL_IN_FLIGHT);
    expect(control.nextStart([], CHUNK, 5)).toBe(5);
    expect(control.nextStart([{ bytes: CHUNK, startedAt: 0 }], CHUNK, 5)).toBe(5);
    expect(
      control.nextStart(
        [
          { bytes: CHUNK, startedAt: 0 },
          { bytes: CHUNK, startedAt: 1 },
        ],
        CHUNK,
        5,
      ),
    ).toBeNull();
    expect(new InFlightControl(1).steadyLimit(CHUNK)).toBe(1);
  });

  it('keeps the most in flight on a fast link (localhost, LAN)', () => {
    // 1 Gbit/s with a 2 ms gap; localhost under load: 4 chunks in 0.9 s.
    expect(measured(serial(4, rate(1000), 2)).steadyLimit(CHUNK)).toBe(MAX_IN_FLIGHT);
    const loaded = [0, 1, 2, 3].map((i) => ({ bytes: CHUNK, startedAt: i * 10, endedAt: 900 }));
    expect(measured(loaded).steadyLimit(CHUNK)).toBe(MAX_IN_FLIGHT);
    // The upper bound is the one given.
    expect(measured(serial(4, rate(1000), 2), 8).steadyLimit(CHUNK)).toBe(8);
  });

  it('keeps one in flight when one chunk holds the link for seconds', () => {
    const control = measured(serial(3, rate(20), 80));
    expect(control.steadyLimit(CHUNK)).toBe(1);
    // What the open requests hold stays within what one cut may cost, where it can.
    expect(
      measured(serial(3, rate(100), 80)).steadyLimit(CHUNK) * (CHUNK / rate(100)),
    ).toBeLessThanOrEqual(AT_RISK_MS);
    expect(measured(serial(3, rate(100), 80)).steadyLimit(CHUNK)).toBe(2);
  });

  it('measures the link, not the sum of overlapping requests', () => {
    // Two requests sharing a 20 Mbit/s link, both done after twice a chunk's time.
    const both = (2 * CHUNK) / rate(20);
    const control = measured([
      { bytes: CHUNK, startedAt: 0, endedAt: both },
      { bytes: CHUNK, startedAt: 0, endedAt: both },
    ]);
    expect(control.throughput()).toBeCloseTo(rate(20), 5);
    expect(control.steadyLimit(CHUNK)).toBe(1);
  });

  it('starts the next request on a slow link shortly before the open one ends', () => {
    const control = measured(serial(2, rate(20), 80));
    const link = control.throughput()!;
    const open = [{ bytes: CHUNK, startedAt: 1000 }];
    const expectedEnd = 1000 + CHUNK / link;
    const at = control.nextStart(open, CHUNK, 1000)!;
    expect(at).toBeCloseTo(expectedEnd - (OVERLAP_FRACTION * CHUNK) / link, 5);
    expect(at).toBeGreaterThan(1000);
    // Past that time: at once.
    expect(control.nextStart(open, CHUNK, at + 10)).toBe(at + 10);
    // Never a third while two are open.
    expect(
      control.nextStart([...open, { bytes: CHUNK, startedAt: at }], CHUNK, at + 10),
    ).toBeNull();
  });

  it('never overlaps beyond the most on a fast link', () => {
    const control = measured(serial(4, rate(1000), 2));
    const open = [0, 1, 2, 3].map((i) => ({ bytes: CHUNK, startedAt: i }));
    expect(control.nextStart(open, CHUNK, 1_000_000)).toBeNull();
    expect(control.nextStart(open.slice(1), CHUNK, 7)).toBe(7);
  });

  it('follows the link as it changes (the latest requests count)', () => {
    const control = measured(serial(4, rate(1000), 2));
    expect(control.steadyLimit(CHUNK)).toBe(MAX_IN_FLIGHT);
    const last = serial(4, rate(1000), 2).at(-1)!.endedAt;
    for (const t of serial(4, rate(20), 80)) {
      control.completed({ ...t, startedAt: t.startedAt + last, endedAt: t.endedAt + last });
    }
    expect(control.steadyLimit(CHUNK)).toBe(1);
  });
});
