/**
 * Continues a serialized SHA-1 state (hash-wasm's save format, so any instance can pick it
 * up from the database) over more bytes, in a worker thread (lib/sha1.worker.mjs): the
 * running SHA-1 of an upload is the slowest hash the server computes (WebAssembly, no CPU
 * SHA instructions), and there it runs beside the requests instead of holding them up.
 * One worker per process is started on first use and kept (it does not keep the process
 * alive). When the worker fails or cannot start, the bytes are read again and hashed on the
 * main thread.
 */
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createSHA1 } from 'hash-wasm';
import { WorkerSlot } from './worker-thread';

/** A range of a file on this machine (the worker reads it itself, outside the thread pool the requests' writes and fsyncs use). */
export interface FileRange {
  file: string;
  offset: number;
  length: number;
}

/** Bytes in memory (copied to the worker, or shared with it), or a range of a file. */
export type Sha1Piece = Uint8Array | FileRange;

/** Where the bytes come from: a file range, or a reader of pieces in order. */
export type Sha1Source = FileRange | { read: () => AsyncIterable<Sha1Piece> };

type Answer = { id: number; state: Uint8Array } | { id: number; error: string };

interface Session {
  resolve(state: Uint8Array): void;
  reject(error: Error): void;
}

let nextId = 1;
const sessions = new Map<number, Session>();
const slot = new WorkerSlot(startWorker);

function startWorker(): Worker {
  const thread = new Worker(new URL('./sha1.worker.mjs', import.meta.url));
  let answered = false;
  thread.unref();
  thread.on('message', (answer: Answer) => {
    answered = true;
    const session = sessions.get(answer.id);
    if (!session) return;
    sessions.delete(answer.id);
    if (sessions.size === 0) thread.unref();
    if ('state' in answer) session.resolve(answer.state);
    else session.reject(new Error(answer.error));
  });
  const gone = (error: Error) => {
    // A worker that never answered will not do better next time: hash on this thread.
    if (!slot.ended(thread, answered)) return;
    const waiting = [...sessions.values()];
    sessions.clear();
    for (const session of waiting) session.reject(error);
  };
  thread.on('error', gone);
  thread.on('exit', (code) => gone(new Error(`The SHA-1 worker exited with code ${code}`)));
  return thread;
}

async function continueInWorker(
  thread: Worker,
  state: Uint8Array | null,
  source: Sha1Source,
  onReadError: () => void,
): Promise<Uint8Array> {
  const id = nextId++;
  const answer = new Promise<Uint8Array>((resolve, reject) => {
    sessions.set(id, { resolve, reject });
  });
  // A failure is thrown where the answer is awaited (the worker may die while bytes are sent).
  answer.catch(() => undefined);
  // Keep the process alive while an answer is due.
  thread.ref();
  try {
    thread.postMessage({ id, op: 'start', state });
    for await (const piece of piecesOf(source)) {
      if (piece instanceof Uint8Array) {
        // Copied to the thread, unless its buffer is shared memory (read in place).
        thread.postMessage({ id, op: 'update', bytes: piece });
      } else {
        const { file, offset, length } = piece;
        thread.postMessage({ id, op: 'file', path: file, offset, length });
      }
    }
  } catch (error) {
    onReadError();
    // Reading failed: the worker forgets the hash when asked for a state it cannot give.
    sessions.delete(id);
    if (sessions.size === 0) thread.unref();
    thread.postMessage({ id, op: 'drop' });
    throw error;
  }
  thread.postMessage({ id, op: 'save' });
  return answer;
}

async function* readFile(file: string, offset: number, length: number): AsyncGenerator<Uint8Array> {
  if (length === 0) return;
  let done = 0;
  for await (const piece of createReadStream(file, { start: offset, end: offset + length - 1 })) {
    done += (piece as Buffer).length;
    yield piece as Buffer;
  }
  if (done !== length) throw new Error('The file is shorter than expected');
}

async function* piecesOf(source: Sha1Source): AsyncGenerator<Sha1Piece> {
  if ('file' in source) yield source;
  else yield* source.read();
}

async function continueHere(state: Uint8Array | null, source: Sha1Source): Promise<Uint8Array> {
  const hasher = await createSHA1();
  if (state) hasher.load(state);
  else hasher.init();
  for await (const piece of piecesOf(source)) {
    if (piece instanceof Uint8Array) hasher.update(piece);
    else
      for await (const bytes of readFile(piece.file, piece.offset, piece.length))
        hasher.update(bytes);
  }
  return hasher.save();
}

/**
 * The SHA-1 state after `state` (null: a new hash) continued over the bytes of `source`
 * (read twice when the worker fails: the second time on the main thread).
 */
export async function continueSha1(
  state: Uint8Array | null,
  source: Sha1Source,
): Promise<Uint8Array> {
  const thread = slot.get();
  if (thread) {
    let readFailed = false;
    try {
      return await continueInWorker(thread, state, source, () => {
        readFailed = true;
      });
    } catch (error) {
      if (readFailed) throw error;
      // The worker failed (or could not read the file): hash here this time.
    }
  }
  return continueHere(state, source);
}

/** SHA-1 (hex) of everything a saved state covers. */
export async function finalSha1(state: Uint8Array | null): Promise<string> {
  const hasher = await createSHA1();
  if (state) hasher.load(state);
  else hasher.init();
  return hasher.digest('hex');
}
