/**
 * Applying diffs to a file of this instance in place (the push's new version, a rebuild, the
 * conversion's check): the diffs are applied in the sandbox (SQLite work on a user's file,
 * geodiff/operations.ts `apply-chain`, one call and one connection for the whole chain), and
 * the result is hashed here, in the hashing thread (lib/sha1-thread.ts). Reading the whole
 * file for its SHA-1 is no SQLite work: in the server's own thread it does not wait behind
 * the sandbox's lower priority on a busy machine, and it is the one full read the apply costs.
 */
import { runGeodiffWork } from '../../geodiff/run';
import type { WorkLane } from '../../lib/sandbox';
import type { FileStoreContext } from './context';
import { hashFileInThread } from './hash';

export async function applyInPlace(
  ctx: FileStoreContext,
  file: string,
  diffs: string[],
  lane: WorkLane,
): Promise<{ size: number; sha1: string }> {
  await runGeodiffWork(ctx, { kind: 'apply-chain', file, diffs, hash: false }, { lane });
  return hashFileInThread(file);
}
