/**
 * A request body's pieces handed to a consumer as they arrive. A stream (the HTTP request)
 * is read through its 'data' events, paused while the consumer's answer is pending: its
 * async iterator costs several promises per 64 KiB piece, about 0.4 CPU seconds per GiB on
 * the event loop (measured with a plain HTTP server, issue 36), more than any other part of
 * receiving a chunk but the kernel's copy. Any other iterable is read with for-await.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

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

/**
 * Whether `body` is a request read from a connection by Node's HTTP parser, whose body
 * pieces are copies of their own (each the whole of an ArrayBuffer nobody else holds once
 * its 'data' event is over): such a piece may be let go with `releasePiece` once its bytes
 * are copied elsewhere. Not a body made in memory (`app.inject`, a test's stream), whose
 * pieces may be the caller's own buffers.
 */
export function piecesAreOwned(body: unknown): boolean {
  return body instanceof IncomingMessage && body.socket instanceof Socket;
}

/** A port closed at both ends: a buffer transferred to it is detached and freed. */
let sink: MessagePort | null = null;

/**
 * Frees a body piece's memory now instead of at a later garbage collection, when `piece`
 * is the whole of an ArrayBuffer of its own (a piece of a body `piecesAreOwned` says is
 * ours, whose bytes were copied): detaching its buffer frees the bytes and takes them off
 * V8's count of external memory at once. Node's HTTP parser gives each 64 KiB a buffer of
 * its own, and every 64 MiB of them counted started a scavenge or a full collection of the
 * heap (14 full ones per GiB uploaded, about 2.5 CPU s/GiB on V8's helper threads, issue
 * 36). The piece reads as empty afterwards. Anything else is left as it is.
 */
export function releasePiece(piece: Uint8Array): void {
  const buffer = piece.buffer;
  if (
    !(buffer instanceof ArrayBuffer) ||
    piece.byteOffset !== 0 ||
    piece.byteLength !== buffer.byteLength ||
    buffer.byteLength === 0
  ) {
    return;
  }
  if (!sink) {
    const { port1, port2 } = new MessageChannel();
    port2.close();
    port1.close();
    sink = port1;
  }
  try {
    sink.postMessage(null, [buffer]);
  } catch {
    // Not detachable (held by Node itself): left to the garbage collector.
  }
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
