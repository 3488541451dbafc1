/**
 * Worker thread: compares pairs of SQLite files (lib/sqlite-diff.ts) off the server's main
 * thread, one request at a time, and answers each (see lib/sqlite-diff-thread.ts).
 */
import { parentPort } from 'node:worker_threads';
import { ChangesImpossibleError, diffSqliteFiles } from './sqlite-diff';

export interface DiffRequest {
  id: number;
  oldFile: string;
  newFile: string;
  maxEntries: number;
}

export type DiffAnswer = { id: number } & (
  | { kind: 'ready' }
  | { kind: 'done'; summary: unknown; changesJson: string; truncated: boolean }
  | { kind: 'impossible'; reason: string }
  | { kind: 'failed'; message: string }
);

parentPort!.on('message', async (request: DiffRequest) => {
  let answer: DiffAnswer;
  try {
    const diff = await diffSqliteFiles(request.oldFile, request.newFile, {
      maxEntries: request.maxEntries,
    });
    answer = {
      id: request.id,
      kind: 'done',
      summary: diff.summary,
      changesJson: JSON.stringify(diff.entries),
      truncated: diff.truncated,
    };
  } catch (error) {
    answer =
      error instanceof ChangesImpossibleError
        ? { id: request.id, kind: 'impossible', reason: error.reason }
        : {
            id: request.id,
            kind: 'failed',
            message: error instanceof Error ? error.message : String(error),
          };
  }
  parentPort!.postMessage(answer);
});

// Loaded: from now on a failure of this thread is not a failure to start one.
parentPort!.postMessage({ id: 0, kind: 'ready' } satisfies DiffAnswer);
