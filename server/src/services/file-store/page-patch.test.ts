import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyCompressedPatches,
  applyPagePatches,
  makePagePatch,
  pageSizeOf,
  PagePatchError,
  PatchChain,
  readPagePatch,
  readPatchChain,
} from './page-patch';
import { ReadUnderWay, streamInto } from '../../storage/read-into';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'page-patch-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A SQLite-like file: the header names `pageSize`, `pages` pages of random bytes. */
function sqliteLike(pageSize: number, pages: number): Buffer {
  const file = randomBytes(pageSize * pages);
  file.write('SQLite format 3\0', 0, 'latin1');
  file.writeUInt16BE(pageSize === 65536 ? 1 : pageSize, 16);
  return file;
}

let n = 0;
/**
 * Patches `steps` in order from `first`'s bytes, checks each result (`chained`: the patches
 * must make a chain applied in one pass).
 */
async function roundTrip(first: Buffer, steps: Buffer[], chained = false): Promise<number[]> {
  const files = await Promise.all(
    [first, ...steps].map(async (bytes) => {
      const file = path.join(dir, `v${n++}`);
      await writeFile(file, bytes);
      return file;
    }),
  );
  const compressed: Buffer[] = [];
  const patches = [];
  for (let i = 1; i < files.length; i++) {
    const patch = await makePagePatch(files[i - 1]!, files[i]!);
    expect(patch).not.toBeNull();
    compressed.push(patch!);
    patches.push(await readPagePatch(patch!));
  }
  // Step by step, and as a chain in place (or step by step when lengths are not whole pages).
  const work = path.join(dir, `w${n++}`);
  await writeFile(work, first);
  await applyPagePatches(work, patches);
  expect((await readFile(work)).equals(steps.at(-1)!)).toBe(true);
  await writeFile(work, first);
  await applyCompressedPatches(work, compressed);
  expect((await readFile(work)).equals(steps.at(-1)!)).toBe(true);
  // In one pass from the base's bytes, read in pieces of an odd size, and of whole blocks
  // (the blocks are then the pieces themselves), when the lengths allow it.
  const chain = await readPatchChain(first.length, compressed);
  if (chained) expect(chain).not.toBeNull();
  if (chain) {
    expect((await onePass(chain, first, 777)).equals(steps.at(-1)!)).toBe(true);
    expect((await onePass(chain, first, 1024 * 1024)).equals(steps.at(-1)!)).toBe(true);
    expect(inMemory(chain, first).equals(steps.at(-1)!)).toBe(true);
    expect((await asLoaded(chain, first, 777 * 1024)).equals(steps.at(-1)!)).toBe(true);
  }
  return patches.map((p) => p.pages.length);
}

/** Copies of `bytes` in pieces of `size` (the one pass may change its pieces in place). */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size));
}

/** The bytes `chain.patchedBlocks` makes from `base` read in pieces of `size`. */
async function onePass(chain: PatchChain, base: Buffer, size: number): Promise<Buffer> {
  const blocks: Buffer[] = [];
  for await (const block of chain.patchedBlocks(pieces(base, size))) blocks.push(block);
  return Buffer.concat(blocks);
}

/**
 * The bytes `chain.patchInMemory` makes in a buffer holding `base`, with room for the result
 * that holds other bytes past the base (a rebuild's buffer is zeros; these must not matter).
 */
function inMemory(chain: PatchChain, base: Buffer): Buffer {
  const bytes = Buffer.alloc(Math.max(base.length, chain.length), 0xee);
  base.copy(bytes);
  return Buffer.concat([...chain.patchInMemory(bytes)]);
}

/**
 * The bytes `chain.patchInMemoryAsLoaded` makes while `base` is read into the buffer in pieces
 * of `size`, a turn of the event loop apart: each block is copied as it is yielded, so a block
 * patched before its bytes were in would show the buffer's other bytes.
 */
async function asLoaded(chain: PatchChain, base: Buffer, size: number): Promise<Buffer> {
  const bytes = Buffer.alloc(Math.max(base.length, chain.length), 0xee);
  const turnApart = async function* () {
    for (let at = 0; at < base.length; at += size) {
      await new Promise((resolve) => setImmediate(resolve));
      yield base.subarray(at, at + size);
    }
  };
  const loading = new ReadUnderWay((progress) =>
    streamInto(turnApart(), bytes, base.length, progress),
  );
  const blocks: Buffer[] = [];
  for await (const block of chain.patchInMemoryAsLoaded(bytes, (end) => loading.until(end))) {
    blocks.push(Buffer.from(block));
  }
  await loading.until(Infinity);
  return Buffer.concat(blocks);
}

async function patchOf(a: Buffer, b: Buffer): Promise<Buffer | null> {
  const fa = path.join(dir, `p${n++}`);
  const fb = path.join(dir, `p${n++}`);
  await writeFile(fa, a);
  await writeFile(fb, b);
  return makePagePatch(fa, fb);
}

describe('page patches', () => {
  it('reads the page size from a SQLite header, 4096 otherwise', () => {
    expect(pageSizeOf(sqliteLike(1024, 1))).toBe(1024);
    expect(pageSizeOf(sqliteLike(65536, 1))).toBe(65536);
    expect(pageSizeOf(randomBytes(200))).toBe(4096);
  });

  it('holds only the pages that changed and rebuilds the bytes exactly', async () => {
    const v1 = sqliteLike(1024, 300);
    const v2 = Buffer.from(v1);
    v2[5000] = v2[5000]! ^ 1; // page 4
    v2.write('changed', 200_000); // page 195
    const v3 = Buffer.from(v2);
    v3[24] = v3[24]! + 1; // page 0 (the change counter)
    expect(await roundTrip(v1, [v2, v3], true)).toEqual([2, 1]);
  });

  it('follows files that grow and shrink, also by parts of a page', async () => {
    const v1 = sqliteLike(4096, 10);
    const v2 = Buffer.concat([v1, sqliteLike(4096, 5).subarray(100)]); // grows, ends mid-page
    const v3 = v2.subarray(0, 4096 * 3 + 17); // shrinks
    const v4 = Buffer.concat([v3, Buffer.alloc(4096 * 4)]); // grows with zeros only
    const v5 = Buffer.concat([v4, randomBytes(4096)]);
    await roundTrip(v1, [v2, v3, v4, v5]);
    await roundTrip(v1, [Buffer.from(v1)]); // nothing changed
  });

  it('applies whole-page chains that shrink and grow again in one pass', async () => {
    const v1 = sqliteLike(1024, 40);
    const v2 = Buffer.from(v1);
    v2.write('two', 30 * 1024 + 5);
    const v3 = Buffer.from(v2.subarray(0, 20 * 1024)); // pages 20-39 cut off
    v3.write('three', 3 * 1024);
    const v4 = Buffer.concat([v3, Buffer.alloc(10 * 1024), sqliteLike(1024, 5)]); // regrown
    v4.write('four', 3 * 1024 + 1);
    const v5 = Buffer.from(v4);
    v5.write('five', 32 * 1024);
    await roundTrip(v1, [v2, v3, v4, v5], true);
    // Lengths in whole pages make a chain; others do not (applied step by step instead).
    const base = sqliteLike(4096, 3);
    const grow = await readPagePatch(
      (await patchOf(base, Buffer.concat([base, randomBytes(10)])))!,
    );
    expect(PatchChain.of(4096 * 3, [grow])).toBeNull();
    const same = await readPagePatch(
      (await patchOf(base, Buffer.concat([base, randomBytes(4096)])))!,
    );
    expect(PatchChain.of(4096 * 3, [same])).not.toBeNull();
  });

  it('drops the changes of pages cut off later, even when they grow again as zeros', async () => {
    const v1 = sqliteLike(1024, 40);
    const v2 = Buffer.from(v1);
    v2.write('cut later', 25 * 1024 + 9); // page 25: cut off by v3
    v2.write('kept', 5 * 1024);
    const v3 = Buffer.from(v2.subarray(0, 20 * 1024));
    const v4 = Buffer.concat([v3, Buffer.alloc(10 * 1024)]); // pages 20-29 again, zeros
    const v5 = Buffer.from(v4);
    v5.write('five', 3 * 1024);
    await roundTrip(v1, [v2, v3, v4, v5]);
    const chain = await readPatchChain(v1.length, [
      (await patchOf(v1, v2))!,
      (await patchOf(v2, v3))!,
      (await patchOf(v3, v4))!,
      (await patchOf(v4, v5))!,
    ]);
    const made = await onePass(chain!, v1, 4096);
    expect(made.subarray(25 * 1024, 26 * 1024).equals(Buffer.alloc(1024))).toBe(true);
    expect(made.equals(v5)).toBe(true);
  });

  it('gives the bytes of step by step on random chains of changes, cuts and regrowths', async () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    for (let round = 0; round < 6; round++) {
      let current = sqliteLike(512, 20 + next(40));
      const first = current;
      const steps: Buffer[] = [];
      for (let step = 0; step < 6; step++) {
        const pages = Math.max(1, current.length / 512 + next(21) - 10);
        const made = Buffer.alloc(pages * 512);
        current.copy(made, 0, 0, Math.min(current.length, made.length));
        for (let edits = next(6); edits > 0; edits--) {
          randomBytes(1 + next(700)).copy(made, next(made.length));
        }
        // The header names the page size (random edits may have hit it).
        made.write('SQLite format 3\0', 0, 'latin1');
        made.writeUInt16BE(512, 16);
        steps.push(made);
        current = made;
      }
      await roundTrip(first, steps, true);
    }
  });

  it('makes a folded chain in one pass over the base, across block boundaries', async () => {
    const v1 = sqliteLike(1024, 2600); // 2.5 MiB: three blocks
    const v2 = Buffer.from(v1);
    v2.write('edge', 1024 * 1024 - 2); // pages 1023 and 1024, either side of a block's end
    v2.write('far', 2500 * 1024);
    const v3 = Buffer.concat([v2.subarray(0, 1100 * 1024), sqliteLike(1024, 1000)]); // cut, regrown
    v3.write('three', 1050 * 1024);
    await roundTrip(v1, [v2, v3], true);
    // A source other than the base's length is refused, shorter or longer.
    const a = path.join(dir, 'one-pass-a');
    const b = path.join(dir, 'one-pass-b');
    await writeFile(a, v1);
    await writeFile(b, v2);
    const chain = (await readPatchChain(v1.length, [(await makePagePatch(a, b))!]))!;
    await expect(onePass(chain, v1.subarray(0, v1.length - 1024), 4096)).rejects.toThrow(
      PagePatchError,
    );
    await expect(onePass(chain, Buffer.concat([v1, Buffer.alloc(10)]), 4096)).rejects.toThrow(
      PagePatchError,
    );
    // In memory: the buffer must hold the base and the result.
    expect(() => [...chain.patchInMemory(Buffer.alloc(v1.length - 1024))]).toThrow(RangeError);
  });

  it('refuses a damaged patch, or one for other bytes', async () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    const v1 = sqliteLike(4096, 4);
    await writeFile(a, v1);
    await writeFile(b, Buffer.concat([v1, randomBytes(4096)]));
    const patch = (await makePagePatch(a, b))!;
    await expect(readPagePatch(patch.subarray(0, patch.length - 3))).rejects.toThrow(
      PagePatchError,
    );
    await expect(readPagePatch(randomBytes(64))).rejects.toThrow(PagePatchError);
    const read = await readPagePatch(patch);
    // In a chain: a damaged patch anywhere, a patch for other bytes, a failed read.
    const damaged = patch.subarray(0, patch.length - 3);
    await expect(readPatchChain(v1.length, [patch, damaged])).rejects.toThrow(PagePatchError);
    await expect(readPatchChain(v1.length, [damaged, patch])).rejects.toThrow(PagePatchError);
    await expect(readPatchChain(v1.length, [patch, patch])).rejects.toThrow(PagePatchError);
    await expect(readPatchChain(v1.length - 4096, [patch])).rejects.toThrow(PagePatchError);
    await expect(
      readPatchChain(v1.length, [patch, Promise.reject(new Error('gone'))]),
    ).rejects.toThrow('gone');
    await writeFile(a, v1.subarray(0, 4096));
    await expect(applyPagePatches(a, [read])).rejects.toThrow(PagePatchError);
    await expect(applyCompressedPatches(a, [patch])).rejects.toThrow(PagePatchError);
  });
});
