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
 * length. No SQLite work: a version rebuilds from its whole copy with the patches of all its
 * steps at once (PatchChain: one pass over the file, each block XOR'd with the runs of every
 * step that touch it, nothing folded beforehand), or step by step when their lengths are not
 * whole pages. The result is checked against the version's SHA-1 by the caller, like any
 * rebuild.
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
import { kMaxLength } from 'node:buffer';
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

/** Patches decompressed at once, in zlib's threads (four by default). */
const DECOMPRESS_AT_ONCE = 4;
/**
 * zlib's output piece while decompressing a patch: fewer turns between its thread and the
 * event loop than its default 16 KiB (a patch of a 1 % edit is 100-200 KB decompressed).
 */
const DECOMPRESS_PIECE = 256 * 1024;

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

/**
 * A patch's bytes decompressed; null when they pass `limit` bytes. PagePatchError when they
 * do not decompress.
 */
async function decompressPatch(compressed: Buffer, limit: number): Promise<Buffer | null> {
  try {
    return await decompress(compressed, {
      chunkSize: DECOMPRESS_PIECE,
      maxOutputLength: Math.max(1, Math.min(limit, kMaxLength)),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw new PagePatchError(`the patch does not decompress: ${(error as Error).message}`);
  }
}

/** Decompresses and checks a patch (PagePatchError when it is not one). */
export async function readPagePatch(compressed: Buffer): Promise<PagePatch> {
  const raw = await decompressPatch(compressed, kMaxLength);
  if (!raw) throw new PagePatchError('the patch is too large');
  return parsePagePatch(raw);
}

/** Checks a decompressed patch (PagePatchError when it is not one). */
function parsePagePatch(raw: Buffer): PagePatch {
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

/**
 * target[offset..offset+page size) ^= the runs of page body at `body` in `data` (checked by
 * readPagePatch). Byte by byte: the runs of a row's edit are short (15 bytes on average for
 * 1 % edits of the measured layer), so the cost is per run, not per byte.
 */
function xorRuns(target: Uint8Array, offset: number, data: Uint8Array, body: number): void {
  let runs = (data[body]! << 8) | data[body + 1]!;
  let at = body + 2;
  while (runs-- > 0) {
    let to = offset + ((data[at]! << 8) | data[at + 1]!);
    const end = at + 5 + ((data[at + 2]! << 8) | data[at + 3]!);
    at += 4;
    while (at < end) target[to++]! ^= data[at++]!;
  }
}

/**
 * Most bytes of decompressed patches applied in one pass (held in memory together); a chain
 * holding more is applied step by step, one patch at a time.
 */
export const MAX_HELD_BYTES = 256 * 1024 * 1024;

/**
 * A chain of patches applied in one pass over the base's bytes, with nothing folded
 * beforehand: XOR is associative and commutative, so a page of the result is the base's page
 * XOR'd with the delta of every step that holds the page, in any order, as long as no step
 * cut the page off in between. A delta of step i survives when its page is below every later
 * length (`keep[i]`: the least page count of steps i and after); the base's page survives
 * below every length (`kept`); a page cut off and grown again starts from zeros. Each block of
 * the result is the base's bytes (or zeros) with the surviving runs of every patch XOR'd in,
 * a cursor per patch walking its pages in order. Whole pages only: one page size, every length
 * a multiple of it (else the patches are applied step by step).
 */
export class PatchChain {
  private constructor(
    readonly baseLength: number,
    /** The result's length (the last patch's). */
    readonly length: number,
    private readonly pageSize: number,
    /** Pages of the base no step cut off. */
    private readonly kept: number,
    private readonly patches: PagePatch[],
    /** Per patch: its pages below this survive to the result. */
    private readonly keep: number[],
  ) {}

  /**
   * The chain of `patches` (in order) for a base of `baseLength` bytes; null when it cannot be
   * applied in one pass (apply it step by step). PagePatchError when a patch does not follow
   * the one before.
   */
  static of(baseLength: number, patches: PagePatch[]): PatchChain | null {
    let length = baseLength;
    let held = 0;
    for (const patch of patches) {
      if (patch.baseLength !== length) {
        throw new PagePatchError(
          `the patch is for a file of ${patch.baseLength} bytes, not ${length}`,
        );
      }
      length = patch.newLength;
      held += patch.data.length;
    }
    const pageSize = patches[0]?.pageSize ?? 4096;
    if (
      held > MAX_HELD_BYTES ||
      baseLength % pageSize !== 0 ||
      patches.some((p) => p.pageSize !== pageSize || p.newLength % pageSize !== 0)
    ) {
      return null;
    }
    const keep = new Array<number>(patches.length);
    let least = Infinity;
    for (let i = patches.length - 1; i >= 0; i--) {
      least = Math.min(least, patches[i]!.newLength / pageSize);
      keep[i] = least;
    }
    const kept = Math.min(baseLength / pageSize, least);
    return new PatchChain(baseLength, length, pageSize, kept, patches, keep);
  }

  /**
   * XORs into `block` (the result's bytes at `at`, whole pages, blocks asked for in order) the
   * surviving runs of every patch for its pages; `cursors` (one per patch, from 0) advance.
   */
  private patchBlock(block: Buffer, at: number, cursors: number[]): void {
    const ps = this.pageSize;
    for (let i = 0; i < this.patches.length; i++) {
      const { pages, bodies, data } = this.patches[i]!;
      const keep = this.keep[i]!;
      let c = cursors[i]!;
      for (; c < pages.length; c++) {
        const page = pages[c]!;
        // Pages in order: from here on, all are cut off later, or in later blocks.
        if (page >= keep) {
          c = pages.length;
          break;
        }
        const offset = page * ps - at;
        if (offset + ps > block.length) break;
        if (offset >= 0) xorRuns(block, offset, data, bodies[c]!);
      }
      cursors[i] = c;
    }
  }

  /** Pages of the result some patch changes, in order (each once). */
  private changedPages(): number[] {
    const pages = new Set<number>();
    for (const [i, patch] of this.patches.entries()) {
      const keep = this.keep[i]!;
      for (const page of patch.pages) {
        if (page >= keep) break;
        pages.add(page);
      }
    }
    return [...pages].sort((a, b) => a - b);
  }

  /**
   * Writes the chain into `file` (the base's bytes) in place: only the chunks holding a
   * changed page are read and written; the file is first cut to the pages kept (so pages past
   * them read as zeros), then to the last patch's length.
   */
  async applyTo(file: string): Promise<void> {
    const handle = await open(file, 'r+');
    try {
      if ((await handle.stat()).size !== this.baseLength) {
        throw new PagePatchError("the file is not the patches' base");
      }
      const ps = this.pageSize;
      const perChunk = CHUNK / ps;
      const chunks = [...new Set(this.changedPages().map((page) => Math.floor(page / perChunk)))];
      const totalPages = this.length / ps;
      await handle.truncate(this.kept * ps);
      const buffer = Buffer.allocUnsafeSlow(CHUNK);
      const cursors = this.patches.map(() => 0);
      for (const chunk of chunks) {
        const first = chunk * perChunk;
        const view = buffer.subarray(0, Math.min(perChunk, totalPages - first) * ps);
        await readAt(handle, view, first * ps);
        this.patchBlock(view, first * ps, cursors);
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
    const kept = this.kept * this.pageSize;
    const input = new ExactReader(source);
    const cursors = this.patches.map(() => 0);
    for (let at = 0; at < this.length; at += CHUNK) {
      const size = Math.min(CHUNK, this.length - at);
      // The base's bytes where they are kept, zeros past them (cut, then grown again).
      const fromBase = Math.max(0, Math.min(size, kept - at));
      let block: Buffer;
      if (fromBase === size) block = await input.read(size);
      else {
        block = Buffer.allocUnsafe(size);
        await input.readInto(block.subarray(0, fromBase));
        block.fill(0, fromBase);
      }
      this.patchBlock(block, at, cursors);
      yield block;
    }
    await input.skipToEnd(this.baseLength);
  }

  /**
   * Patches `bytes` in place, block by block in order, yielding each finished block of the
   * result (CHUNK bytes, the last shorter): `bytes` hold the base's bytes and room for the
   * result (at least `baseLength` and `length` bytes). A rebuild in memory reads the base into
   * them while the patches are read.
   */
  *patchInMemory(bytes: Buffer): Generator<Buffer> {
    this.checkRoom(bytes);
    const cursors = this.patches.map(() => 0);
    for (let at = 0; at < this.length; at += CHUNK) yield this.patchBlockAt(bytes, at, cursors);
  }

  /**
   * patchInMemory while the base's bytes are still being read into `bytes` (in order):
   * `loaded(end)` resolves once the bytes before `end` are in (and rejects when they will not
   * be), so each block is patched, and hashed by the caller, as soon as its bytes are there.
   */
  async *patchInMemoryAsLoaded(
    bytes: Buffer,
    loaded: (end: number) => Promise<void>,
  ): AsyncGenerator<Buffer> {
    this.checkRoom(bytes);
    const cursors = this.patches.map(() => 0);
    for (let at = 0; at < this.length; at += CHUNK) {
      await loaded(Math.min(at + CHUNK, this.baseLength));
      yield this.patchBlockAt(bytes, at, cursors);
    }
    await loaded(this.baseLength);
  }

  private checkRoom(bytes: Buffer): void {
    if (bytes.length < Math.max(this.baseLength, this.length)) {
      throw new RangeError('The buffer cannot hold the base and the result');
    }
  }

  /** The block at `at` of the result, patched in place in `bytes` (the base's bytes there). */
  private patchBlockAt(bytes: Buffer, at: number, cursors: number[]): Buffer {
    const end = Math.min(this.length, at + CHUNK);
    // Past the pages kept: zeros (cut, then grown again).
    const kept = this.kept * this.pageSize;
    if (end > kept) bytes.fill(0, Math.max(at, kept), end);
    const block = bytes.subarray(at, end);
    this.patchBlock(block, at, cursors);
    return block;
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

  /**
   * The next `size` bytes: a view of the piece that holds them all (no copy: the pieces are
   * the reader's to change), else a copy.
   */
  async read(size: number): Promise<Buffer> {
    if ((await this.more()) && this.piece.length - this.offset >= size) {
      const { buffer, byteOffset } = this.piece;
      const view = Buffer.from(buffer, byteOffset + this.offset, size);
      this.offset += size;
      this.consumed += size;
      return view;
    }
    const copy = Buffer.allocUnsafe(size);
    await this.readInto(copy);
    return copy;
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
        xorRuns(page, 0, patch.data, patch.bodies[i]!);
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

/**
 * Patches (in order; each compressed, or the promise of it, so each is decompressed as soon
 * as it is read) made into a chain for a base of `baseLength` bytes; null when it cannot be
 * applied in one pass (apply the patches with applyPagePatches, step by step). Decompressed
 * a few at a time in zlib's threads, while they hold at most MAX_HELD_BYTES together.
 * PagePatchError when one is damaged or does not follow the one before; the error of a
 * promise that fails.
 */
export async function readPatchChain(
  baseLength: number,
  compressed: (Buffer | Promise<Buffer>)[],
): Promise<PatchChain | null> {
  const sources = compressed.map((bytes) => Promise.resolve(bytes));
  // Those not awaited (the chain stopped early) fail unheard.
  for (const source of sources) source.catch(() => {});
  const patches: PagePatch[] = [];
  let held = 0;
  let next = 0;
  let tooLarge = false;
  const decompressing = async () => {
    while (next < sources.length && !tooLarge) {
      const i = next++;
      const raw = await decompressPatch(await sources[i]!, MAX_HELD_BYTES - held);
      if (!raw || (held += raw.length) > MAX_HELD_BYTES) tooLarge = true;
      else patches[i] = parsePagePatch(raw);
    }
  };
  await Promise.all(Array.from({ length: DECOMPRESS_AT_ONCE }, decompressing));
  return tooLarge ? null : PatchChain.of(baseLength, patches);
}

/**
 * Applies compressed patches in order to `file` (the bytes the first was made against): in
 * one pass over the changed chunks when they allow it, else step by step. PagePatchError when
 * one is damaged or not for the bytes at its step.
 */
export async function applyCompressedPatches(file: string, compressed: Buffer[]): Promise<void> {
  const { size } = await stat(file);
  const chain = await readPatchChain(size, compressed);
  if (chain) {
    await chain.applyTo(file);
    return;
  }
  for (const bytes of compressed) await applyPagePatches(file, [await readPagePatch(bytes)]);
}
