/**
 * Runs geodiff operations (operations.ts) in a worker thread, so applying or creating a
 * large diff never holds up the server's requests. Same scheme as lib/sqlite-diff-thread.ts:
 * one worker per process, started on first use (through tsx, by a small .mjs bootstrap) and
 * kept without keeping the process alive; a worker that dies fails its requests and is
 * started again on the next one; should no worker start at all, the work runs here.
 */
import { Worker } from 'node:worker_threads';
import type { GeodiffAnswer } from './geodiff.worker';
import {
  REFUSALS,
  runGeodiff,
  type GeodiffRequest,
  type GeodiffResult,
  type RefusalName,
} from './operations';

interface Pending {
  request: GeodiffRequest;
  resolve(result: GeodiffResult): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
let workerUnavailable = false;
let nextId = 1;
const pending = new Map<number, Pending>();

function startWorker(): Worker {
  const thread = new Worker(new URL('./geodiff.worker.mjs', import.meta.url));
  let loaded = false;
  thread.unref();
  thread.on('message', (answer: GeodiffAnswer) => {
    loaded = true;
    if (answer.kind === 'ready') return;
    const request = pending.get(answer.id);
    if (!request) return;
    pending.delete(answer.id);
    if (pending.size === 0) thread.unref();
    if (answer.kind === 'done') request.resolve(answer.result);
    else if (answer.kind === 'refused') {
      const Refusal = REFUSALS[answer.name as RefusalName];
      request.reject(Refusal ? new Refusal(answer.message) : new Error(answer.message));
    } else request.reject(new Error(answer.message));
  });
  const gone = (error: Error) => {
    if (worker !== thread) return;
    worker = null;
    const waiting = [...pending.values()];
    pending.clear();
    if (!loaded) workerUnavailable = true;
    for (const { request, resolve, reject } of waiting) {
      if (loaded) reject(error);
      else runGeodiff(request).then(resolve, reject);
    }
  };
  thread.on('error', gone);
  thread.on('exit', (code) => gone(new Error(`The geodiff worker exited with code ${code}`)));
  return thread;
}

/** Runs `request` in the worker; refusals come back as their own error classes. */
export function runGeodiffInThread<R extends GeodiffRequest>(
  request: R,
): Promise<Extract<GeodiffResult, { kind: R['kind'] }>> {
  if (!workerUnavailable) {
    try {
      worker ??= startWorker();
    } catch {
      workerUnavailable = true;
    }
  }
  const thread = worker;
  type Out = Extract<GeodiffResult, { kind: R['kind'] }>;
  if (!thread) return runGeodiff(request) as Promise<Out>;
  const id = nextId++;
  return new Promise<Out>((resolve, reject) => {
    pending.set(id, { request, resolve: resolve as (r: GeodiffResult) => void, reject });
    thread.ref();
    thread.postMessage({ id, request });
  });
}
