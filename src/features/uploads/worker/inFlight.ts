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
 * link, or the server, is fast enough that what a cut costs is small, and overlapping requests
 * keep it busy: FAST_IN_FLIGHT go, and more (doubling, up to MAX_IN_FLIGHT) while more pay: a
 * level is kept when the bytes acknowledged per second over PROBE_COMPLETIONS requests beat
 * the level below by PROBE_GAIN, else the engine goes back to the level below and stays there
 * (until the link turns slow and fast again). The threshold sits far from both cases: a
 * 20 Mbit/s link needs 4 s per 10 MiB chunk, a busy server on localhost well under 1 s per
 * chunk of throughput even with few requests open (a server that is busy for a while is
 * measured again with each request: one request alone that ends within the threshold brings
 * the most back). Until the first chunk request completed, INITIAL_IN_FLIGHT requests go.
 */
import { CHUNK_SIZE } from '../model/chunks';

/** The most chunk requests in flight (fast links, where more keep paying). */
export const MAX_IN_FLIGHT = 8;
/** Chunk requests in flight on a fast link before more were tried. */
export const FAST_IN_FLIGHT = 4;
/** Completed requests a level of requests in flight is measured over. */
export const PROBE_COMPLETIONS = 8;
/** How much more a higher level must carry (acknowledged bytes per second) to be kept. */
export const PROBE_GAIN = 1.08;
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

/** A level of requests in flight being measured: acknowledged bytes after its first answer. */
interface Probe {
  level: number;
  /** When the level began: answers to requests started before do not measure it. */
  since: number;
  firstEnd: number | null;
  lastEnd: number;
  bytes: number;
  count: number;
}

export class InFlightControl {
  private readonly done: RequestTiming[] = [];
  private slow = false;
  /** Requests in flight on a fast link (FAST_IN_FLIGHT, raised while more pay). */
  private level: number;
  private probe: Probe | null = null;
  /** The best level measured so far and its acknowledged bytes per millisecond. */
  private best: { level: number; rate: number } | null = null;
  private settled = false;

  constructor(private readonly max: number = MAX_IN_FLIGHT) {
    this.level = Math.min(FAST_IN_FLIGHT, max);
  }

  /** A chunk request answered (acknowledged). */
  completed(timing: RequestTiming): void {
    this.done.push(timing);
    if (this.done.length > WINDOW) this.done.shift();
    const onLink = CHUNK_SIZE / (this.throughput() as number);
    const slow = onLink >= SLOW_LINK_CHUNK_MS;
    if (slow !== this.slow) this.restartProbing();
    this.slow = slow;
    if (!slow) this.measureLevel(timing);
  }

  /** The link changed its kind: what was learnt about levels no longer holds. */
  private restartProbing(): void {
    this.level = Math.min(FAST_IN_FLIGHT, this.max);
    this.probe = null;
    this.best = null;
    this.settled = false;
  }

  /**
   * Counts an answer towards the current level's measure; once it has PROBE_COMPLETIONS, keeps
   * the level (and tries the next) when it carries PROBE_GAIN more than the best so far, or
   * goes back to the best and stays.
   */
  private measureLevel(timing: RequestTiming): void {
    // Settled, or nothing above the first level to try.
    if (this.settled || (this.best === null && this.level >= this.max)) return;
    this.probe ??= {
      level: this.level,
      since: -Infinity,
      firstEnd: null,
      lastEnd: 0,
      bytes: 0,
      count: 0,
    };
    const probe = this.probe;
    // Answers to requests started under another level do not measure this one.
    if (timing.startedAt < probe.since) return;
    if (probe.firstEnd === null) {
      probe.firstEnd = timing.endedAt;
      probe.lastEnd = timing.endedAt;
      return;
    }
    probe.bytes += timing.bytes;
    probe.lastEnd = timing.endedAt;
    probe.count += 1;
    if (probe.count < PROBE_COMPLETIONS) return;
    const rate = probe.bytes / Math.max(1, probe.lastEnd - probe.firstEnd);
    if (this.best === null || rate >= this.best.rate * PROBE_GAIN) {
      this.best = { level: this.level, rate };
      if (this.level < this.max) this.level = Math.min(this.max, this.level * 2);
      else this.settled = true;
    } else {
      this.level = this.best.level;
      this.settled = true;
    }
    const since = timing.endedAt;
    this.probe = { level: this.level, since, firstEnd: null, lastEnd: 0, bytes: 0, count: 0 };
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
    return this.slow ? 1 : this.level;
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
    if (rate === null || open.length > steady || !this.slow || steady >= this.max) return null;
    const oldest = open.reduce((a, b) => (b.startedAt < a.startedAt ? b : a));
    // Its expected end on a link it shares with the others open, less the overlap.
    const sharedBytes = open.reduce((sum, r) => sum + r.bytes, 0);
    const expectedEnd = oldest.startedAt + sharedBytes / rate;
    const at = expectedEnd - (OVERLAP_FRACTION * oldest.bytes) / rate;
    return Math.max(now, at);
  }
}
