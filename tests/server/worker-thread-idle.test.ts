/**
 * A thread runner with `idleMs` (lib/worker-thread.ts; the map's point index worker uses it):
 * its worker is ended once it has had nothing to do for that long, never while a request is
 * pending, and the next request starts a new one; `ready()` says whether one is loaded.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadRunner } from '../../server/src/lib/worker-thread';
import { scratch, type Scratch } from './support/geopackage';

/** The worker side of the protocol, by hand: answers its thread id after `delay` ms. */
const WORKER = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', ({ id, request }) => {
  setTimeout(() => parentPort.postMessage({ id, kind: 'done', result: threadId }), request.delay);
});
parentPort.postMessage({ id: 0, kind: 'ready' });
`;

const IDLE_MS = 300;

let s: Scratch;
let url: URL;

beforeAll(async () => {
  s = await scratch();
  const file = path.join(s.dir, 'idle.worker.mjs');
  await writeFile(file, WORKER);
  url = pathToFileURL(file);
});

afterAll(async () => {
  await s.cleanup();
});

const runner = () =>
  threadRunner<{ delay: number }, number>({
    url,
    label: 'The test worker',
    runHere: () => Promise.reject(new Error('no worker thread')),
    reviveError: () => null,
    idleMs: IDLE_MS,
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a thread runner with idleMs', () => {
  it('keeps its worker while busy and ends it after idleMs without work', async () => {
    const run = runner();
    expect(run.ready()).toBe(false);
    const first = await run({ delay: 0 });
    expect(run.ready()).toBe(true);
    // Longer than idleMs, but pending: the worker is kept.
    expect(await run({ delay: IDLE_MS * 2 })).toBe(first);
    expect(await run({ delay: 0 })).toBe(first);
    // Nothing to do for longer than idleMs: the worker ended, the next request starts another.
    await pause(IDLE_MS * 3);
    expect(run.ready()).toBe(false);
    const next = await run({ delay: 0 });
    expect(next).not.toBe(first);
    expect(await run({ delay: 0 })).toBe(next);
  });

  it('answers a request that comes while an ended worker exits', async () => {
    const run = runner();
    const first = await run({ delay: 0 });
    await pause(IDLE_MS * 3);
    const answers = await Promise.all([run({ delay: 0 }), run({ delay: 10 })]);
    expect(answers[0]).not.toBe(first);
    expect(answers[1]).toBe(answers[0]);
  });
});
