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
 * time on the link is its size over that throughput. As many requests stay in flight as fit
 * into AT_RISK_MS of link time (at least 1, at most MAX_IN_FLIGHT), so a cut costs at most
 * about that. When that allows fewer than MAX_IN_FLIGHT, one more request may start once the
 * oldest open request is expected to end within OVERLAP_FRACTION of its time on the link, so
 * the link does not idle between two requests on a slow link either. Until the first chunk
 * request completed, INITIAL_IN_FLIGHT requests go.
 */

/** The most chunk requests in flight (fast links). The one place to change it. */
export const MAX_IN_FLIGHT = 4;
/** Chunk requests in flight before anything was measured. */
export const INITIAL_IN_FLIGHT = 2;
/** The link time the open requests may hold at once (what one cut may cost, roughly). */
export const AT_RISK_MS = 2000;
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

export class InFlightControl {
  private readonly done: RequestTiming[] = [];

  constructor(private readonly max: number = MAX_IN_FLIGHT) {}

  /** A chunk request answered (acknowledged). */
  completed(timing: RequestTiming): void {
    this.done.push(timing);
    if (this.done.length > WINDOW) this.done.shift();
  }

  /**
   * Bytes per millisecond over the latest completed requests: their bytes over the time from
   * the first one's start to the last one's end (overlapping requests share the link, so
   * their durations are not added). Null before any measure.
   */
  throughput(): number | null {
    if (this.done.length === 0) return null;
    const bytes = this.done.reduce((sum, t) => sum + t.bytes, 0);
    const from = Math.min(...this.done.map((t) => t.startedAt));
    const to = Math.max(...this.done.map((t) => t.endedAt));
    return bytes / Math.max(1, to - from);
  }

  /** The requests kept in flight at a steady pace (see the module's comment). */
  steadyLimit(chunkBytes: number): number {
    const rate = this.throughput();
    if (rate === null) return Math.min(INITIAL_IN_FLIGHT, this.max);
    const onLink = chunkBytes / rate;
    return Math.max(1, Math.min(this.max, Math.floor(AT_RISK_MS / onLink)));
  }

  /**
   * When another request of `chunkBytes` may start, given the open ones: `now` if it may
   * start at once, a later time at which it may (the oldest open request then nears its
   * end), or null until one of the open requests completes.
   */
  nextStart(open: readonly OpenRequest[], chunkBytes: number, now: number): number | null {
    const steady = this.steadyLimit(chunkBytes);
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
