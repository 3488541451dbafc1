/**
 * A new version of a GeoPackage / SQLite file made from a diff (a plugin's diff push, v1 or
 * v2; a version the server makes with a changeset, e.g. resolving an edit conflict; browser
 * edits): stored as that diff. The whole file is made once, in this instance's cache, for
 * its SHA-1 (the version's checksum) and for the readers that come next:
 *
 * - the file of the version it builds on is taken from the cache (moved, not copied: the
 *   push before left it there), or copied once from the blob store / rebuilt when missing;
 * - the diff is applied to it in place in the sandbox (background lane: applying a diff to
 *   a large file may pass the interactive budget; main applied pushed diffs there too), the
 *   stable way (the bytes any later rebuild makes), and the result hashed in the server's
 *   hashing thread (apply-in-place.ts: the one read of the whole file, not behind the
 *   sandbox's lower priority);
 * - the result enters the cache under its SHA-1; the version's blob gets the recipe (base,
 *   diff) and no bytes in the blob store. The file is written whole later, in the background,
 *   while it is the latest version (tasks.ts).
 *
 * The finish of a push therefore reads the file once (the SHA-1) and writes only the pages
 * the diff changes.
 */
import { rm } from 'node:fs/promises';
import type { BlobInfo } from '../../storage/blob-store';
import { applyInPlace } from './apply-in-place';
import { fileCacheOf, type FileStoreContext } from './context';
import { copyStoredFile } from './reader';
import { downloadBlob } from './rebuild';
import { recipeKey, type Recipe } from './recipe';

/** The file a diff made: its key (the recipe's), size and SHA-1, and the recipe. */
export interface DiffMadeFile {
  key: string;
  size: number;
  sha1: string;
  recipe: Recipe;
}

/**
 * Applies the diff in blob `diff` to the file `base` (a version's blob, with the size and
 * SHA-1 recorded for it). Throws the geodiff refusals (ChangesetConflictError,
 * ChangesetFormatError) when the diff does not apply; nothing is recorded then.
 */
export async function fileFromDiff(
  ctx: FileStoreContext,
  base: { key: string; size: number; checksum: string },
  diff: BlobInfo,
): Promise<DiffMadeFile> {
  const cache = fileCacheOf(ctx);
  await cache.open();
  const work = cache.workPath();
  const diffFile = `${work}.diff`;
  try {
    if (!(await cache.take(base.checksum, base.size, work))) {
      await copyStoredFile(ctx, base.key, work, 'background');
    }
    await downloadBlob(ctx, diff.key, diffFile);
    const made = await applyInPlace(ctx, work, [diffFile], 'background');
    await cache.adopt(work, made.sha1, made.size);
    const recipe = { baseKey: base.key, diffKey: diff.key };
    return { key: recipeKey(recipe), size: made.size, sha1: made.sha1, recipe };
  } finally {
    await rm(work, { force: true });
    await rm(diffFile, { force: true });
  }
}
