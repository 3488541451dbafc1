/**
 * Keys of blobs made from a diff. Such a blob's bytes are the diff applied to its base's
 * bytes, deterministically (geodiff/apply.ts, the stable way), so the pair names the bytes:
 * its key is a SHA-256 over the two keys. The same push retried gets the same key; the same
 * bytes reached another way get another key (the SHA-1 is what clients compare).
 */
import { createHash } from 'node:crypto';

const PREFIX = 'waymark recipe 1\n';

export interface Recipe {
  /** The blob the diff applies to. */
  baseKey: string;
  /** The diff (a stored blob). */
  diffKey: string;
}

export function recipeKey(recipe: Recipe): string {
  return createHash('sha256').update(`${PREFIX}${recipe.baseKey}\n${recipe.diffKey}`).digest('hex');
}
