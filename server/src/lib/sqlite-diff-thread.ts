/**
 * Runs the SQLite comparison (lib/sqlite-diff.ts) in a worker thread, so a large layer never
 * holds up the server's requests. One worker per process is started on first use and kept
 * (it does not keep the process alive); it is TypeScript loaded through tsx (a dependency,
 * as for the server itself) by a small .mjs bootstrap, which takes a second or two once.
 * A worker that dies fails its requests and is started again on the next one. Should no
 * worker thread start at all, the comparison runs on the main thread, yielding to the event
 * loop now and then.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { ChangesImpossibleError, diffSqliteFiles, type TableSummary } from './sqlite-diff';
import type { DiffAnswer, DiffRequest } from './sqlite-diff.worker';

export interface DiffResult {
  summary: TableSummary[];
  /** The change list as JSON text. */
  changesJson: string;
  truncated: boolean;
}

interface Pending {
  request: DiffRequest;
  resolve(result: DiffResult): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
let workerUnavailable = false;
let nextId = 1;
const pending = new Map<number, Pending>();

/** On the main thread (no worker thread could be started). */
async function diffHere(oldFile: string, newFile: string, maxEntries: number): Promise<DiffResult> {
  const diff = await diffSqliteFiles(oldFile, newFile, {
    maxEntries,
    onProgress: () => yieldToEventLoop(),
  });
  return {
    summary: diff.summary,
    changesJson: JSON.stringify(diff.entries),
    truncated: diff.truncated,
  };
}

function startWorker(): Worker {
  const thread = new Worker(new URL('./sqlite-diff.worker.mjs', import.meta.url));
  let loaded = false;
  thread.unref();
  thread.on('message', (answer: DiffAnswer) => {
    loaded = true;
    const request = pending.get(answer.id);
    if (!request) return;
    pending.delete(answer.id);
    if (pending.size === 0) thread.unref();
    if (answer.kind === 'done') {
      request.resolve({
        summary: answer.summary as TableSummary[],
        changesJson: answer.changesJson,
        truncated: answer.truncated,
      });
    } else if (answer.kind === 'ready') {
      return;
    } else if (answer.kind === 'impossible') {
      request.reject(new ChangesImpossibleError(answer.reason));
    } else {
      request.reject(new Error(answer.message));
    }
  });
  const gone = (error: Error) => {
    if (worker !== thread) return;
    worker = null;
    const waiting = [...pending.values()];
    pending.clear();
    // A worker that never loaded cannot be had here: do the work on this thread from now on.
    if (!loaded) workerUnavailable = true;
    for (const { request, resolve, reject } of waiting) {
      if (loaded) reject(error);
      else diffHere(request.oldFile, request.newFile, request.maxEntries).then(resolve, reject);
    }
  };
  thread.on('error', gone);
  thread.on('exit', (code) => gone(new Error(`The comparison worker exited with code ${code}`)));
  return thread;
}

/** Compares the two files; throws ChangesImpossibleError when that cannot be done. */
export async function diffSqliteFilesInThread(
  oldFile: string,
  newFile: string,
  options: { maxEntries: number },
): Promise<DiffResult> {
  if (!workerUnavailable) {
    try {
      worker ??= startWorker();
    } catch {
      workerUnavailable = true;
    }
  }
  const thread = worker;
  if (!thread) return diffHere(oldFile, newFile, options.maxEntries);
  const id = nextId++;
  const request: DiffRequest = { id, oldFile, newFile, maxEntries: options.maxEntries };
  return new Promise<DiffResult>((resolve, reject) => {
    pending.set(id, { request, resolve, reject });
    // Keep the process alive while an answer is due.
    thread.ref();
    thread.postMessage(request);
  });
}
