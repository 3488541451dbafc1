/**
 * Making a version's page patch (page-patch.ts) and putting it into the blob store, where a
 * version's commit (or the conversion) then references it from the version's blob row
 * (`blobs.patch_key`). A patch is a shortcut for rebuilds: when it cannot be made (a change
 * too large, an error), the version has none and is rebuilt from its diff.
 */
import { Readable } from 'node:stream';
import type { BlobInfo } from '../../storage/blob-store';
import type { FileStoreContext } from './context';
import { makePagePatch } from './page-patch';

/** The patch from the bytes of `before` to those of `after`, stored; null when none. */
export async function storePagePatch(
  ctx: FileStoreContext,
  before: string,
  after: string,
): Promise<BlobInfo | null> {
  try {
    const patch = await makePagePatch(before, after);
    if (!patch) return null;
    return await ctx.blobStore.put(Readable.from([patch]), { expectedSize: patch.length });
  } catch (error) {
    ctx.log.warn(
      { err: error },
      'A page patch could not be made; the version is rebuilt from its diff',
    );
    return null;
  }
}
