import { afterEach, describe, expect, it } from 'vitest';
import { ChunkIntake, CHUNK_SIZE } from '../../storage/staging';
import {
  beginChunkWrite,
  endChunkWrite,
  forgetPrefixes,
  isLatestWrite,
  MAX_PREFIXES,
  prefixesOf,
  PREFIX_TTL_MS,
} from './chunk-prefixes';

const UPLOAD = '00000000-0000-4000-8000-000000000001';

function intakeOf(size: number): ChunkIntake {
  const intake = new ChunkIntake({ limit: CHUNK_SIZE, truncate: false });
  intake.take(Buffer.alloc(size, 7));
  return intake;
}

/** A write of `chunk` that broke off after `size` bytes. */
function cut(chunk: string, size: number, now = 0, upload = UPLOAD) {
  const { token } = beginChunkWrite(upload, chunk, 0, now);
  endChunkWrite(upload, chunk, token, intakeOf(size), now);
}

afterEach(() => {
  forgetPrefixes(UPLOAD);
});

describe('chunk prefixes', () => {
  it('are continued from exactly the bytes held, once', () => {
    cut('a', 100);
    expect(prefixesOf(UPLOAD, 1)).toEqual({ a: 100 });
    const write = beginChunkWrite(UPLOAD, 'a', 100, 1);
    expect(write.from?.size).toBe(100);
    expect(prefixesOf(UPLOAD, 1)).toEqual({});
    endChunkWrite(UPLOAD, 'a', write.token, null, 1);
    expect(beginChunkWrite(UPLOAD, 'a', 100, 2).from).toBeNull();
  });

  it('are not continued from another offset', () => {
    cut('a', 100);
    expect(beginChunkWrite(UPLOAD, 'a', 99, 1).from).toBeNull();
    expect(prefixesOf(UPLOAD, 1)).toEqual({});
  });

  it('of a write that broke off after a newer write began are not kept', () => {
    const older = beginChunkWrite(UPLOAD, 'a', 0, 0);
    expect(isLatestWrite(UPLOAD, 'a', older.token)).toBe(true);
    const newer = beginChunkWrite(UPLOAD, 'a', 0, 1);
    expect(isLatestWrite(UPLOAD, 'a', older.token)).toBe(false);
    expect(isLatestWrite(UPLOAD, 'a', newer.token)).toBe(true);
    endChunkWrite(UPLOAD, 'a', older.token, intakeOf(100), 2);
    expect(prefixesOf(UPLOAD, 2)).toEqual({});
    endChunkWrite(UPLOAD, 'a', newer.token, intakeOf(50), 3);
    expect(prefixesOf(UPLOAD, 3)).toEqual({ a: 50 });
  });

  it('with nothing received are not kept', () => {
    cut('a', 0);
    expect(prefixesOf(UPLOAD, 1)).toEqual({});
  });

  it('expire, and the oldest give way past MAX_PREFIXES', () => {
    cut('old', 10, 0);
    expect(prefixesOf(UPLOAD, PREFIX_TTL_MS)).toEqual({});
    expect(beginChunkWrite(UPLOAD, 'old', 10, PREFIX_TTL_MS).from).toBeNull();
    for (let i = 0; i <= MAX_PREFIXES; i += 1) cut(`c${i}`, 10 + i, i);
    const held = prefixesOf(UPLOAD, MAX_PREFIXES);
    expect(Object.keys(held)).toHaveLength(MAX_PREFIXES);
    expect(held.c0).toBeUndefined();
    expect(held[`c${MAX_PREFIXES}`]).toBe(10 + MAX_PREFIXES);
  });

  it('are forgotten per upload', () => {
    const other = '00000000-0000-4000-8000-000000000002';
    cut('a', 10);
    cut('a', 20, 0, other);
    forgetPrefixes(other);
    expect(prefixesOf(other, 1)).toEqual({});
    expect(prefixesOf(UPLOAD, 1)).toEqual({ a: 10 });
  });
});
