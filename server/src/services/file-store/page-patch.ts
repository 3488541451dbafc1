/**
 * Page patches: the bytes a version made from a diff differs by from its base, page by page,
 * so a rebuild writes pages instead of replaying the diff's SQL (decision record
 * draft-page-deltas-page-patches.md).
 *
 * A patch holds the numbers of the pages (SQLite's page size, from the new file's header;
 * 4096 when it has none) whose bytes differ from the base's, each such page XOR'd with the
 * base's page (zeros where unchanged, so it compresses to about the changed bytes), the base's
 * length and the new length; compressed with brotli (QUALITY). A page of either file is its
 * bytes within the file's length, zeros beyond. Applying it to a file of the base's bytes:
 * each listed page XOR'd in place, then the file cut (or extended with zeros) to the new
 * length. No SQLite work: a version rebuilds by copying its whole copy and writing the
 * patched pages of each step in order. The result is checked against the version's SHA-1 by
 * the caller, like any rebuild.
 *
 * Layout before compression (big-endian): "WMPP", format 1 (u32), page size (u32), base
 * length (u64), new length (u64), page count n (u32), n page numbers (u32, ascending), n pages
 * of XOR'd bytes.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

const MAGIC = 0x574d5050; // "WMPP"
const FORMAT = 1;
const HEADER = 4 + 4 + 4 + 8 + 8 + 4;
/** Bytes of XOR'd pages a patch may hold before compression (larger changes: no patch). */
export const MAX_PATCH_PAGE_BYTES = 64 * 1024 * 1024;
/** Bytes read at a time while comparing (a multiple of every page size). */
const CHUNK = 1024 * 1024;

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);
/**
 * Brotli's quality for patches. Measured on 1 % edits of the 100,000-feature layer (870 pages
 * changed, 3.5 MB of XOR'd pages, 50 KB diff): deflate level 1 → 97 KB, level 6 → 77 KB;
 * brotli 4 → 61 KB, 6 → 52 KB, 9 → 52 KB (at 2-5× the time of 6).
 */
const QUALITY = 5;

/** A patch that cannot be used (corrupt, or not for the bytes it is applied to). */
export class PagePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PagePatchError';
  }
}

/** The page size a SQLite file's header names; 4096 for other files. */
export function pageSizeOf(header: Uint8Array): number {
  const magic = 'SQLite format 3\0';
  if (header.length < 100 || Buffer.from(header.subarray(0, 16)).toString('latin1') !== magic) {
    return 4096;
  }
  const raw = (header[16]! << 8) | header[17]!;
  const size = raw === 1 ? 65536 : raw;
  return size >= 512 && size <= 65536 && (size & (size - 1)) === 0 ? size : 4096;
}

/** Fills `into` with the file's bytes at `position` (zeros beyond its end). */
async function readAt(handle: FileHandle, into: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  into.fill(0, done);
}

function xorInto(target: Buffer, other: Buffer): void {
  for (let i = 0; i < target.length; i++) target[i]! ^= other[i]!;
}

/**
 * The patch that makes the bytes of `after` from those of `before` (both files on this
 * machine), compressed; null when the change is too large for a patch (over
 * MAX_PATCH_PAGE_BYTES of changed pages).
 */
export async function makePagePatch(before: string, after: string): Promise<Buffer | null> {
  const [base, next] = await Promise.all([open(before, 'r'), open(after, 'r')]);
  try {
    const [baseLength, newLength] = await Promise.all([
      base.stat().then((s) => s.size),
      next.stat().then((s) => s.size),
    ]);
    const head = Buffer.alloc(100);
    await readAt(next, head, 0);
    const pageSize = pageSizeOf(head);
    const pages: number[] = [];
    const xors: Buffer[] = [];
    const a = Buffer.allocUnsafeSlow(CHUNK);
    const b = Buffer.allocUnsafeSlow(CHUNK);
    for (let offset = 0; offset < newLength; offset += CHUNK) {
      await Promise.all([readAt(base, a, offset), readAt(next, b, offset)]);
      // Bytes of each file past its length read as zeros (readAt); the new file's past its
      // length are dropped by the cut at the end.
      if (offset + CHUNK > baseLength) a.fill(0, Math.max(0, baseLength - offset));
      if (offset + CHUNK > newLength) b.fill(0, Math.max(0, newLength - offset));
      const end = Math.min(CHUNK, newLength - offset);
      for (let at = 0; at < end; at += pageSize) {
        const was = a.subarray(at, at + pageSize);
        const now = b.subarray(at, at + pageSize);
        if (was.equals(now)) continue;
        if ((xors.length + 1) * pageSize > MAX_PATCH_PAGE_BYTES) return null;
        const xor = Buffer.from(now);
        xorInto(xor, was);
        pages.push((offset + at) / pageSize);
        xors.push(xor);
      }
    }
    const header = Buffer.alloc(HEADER + pages.length * 4);
    header.writeUInt32BE(MAGIC, 0);
    header.writeUInt32BE(FORMAT, 4);
    header.writeUInt32BE(pageSize, 8);
    header.writeBigUInt64BE(BigInt(baseLength), 12);
    header.writeBigUInt64BE(BigInt(newLength), 20);
    header.writeUInt32BE(pages.length, 28);
    pages.forEach((page, i) => header.writeUInt32BE(page, HEADER + i * 4));
    const raw = Buffer.concat([header, ...xors]);
    return await compress(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
  } finally {
    await Promise.all([base.close(), next.close()]);
  }
}

/** A patch read back: its lengths and pages. */
export interface PagePatch {
  pageSize: number;
  baseLength: number;
  newLength: number;
  pages: number[];
  /** Page i's XOR'd bytes: data.subarray(start + i * pageSize, ...). */
  data: Buffer;
  start: number;
}

/** Decompresses and checks a patch (PagePatchError when it is not one). */
export async function readPagePatch(compressed: Buffer): Promise<PagePatch> {
  let raw: Buffer;
  try {
    raw = await decompress(compressed);
  } catch (error) {
    throw new PagePatchError(`the patch does not decompress: ${(error as Error).message}`);
  }
  if (raw.length < HEADER || raw.readUInt32BE(0) !== MAGIC || raw.readUInt32BE(4) !== FORMAT) {
    throw new PagePatchError('not a page patch');
  }
  const pageSize = raw.readUInt32BE(8);
  const baseLength = Number(raw.readBigUInt64BE(12));
  const newLength = Number(raw.readBigUInt64BE(20));
  const count = raw.readUInt32BE(28);
  const start = HEADER + count * 4;
  if (
    pageSize < 512 ||
    pageSize > 65536 ||
    !Number.isSafeInteger(baseLength) ||
    !Number.isSafeInteger(newLength) ||
    raw.length !== start + count * pageSize
  ) {
    throw new PagePatchError('the patch is damaged');
  }
  const pages: number[] = [];
  let last = -1;
  for (let i = 0; i < count; i++) {
    const page = raw.readUInt32BE(HEADER + i * 4);
    if (page <= last || page * pageSize >= newLength)
      throw new PagePatchError('the patch is damaged');
    pages.push(page);
    last = page;
  }
  return { pageSize, baseLength, newLength, pages, data: raw, start };
}

/**
 * Applies patches in order to `file` (which holds the bytes the first patch was made
 * against). PagePatchError when a patch does not fit the file's length at its step.
 */
export async function applyPagePatches(file: string, patches: PagePatch[]): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    let length = (await handle.stat()).size;
    for (const patch of patches) {
      if (patch.baseLength !== length) {
        throw new PagePatchError(
          `the patch is for a file of ${patch.baseLength} bytes, not ${length}`,
        );
      }
      const page = Buffer.allocUnsafeSlow(patch.pageSize);
      for (const [i, number] of patch.pages.entries()) {
        const position = number * patch.pageSize;
        await readAt(handle, page, position);
        if (position + patch.pageSize > length) page.fill(0, Math.max(0, length - position));
        const from = patch.start + i * patch.pageSize;
        xorInto(page, patch.data.subarray(from, from + patch.pageSize));
        const bytes = Math.min(patch.pageSize, patch.newLength - position);
        await handle.write(page, 0, bytes, position);
      }
      await handle.truncate(patch.newLength);
      length = patch.newLength;
    }
  } finally {
    await handle.close();
  }
}
