import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, ChunkIntake, ChunkTooBigError, releaseChunkBytes } from './staging';

const digest = (algorithm: string, bytes: Uint8Array) =>
  createHash(algorithm).update(bytes).digest('hex');

function pattern(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i + 4 <= length; i += 4) bytes.writeUInt32LE(((i + seed) * 2654435761) >>> 0, i);
  return bytes;
}

/** `bytes` in pieces of `piece` bytes, as a request body arrives. */
function* piecesOf(bytes: Buffer, piece: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}

describe('ChunkIntake', () => {
  it('answers the size, SHA-1 and SHA-256 leaf of a whole chunk, and its bytes in shared memory', async () => {
    const content = pattern(CHUNK_SIZE, 1);
    const intake = new ChunkIntake({ limit: CHUNK_SIZE, truncate: false, keep: CHUNK_SIZE });
    for (const piece of piecesOf(content, 64 * 1024)) expect(intake.take(piece)).toBe(piece);
    expect(intake.size).toBe(CHUNK_SIZE);
    const written = await intake.written();
    expect(written).toMatchObject({
      size: CHUNK_SIZE,
      sha1: digest('sha1', content),
      sha256: digest('sha256', content),
    });
    expect(written.bytes?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(written.bytes?.equals(content)).toBe(true);
    releaseChunkBytes(written.bytes!);
  });

  it('keeps no bytes when the size is not the one expected, and no leaf when none is asked for', async () => {
    const content = pattern(3 * 1024 * 1024 + 5, 2);
    const short = new ChunkIntake({ limit: CHUNK_SIZE, truncate: true, keep: CHUNK_SIZE });
    for (const piece of piecesOf(content, 100_000)) short.take(piece);
    const written = await short.written();
    expect(written).toEqual({
      size: content.length,
      sha1: digest('sha1', content),
      sha256: digest('sha256', content),
    });
    const noLeaf = new ChunkIntake({ limit: CHUNK_SIZE, truncate: true, leaf: false });
    noLeaf.take('a text body');
    expect(await noLeaf.written()).toEqual({
      size: 11,
      sha1: digest('sha1', Buffer.from('a text body')),
      sha256: null,
    });
  });

  it('refuses bytes past its limit and goes on from where it stood, whichever body brings them', async () => {
    const content = pattern(2 * 1024 * 1024 + 99, 3);
    const intake = new ChunkIntake({
      limit: content.length,
      truncate: false,
      keep: content.length,
    });
    const cut = 1024 * 1024 + 4096 + 7;
    // A first body breaks off after `cut` bytes; a second one brings the rest.
    for (const piece of piecesOf(content.subarray(0, cut), 64 * 1024)) intake.take(piece);
    expect(intake.size).toBe(cut);
    for (const piece of piecesOf(content.subarray(cut), 50_000)) intake.take(piece);
    expect(() => intake.take(Buffer.alloc(1))).toThrow(ChunkTooBigError);
    const written = await intake.written();
    expect(written.sha1).toBe(digest('sha1', content));
    expect(written.sha256).toBe(digest('sha256', content));
    expect(written.bytes?.equals(content)).toBe(true);
  });

  it('hashes piece by piece a chunk whose limit is past CHUNK_SIZE', async () => {
    const content = pattern(CHUNK_SIZE + 1000, 4);
    const intake = new ChunkIntake({ limit: CHUNK_SIZE * 2, truncate: false, keep: CHUNK_SIZE });
    for (const piece of piecesOf(content, 1024 * 1024)) intake.take(piece);
    expect(await intake.written()).toEqual({
      size: content.length,
      sha1: digest('sha1', content),
      sha256: digest('sha256', content),
    });
  });

  it('hands a buffer on to a later chunk without changing an answered one', async () => {
    const first = pattern(CHUNK_SIZE, 5);
    const a = new ChunkIntake({ limit: CHUNK_SIZE, truncate: false, leaf: false });
    for (const piece of piecesOf(first, 1024 * 1024)) a.take(piece);
    const aWritten = await a.written();
    const second = pattern(CHUNK_SIZE, 6);
    const b = new ChunkIntake({ limit: CHUNK_SIZE, truncate: false, keep: CHUNK_SIZE });
    for (const piece of piecesOf(second, 1024 * 1024)) b.take(piece);
    const bWritten = await b.written();
    expect(aWritten.sha1).toBe(digest('sha1', first));
    expect(bWritten.sha1).toBe(digest('sha1', second));
    expect(bWritten.bytes?.equals(second)).toBe(true);
  });
});
