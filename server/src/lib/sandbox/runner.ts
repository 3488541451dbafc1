/**
 * A pool of child processes for work on users' files (main side; the child is child.ts). A
 * GeoPackage is a program as much as data: a view can recurse without end, a line can hold
 * millions of vertices. SQLite cannot be interrupted from JavaScript, and a worker thread
 * blocked in SQLite can be neither terminated nor waited for, so such work runs in processes
 * this module kills when it passes its budget (budget.ts):
 *
 * - time: a timer per request, from the moment the work starts in a process (its module
 *   loaded: loading the server's code is not the file's work);
 * - memory: the process's resident memory, read from /proc every WATCH_MS, plus V8's heap
 *   limit (`--max-old-space-size`) and SQLite's own (`PRAGMA hard_heap_limit`) in the child;
 * - a child that dies meanwhile (out of memory, a crash on a hostile file) counts as over
 *   budget too: the file, not the server, is the reason.
 *
 * Work stopped that way rejects with the caller's `tooHeavy` error (a 422 by default) and,
 * with a `verdictKey`, the verdict is kept for VERDICT_MS, so asking again fails at once
 * instead of spending the budget again. The children run at a lower CPU priority (the
 * budget's nice, CHILD_NICE by default), so the request thread stays responsive while they work.
 *
 * A pool has at most `size` processes, each running one request at a time; more requests
 * wait in order, except that the requests of one owner (a caller) never take the last free
 * process while they have others running: it stays for everyone else. Processes start on first use (`start()` starts one ahead), end after
 * `idleMs` without work, and never keep the server process alive while nothing is due.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HttpProblem } from '../../errors';
import { WorkTooHeavyError, type OverBudget, type WorkBudget } from './budget';
import { residentBytes } from './memory';
import type { Answer, Call, CrossedError, Job as JobMessage } from './protocol';

/** How often a busy process's memory is read (ms). */
export const WATCH_MS = 100;
/** How long an over-budget verdict is kept (ms). */
export const VERDICT_MS = 10 * 60_000;
/** Most verdicts kept per runner. */
const VERDICTS = 1000;
/** The children's nice value when the budget names none. */
export const CHILD_NICE = 10;
/** Default time a process is kept without work (ms). */
export const DEFAULT_IDLE_MS = 5 * 60_000;
/** Requests this process answered from a kept verdict, without running them (tests). */
export const verdictCounts = { answered: 0 };
/** Bytes of a child's standard error kept for the log. */
const STDERR_TAIL = 4096;

/** The child's module, run with tsx's loader (the server's modules are TypeScript). */
const CHILD = new URL('./child.ts', import.meta.url);
const TSX = import.meta.resolve('tsx/esm');

export interface PoolOptions {
  /** Named in errors, e.g. 'The interactive sandbox'. */
  label: string;
  /** Most processes at once. */
  size: number;
  /** Ends a process after this long without work (ms). */
  idleMs?: number;
}

export interface RunOptions {
  budget: WorkBudget;
  /** Remember an over-budget verdict under this key (e.g. `<sha1>/layers`). */
  verdictKey?: string;
  /** The error of work stopped over its budget. */
  tooHeavy?(reason: OverBudget): Error;
  /** Rebuilds an error the work threw; null or absent: a plain Error with its text. */
  revive?(error: CrossedError): Error | null;
  /**
   * Who asks (a user, or an address): one owner's requests never take the last free process,
   * so one caller asking for heavy work cannot keep everyone else's waiting.
   */
  owner?: string;
}

export interface Pool {
  run(call: Call, options: RunOptions): Promise<unknown>;
  /** Starts one process ahead of the first request. */
  start(budget: Pick<WorkBudget, 'memoryBytes' | 'nice'>): void;
  /** Whether a process is loaded and free (a request now would not wait). */
  ready(): boolean;
  /** Ends every process (requests running fail). */
  stop(): void;
}

interface Job {
  id: number;
  call: Call;
  options: RunOptions;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
  watch?: ReturnType<typeof setInterval>;
  /** Set when this module stopped the process, with why. */
  stopped?: OverBudget;
}

interface Proc {
  child: ChildProcess;
  loaded: boolean;
  job: Job | null;
  idleTimer?: ReturnType<typeof setTimeout>;
  stderr: string;
}

const MIB = 1024 * 1024;

/** A child's channel can be ref'd and unref'd (Node's IPC pipe). */
function setKeepsAlive(child: ChildProcess, keep: boolean): void {
  const channel = child.channel as { ref?(): void; unref?(): void } | undefined;
  if (keep) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}

export function sandboxPool(options: PoolOptions): Pool {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const processes = new Set<Proc>();
  const queue: Job[] = [];
  const verdicts = new Map<string, { reason: OverBudget; until: number }>();
  let nextId = 1;

  const tooHeavy = (job: Job, reason: OverBudget): Error =>
    job.options.tooHeavy?.(reason) ?? new WorkTooHeavyError(reason);

  const remember = (job: Job, reason: OverBudget) => {
    const key = job.options.verdictKey;
    if (key === undefined) return;
    if (verdicts.size >= VERDICTS) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, { reason, until: Date.now() + VERDICT_MS });
  };

  const endJob = (job: Job) => {
    clearTimeout(job.timer);
    clearInterval(job.watch);
  };

  function spawn({
    memoryBytes,
    nice = CHILD_NICE,
  }: Pick<WorkBudget, 'memoryBytes' | 'nice'>): Proc {
    const heapMb = Math.max(64, Math.floor((memoryBytes * 0.75) / MIB));
    const child = fork(fileURLToPath(CHILD), [], {
      serialization: 'advanced',
      execArgv: ['--import', TSX, `--max-old-space-size=${heapMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const proc: Proc = { child, loaded: false, job: null, stderr: '' };
    processes.add(proc);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      proc.stderr = (proc.stderr + text).slice(-STDERR_TAIL);
    });
    // A child unref'd stream would otherwise keep the server process alive.
    (child.stderr as unknown as { unref?(): void } | null)?.unref?.();
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Not allowed here: it runs at the same priority.
      }
    }
    child.on('message', (answer: Answer) => onAnswer(proc, answer));
    child.on('error', () => undefined);
    child.on('exit', () => onExit(proc));
    setKeepsAlive(child, false);
    return proc;
  }

  function idle(proc: Proc) {
    proc.job = null;
    setKeepsAlive(proc.child, false);
    clearTimeout(proc.idleTimer);
    proc.idleTimer = setTimeout(() => {
      if (proc.job) return;
      processes.delete(proc);
      proc.child.kill('SIGKILL');
    }, idleMs);
    proc.idleTimer.unref();
  }

  function onAnswer(proc: Proc, answer: Answer) {
    if (answer.kind === 'ready') {
      proc.loaded = true;
      idle(proc);
      pump();
      return;
    }
    const job = proc.job;
    if (!job || job.id !== answer.id || job.stopped) return;
    if (answer.kind === 'started') {
      job.timer = setTimeout(() => stop(proc, job, 'time'), job.options.budget.timeMs);
      return;
    }
    endJob(job);
    idle(proc);
    switch (answer.kind) {
      case 'done':
        job.resolve(answer.result);
        break;
      case 'problem':
        job.reject(new HttpProblem(answer.status, answer.detail));
        break;
      case 'heavy':
        remember(job, 'memory');
        job.reject(tooHeavy(job, 'memory'));
        break;
      case 'error':
        job.reject(job.options.revive?.(answer.error) ?? new Error(answer.error.text));
        break;
    }
    pump();
  }

  function onExit(proc: Proc) {
    processes.delete(proc);
    clearTimeout(proc.idleTimer);
    const job = proc.job;
    proc.job = null;
    if (job) {
      endJob(job);
      const reason = job.stopped ?? 'crash';
      remember(job, reason);
      const error = tooHeavy(job, reason);
      if (error instanceof WorkTooHeavyError && reason === 'crash') error.output = proc.stderr;
      job.reject(error);
    } else if (!proc.loaded) {
      // It could not load: a fault of the server, not of a file. The waiting requests fail
      // rather than starting process after process.
      const error = new Error(`${options.label} could not start: ${proc.stderr.trim()}`);
      for (const waiting of queue.splice(0)) waiting.reject(error);
    }
    pump();
  }

  /** Kills the process running `job`, for `reason` (its exit rejects the job). */
  function stop(proc: Proc, job: Job, reason: OverBudget) {
    if (proc.job !== job || job.stopped) return;
    job.stopped = reason;
    endJob(job);
    proc.child.kill('SIGKILL');
  }

  function assign(proc: Proc, job: Job) {
    proc.job = job;
    clearTimeout(proc.idleTimer);
    setKeepsAlive(proc.child, true);
    const { memoryBytes } = job.options.budget;
    const pid = proc.child.pid;
    if (pid !== undefined) {
      job.watch = setInterval(() => {
        void residentBytes(pid).then((bytes) => {
          if (bytes !== null && bytes > memoryBytes) stop(proc, job, 'memory');
        });
      }, WATCH_MS);
    }
    const message: JobMessage = {
      id: job.id,
      call: job.call,
      sqliteHeapBytes: Math.floor(memoryBytes / 2),
    };
    proc.child.send(message);
  }

  /** Whether `job` may start now: its owner keeps one process free for the others. */
  function runnable(job: Job): boolean {
    const owner = job.options.owner;
    if (owner === undefined || options.size === 1) return true;
    let running = 0;
    for (const proc of processes) if (proc.job?.options.owner === owner) running++;
    return running < options.size - 1;
  }

  function pump() {
    for (;;) {
      const waiting = queue.filter(runnable);
      const job = waiting[0];
      if (!job) return;
      const free = [...processes].find((proc) => proc.loaded && !proc.job && proc.child.connected);
      if (free) {
        queue.splice(queue.indexOf(job), 1);
        assign(free, job);
        continue;
      }
      const starting = [...processes].filter((proc) => !proc.loaded).length;
      if (processes.size < options.size && starting < waiting.length) {
        // Requests wait for it: it keeps the server process alive until it answers them.
        setKeepsAlive(spawn(job.options.budget).child, true);
        continue;
      }
      return;
    }
  }

  const run = (call: Call, runOptions: RunOptions): Promise<unknown> =>
    new Promise<unknown>((resolve, reject) => {
      const job: Job = {
        id: nextId++,
        call,
        options: runOptions,
        resolve,
        reject,
      };
      const key = runOptions.verdictKey;
      const verdict = key === undefined ? undefined : verdicts.get(key);
      if (verdict) {
        if (verdict.until > Date.now()) {
          verdictCounts.answered++;
          reject(tooHeavy(job, verdict.reason));
          return;
        }
        verdicts.delete(key!);
      }
      queue.push(job);
      pump();
    });

  return {
    run,
    start(budget) {
      if (processes.size === 0) spawn(budget);
    },
    ready: () => [...processes].some((proc) => proc.loaded && !proc.job),
    stop() {
      for (const proc of processes) {
        if (proc.job) proc.job.stopped = 'crash';
        proc.child.kill('SIGKILL');
      }
    },
  };
}
