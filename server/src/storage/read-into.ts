/**
 * Reading a whole file or stream into memory the caller holds, telling the caller how far the
 * bytes are in from the start as they come (a rebuild in memory patches and hashes each block
 * once its bytes are there: services/file-store/rebuild-in-memory.ts).
 */
import { open } from 'node:fs/promises';
import { BlobSizeMismatchError } from './blob-store';

/** Bytes per read. */
const PIECE = 1024 * 1024;
/**
 * Reads in flight: a file the system paged out comes back faster with a few at once (12.8 MB
 * with the caches dropped on this machine's disk: one at a time 16-19 ms, two 12-14 ms, four
 * 12-18 ms).
 */
const IN_FLIGHT = 3;

/** Called with `end` each time the bytes before `end` are all in. */
export type ReadProgress = (end: number) => void;

/**
 * A read into memory under way (`read`, told how far the bytes are in as they come), for
 * those who use the bytes as they arrive: `until(end)` resolves once the bytes before `end`
 * are in, or once the read is done (`until(Infinity)`: the read is over), and rejects with
 * the read's error when it failed.
 */
export class ReadUnderWay {
  private at = 0;
  private done = false;
  private failed: unknown = null;
  private waiting: { end: number; resolve(): void; reject(error: unknown): void }[] = [];

  constructor(read: (progress: ReadProgress) => Promise<void>) {
    void read((end) => this.advance(end)).then(
      () => this.settle(null),
      (error: unknown) => this.settle(error),
    );
  }

  until(end: number): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.at >= end || this.done) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.push({ end, resolve, reject }));
  }

  private advance(end: number): void {
    this.at = end;
    this.waiting = this.waiting.filter((w) => (w.end <= end ? (w.resolve(), false) : true));
  }

  private settle(error: unknown): void {
    this.failed = error;
    this.done = true;
    for (const w of this.waiting) {
      if (error) w.reject(error);
      else w.resolve();
    }
    this.waiting = [];
  }
}

/**
 * Reads the `size` bytes of `file` into `into` (from its start), a few reads in flight.
 * BlobSizeMismatchError when the file holds another size (nothing is read then).
 */
export async function readFileInto(
  file: string,
  into: Uint8Array,
  size: number,
  progress: ReadProgress,
): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const { size: held } = await handle.stat();
    if (held !== size) throw new BlobSizeMismatchError(size, held);
    const pieces = Math.ceil(size / PIECE);
    const done = new Uint8Array(pieces);
    let next = 0;
    let inOrder = 0;
    const readPiece = async (piece: number) => {
      const start = piece * PIECE;
      const end = Math.min(size, start + PIECE);
      for (let at = start; at < end;) {
        const { bytesRead } = await handle.read(into, at, end - at, at);
        if (bytesRead === 0) throw new BlobSizeMismatchError(size, at);
        at += bytesRead;
      }
      done[piece] = 1;
      const before = inOrder;
      while (inOrder < pieces && done[inOrder]) inOrder++;
      if (inOrder > before) progress(Math.min(size, inOrder * PIECE));
    };
    const reader = async () => {
      while (next < pieces) await readPiece(next++);
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, pieces) }, reader));
  } finally {
    await handle.close();
  }
}

/**
 * Copies the `size` bytes of `source` into `into`, in order. BlobSizeMismatchError when it
 * holds another size.
 */
export async function streamInto(
  source: AsyncIterable<Uint8Array>,
  into: Uint8Array,
  size: number,
  progress: ReadProgress,
): Promise<void> {
  let at = 0;
  for await (const piece of source) {
    if (at + piece.length > size) throw new BlobSizeMismatchError(size, at + piece.length);
    into.set(piece, at);
    at += piece.length;
    progress(at);
  }
  if (at !== size) throw new BlobSizeMismatchError(size, at);
}
