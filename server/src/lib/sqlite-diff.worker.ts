/** Worker thread: compares pairs of SQLite files (lib/sqlite-diff-thread.ts). */
import { compareForThread } from './sqlite-diff-thread';
import { serveInThread } from './worker-thread';
import { ChangesImpossibleError } from './sqlite-diff';

serveInThread(compareForThread, (error) =>
  error instanceof ChangesImpossibleError
    ? { name: 'ChangesImpossibleError', text: error.reason }
    : null,
);
