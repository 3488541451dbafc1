/**
 * Running SHA-1s kept in a worker thread (lib/sha1.worker.mjs): the file SHA-1 of an upload
 * is continued chunk after chunk while the upload runs, beside the requests instead of
 * holding them up. The hash is Node's own (OpenSSL, with the CPU's SHA instructions: about
 * twice hash-wasm's speed here); its state cannot be saved, so it lives only in this process
 * (services/push/digest.ts starts it again from the staged bytes when it is gone).
 *
 * One worker per process is started on first use and kept (it does not keep the process
 * alive). When the worker dies its hashes are lost (`broken`); when no worker thread can
 * start, the hashes run on this thread.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { WorkerSlot } from './worker-thread';

/** A range of a file on this machine (the worker reads it itself, outside the thread pool the requests' writes and fsyncs use). */
export interface FileRange {
  file: string;
  offset: number;
  length: number;
}

/** Bytes in memory (copied to the worker, or shared with it when shared memory), or a file range. */
export type Sha1Piece = Uint8Array | FileRange;

type Answer = { call: number; sha1?: string } | { call: number; error: string };

interface Call {
  resolve(sha1: string | undefined): void;
  reject(error: Error): void;
}

let nextId = 1;
let nextCall = 1;
const calls = new Map<number, Call>();
/** The running hashes of each worker (lost with it). */
const hashesOf = new WeakMap<Worker, Set<RunningSha1>>();
const slot = new WorkerSlot(startWorker);

function startWorker(): Worker {
  const thread = new Worker(new URL('./sha1.worker.mjs', import.meta.url));
  let answered = false;
  hashesOf.set(thread, new Set());
  thread.on('message', (answer: Answer) => {
    answered = true;
    const call = calls.get(answer.call);
    if (!call) return;
    calls.delete(answer.call);
    if (calls.size === 0) thread.unref();
    if ('error' in answer) call.reject(new Error(answer.error));
    else call.resolve(answer.sha1);
  });
  const gone = (error: Error) => {
    // A worker that never answered will not do better next time: hash on this thread.
    if (!slot.ended(thread, answered)) return;
    for (const hash of hashesOf.get(thread) ?? []) hash.broken = true;
    const waiting = [...calls.values()];
    calls.clear();
    for (const call of waiting) call.reject(error);
  };
  thread.on('error', gone);
  thread.on('exit', (code) => gone(new Error(`The SHA-1 worker exited with code ${code}`)));
  thread.unref();
  return thread;
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

/**
 * A SHA-1 continued over pieces in order, in the hashing thread. One update or digest at a
 * time (the caller waits for each). After a failed update the hash is `broken`: its bytes
 * are unknown, start a new one.
 */
export class RunningSha1 {
  broken = false;
  private readonly id = nextId++;
  private readonly thread: Worker | null;
  private readonly here: Hash | null;

  constructor() {
    this.thread = slot.get();
    if (this.thread) {
      hashesOf.get(this.thread)?.add(this);
      this.thread.postMessage({ id: this.id, op: 'open' });
      this.here = null;
    } else this.here = createHash('sha1');
  }

  private ask(op: 'mark' | 'digest'): Promise<string | undefined> {
    if (this.broken) return Promise.reject(new Error('The running SHA-1 is lost'));
    const thread = this.thread!;
    const call = nextCall++;
    const answer = new Promise<string | undefined>((resolve, reject) => {
      calls.set(call, { resolve, reject });
    });
    // Keep the process alive while an answer is due.
    thread.ref();
    thread.postMessage({ id: this.id, op, call });
    return answer;
  }

  /**
   * Continues the hash over `pieces`; resolves once every byte is hashed (a shared buffer
   * among them may be reused then). A failure leaves the hash broken.
   */
  async update(pieces: AsyncIterable<Sha1Piece>): Promise<void> {
    if (this.broken) throw new Error('The running SHA-1 is lost');
    try {
      if (this.here) {
        for await (const piece of pieces) {
          if (piece instanceof Uint8Array) this.here.update(piece);
          else
            for await (const bytes of readFile(piece.file, piece.offset, piece.length))
              this.here.update(bytes);
        }
        return;
      }
      const thread = this.thread!;
      for await (const piece of pieces) {
        if (this.broken) throw new Error('The running SHA-1 is lost');
        if (piece instanceof Uint8Array) {
          // Copied to the thread, unless its buffer is shared memory (read in place).
          thread.postMessage({ id: this.id, op: 'update', bytes: piece });
        } else {
          const { file, offset, length } = piece;
          thread.postMessage({ id: this.id, op: 'file', path: file, offset, length });
        }
      }
      await this.ask('mark');
    } catch (error) {
      this.broken = true;
      throw error;
    }
  }

  /** SHA-1 (hex) of every byte so far; the hash may go on. */
  async digest(): Promise<string> {
    if (this.broken) throw new Error('The running SHA-1 is lost');
    if (this.here) return this.here.copy().digest('hex');
    const sha1 = await this.ask('digest');
    if (!sha1) throw new Error('The SHA-1 worker gave no digest');
    return sha1;
  }

  /** Forgets the hash. */
  close(): void {
    this.broken = true;
    if (!this.thread) return;
    hashesOf.get(this.thread)?.delete(this);
    this.thread.postMessage({ id: this.id, op: 'close' });
  }
}
