/**
 * Hashes kept in a worker thread (lib/sha1.worker.mjs), beside the requests instead of
 * holding them up: the file SHA-1 of an upload, continued chunk after chunk while the upload
 * runs (RunningSha1), and each received chunk's SHA-1 and SHA-256 leaf, batch by batch as its
 * bytes arrive (ChunkDigests). The hash is Node's own (OpenSSL, with the CPU's SHA instructions: about
 * twice hash-wasm's speed here); its state cannot be saved, so it lives only in this process
 * (services/push/digest.ts starts it again from the staged bytes when it is gone).
 *
 * Two workers per process (one for the running SHA-1s, one for the chunks' digests) are
 * started on first use and kept (they do not keep the process alive). When the worker dies its hashes are lost (`broken`); when no worker thread can
 * start, the hashes run on this thread.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * The process's one worker of a kind: started on first use and again after it died; never
 * again once one died before it had loaded (the work then runs on the main thread).
 */
class WorkerSlot {
  private worker: Worker | null = null;
  private unavailable = false;

  constructor(private readonly start: () => Worker) {}

  /** The running worker, started when needed; null when no worker thread can be had. */
  get(): Worker | null {
    if (!this.unavailable) {
      try {
        this.worker ??= this.start();
      } catch {
        this.unavailable = true;
      }
    }
    return this.worker;
  }

  /** `thread` ended: false when it was not the slot's worker any more (already handled). */
  ended(thread: Worker, loaded: boolean): boolean {
    if (this.worker !== thread) return false;
    this.worker = null;
    // A worker that never loaded cannot be had here: do the work on the main thread from now on.
    if (!loaded) this.unavailable = true;
    return true;
  }
}

/** A range of a file on this machine (the worker reads it itself, outside the thread pool the requests' writes and fsyncs use). */
export interface FileRange {
  file: string;
  offset: number;
  length: number;
}

/** Bytes in memory (copied to the worker, or shared with it when shared memory), or a file range. */
export type Sha1Piece = Uint8Array | FileRange;

interface Digests {
  sha1?: string;
  sha256?: string;
}

type Answer = ({ call: number } & Digests) | { call: number; error: string };

interface Call {
  resolve(digests: Digests): void;
  reject(error: Error): void;
}

/** A hash kept in a worker: `broken` once the worker is gone. */
interface ThreadHash {
  broken: boolean;
}

let nextId = 1;
let nextCall = 1;
/** The calls awaiting an answer, by worker. */
const callsOf = new WeakMap<Worker, Map<number, Call>>();
/** The hashes of each worker (lost with it). */
const hashesOf = new WeakMap<Worker, Set<ThreadHash>>();

/** A slot of the process for one hashing worker (lib/sha1.worker.mjs). */
function hashingSlot(): WorkerSlot {
  const slot: WorkerSlot = new WorkerSlot(() => {
    const thread = new Worker(new URL('./sha1.worker.mjs', import.meta.url));
    let answered = false;
    const calls = new Map<number, Call>();
    callsOf.set(thread, calls);
    hashesOf.set(thread, new Set());
    thread.on('message', (answer: Answer) => {
      answered = true;
      const call = calls.get(answer.call);
      if (!call) return;
      calls.delete(answer.call);
      if (calls.size === 0) thread.unref();
      if ('error' in answer) call.reject(new Error(answer.error));
      else call.resolve(answer);
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
  });
  return slot;
}

/** The worker of the files' running SHA-1s. */
const slot = hashingSlot();
/**
 * The worker of the chunks' digests, apart, so that a chunk's answer never waits behind a
 * running SHA-1's 10 MiB, and the two run on two cores where there are.
 */
const chunkSlot = hashingSlot();

/** Asks the worker `op` of hash `id`; answered once every message before it is handled. */
function ask(thread: Worker, id: number, op: 'mark' | 'digest'): Promise<Digests> {
  const call = nextCall++;
  const answer = new Promise<Digests>((resolve, reject) => {
    callsOf.get(thread)?.set(call, { resolve, reject });
  });
  // Keep the process alive while an answer is due.
  thread.ref();
  thread.postMessage({ id, op, call });
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

  private ask(op: 'mark' | 'digest'): Promise<Digests> {
    if (this.broken) return Promise.reject(new Error('The running SHA-1 is lost'));
    return ask(this.thread!, this.id, op);
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
    const { sha1 } = await this.ask('digest');
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

/** A chunk's digests: SHA-1 (hex) and, when asked for, its SHA-256 leaf (hex). */
export interface ChunkSums {
  sha1: string;
  sha256: string | null;
}

/** A chunk smaller than this is hashed on this thread (a round trip would cost more). */
const SMALL_IN_THREAD = 64 * 1024;

/** Closes the worker's hashes of chunk digests dropped without a digest (a body that broke off). */
const unclaimed = new FinalizationRegistry<{ thread: Worker; id: number }>(({ thread, id }) => {
  thread.postMessage({ id, op: 'close' });
});

/**
 * One chunk's SHA-1 and (`leaf`) SHA-256, over the byte ranges given in order (`add`),
 * computed in the hashing thread: both hashes take each range in one visit, so the event
 * loop only hands the ranges over. A range in shared memory (staging.ts `chunkBuffer`) is
 * read in place, so it must stay unchanged until `digest` has answered; any other is copied
 * to the thread. The first range decides: one under SMALL_IN_THREAD (a small chunk, or the
 * whole of one), or no worker thread at all, and the hashes run here. Should the worker fail
 * or die, `digest` hashes the ranges again here (they are still unchanged).
 */
export class ChunkDigests implements ThreadHash {
  broken = false;
  private readonly id = nextId++;
  private thread: Worker | null | undefined;
  private here: { sha1: Hash; sha256: Hash | null } | null = null;
  /** The ranges the thread hashes (for hashing them here should it fail). */
  private ranges: Uint8Array[] = [];
  private done = false;

  constructor(private readonly leaf: boolean) {}

  private hashHereOver(bytes: Uint8Array): void {
    this.here ??= { sha1: createHash('sha1'), sha256: this.leaf ? createHash('sha256') : null };
    this.here.sha1.update(bytes);
    this.here.sha256?.update(bytes);
  }

  /** Continues both hashes over `bytes`. */
  add(bytes: Uint8Array): void {
    if (this.done) throw new Error('The chunk digests are already taken');
    if (bytes.length === 0) return;
    if (this.thread === undefined) {
      this.thread = bytes.length >= SMALL_IN_THREAD ? chunkSlot.get() : null;
      if (this.thread) {
        hashesOf.get(this.thread)?.add(this);
        this.thread.postMessage({ id: this.id, op: 'open', leaf: this.leaf });
        unclaimed.register(this, { thread: this.thread, id: this.id }, this);
      }
    }
    if (!this.thread) {
      this.hashHereOver(bytes);
      return;
    }
    this.ranges.push(bytes);
    this.thread.postMessage({ id: this.id, op: 'update', bytes });
  }

  /** The digests of every byte added; answered once the thread is done with every range. */
  async digest(): Promise<ChunkSums> {
    if (this.done) throw new Error('The chunk digests are already taken');
    this.done = true;
    const thread = this.thread;
    const ranges = this.ranges;
    this.ranges = [];
    if (thread) {
      unclaimed.unregister(this);
      try {
        if (this.broken) throw new Error('The hashing thread is gone');
        const { sha1, sha256 } = await ask(thread, this.id, 'digest');
        if (sha1 && (sha256 || !this.leaf)) return { sha1, sha256: sha256 ?? null };
      } catch {
        // Hashed again below.
      } finally {
        hashesOf.get(thread)?.delete(this);
        thread.postMessage({ id: this.id, op: 'close' });
      }
      for (const range of ranges) this.hashHereOver(range);
    }
    this.hashHereOver(new Uint8Array(0));
    const here = this.here!;
    return { sha1: here.sha1.digest('hex'), sha256: here.sha256?.digest('hex') ?? null };
  }
}
