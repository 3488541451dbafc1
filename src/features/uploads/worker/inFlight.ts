/**
 * How many chunk requests the runner keeps in flight, from the timings of the requests it made
 * (pure logic: no timers, no I/O; the runner asks and waits). Two costs pull apart:
 *
 * - A cut connection loses the bytes of every request in flight (the server keeps no partial
 *   chunk): up to one chunk per request. On a slow link a 10 MiB chunk is seconds of the link's
 *   time (4 s at 20 Mbit/s), so few requests should be open at once.
 * - A request alone leaves the link idle between its last byte and the next request's first
 *   (the round trip and the server's work): on a fast link (localhost, LAN) that gap is as long
 *   as the transfer itself, so several requests must overlap to keep link and server busy.
 *
 * The rule: the link's throughput is measured over the completed chunk requests; a chunk's
 * time on the link is its size over that throughput. When that is SLOW_LINK_CHUNK_MS or more
 * the link is slow: one request is kept in flight, and the next one starts once the open one
 * is expected to end within OVERLAP_FRACTION of its time on the link, so the link does not
 * idle between two requests and a cut costs about one chunk's bytes at most. Otherwise the
 * most (MAX_IN_FLIGHT) go: the link, or the server, is fast enough that what a cut costs is
 * small, and overlapping requests keep it busy. The threshold sits far from both cases: a
 * 20 Mbit/s link needs 4 s per 10 MiB chunk, a busy server on localhost well under 1 s per
 * chunk of throughput even with few requests open (a server that is busy for a while is
 * measured again with each request: one request alone that ends within the threshold brings
 * the most back). Until the first chunk request completed, INITIAL_IN_FLIGHT requests go.
 */
import { CHUNK_SIZE } from '../model/chunks';

/** The most chunk requests in flight (fast links). The one place to change it. */
export const MAX_IN_FLIGHT = 4;
/** Chunk requests in flight before anything was measured. */
export const INITIAL_IN_FLIGHT = 2;
/** A chunk's time on the link from which the link counts as slow (10 MiB: about 56 Mbit/s). */
export const SLOW_LINK_CHUNK_MS = 1500;
/** The next request starts this share of a request's expected time before that one ends. */
export const OVERLAP_FRACTION = 0.25;
/** Completed requests the throughput is measured over (the latest ones). */
export const WINDOW = 4;

export interface RequestTiming {
  bytes: number;
  startedAt: number;
  endedAt: number;
}

export interface OpenRequest {
  bytes: number;
  startedAt: number;
}

/** The length of the union of the requests' open intervals (ms). */
function busyTime(timings: readonly RequestTiming[]): number {
  const sorted = [...timings].sort((a, b) => a.startedAt - b.startedAt);
  let total = 0;
  let from = sorted[0]!.startedAt;
  let to = sorted[0]!.endedAt;
  for (const t of sorted.slice(1)) {
    if (t.startedAt > to) {
      total += to - from;
      from = t.startedAt;
    }
    to = Math.max(to, t.endedAt);
  }
  return total + (to - from);
}

export class InFlightControl {
  private readonly done: RequestTiming[] = [];
  private slow = false;

  constructor(private readonly max: number = MAX_IN_FLIGHT) {}

  /** A chunk request answered (acknowledged). */
  completed(timing: RequestTiming): void {
    this.done.push(timing);
    if (this.done.length > WINDOW) this.done.shift();
    const onLink = CHUNK_SIZE / (this.throughput() as number);
    this.slow = onLink >= SLOW_LINK_CHUNK_MS;
  }

  /**
   * Bytes per millisecond over the latest completed requests: their bytes over the time at
   * least one of them was open (overlapping requests share the link, so their durations are
   * not added; the time none was open, such as an outage and the retry of a lost request
   * between two of them, is not the link's speed). Null before any measure.
   */
  throughput(): number | null {
    if (this.done.length === 0) return null;
    const bytes = this.done.reduce((sum, t) => sum + t.bytes, 0);
    return bytes / Math.max(1, busyTime(this.done));
  }

  /** The requests kept in flight at a steady pace (see the module's comment). */
  steadyLimit(): number {
    if (this.done.length === 0) return Math.min(INITIAL_IN_FLIGHT, this.max);
    return this.slow ? 1 : this.max;
  }

  /**
   * When another request may start, given the open ones: `now` if it may start at once, a
   * later time at which it may (the oldest open request then nears its end), or null until one
   * of the open requests completes.
   */
  nextStart(open: readonly OpenRequest[], now: number): number | null {
    const steady = this.steadyLimit();
    if (open.length < steady) return now;
    const rate = this.throughput();
    if (rate === null || open.length > steady || steady >= this.max) return null;
    const oldest = open.reduce((a, b) => (b.startedAt < a.startedAt ? b : a));
    // Its expected end on a link it shares with the others open, less the overlap.
    const sharedBytes = open.reduce((sum, r) => sum + r.bytes, 0);
    const expectedEnd = oldest.startedAt + sharedBytes / rate;
    const at = expectedEnd - (OVERLAP_FRACTION * oldest.bytes) / rate;
    return Math.max(now, at);
  }
}
