/**
 * Making a page patch (page-patch.ts), run in the sandbox's background lane (lib/sandbox):
 * both files read and compared page by page, the changed runs compressed, away from the
 * server's requests and within the background budget.
 */
import { makePagePatch } from './page-patch';

/** The compressed patch from the bytes of `before` to those of `after`; null when none. */
export async function makePatchBytes(before: string, after: string): Promise<Uint8Array | null> {
  return makePagePatch(before, after);
}
