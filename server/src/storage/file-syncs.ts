/**
 * fdatasync shared by the writers of one file (group commit): the chunk requests of an
 * upload write the same staged file, each at its own offset, and each must be on the disk
 * before it is acknowledged. On Linux an fdatasync through any descriptor of a file flushes
 * every write of that file that ended before it started, so a writer that finds a sync of
 * its file under way (which may have started before its writes ended) waits for the next
 * one, and every writer that arrives meanwhile shares that next one: with several requests
 * in flight, one sync covers the chunks that ended while the previous one ran, instead of
 * one sync each (issue 36).
 */

/** What a sync needs of a writer's open file (fs/promises FileHandle). */
export interface Syncable {
  datasync(): Promise<void>;
}

interface Waiting {
  /** The handle the next sync goes through (its writer keeps it open until the sync ends). */
  handle: Syncable;
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

interface FileSync {
  /** The sync under way. */
  running: Promise<void>;
  /** The writers that arrived while it runs: one sync for them all, once it ends. */
  next: Waiting | null;
}

const syncs = new Map<string, FileSync>();
let syncCount = 0;

/** How many fdatasyncs were started in this process (for tests and benches). */
export function fileSyncCount(): number {
  return syncCount;
}

function run(path: string, entry: FileSync | null, handle: Syncable): Promise<void> {
  syncCount += 1;
  const running = handle.datasync();
  const after = () => {
    const current = syncs.get(path);
    const next = current?.next;
    if (!current || !next) {
      syncs.delete(path);
      return;
    }
    current.next = null;
    current.running = run(path, current, next.handle);
    current.running.then(next.resolve, next.reject);
  };
  running.then(after, after);
  if (entry) entry.running = running;
  else syncs.set(path, { running, next: null });
  return running;
}

/**
 * Resolves once every write to `path` that ended before this call is on the disk (a sync
 * through `handle`, or through another writer's handle of the same file); `handle` must stay
 * open until then. Rejects when that sync failed.
 */
export function syncWrites(path: string, handle: Syncable): Promise<void> {
  const entry = syncs.get(path);
  if (!entry) return run(path, null, handle);
  if (!entry.next) {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    entry.next = { handle, promise, resolve, reject };
  }
  return entry.next.promise;
}
