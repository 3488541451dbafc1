/** Worker thread: runs the capture operations (operations.ts) off the server's main thread. */
import { serveInThread } from '../../lib/worker-thread';
import { knownCaptureError, runCapture } from './operations';

serveInThread(runCapture, knownCaptureError);
