/**
 * Read results kept in memory under the database snapshot they were read after, and served
 * again only while the database's current snapshot is that same snapshot.
 *
 * `pg_current_snapshot()` (xmin, xmax and the transactions in progress) names the set of
 * committed transactions a statement sees. Two statements with equal snapshots see exactly
 * the same committed data: any commit between them removes its transaction from the list in
 * progress or moves xmax past it. So a value computed from reads made after a statement whose
 * snapshot was S is still exact for a later statement whose snapshot is also S, whichever
 * instance made the change, whatever table it touched. Any commit (a session's last-seen
 * time, a job's run, anything) makes every entry unusable: entries are never stale, only
 * sometimes recomputed when nothing they read changed. The same holds on PGlite.
 *
 * The snapshot must be taken before (or by the same statement as) the first read the value
 * depends on. Values must not depend on the clock: callers leave time-dependent reads out.
 */
import { sql } from 'drizzle-orm';
import type { Database } from './database';

/** SQL expression of the statement's own snapshot, as text (e.g. `752:755:753`). */
export const SNAPSHOT_SQL = sql<string>`pg_current_snapshot()::text`;

/**
 * Default bound of the entries' total weight (least recently used go first): a session
 * weighs 1, a project list page 1 plus its number of projects, so at most about 10,000
 * project items (some megabytes) are kept.
 */
export const READ_CACHE_WEIGHT = 10_000;

/**
 * After this many lookups of a key in a row found the database moved on, only every
 * PROBE_EVERY-th lookup reads the snapshot first (ReadCache.worthProbing).
 */
export const MISSES_BEFORE_SPARING = 2;
export const PROBE_EVERY = 8;

interface Probes {
  /** Lookups in a row whose snapshot was not the entry's. */
  misses: number;
  /** Lookups since the last one that read the snapshot. */
  spared: number;
}

interface Entry {
  snapshot: string;
  value: unknown;
  weight: number;
}

/** A bounded least-recently-used map of values, each valid under one snapshot only. */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;
  /** How the lookups of each kept key went lately. */
  private readonly probes = new Map<string, Probes>();
  /** Lookups answered from the cache, and lookups that were not. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly database: Pick<Database, 'snapshot'>,
    private readonly maxWeight = READ_CACHE_WEIGHT,
  ) {}

  /** The database's current snapshot (one trivial statement). */
  snapshot(): Promise<string> {
    return this.database.snapshot();
  }

  /**
   * Whether reading the current snapshot to look `key` up can pay: never when nothing is
   * kept under it (the value must be read anyway, and that read answers the snapshot), and
   * only every PROBE_EVERY-th time once MISSES_BEFORE_SPARING lookups in a row found the
   * database moved on (a commit between each: the chunk requests of an upload each record
   * their chunk), so a request then costs its reads alone instead of a snapshot more, and
   * the cache serves again soon after the commits stop.
   */
  worthProbing(key: string): boolean {
    if (!this.entries.has(key)) return false;
    const probes = this.probes.get(key);
    if (!probes || probes.misses < MISSES_BEFORE_SPARING) return true;
    probes.spared++;
    if (probes.spared < PROBE_EVERY) return false;
    probes.spared = 0;
    return true;
  }

  /** The value stored under `key` for exactly this snapshot, or undefined. */
  get<T>(key: string, snapshot: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.snapshot !== snapshot) {
      if (entry) {
        this.remove(key, entry);
        const probes = this.probes.get(key) ?? { misses: 0, spared: 0 };
        probes.misses++;
        probes.spared = 0;
        this.probes.set(key, probes);
      }
      this.stats.misses++;
      return undefined;
    }
    this.probes.delete(key);
    this.stats.hits++;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  /** Keeps `value` for `snapshot`; a value heavier than the whole bound is not kept. */
  set(key: string, snapshot: string, value: unknown, weight = 1): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { snapshot, value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.maxWeight) break;
      this.remove(oldest, entry);
      this.probes.delete(oldest);
    }
    // Keys no longer kept (removed by a miss and not set again) are forgotten in time.
    for (const probed of this.probes.keys()) {
      if (this.probes.size <= this.maxWeight) break;
      if (!this.entries.has(probed)) this.probes.delete(probed);
    }
  }

  /** Entries kept. */
  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
