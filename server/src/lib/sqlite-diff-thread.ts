/**
 * Runs the SQLite comparison (lib/sqlite-diff.ts) in a worker thread (lib/worker-thread.ts),
 * so a large layer never holds up the server's requests. Without a worker thread the
 * comparison runs here, yielding to the event loop now and then.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { threadRunner } from './worker-thread';
import { ChangesImpossibleError, diffSqliteFiles, type TableSummary } from './sqlite-diff';

export interface DiffRequest {
  oldFile: string;
  newFile: string;
  maxEntries: number;
}

export interface DiffResult {
  summary: TableSummary[];
  /** The change list as JSON text. */
  changesJson: string;
  truncated: boolean;
}

/** The comparison as it crosses the thread; `onProgress` lets a caller yield meanwhile. */
export async function compareForThread(
  request: DiffRequest,
  onProgress?: () => Promise<void>,
): Promise<DiffResult> {
  const diff = await diffSqliteFiles(request.oldFile, request.newFile, {
    maxEntries: request.maxEntries,
    onProgress,
  });
  return {
    summary: diff.summary,
    changesJson: JSON.stringify(diff.entries),
    truncated: diff.truncated,
  };
}

const run = threadRunner<DiffRequest, DiffResult>({
  url: new URL('./sqlite-diff.worker.mjs', import.meta.url),
  label: 'The comparison worker',
  runHere: (request) => compareForThread(request, () => yieldToEventLoop()),
  reviveError: ({ name, text }) =>
    name === 'ChangesImpossibleError' ? new ChangesImpossibleError(text) : null,
});

/** Compares the two files; throws ChangesImpossibleError when that cannot be done. */
export function diffSqliteFilesInThread(
  oldFile: string,
  newFile: string,
  options: { maxEntries: number },
): Promise<DiffResult> {
  return run({ oldFile, newFile, maxEntries: options.maxEntries });
}
