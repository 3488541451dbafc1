/**
 * Worker thread: runs geodiff operations (operations.ts) off the server's main thread, one
 * request at a time, and answers each (see thread.ts).
 */
import { parentPort } from 'node:worker_threads';
import { refusalName, runGeodiff, type GeodiffRequest, type GeodiffResult } from './operations';

export type GeodiffAnswer = { id: number } & (
  | { kind: 'ready' }
  | { kind: 'done'; result: GeodiffResult }
  | { kind: 'refused'; name: string; message: string }
  | { kind: 'failed'; message: string }
);

parentPort!.on('message', async ({ id, request }: { id: number; request: GeodiffRequest }) => {
  let answer: GeodiffAnswer;
  try {
    answer = { id, kind: 'done', result: await runGeodiff(request) };
  } catch (error) {
    const name = refusalName(error);
    const message = error instanceof Error ? error.message : String(error);
    answer = name ? { id, kind: 'refused', name, message } : { id, kind: 'failed', message };
  }
  parentPort!.postMessage(answer);
});

parentPort!.postMessage({ id: 0, kind: 'ready' } satisfies GeodiffAnswer);
