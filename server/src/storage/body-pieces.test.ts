import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eachPiece, piecesAreOwned, releasePiece } from './body-pieces';

const piece = (n: number) => Buffer.alloc(4, n);

describe('eachPiece', () => {
  it('takes a stream piece by piece, waiting for each answer before the next piece', async () => {
    const body = new PassThrough();
    const taken: number[] = [];
    let open = 0;
    let most = 0;
    const done = eachPiece(body, async (bytes) => {
      open++;
      most = Math.max(most, open);
      await new Promise((resolve) => setImmediate(resolve));
      taken.push((bytes as Buffer)[0]!);
      open--;
    });
    for (let n = 1; n <= 5; n++) body.write(piece(n));
    body.end();
    expect(await done).toBeNull();
    expect(taken).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(1);
  });

  it('answers a body that fails as its cause, after the pending piece was taken', async () => {
    const body = new PassThrough();
    let tookSecond = false;
    const done = eachPiece(body, async (bytes) => {
      await new Promise((resolve) => setImmediate(resolve));
      if ((bytes as Buffer)[0] === 2) tookSecond = true;
    });
    body.write(piece(1));
    body.write(piece(2));
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy(new Error('aborted'));
    const end = await done;
    expect((end?.cause as Error).message).toBe('aborted');
    expect(tookSecond).toBe(true);
  });

  it('answers a body closed before its end as broken off', async () => {
    const body = new Readable({ read() {} });
    const done = eachPiece(body, () => undefined);
    body.push(piece(1));
    await new Promise((resolve) => setImmediate(resolve));
    body.destroy();
    expect(await done).not.toBeNull();
  });

  it("rejects with the consumer's failure and destroys the body", async () => {
    const body = new PassThrough();
    const done = eachPiece(body, (bytes) => {
      if ((bytes as Buffer)[0] === 2) throw new Error('too big');
    });
    body.write(piece(1));
    body.write(piece(2));
    await expect(done).rejects.toThrow('too big');
    expect(body.destroyed).toBe(true);
    const later = new PassThrough();
    const rejected = eachPiece(later, async () => {
      throw new Error('disk full');
    });
    later.write(piece(1));
    await expect(rejected).rejects.toThrow('disk full');
    expect(later.destroyed).toBe(true);
  });

  it('answers a body that already ended, and reads other iterables with for-await', async () => {
    const ended = Readable.from([]);
    for await (const _ of ended) void _;
    expect(await eachPiece(ended, () => undefined)).toBeNull();
    const seen: number[] = [];
    async function* pieces() {
      yield piece(7);
      yield piece(8);
      throw new Error('lost');
    }
    const end = await eachPiece(pieces(), async (bytes) => {
      seen.push((bytes as Buffer)[0]!);
    });
    expect(seen).toEqual([7, 8]);
    expect((end?.cause as Error).message).toBe('lost');
  });
});

describe('releasePiece', () => {
  it('frees a piece that is the whole of its buffer, and leaves any other as it is', () => {
    const own = Buffer.from(new ArrayBuffer(1024));
    releasePiece(own);
    expect(own.length).toBe(0);
    // A slice of a larger buffer (Node's pool), shared memory, nothing at all: untouched.
    const pooled = Buffer.from('a small piece');
    releasePiece(pooled);
    expect(pooled.toString()).toBe('a small piece');
    const whole = Buffer.alloc(64);
    const slice = whole.subarray(8, 16);
    releasePiece(slice);
    expect(whole.length).toBe(64);
    const shared = Buffer.from(new SharedArrayBuffer(16));
    releasePiece(shared);
    expect(shared.length).toBe(16);
    const empty = Buffer.from(new ArrayBuffer(0));
    releasePiece(empty);
    expect(empty.length).toBe(0);
  });
});

describe('piecesAreOwned', () => {
  it('is true of a request read from a connection, false of a stream made in memory', async () => {
    expect(piecesAreOwned(new PassThrough())).toBe(false);
    expect(piecesAreOwned(Readable.from([Buffer.alloc(1)]))).toBe(false);
    let seen: IncomingMessage | null = null;
    const server = createServer((incoming, answer) => {
      seen = incoming;
      incoming.resume();
      incoming.on('end', () => answer.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const sent = request({ host: '127.0.0.1', port, method: 'POST' }, (answer) => {
          answer.resume();
          answer.on('end', resolve);
        });
        sent.on('error', reject);
        sent.end('body');
      });
      expect(piecesAreOwned(seen)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
