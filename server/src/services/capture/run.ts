/**
 * Runs the capture operations (operations.ts) in the sandbox (lib/sandbox: a child process
 * within a time and memory budget), so reading a QGIS project or editing a large GeoPackage
 * never holds up the server's requests. Refusals (EditRefusal) come back as themselves.
 */
import type { AppContext } from '../../context';
import { sandboxModule, type WorkLane } from '../../lib/sandbox';
import { reviveCaptureError, type CaptureRequest, type CaptureResult } from './operations';
import type * as Operations from './operations';

const runCapture = sandboxModule<typeof Operations>(new URL('./operations.ts', import.meta.url)).fn(
  'runCapture',
);

/** Runs a capture operation in the sandbox's lane (forms: interactive; edits: background). */
export async function runCaptureWork<R extends CaptureRequest>(
  ctx: AppContext,
  request: R,
  lane: WorkLane,
): Promise<Extract<CaptureResult, { kind: R['kind'] }>> {
  const result = await runCapture(ctx, { lane, revive: reviveCaptureError }, request);
  return result as Extract<CaptureResult, { kind: R['kind'] }>;
}
