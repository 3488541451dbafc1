/**
 * Runs geodiff operations (operations.ts) in a worker thread (lib/worker-thread.ts), so
 * applying or creating a large diff never holds up the server's requests. Refusals come back
 * as their own error classes.
 */
import { threadRunner } from '../lib/worker-thread';
import {
  REFUSALS,
  runGeodiff,
  type GeodiffRequest,
  type GeodiffResult,
  type RefusalName,
} from './operations';

const run = threadRunner<GeodiffRequest, GeodiffResult>({
  url: new URL('./geodiff.worker.mjs', import.meta.url),
  label: 'The geodiff worker',
  runHere: runGeodiff,
  reviveError: ({ name, text }) =>
    Object.hasOwn(REFUSALS, name) ? new REFUSALS[name as RefusalName](text) : null,
});

export function runGeodiffInThread<R extends GeodiffRequest>(
  request: R,
): Promise<Extract<GeodiffResult, { kind: R['kind'] }>> {
  return run(request) as Promise<Extract<GeodiffResult, { kind: R['kind'] }>>;
}
