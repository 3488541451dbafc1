/**
 * Work run in a worker thread, so a large file never holds up the server's requests (the
 * SQLite comparison, lib/sqlite-diff-thread.ts, and the geodiff operations, geodiff/thread.ts).
 *
 * Main side (`threadRunner`): one worker per runner and process, started on first use (its
 * TypeScript is loaded through tsx by a small .mjs bootstrap, which takes a second or two
 * once) and kept without keeping the process alive while nothing is due. A worker that dies
 * fails the requests it had and is started again on the next one; should no worker thread
 * start at all, the work runs on this thread from then on.
 *
 * Worker side (`serveInThread`): answers each request, one at a time. Errors the caller tells
 * apart (refusals) cross the thread as a name and a text and are rebuilt on the main side.
 */
import { Worker, parentPort } from 'node:worker_threads';

/** An error the caller tells apart, as it crosses the thread. */
export interface KnownError {
  name: string;
  text: string;
}

type Answer<Result> = { id: number } & (
  | { kind: 'ready' }
  | { kind: 'done'; result: Result }
  | { kind: 'known'; error: KnownError }
  | { kind: 'failed'; message: string }
);

/**
 * The process's one worker of a kind: started on first use and again after it died; never
 * again once one died before it had loaded (the work then runs on the main thread).
 */
export class WorkerSlot {
  private worker: Worker | null = null;
  private unavailable = false;

  constructor(private readonly start: () => Worker) {}

  /** The running worker, started when needed; null when no worker thread can be had. */
  get(): Worker | null {
    if (!this.unavailable) {
      try {
        this.worker ??= this.start();
      } catch {
        this.unavailable = true;
      }
    }
    return this.worker;
  }

  /** `thread` ended: false when it was not the slot's worker any more (already handled). */
  ended(thread: Worker, loaded: boolean): boolean {
    if (this.worker !== thread) return false;
    this.worker = null;
    // A worker that never loaded cannot be had here: do the work on the main thread from now on.
    if (!loaded) this.unavailable = true;
    return true;
  }
}

interface Pending<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: Error): void;
}

export interface ThreadRunnerOptions<Request, Result> {
  /** The .mjs bootstrap of the worker module. */
  url: URL;
  /** Named in the error of a worker that exits, e.g. 'The comparison worker'. */
  label: string;
  /** The same work on this thread, when no worker thread can be started. */
  runHere(request: Request): Promise<Result>;
  /** Rebuilds a known error; null turns it into a plain Error. */
  reviveError(error: KnownError): Error | null;
  /**
   * Ends the worker once it has had nothing to do for this long (ms), giving its memory
   * back; the next request starts it again. Absent: kept while the process runs.
   */
  idleMs?: number;
}

/**
 * Runs a request in the worker; `start()` starts the worker ahead of the first request;
 * `ready()` says whether a worker is loaded (a request now would not wait for its start).
 */
export type ThreadRun<Request, Result> = ((request: Request) => Promise<Result>) & {
  start(): void;
  ready(): boolean;
};

export function threadRunner<Request, Result>(
  options: ThreadRunnerOptions<Request, Result>,
): ThreadRun<Request, Result> {
  let nextId = 1;
  const pending = new Map<number, Pending<Request, Result>>();
  const slot = new WorkerSlot(startWorker);
  /** The worker that has loaded and not ended (null: none, or one still loading). */
  let loadedWorker: Worker | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Ends a loaded worker with nothing pending after `idleMs`. It leaves the slot first, so a
   * request that comes while it exits starts a new one instead of waiting on this one.
   */
  const endWhenIdle = (thread: Worker, loaded: () => boolean) => {
    clearTimeout(idleTimer);
    if (options.idleMs === undefined) return;
    idleTimer = setTimeout(() => {
      if (pending.size > 0 || !loaded() || !slot.ended(thread, true)) return;
      if (loadedWorker === thread) loadedWorker = null;
      void thread.terminate();
    }, options.idleMs);
    idleTimer.unref();
  };

  function startWorker(): Worker {
    const thread = new Worker(options.url);
    let loaded = false;
    thread.on('message', (answer: Answer<Result>) => {
      loaded = true;
      loadedWorker = thread;
      if (answer.kind === 'ready') return;
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if (pending.size === 0) {
        thread.unref();
        endWhenIdle(thread, () => loaded);
      }
      if (answer.kind === 'done') waiting.resolve(answer.result);
      else if (answer.kind === 'known') {
        waiting.reject(options.reviveError(answer.error) ?? new Error(answer.error.text));
      } else waiting.reject(new Error(answer.message));
    });
    const gone = (error: Error) => {
      if (loadedWorker === thread) loadedWorker = null;
      if (!slot.ended(thread, loaded)) return;
      const waiting = [...pending.values()];
      pending.clear();
      for (const { request, resolve, reject } of waiting) {
        if (loaded) reject(error);
        else options.runHere(request).then(resolve, reject);
      }
    };
    thread.on('error', gone);
    thread.on('exit', (code) => gone(new Error(`${options.label} exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the worker's port again, and an
    // idle worker (started ahead, e.g. the point index's at server start) must not keep the
    // process alive.
    thread.unref();
    endWhenIdle(thread, () => loaded);
    return thread;
  }

  const runRequest = (request: Request) => {
    const thread = slot.get();
    if (!thread) return options.runHere(request);
    const id = nextId++;
    clearTimeout(idleTimer);
    return new Promise<Result>((resolve, reject) => {
      pending.set(id, { request, resolve, reject });
      // Keep the process alive while an answer is due.
      thread.ref();
      thread.postMessage({ id, request });
    });
  };
  return Object.assign(runRequest, {
    start: () => void slot.get(),
    ready: () => loadedWorker !== null,
  });
}

/** In the worker module: answers every request with `run`. */
export function serveInThread<Request, Result>(
  run: (request: Request) => Promise<Result>,
  knownError: (error: unknown) => KnownError | null,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveInThread runs only in a worker thread');
  port.on('message', async ({ id, request }: { id: number; request: Request }) => {
    let answer: Answer<Result>;
    try {
      answer = { id, kind: 'done', result: await run(request) };
    } catch (error) {
      const known = knownError(error);
      answer = known
        ? { id, kind: 'known', error: known }
        : { id, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
  // Loaded: from now on a failure of this thread is not a failure to start one.
  port.postMessage({ id: 0, kind: 'ready' } satisfies Answer<Result>);
}
