/** Worker thread: runs geodiff operations (operations.ts) off the server's main thread. */
import { serveInThread } from '../lib/worker-thread';
import { refusalName, runGeodiff } from './operations';

serveInThread(runGeodiff, (error) => {
  const name = refusalName(error);
  return name ? { name, text: (error as Error).message } : null;
});
