/**
 * Whole files of versions stored as diffs, rebuilt on this instance and kept on its disk by
 * content (SHA-1): DATA_DIR/cache/files/<host>-<n>/<sha1>-<size>, within VERSION_CACHE_BYTES
 * (the least recently used go first; a file being read is never removed).
 *
 * - A file enters only with its SHA-1 checked (a rebuild, or a push that applied its diff),
 *   written under a work name in the same folder and renamed, so a crash leaves no partial
 *   entry; work files of a crashed process are removed when the cache opens. Entries found
 *   on disk at start are hashed again before their first use (a power loss may have left an
 *   entry without its bytes).
 * - Two readers asking for a file being built wait for the same build.
 * - A reader that takes the bytes as they come (a download) may have them made in memory
 *   (`obtainBytes`): answered once checked, then written into the cache; readers arriving
 *   meanwhile get the same bytes, readers that need the file wait for it.
 * - A push applying a diff takes the file of the version it builds on (take): renamed out of
 *   the cache when nobody reads it, and changed in place, so a push never copies the whole
 *   file; copied when someone does.
 *
 * Each cache has a folder of its own, claimed by process id (instances sharing DATA_DIR, on one
 * machine or a network file system, must not change a file another one reads).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { hashFileInThread } from './hash';

export interface CacheEntry {
  sha1: string;
  size: number;
  path: string;
}

/** A cached file held for reading: it stays until released. */
export interface CacheHandle extends CacheEntry {
  release(): void;
}

interface Entry {
  size: number;
  refs: number;
  /** Its SHA-1 was checked by this process. */
  verified: boolean;
  usedAt: number;
}

/**
 * Most bytes made in memory (obtainBytes) and not yet written into the cache, together: past
 * it, rebuilds are written as files first.
 */
export const MAX_BYTES_IN_MEMORY = 128 * 1024 * 1024;

const nameOf = (sha1: string, size: number) => `${sha1}-${size}`;
const ENTRY_NAME = /^([0-9a-f]{40})-(\d+)$/;
const WORK_PREFIX = '.work-';

/** Folders claimed by a cache of this process. */
const claimed = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A folder of `root` for this cache alone: `<host>-<n>`, the first one no live process
 * owns (its `.owner` file names the owner's process id; taken with an exclusive create).
 * A restarted server finds its files again in the folder its predecessor left.
 */
async function claimFolder(root: string): Promise<string> {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '_') || 'host';
  for (let n = 0; ; n++) {
    const dir = path.join(root, `${host}-${n}`);
    if (claimed.has(dir)) continue;
    await mkdir(dir, { recursive: true });
    const owner = path.join(dir, '.owner');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await writeFile(owner, String(process.pid), { flag: 'wx' });
        claimed.add(dir);
        return dir;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const pid = Number(await readFile(owner, 'utf8').catch(() => 'gone'));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) break;
      if (pid === process.pid) break;
      await rm(owner, { force: true });
    }
  }
}

export class FileCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<void>>();
  /** Bytes being made in memory (obtainBytes): null when they could not be. */
  private readonly making = new Map<string, Promise<Uint8Array | null>>();
  /** Bytes made in memory whose file is being written into the cache. */
  private readonly fresh = new Map<string, Uint8Array>();
  /** Bytes being made in memory or written from there (at most MAX_BYTES_IN_MEMORY). */
  private inMemory = 0;
  private opened: Promise<void> | null = null;
  private total = 0;
  private folder: string | null = null;
  /** Files built so far, as files or in memory (tests, benchmarks). */
  builds = 0;

  constructor(
    /** DATA_DIR/cache/files: each cache takes a folder of its own in it. */
    private readonly root: string,
    private budget: number,
    /** Told of work that failed where no caller hears of it (the server's log). */
    private readonly warn: (error: unknown, what: string) => void = () => {},
  ) {}

  static rootFor(dataDir: string): string {
    return path.join(dataDir, 'cache', 'files');
  }

  /** This cache's folder (once open). */
  get dir(): string {
    if (!this.folder) throw new Error('The file cache is not open');
    return this.folder;
  }

  /** Gives the folder up (shutdown), once the files being written are in: another process may take it. */
  async close(): Promise<void> {
    await this.settled();
    if (!this.folder) return;
    claimed.delete(this.folder);
    await rm(path.join(this.folder, '.owner'), { force: true });
  }

  /** Claims a folder and reads it once: entries from before, work files of a crash removed. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      this.folder = await claimFolder(this.root);
      for (const name of await readdir(this.dir)) {
        const file = path.join(this.dir, name);
        const match = ENTRY_NAME.exec(name);
        if (!match) {
          if (name.startsWith(WORK_PREFIX)) await rm(file, { force: true });
          continue;
        }
        const info = await stat(file).catch(() => null);
        if (!info || info.size !== Number(match[2])) {
          await rm(file, { force: true });
          continue;
        }
        this.add(match[1]!, info.size, false, info.mtimeMs);
      }
    })();
    return this.opened;
  }

  private add(sha1: string, size: number, verified: boolean, usedAt = Date.now()): void {
    const key = nameOf(sha1, size);
    const existing = this.entries.get(key);
    if (existing) {
      existing.verified ||= verified;
      existing.usedAt = usedAt;
      return;
    }
    this.entries.set(key, { size, refs: 0, verified, usedAt });
    this.total += size;
  }

  private pathOf(sha1: string, size: number): string {
    return path.join(this.dir, nameOf(sha1, size));
  }

  /** A new work file's path in the cache's folder (renamed into the cache by `adopt`). */
  workPath(): string {
    return path.join(this.dir, `${WORK_PREFIX}${randomUUID()}`);
  }

  /** Bytes of the files in the cache now. */
  get bytes(): number {
    return this.total;
  }

  has(sha1: string, size: number): boolean {
    return this.entries.has(nameOf(sha1, size));
  }

  /**
   * The cached file with this content, held until released; null when not cached (or its
   * bytes are not what they should be: then it is removed).
   */
  async acquire(sha1: string, size: number): Promise<CacheHandle | null> {
    await this.open();
    const key = nameOf(sha1, size);
    const entry = this.entries.get(key);
    if (!entry) return null;
    entry.refs++;
    entry.usedAt = Date.now();
    const file = this.pathOf(sha1, size);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      entry.refs--;
      if (entry.refs === 0) void this.trim();
    };
    if (!entry.verified) {
      const found = await hashFileInThread(file).catch(() => null);
      if (found?.sha1 !== sha1 || found.size !== size) {
        release();
        await this.forget(key, file);
        return null;
      }
      entry.verified = true;
    }
    return { sha1, size, path: file, release };
  }

  private async forget(key: string, file: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry || entry.refs > 0) return;
    this.entries.delete(key);
    this.total -= entry.size;
    await rm(file, { force: true });
  }

  /**
   * The cached file with this content, built by `build` (which writes it, checked, to the
   * work path it is given) when missing; concurrent callers wait for one build.
   */
  async obtain(
    sha1: string,
    size: number,
    build: (work: string) => Promise<void>,
  ): Promise<CacheHandle> {
    const key = nameOf(sha1, size);
    // Bytes being made in memory: their file follows (or they could not be made).
    await this.making.get(key);
    for (let attempt = 0; ; attempt++) {
      const held = await this.acquire(sha1, size);
      if (held) return held;
      let pending = this.building.get(key);
      if (!pending) {
        const work = this.workPath();
        this.builds++;
        pending = build(work)
          .then(() => this.adopt(work, sha1, size))
          .finally(() => {
            this.building.delete(key);
            void rm(work, { force: true });
          });
        this.building.set(key, pending);
      }
      await pending;
      // Trimmed away right after it was built (a tiny budget): build it again, once.
      if (attempt > 0) {
        const again = await this.acquire(sha1, size);
        if (again) return again;
        throw new Error(`The rebuilt file ${sha1} could not be kept in ${this.dir}`);
      }
    }
  }

  /**
   * The bytes of this content for a reader that takes them as they are: made in memory by
   * `make` (checked; null when it cannot make them) and answered at once, their file written
   * into the cache after; else the cached file, built by `build` as in `obtain`. Concurrent
   * callers share one making of the bytes, and `obtain` waits for it.
   */
  async obtainBytes(
    sha1: string,
    size: number,
    make: () => Promise<Uint8Array | null>,
    build: (work: string) => Promise<void>,
  ): Promise<Uint8Array | CacheHandle> {
    await this.open();
    const key = nameOf(sha1, size);
    const fresh = this.fresh.get(key);
    if (fresh) return fresh;
    let making = this.making.get(key);
    if (
      !making &&
      !this.entries.has(key) &&
      !this.building.has(key) &&
      this.inMemory + size <= MAX_BYTES_IN_MEMORY
    ) {
      this.inMemory += size;
      making = make().then(
        (bytes) => {
          if (bytes) {
            this.builds++;
            this.keep(key, sha1, size, bytes);
          } else this.inMemory -= size;
          return bytes;
        },
        (error: unknown) => {
          this.inMemory -= size;
          this.warn(error, 'A version could not be rebuilt in memory; it is rebuilt as a file');
          return null;
        },
      );
      this.making.set(key, making);
      void making.finally(() => this.making.delete(key));
    }
    const bytes = await making;
    return bytes ?? this.obtain(sha1, size, build);
  }

  /** Holds bytes made in memory for readers while their file is written into the cache. */
  private keep(key: string, sha1: string, size: number, bytes: Uint8Array): void {
    this.fresh.set(key, bytes);
    const work = this.workPath();
    const writing = writeFile(work, bytes)
      .then(() => this.adopt(work, sha1, size))
      .catch((error: unknown) =>
        this.warn(error, 'A version rebuilt in memory could not be written into the file cache'),
      )
      .finally(() => {
        this.fresh.delete(key);
        this.inMemory -= size;
        this.building.delete(key);
        void rm(work, { force: true });
      });
    this.building.set(key, writing);
  }

  /** Puts a checked work file into the cache under its content (renamed, not copied). */
  async adopt(work: string, sha1: string, size: number): Promise<void> {
    await this.open();
    const target = this.pathOf(sha1, size);
    const key = nameOf(sha1, size);
    const entry = this.entries.get(key);
    if (entry && entry.refs > 0) {
      // Someone reads the same content: keep theirs.
      await rm(work, { force: true });
      entry.verified = true;
      return;
    }
    await rename(work, target);
    this.add(sha1, size, true);
    await this.trim(key);
  }

  /**
   * Moves the cached file with this content to `target` (a work path) for changing in place:
   * true when it was cached, checked and unused; false otherwise (nothing moved). Copies it
   * instead when someone reads it.
   */
  async take(sha1: string, size: number, target: string): Promise<boolean> {
    const held = await this.acquire(sha1, size);
    if (!held) return false;
    const key = nameOf(sha1, size);
    const entry = this.entries.get(key)!;
    if (entry.refs > 1) {
      try {
        await copyFile(held.path, target);
      } finally {
        held.release();
      }
      return true;
    }
    // Ours alone: out of the cache without a copy.
    this.entries.delete(key);
    this.total -= entry.size;
    try {
      await rename(held.path, target);
    } catch (error) {
      held.release();
      throw error;
    }
    return true;
  }

  /** Removes the least recently used files nobody reads until the cache is within budget. */
  async trim(keep?: string): Promise<void> {
    if (this.total <= this.budget) return;
    const candidates = [...this.entries.entries()]
      .filter(([key, entry]) => entry.refs === 0 && key !== keep)
      .sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [key, entry] of candidates) {
      if (this.total <= this.budget) break;
      if (entry.refs > 0 || !this.entries.has(key)) continue;
      this.entries.delete(key);
      this.total -= entry.size;
      await rm(path.join(this.dir, key), { force: true });
    }
  }

  /** Resolves once the files being made or written now (bytes made in memory, builds) are done. */
  async settled(): Promise<void> {
    while (this.making.size > 0 || this.building.size > 0) {
      await Promise.allSettled([...this.making.values(), ...this.building.values()]);
    }
  }

  /** Empties the cache (tests, benchmarks: the next read is cold). */
  async clear(): Promise<void> {
    await this.open();
    await this.settled();
    for (const [key, entry] of [...this.entries]) {
      if (entry.refs > 0) continue;
      this.entries.delete(key);
      this.total -= entry.size;
      await rm(path.join(this.dir, key), { force: true });
    }
  }

  setBudget(bytes: number): void {
    this.budget = bytes;
  }
}

/**
 * The bytes of a held cache file (or an inclusive range of them), released when the stream
 * ends, fails or is destroyed.
 */
export function streamHandle(
  handle: CacheHandle,
  range?: { start: number; end: number },
): Readable {
  const stream = createReadStream(handle.path, {
    highWaterMark: 1024 * 1024,
    ...(range ? { start: range.start, end: range.end } : {}),
  });
  stream.once('close', () => handle.release());
  return stream;
}
