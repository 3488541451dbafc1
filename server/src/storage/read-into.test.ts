import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobSizeMismatchError } from './blob-store';
import { readFileInto, ReadUnderWay, streamInto } from './read-into';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'read-into-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Progress reports must rise, never pass what was read, and end at the size. */
function checkProgress(reports: number[], size: number): void {
  expect(reports.length).toBeGreaterThan(0);
  for (let i = 1; i < reports.length; i++) expect(reports[i]!).toBeGreaterThan(reports[i - 1]!);
  expect(reports.at(-1)).toBe(size);
}

describe('readFileInto', () => {
  it('reads the whole file with several reads in flight, reporting the bytes in from the start', async () => {
    // Several pieces of 1 MiB and a short last one.
    const bytes = randomBytes(5 * 1024 * 1024 + 12_345);
    const file = path.join(dir, 'whole');
    await writeFile(file, bytes);
    const into = Buffer.alloc(bytes.length + 100, 0xee);
    const reports: number[] = [];
    await readFileInto(file, into, bytes.length, (end) => {
      // Every byte before `end` is in when it is reported.
      expect(into.subarray(0, end).equals(bytes.subarray(0, end))).toBe(true);
      reports.push(end);
    });
    expect(into.subarray(0, bytes.length).equals(bytes)).toBe(true);
    expect(into.subarray(bytes.length).every((b) => b === 0xee)).toBe(true);
    checkProgress(reports, bytes.length);
  });

  it('refuses a file of another size without reading it', async () => {
    const file = path.join(dir, 'short');
    await writeFile(file, randomBytes(1000));
    const into = Buffer.alloc(2000);
    const reports: number[] = [];
    await expect(readFileInto(file, into, 2000, (end) => reports.push(end))).rejects.toThrow(
      BlobSizeMismatchError,
    );
    expect(reports).toEqual([]);
  });
});

describe('streamInto', () => {
  async function* pieces(bytes: Buffer, size: number) {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  it('copies the pieces in order, reporting each', async () => {
    const bytes = randomBytes(10_000);
    const into = Buffer.alloc(bytes.length);
    const reports: number[] = [];
    await streamInto(pieces(bytes, 777), into, bytes.length, (end) => reports.push(end));
    expect(into.equals(bytes)).toBe(true);
    checkProgress(reports, bytes.length);
  });

  it('refuses a stream longer or shorter than the size', async () => {
    const bytes = randomBytes(1000);
    await expect(streamInto(pieces(bytes, 300), Buffer.alloc(2000), 900, () => {})).rejects.toThrow(
      BlobSizeMismatchError,
    );
    await expect(
      streamInto(pieces(bytes, 300), Buffer.alloc(2000), 1001, () => {}),
    ).rejects.toThrow(BlobSizeMismatchError);
  });
});

describe('ReadUnderWay', () => {
  it('answers those waiting for bytes as they come in, and all of them when the read fails', async () => {
    let report: (end: number) => void = () => {};
    let fail: (error: Error) => void = () => {};
    const read = new ReadUnderWay(
      (progress) =>
        new Promise<void>((_, reject) => {
          report = progress;
          fail = reject;
        }),
    );
    const first = read.until(100);
    const later = read.until(300);
    report(150);
    await first;
    const gone = new Error('gone');
    fail(gone);
    await expect(later).rejects.toBe(gone);
    await expect(read.until(10)).rejects.toBe(gone);
  });
});
