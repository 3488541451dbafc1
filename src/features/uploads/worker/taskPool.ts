/**
 * The chunk requests of one upload pass running side by side: a request starts when the gate
 * (inFlight.ts, with the runner's clock) allows it, and the first failure of any stops new ones.
 */
import type { OpenRequest } from './inFlight';

/** When the next chunk request may start (InFlightControl with the runner's clock). */
export interface PoolGate {
  nextStart(open: readonly OpenRequest[]): number | null;
  /** Resolves at `at` or when `settled` does, whichever comes first. */
  waitUntil(at: number | null, settled: Promise<unknown>): Promise<void>;
}

/** Runs chunk requests as the gate allows; the first failure stops new ones. */
export class TaskPool {
  private readonly inflight = new Map<Promise<void>, OpenRequest>();
  /** Work followed without holding a place (see `follow`). */
  private readonly followed = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly gate: PoolGate,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.inflight.size;
  }

  /** Waits until the gate lets a request of `bytes` start, then starts `task`; throws the first failure of any task. */
  async run(bytes: number, task: () => Promise<void>): Promise<void> {
    while (!this.failure && this.inflight.size > 0) {
      const at = this.gate.nextStart([...this.inflight.values()]);
      if (at !== null && at <= this.now()) break;
      await this.gate.waitUntil(at, Promise.race(this.inflight.keys()));
    }
    this.throwIfFailed();
    const running: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.inflight.delete(running);
      });
    this.inflight.set(running, { bytes, startedAt: this.now() });
  }

  /** Follows `work` without holding a place: its failure counts as a task's. */
  follow(work: Promise<void>): void {
    const followed: Promise<void> = work
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.followed.delete(followed);
      });
    this.followed.add(followed);
  }

  /** Waits for every running task and followed work (never throws). */
  async settle(): Promise<void> {
    while (this.inflight.size + this.followed.size > 0) {
      await Promise.all([...this.inflight.keys(), ...this.followed]);
    }
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
