/**
 * Runs the capture operations (operations.ts) in a worker thread (lib/worker-thread.ts), so
 * reading a QGIS project or editing a large GeoPackage never holds up the server's
 * requests. Refusals (EditRefusal) come back as themselves.
 */
import { threadRunner } from '../../lib/worker-thread';
import {
  reviveCaptureError,
  runCapture,
  type CaptureRequest,
  type CaptureResult,
} from './operations';

const run = threadRunner<CaptureRequest, CaptureResult>({
  url: new URL('./capture.worker.mjs', import.meta.url),
  label: 'The capture worker',
  runHere: runCapture,
  reviveError: reviveCaptureError,
  idleMs: 5 * 60 * 1000,
});

export function runCaptureInThread<R extends CaptureRequest>(
  request: R,
): Promise<Extract<CaptureResult, { kind: R['kind'] }>> {
  return run(request) as Promise<Extract<CaptureResult, { kind: R['kind'] }>>;
}
