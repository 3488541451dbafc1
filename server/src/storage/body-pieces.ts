/**
 * A request body's pieces handed to a consumer as they arrive. A stream (the HTTP request)
 * is read through its 'data' events, paused while the consumer's answer is pending: its
 * async iterator costs several promises per 64 KiB piece, about 0.4 CPU seconds per GiB on
 * the event loop (measured with a plain HTTP server, issue 36), more than any other part of
 * receiving a chunk but the kernel's copy. Any other iterable is read with for-await.
 */
import type { Readable } from 'node:stream';

/** How the body ended: null when every piece was taken, `{ cause }` when the body failed. */
export type BodyEnd = { cause: unknown } | null;

/**
 * Gives every piece of `body` to `take`, in order; when `take` answers a promise, the next
 * piece waits for it. Resolves how the body ended (a lost connection is `{ cause }`, never
 * thrown); rejects with `take`'s own failure, after which the body is destroyed (as leaving
 * a for-await loop does).
 */
export function eachPiece(
  body: AsyncIterable<Uint8Array | string>,
  take: (piece: Uint8Array | string) => Promise<void> | void,
): Promise<BodyEnd> {
  if (isReadable(body)) return eachStreamPiece(body, take);
  return eachIteratedPiece(body, take);
}

function isReadable(body: unknown): body is Readable {
  const stream = body as Partial<Readable> | null;
  return (
    typeof stream?.on === 'function' &&
    typeof stream.pause === 'function' &&
    typeof stream.resume === 'function' &&
    typeof stream.destroy === 'function'
  );
}

async function eachIteratedPiece(
  body: AsyncIterable<Uint8Array | string>,
  take: (piece: Uint8Array | string) => Promise<void> | void,
): Promise<BodyEnd> {
  let inBody = true;
  try {
    for await (const piece of body) {
      inBody = false;
      await take(piece);
      inBody = true;
    }
    return null;
  } catch (error) {
    if (!inBody) throw error;
    return { cause: error };
  }
}

function eachStreamPiece(
  body: Readable,
  take: (piece: Uint8Array | string) => Promise<void> | void,
): Promise<BodyEnd> {
  if (body.readableEnded) return Promise.resolve(null);
  if (body.destroyed) return Promise.resolve({ cause: body.errored ?? new Error('aborted') });
  return new Promise<BodyEnd>((resolve, reject) => {
    /** The consumer's answer for the latest piece, while pending (the body is paused). */
    let pending: Promise<void> | null = null;
    let settled = false;
    let ended = false;
    const stop = () => {
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      stop();
      // Our failure: the rest of the body is not wanted (as leaving a for-await loop).
      if (!ended) body.destroy();
      reject(error);
    };
    /** The body ended or broke: answered once the consumer took what it was given. */
    const finish = (end: BodyEnd) => {
      if (settled) return;
      stop();
      // An error may follow a destroyed stream's end of reading: keep one listener.
      body.on('error', () => undefined);
      const wait = pending ?? Promise.resolve();
      wait.then(() => resolve(end), reject);
    };
    function onData(piece: Uint8Array | string) {
      if (settled) return;
      let answer: Promise<void> | void;
      try {
        answer = take(piece);
      } catch (error) {
        fail(error);
        return;
      }
      if (!answer) return;
      body.pause();
      const current = answer.then(
        () => {
          if (pending === current) pending = null;
          if (!settled) body.resume();
        },
        (error: unknown) => {
          if (pending === current) pending = null;
          fail(error);
          throw error;
        },
      );
      // Its failure is answered by `fail` (or by `finish`, which awaits it).
      current.catch(() => undefined);
      pending = current;
    }
    function onEnd() {
      ended = true;
      finish(null);
    }
    function onError(error: unknown) {
      finish({ cause: error });
    }
    function onClose() {
      // Closed before its end without an error event: the connection is gone.
      finish({ cause: new Error('aborted') });
    }
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
