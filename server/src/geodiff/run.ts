/**
 * Runs geodiff operations (operations.ts) in the sandbox (lib/sandbox: a child process
 * within a budget), so a large or hostile file never holds up the server's requests.
 * Refusals come back as their own error classes.
 */
import {
  sandboxModule,
  type CrossedError,
  type SandboxCall,
  type SandboxContext,
} from '../lib/sandbox';
import { ChangesImpossibleError } from '../lib/sqlite-diff';
import type { GeodiffRequest, GeodiffResult } from './operations';
import { REFUSALS } from './operations';
import type * as Operations from './operations';

const runGeodiff = sandboxModule<typeof Operations>(new URL('./operations.ts', import.meta.url)).fn(
  'runGeodiff',
);

/** A refusal thrown in the sandbox, rebuilt; null for any other error. */
function revive({ name, text, fields }: CrossedError): Error | null {
  if (Object.hasOwn(REFUSALS, name)) return new REFUSALS[name as keyof typeof REFUSALS](text);
  if (name === 'ChangesImpossibleError' && typeof fields.reason === 'string') {
    return new ChangesImpossibleError(fields.reason);
  }
  return null;
}

/** Runs a geodiff operation in the sandbox's lane. */
export async function runGeodiffWork<R extends GeodiffRequest>(
  ctx: SandboxContext,
  request: R,
  call: Omit<SandboxCall, 'revive'>,
): Promise<Extract<GeodiffResult, { kind: R['kind'] }>> {
  const result = await runGeodiff(ctx, { ...call, revive }, request);
  return result as Extract<GeodiffResult, { kind: R['kind'] }>;
}
