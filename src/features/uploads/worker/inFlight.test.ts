import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE } from '../model/chunks';
import {
  FAST_IN_FLIGHT,
  INITIAL_IN_FLIGHT,
  InFlightControl,
  MAX_IN_FLIGHT,
  OVERLAP_FRACTION,
  PROBE_COMPLETIONS,
  type RequestTiming,
} from './inFlight';

const CHUNK = CHUNK_SIZE;
/** Bytes per millisecond of a link of `mbit` Mbit/s. */
const rate = (mbit: number) => (mbit * 1e6) / 8 / 1000;

/** `count` chunk requests one after another on a link, each with `gapMs` of round trip. */
function serial(count: number, bytesPerMs: number, gapMs: number, from = 0): RequestTiming[] {
  const timings: RequestTiming[] = [];
  let at = from;
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

const open = (...starts: number[]) => starts.map((startedAt) => ({ bytes: CHUNK, startedAt }));

describe('requests in flight', () => {
  it('starts with a few before anything is measured', () => {
    const control = new InFlightControl();
    expect(control.steadyLimit()).toBe(INITIAL_IN_FLIGHT);
    expect(control.nextStart([], 5)).toBe(5);
    expect(control.nextStart(open(0), 5)).toBe(5);
    expect(control.nextStart(open(0, 1), 5)).toBeNull();
    expect(new InFlightControl(1).steadyLimit()).toBe(1);
  });

  it('keeps several in flight on a fast link or a busy local server', () => {
    expect(measured(serial(4, rate(1000), 2)).steadyLimit()).toBe(FAST_IN_FLIGHT);
    expect(measured(serial(4, rate(100), 20)).steadyLimit()).toBe(FAST_IN_FLIGHT);
    // A loaded machine: the first two requests, together, took 2.5 s each.
    const loaded = [0, 5].map((startedAt) => ({ bytes: CHUNK, startedAt, endedAt: 2500 }));
    expect(measured(loaded).steadyLimit()).toBe(FAST_IN_FLIGHT);
    // The upper bound is the one given.
    expect(measured(serial(4, rate(1000), 2), 2).steadyLimit()).toBe(2);
  });

  /**
   * `count` answers from a server that acknowledges `carried(level)` bytes per ms with `level`
   * requests open (each request takes level chunks' time) from `from` on; the levels asked of
   * the control and the time of the last answer.
   */
  function steadyRun(
    control: InFlightControl,
    count: number,
    carried: (level: number) => number,
    from = 0,
  ) {
    const levels: number[] = [];
    let at = from;
    for (let i = 0; i < count; i += 1) {
      const level = control.steadyLimit();
      levels.push(level);
      const gap = CHUNK / carried(level);
      at += gap;
      control.completed({ bytes: CHUNK, startedAt: at - level * gap, endedAt: at });
    }
    return { levels, at };
  }

  it('tries more in flight on a fast link and keeps them while they carry more', () => {
    const control = new InFlightControl();
    // 8 open carry a third more than 4 (a local server, CPU left idle between requests).
    const { levels, at } = steadyRun(control, 60, (l) => (l >= 8 ? rate(4000) : rate(3000)));
    expect(levels).toContain(FAST_IN_FLIGHT);
    expect(control.steadyLimit()).toBe(MAX_IN_FLIGHT);
    expect(MAX_IN_FLIGHT).toBeGreaterThanOrEqual(8);
    // Settled: it stays there.
    const after = steadyRun(control, 40, () => rate(3000), at);
    expect(new Set(after.levels)).toEqual(new Set([MAX_IN_FLIGHT]));
  });

  it('goes back to fewer when more carry no more, and stays there', () => {
    const control = new InFlightControl();
    const { levels, at } = steadyRun(control, 60, (l) => (l >= 8 ? rate(3050) : rate(3000)));
    expect(levels).toContain(MAX_IN_FLIGHT);
    expect(control.steadyLimit()).toBe(FAST_IN_FLIGHT);
    const after = steadyRun(control, 60, () => rate(4000), at);
    expect(new Set(after.levels)).toEqual(new Set([FAST_IN_FLIGHT]));
  });

  it('measures a level only on requests started under it', () => {
    const control = new InFlightControl();
    // Enough answers at 4 to move to 8.
    const { at: changed } = steadyRun(control, PROBE_COMPLETIONS + 1, () => rate(3000));
    expect(control.steadyLimit()).toBe(MAX_IN_FLIGHT);
    // Slower answers to requests started before the move: counted, 8 would look worse than 4.
    let at = changed;
    for (let i = 0; i < 4; i += 1) {
      at += CHUNK / rate(1000);
      control.completed({ bytes: CHUNK, startedAt: changed - 1, endedAt: at });
    }
    steadyRun(control, PROBE_COMPLETIONS + 1, () => rate(4000), at);
    expect(control.steadyLimit()).toBe(MAX_IN_FLIGHT);
  });

  it('keeps one in flight when one chunk holds the link for seconds', () => {
    expect(measured(serial(3, rate(20), 80)).steadyLimit()).toBe(1);
    expect(measured(serial(3, rate(40), 80)).steadyLimit()).toBe(1);
  });

  it('measures the link, not the sum of overlapping requests', () => {
    // Two requests sharing a 20 Mbit/s link, both done after twice a chunk's time.
    const both = (2 * CHUNK) / rate(20);
    const control = measured([
      { bytes: CHUNK, startedAt: 0, endedAt: both },
      { bytes: CHUNK, startedAt: 0, endedAt: both },
    ]);
    expect(control.throughput()).toBeCloseTo(rate(20), 5);
    expect(control.steadyLimit()).toBe(1);
  });

  it('leaves out the time no request was open (an outage, a lost request retried)', () => {
    const before = serial(2, rate(20), 0);
    // 8 s without an answered request (a cut, the outage, the lost chunk sent again).
    const after = serial(2, rate(20), 0, before.at(-1)!.endedAt + 8000);
    const control = measured([...before, ...after]);
    expect(control.throughput()).toBeCloseTo(rate(20), 5);
    // So the next request still starts shortly before the open one ends.
    const now = after.at(-1)!.endedAt;
    const at = control.nextStart(open(now), now)!;
    expect(at).toBeCloseTo(now + ((1 - OVERLAP_FRACTION) * CHUNK) / rate(20), 5);
  });

  it('starts the next request on a slow link shortly before the open one ends', () => {
    const control = measured(serial(2, rate(20), 80));
    const link = control.throughput()!;
    const expectedEnd = 1000 + CHUNK / link;
    const at = control.nextStart(open(1000), 1000)!;
    expect(at).toBeCloseTo(expectedEnd - (OVERLAP_FRACTION * CHUNK) / link, 5);
    expect(at).toBeGreaterThan(1000);
    // Past that time: at once.
    expect(control.nextStart(open(1000), at + 10)).toBe(at + 10);
    // Never a third while two are open.
    expect(control.nextStart(open(1000, at), at + 10)).toBeNull();
  });

  it('never overlaps beyond the most on a fast link', () => {
    const control = measured(serial(4, rate(1000), 2));
    expect(control.nextStart(open(0, 1, 2, 3), 1_000_000)).toBeNull();
    expect(control.nextStart(open(1, 2, 3), 7)).toBe(7);
  });

  it('follows the link as it changes (the latest requests count)', () => {
    const fast = serial(4, rate(1000), 2);
    const control = measured(fast);
    expect(control.steadyLimit()).toBe(FAST_IN_FLIGHT);
    for (const t of serial(4, rate(20), 80, fast.at(-1)!.endedAt)) control.completed(t);
    expect(control.steadyLimit()).toBe(1);
    for (const t of serial(4, rate(1000), 2, 1e9)) control.completed(t);
    expect(control.steadyLimit()).toBe(FAST_IN_FLIGHT);
  });
});
