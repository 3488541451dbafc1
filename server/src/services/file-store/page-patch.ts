/**
 * Page patches: the bytes a version made from a diff differs by from its base, page by page,
 * so a rebuild writes pages instead of replaying the diff's SQL (decision record
 * 0140-page-patches.md).
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
 * length (u64), new length (u64), page count n (u32), n page numbers (u32, ascending); then
 * for each page its XOR'd bytes as runs (zeros left out; runs closer than RUN_GAP merged):
 * run count (u16), and per run its offset in the page (u16), its length - 1 (u16) and its
 * bytes. Only the changed bytes are held, so decompressing and folding cost what changed,
 * not whole pages (870 pages of 4 KiB XOR'd per 1 % edit of the measured layer, 3.5 MB, of
 * which about 5 % is not zero).
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

const MAGIC = 0x574d5050; // "WMPP"
const FORMAT = 1;
const HEADER = 4 + 4 + 4 + 8 + 8 + 4;
/** Bytes of changed runs a patch may hold before compression (larger changes: no patch). */
export const MAX_PATCH_PAGE_BYTES = 64 * 1024 * 1024;
/** Zero bytes between two changed runs of a page below which they are kept as one run. */
const RUN_GAP = 8;
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

/** target ^= other (same length), by 32-bit words where both are aligned. */
function xorInto(target: Buffer, other: Buffer): void {
  const n = target.length;
  if (target.byteOffset % 4 === 0 && other.byteOffset % 4 === 0 && n % 4 === 0) {
    const a = new Int32Array(target.buffer, target.byteOffset, n / 4);
    const b = new Int32Array(other.buffer, other.byteOffset, n / 4);
    for (let i = 0; i < a.length; i++) a[i]! ^= b[i]!;
    return;
  }
  for (let i = 0; i < n; i++) target[i]! ^= other[i]!;
}

/**
 * The patch that makes the bytes of `after` from those of `before` (both files on this
 * machine), compressed; null when the change is too large for a patch (over
 * MAX_PATCH_PAGE_BYTES of changed bytes, in runs).
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
    const bodies: Buffer[] = [];
    let held = 0;
    const a = Buffer.allocUnsafeSlow(CHUNK);
    const b = Buffer.allocUnsafeSlow(CHUNK);
    const xor = Buffer.allocUnsafeSlow(pageSize);
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
        now.copy(xor);
        xorInto(xor, was);
        const body = encodeRuns(xor);
        held += body.length;
        if (held > MAX_PATCH_PAGE_BYTES) return null;
        pages.push((offset + at) / pageSize);
        bodies.push(body);
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
    const raw = Buffer.concat([header, ...bodies]);
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

/** The runs of bytes that are not zero in a page's XOR (see the layout above). */
function encodeRuns(xor: Buffer): Buffer {
  const runs: [number, number][] = [];
  const n = xor.length;
  let i = 0;
  while (i < n) {
    if (xor[i] === 0) {
      i++;
      continue;
    }
    const start = i;
    let end = i + 1;
    for (let j = end; j < n && j - end < RUN_GAP; j++) if (xor[j] !== 0) end = j + 1;
    runs.push([start, end]);
    i = end;
  }
  const size = 2 + runs.reduce((sum, [from, to]) => sum + 4 + (to - from), 0);
  const body = Buffer.allocUnsafe(size);
  body.writeUInt16BE(runs.length, 0);
  let at = 2;
  for (const [from, to] of runs) {
    body.writeUInt16BE(from, at);
    body.writeUInt16BE(to - from - 1, at + 2);
    xor.copy(body, at + 4, from, to);
    at += 4 + (to - from);
  }
  return body;
}

/** A patch read back: its lengths and pages. */
export interface PagePatch {
  pageSize: number;
  baseLength: number;
  newLength: number;
  pages: number[];
  /** The decompressed patch; page i's runs start at data[bodies[i]]. */
  data: Buffer;
  bodies: number[];
}

/** Decompresses and checks a patch (PagePatchError when it is not one). */
export async function readPagePatch(compressed: Buffer): Promise<PagePatch> {
  let raw: Buffer;
  try {
    raw = await decompress(compressed);
  } catch (error) {
    throw new PagePatchError(`the patch does not decompress: ${(error as Error).message}`);
  }
  const damaged = () => new PagePatchError('the patch is damaged');
  if (raw.length < HEADER || raw.readUInt32BE(0) !== MAGIC || raw.readUInt32BE(4) !== FORMAT) {
    throw new PagePatchError('not a page patch');
  }
  const pageSize = raw.readUInt32BE(8);
  const baseLength = Number(raw.readBigUInt64BE(12));
  const newLength = Number(raw.readBigUInt64BE(20));
  const count = raw.readUInt32BE(28);
  if (
    pageSize < 512 ||
    pageSize > 65536 ||
    !Number.isSafeInteger(baseLength) ||
    !Number.isSafeInteger(newLength) ||
    raw.length < HEADER + count * 4
  ) {
    throw damaged();
  }
  const pages: number[] = [];
  const bodies: number[] = [];
  let last = -1;
  let at = HEADER + count * 4;
  for (let i = 0; i < count; i++) {
    const page = raw.readUInt32BE(HEADER + i * 4);
    if (page <= last || page * pageSize >= newLength) throw damaged();
    pages.push(page);
    last = page;
    // The runs: within the page, in order, within the data.
    if (at + 2 > raw.length) throw damaged();
    bodies.push(at);
    const runs = raw.readUInt16BE(at);
    at += 2;
    let end = 0;
    for (let r = 0; r < runs; r++) {
      if (at + 4 > raw.length) throw damaged();
      const from = raw.readUInt16BE(at);
      const length = raw.readUInt16BE(at + 2) + 1;
      if (from < end || from + length > pageSize) throw damaged();
      end = from + length;
      at += 4 + length;
    }
    if (at > raw.length) throw damaged();
  }
  if (at !== raw.length) throw damaged();
  return { pageSize, baseLength, newLength, pages, data: raw, bodies };
}

/** target ^= the runs of page body at `body` in `data` (checked by readPagePatch). */
function xorRuns(target: Buffer, data: Buffer, body: number): void {
  const runs = data.readUInt16BE(body);
  let at = body + 2;
  for (let r = 0; r < runs; r++) {
    const from = data.readUInt16BE(at);
    const length = data.readUInt16BE(at + 2) + 1;
    at += 4;
    for (let i = 0; i < length; i++) target[from + i]! ^= data[at + i]!;
    at += length;
  }
}

/** Most bytes of pages a folded application holds in memory (else page by page, in order). */
export const MAX_FOLDED_BYTES = 256 * 1024 * 1024;

/**
 * Patches folded into one: what a chain of them does to a file of `baseLength` bytes. XOR
 * is associative, so each page's deltas XOR'd together, in order, give what to XOR the
 * base's page with; a page some step cut off starts again from zeros (`keptPages`: the pages
 * of the base no step cut off). Whole pages only: every length a multiple of one page size.
 */
export class FoldedPatches {
  private readonly deltas = new Map<number, Buffer>();
  private pageSize = 0;
  private length: number;
  private keptPages: number;
  private held = 0;

  constructor(readonly baseLength: number) {
    this.length = baseLength;
    this.keptPages = Infinity;
  }

  /** Adds the next patch; false when it cannot be folded (apply the chain step by step). */
  add(patch: PagePatch): boolean {
    if (patch.baseLength !== this.length) {
      throw new PagePatchError(
        `the patch is for a file of ${patch.baseLength} bytes, not ${this.length}`,
      );
    }
    if (this.pageSize === 0) {
      this.pageSize = patch.pageSize;
      if (this.baseLength % this.pageSize !== 0) return false;
      this.keptPages = this.baseLength / this.pageSize;
    }
    if (patch.pageSize !== this.pageSize || patch.newLength % this.pageSize !== 0) return false;
    for (const [i, page] of patch.pages.entries()) {
      let held = this.deltas.get(page);
      if (!held) {
        this.held += this.pageSize;
        if (this.held > MAX_FOLDED_BYTES) return false;
        held = Buffer.alloc(this.pageSize);
        this.deltas.set(page, held);
      }
      xorRuns(held, patch.data, patch.bodies[i]!);
    }
    const pages = patch.newLength / this.pageSize;
    if (pages < this.keptPages) this.keptPages = pages;
    for (const page of this.deltas.keys()) {
      if (page >= pages) {
        this.deltas.delete(page);
        this.held -= this.pageSize;
      }
    }
    this.length = patch.newLength;
    return true;
  }

  /**
   * Writes the folded change into `file` (the base's bytes): only the chunks holding a
   * changed page, or past the pages kept, are read and written; then the file is cut to the
   * last patch's length.
   */
  async applyTo(file: string): Promise<void> {
    const handle = await open(file, 'r+');
    try {
      if ((await handle.stat()).size !== this.baseLength) {
        throw new PagePatchError("the file is not the patches' base");
      }
      const ps = this.pageSize || 4096;
      const perChunk = Math.max(1, Math.floor(CHUNK / ps));
      const chunks = new Map<number, number[]>();
      for (const page of this.deltas.keys()) {
        const chunk = Math.floor(page / perChunk);
        const list = chunks.get(chunk);
        if (list) list.push(page);
        else chunks.set(chunk, [page]);
      }
      const totalPages = this.length / ps;
      // Pages past those kept that no delta names read as zeros: the cut and the regrowth
      // (truncate) give them.
      await handle.truncate(Math.min(this.baseLength, this.keptPages * ps));
      const buffer = Buffer.allocUnsafeSlow(perChunk * ps);
      for (const [chunk, pages] of [...chunks].sort((a, b) => a[0] - b[0])) {
        const first = chunk * perChunk;
        const count = Math.min(perChunk, totalPages - first);
        const view = buffer.subarray(0, count * ps);
        await readAt(handle, view, first * ps);
        for (const page of pages) {
          const at = (page - first) * ps;
          xorInto(view.subarray(at, at + ps), this.deltas.get(page)!);
        }
        await handle.write(view, 0, view.length, first * ps);
      }
      await handle.truncate(this.length);
    } finally {
      await handle.close();
    }
  }
  /**
   * The patched file's bytes, block by block in order (CHUNK bytes each, the last shorter),
   * made from the base's bytes read from `source` in one pass: a rebuild writes and hashes
   * them as they come instead of copying the base, writing the changed chunks and reading the
   * result again. PagePatchError when `source` does not hold `baseLength` bytes.
   */
  async *patchedBlocks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
    const ps = this.pageSize || 4096;
    const kept = Math.min(this.baseLength, this.keptPages * ps);
    const pages = [...this.deltas.keys()].sort((a, b) => a - b);
    const input = new ExactReader(source);
    let next = 0;
    for (let at = 0; at < this.length; at += CHUNK) {
      const block = Buffer.allocUnsafe(Math.min(CHUNK, this.length - at));
      // The base's bytes where they are kept, zeros past them (cut, then grown again).
      const fromBase = Math.max(0, Math.min(block.length, kept - at));
      await input.readInto(block.subarray(0, fromBase));
      block.fill(0, fromBase);
      const end = at + block.length;
      while (next < pages.length && pages[next]! * ps < end) {
        const page = pages[next++]!;
        const from = page * ps - at;
        xorInto(block.subarray(from, Math.min(from + ps, block.length)), this.deltas.get(page)!);
      }
      yield block;
    }
    await input.skipToEnd(this.baseLength);
  }
}

/** Reads exact byte counts from a stream of pieces of any size. */
class ExactReader {
  private readonly pieces: AsyncIterator<Uint8Array>;
  private piece: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private consumed = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.pieces = source[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    while (this.offset >= this.piece.length) {
      const { value, done } = await this.pieces.next();
      if (done) return false;
      this.piece = value;
      this.offset = 0;
    }
    return true;
  }

  /** Fills `into` with the next bytes. */
  async readInto(into: Uint8Array): Promise<void> {
    let filled = 0;
    while (filled < into.length) {
      if (!(await this.more())) throw new PagePatchError("the file is not the patches' base");
      const take = Math.min(into.length - filled, this.piece.length - this.offset);
      into.set(this.piece.subarray(this.offset, this.offset + take), filled);
      this.offset += take;
      filled += take;
    }
    this.consumed += filled;
  }

  /** Reads the rest; PagePatchError unless the stream held exactly `total` bytes. */
  async skipToEnd(total: number): Promise<void> {
    while (await this.more()) {
      this.consumed += this.piece.length - this.offset;
      this.offset = this.piece.length;
    }
    if (this.consumed !== total) throw new PagePatchError("the file is not the patches' base");
  }
}

/**
 * Applies patches in order to `file` (which holds the bytes the first patch was made
 * against), step by step. PagePatchError when a patch does not fit the file's length at its
 * step.
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
        xorRuns(page, patch.data, patch.bodies[i]!);
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

/** Patches decompressed at once while folding (each may hold up to MAX_PATCH_PAGE_BYTES). */
const DECOMPRESS_AT_ONCE = 4;

/**
 * Compressed patches (in order) folded for a base of `baseLength` bytes; null when they do not
 * fold (apply them with applyPagePatches, step by step). Decompressed a few at a time in
 * zlib's threads. PagePatchError when one is damaged or does not follow the one before.
 */
export async function foldCompressedPatches(
  baseLength: number,
  compressed: Buffer[],
): Promise<FoldedPatches | null> {
  const folded = new FoldedPatches(baseLength);
  for (let i = 0; i < compressed.length; i += DECOMPRESS_AT_ONCE) {
    const batch = await Promise.all(
      compressed.slice(i, i + DECOMPRESS_AT_ONCE).map((bytes) => readPagePatch(bytes)),
    );
    for (const patch of batch) if (!folded.add(patch)) return null;
  }
  return folded;
}

/**
 * Applies compressed patches in order to `file` (the bytes the first was made against):
 * folded into one pass over the pages when they allow it, else step by step. PagePatchError
 * when one is damaged or not for the bytes at its step.
 */
export async function applyCompressedPatches(file: string, compressed: Buffer[]): Promise<void> {
  const { size } = await stat(file);
  const folded = await foldCompressedPatches(size, compressed);
  if (folded) {
    await folded.applyTo(file);
    return;
  }
  for (const bytes of compressed) await applyPagePatches(file, [await readPagePatch(bytes)]);
}
