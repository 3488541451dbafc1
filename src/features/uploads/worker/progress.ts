/**
 * Live progress of one upload: bytes and chunks acknowledged, speed over a moving window and
 * time left, and a throttle so listeners hear at most one update per interval (phase changes
 * and errors go out at once).
 */
import type { UploadPhase, UploadProgress } from '../model/types';

/** Speed is measured over this much recent time. */
export const SPEED_WINDOW_MS = 10_000;
/** Shortest time span a speed is computed from. */
const MIN_SPEED_SPAN_MS = 1000;
/** At most one progress report per this interval (unless the phase changes). */
export const PROGRESS_INTERVAL_MS = 250;
/** While uploading, speed and time left are refreshed this often even without new chunks. */
export const REFRESH_MS = 1000;

interface Sample {
  at: number;
  loaded: number;
}

/** Bytes per second over the last `windowMs`, or null while there is too little to measure. */
export class SpeedMeter {
  private samples: Sample[] = [];

  constructor(private readonly windowMs: number = SPEED_WINDOW_MS) {}

  add(at: number, loaded: number): void {
    this.samples.push({ at, loaded });
    const from = at - this.windowMs;
    // Keep one sample at or before the window start so the span covers the whole window.
    while (this.samples.length > 2 && this.samples[1]!.at <= from) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  /** Bytes per second from the window's start until `now` (so a stall lowers the speed). */
  bytesPerSecond(now: number): number | null {
    const from = now - this.windowMs;
    let first = this.samples[0];
    for (const sample of this.samples) {
      if (sample.at > from) break;
      first = sample;
    }
    const last = this.samples[this.samples.length - 1];
    if (!first || !last) return null;
    const span = now - first.at;
    if (span < MIN_SPEED_SPAN_MS) return null;
    return Math.max(0, ((last.loaded - first.loaded) * 1000) / span);
  }
}

export interface TrackerInit {
  id: string;
  projectPath: string;
  totalBytes: number;
  chunksTotal: number;
  /** Carried into every report as they are (see UploadProgress). */
  queuedAt?: number;
  changes?: UploadProgress['changes'];
  files?: UploadProgress['files'];
  now: () => number;
  emit: (progress: UploadProgress) => void;
  intervalMs?: number;
}

export class ProgressTracker {
  private state: UploadProgress;
  private readonly meter = new SpeedMeter();
  private lastEmit = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refresh: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly init: TrackerInit) {
    this.state = {
      id: init.id,
      projectPath: init.projectPath,
      phase: 'queued',
      loadedBytes: 0,
      totalBytes: init.totalBytes,
      chunksDone: 0,
      chunksTotal: init.chunksTotal,
      bytesPerSecond: null,
      secondsLeft: null,
      retryInSeconds: null,
      error: null,
      updatedAt: init.now(),
      ...(init.queuedAt !== undefined ? { queuedAt: init.queuedAt } : {}),
      ...(init.changes ? { changes: init.changes } : {}),
      ...(init.files ? { files: init.files } : {}),
    };
  }

  get progress(): UploadProgress {
    return this.state;
  }

  /** Sets the acknowledged totals (e.g. after a status call), without counting it as speed. */
  setDone(loadedBytes: number, chunksDone: number): void {
    this.state = { ...this.state, loadedBytes, chunksDone };
    this.meter.reset();
    this.schedule();
  }

  /** One more acknowledged chunk of `size` bytes. */
  chunkDone(size: number): void {
    const now = this.init.now();
    this.state = {
      ...this.state,
      loadedBytes: this.state.loadedBytes + size,
      chunksDone: this.state.chunksDone + 1,
    };
    this.meter.add(now, this.state.loadedBytes);
    this.schedule();
  }

  /** Changes the phase; reported at once when it differs (or when details are given). */
  setPhase(
    phase: UploadPhase,
    details: { retryInSeconds?: number | null; error?: string | null } = {},
  ): void {
    const changed =
      phase !== this.state.phase ||
      (details.retryInSeconds !== undefined &&
        details.retryInSeconds !== this.state.retryInSeconds) ||
      (details.error !== undefined && details.error !== this.state.error);
    if (phase === 'uploading' && this.state.phase !== 'uploading') {
      // Speed restarts after a pause (waiting, retrying): the pause is not slowness.
      this.meter.reset();
      this.meter.add(this.init.now(), this.state.loadedBytes);
    }
    this.state = {
      ...this.state,
      phase,
      retryInSeconds: details.retryInSeconds ?? null,
      error: details.error ?? null,
    };
    if (changed) this.flush();
  }

  /** Reports now, cancelling a pending throttled report. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.init.now();
    this.lastEmit = now;
    const active = this.state.phase === 'uploading' || this.state.phase === 'hashing';
    const bytesPerSecond = active ? this.meter.bytesPerSecond(now) : null;
    const remaining = this.state.totalBytes - this.state.loadedBytes;
    const secondsLeft =
      bytesPerSecond && bytesPerSecond > 0 ? Math.ceil(remaining / bytesPerSecond) : null;
    this.state = { ...this.state, bytesPerSecond, secondsLeft, updatedAt: now };
    this.init.emit(this.state);
    clearTimeout(this.refresh);
    this.refresh = undefined;
    if (this.state.phase === 'uploading') {
      this.refresh = setTimeout(() => {
        this.refresh = undefined;
        this.flush();
      }, REFRESH_MS);
    }
  }

  /** Stops a pending report (when the upload ends). */
  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.refresh);
    this.timer = undefined;
    this.refresh = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const interval = this.init.intervalMs ?? PROGRESS_INTERVAL_MS;
    const wait = Math.max(0, this.lastEmit + interval - this.init.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }
}
