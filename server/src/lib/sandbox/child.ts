/**
 * A sandbox child process (started by runner.ts with tsx's loader): calls the module
 * functions it is asked to, one request at a time. Modules stay loaded, so their state (open
 * files, caches) serves the next request. HTTP problems (a 400 or 404 about the request)
 * cross as such; running out of memory (SQLite's SQLITE_NOMEM under its hard heap limit, a
 * JavaScript allocation that failed) is reported as such; any other error crosses with its
 * name, message and own properties, for the caller to rebuild (index.ts `revive`).
 *
 * A watch thread ends this process when its parent is gone: the main thread may be inside
 * SQLite for as long as a hostile file makes it, where no event (not even the IPC channel
 * closing) is seen.
 */
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { HttpProblem } from '../../errors';
import { isOutOfMemory } from './memory';
import type { Answer, Call, Job } from './protocol';

/** How often the watch thread looks for the parent (ms). */
const ORPHAN_CHECK_MS = 500;

const ORPHAN_WATCH = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL');
}, workerData.every);
`;

let heapLimit = -1;
let limiter: Database.Database | null = null;

/** SQLite's hard heap limit of this process (all connections share it). */
function setSqliteHeapLimit(bytes: number): void {
  if (bytes === heapLimit) return;
  limiter ??= new Database(':memory:');
  limiter.pragma(`hard_heap_limit = ${Math.max(0, Math.floor(bytes))}`);
  heapLimit = bytes;
}

/** Loads the module (once per process), says the work starts, and runs it. */
async function call(id: number, { module, name, args }: Call): Promise<unknown> {
  const loaded = (await import(module)) as Record<string, unknown>;
  const fn = loaded[name];
  if (typeof fn !== 'function') throw new Error(`${module} has no function ${name}`);
  send!({ id, kind: 'started' } satisfies Answer);
  return (fn as (...values: unknown[]) => unknown)(...args);
}

function answerOf(id: number, error: unknown): Answer {
  if (error instanceof HttpProblem && typeof error.detail === 'string') {
    return { id, kind: 'problem', status: error.status, detail: error.detail };
  }
  if (isOutOfMemory(error)) return { id, kind: 'heavy' };
  if (error instanceof Error) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
        fields[key] = value;
      }
    }
    return { id, kind: 'error', error: { name: error.name, text: error.message, fields } };
  }
  return { id, kind: 'error', error: { name: 'Error', text: String(error), fields: {} } };
}

const send = process.send?.bind(process);
if (!send) throw new Error('The sandbox child needs an IPC channel');
new Worker(ORPHAN_WATCH, {
  eval: true,
  workerData: { parent: process.ppid, every: ORPHAN_CHECK_MS },
}).unref();
process.on('disconnect', () => process.exit(0));
process.on('message', async (job: Job) => {
  let answer: Answer;
  try {
    setSqliteHeapLimit(job.sqliteHeapBytes);
    answer = { id: job.id, kind: 'done', result: await call(job.id, job.call) };
  } catch (error) {
    answer = answerOf(job.id, error);
  }
  send(answer);
});
send({ kind: 'ready' } satisfies Answer);
