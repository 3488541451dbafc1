// Blob store write and read cost against the plain file system, measured in the same run.
// put() hashes (the SHA-256 tree key and SHA-1), writes a temp file, fsyncs, renames and fsyncs the folder;
// the baseline streams the same bytes to a file and fsyncs it. Target: put ≤ 1.5× baseline.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LocalBlobStore } from '../server/src/storage/local-blob-store';
import { measure, report, type BenchResult } from './harness';

const SIZE = 64 * 1024 * 1024;
const SLICE = 1024 * 1024;

function payload(seed: number): Buffer[] {
  const slices: Buffer[] = [];
  for (let i = 0; i < SIZE / SLICE; i++) {
    const b = Buffer.alloc(SLICE, (seed * 31 + i) & 0xff);
    b.writeUInt32LE(seed, 0);
    b.writeUInt32LE(i, 4);
    slices.push(b);
  }
  return slices;
}

export async function benchBlobStore(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-'));
  const store = new LocalBlobStore(join(dir, 'blobs'));
  let seed = 0;
  let lastKey = '';
  try {
    const write = await measure(
      'blob put 64 MB',
      async () => {
        const target = join(dir, `plain-${seed++}`);
        await pipeline(Readable.from(payload(seed)), createWriteStream(target));
        const handle = await open(target, 'r');
        await handle.sync();
        await handle.close();
      },
      async () => {
        const info = await store.put(Readable.from(payload(seed++)));
        lastKey = info.key;
      },
      1.5,
    );
    const read = await measure(
      'blob read 64 MB',
      async () => {
        for await (const _ of createReadStream(join(dir, 'plain-0'))) void _;
      },
      async () => {
        for await (const _ of await store.open(lastKey)) void _;
      },
      1.2,
    );
    return [write, read];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report(await benchBlobStore());
}
