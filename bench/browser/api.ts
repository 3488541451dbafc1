// What the benchmark page (main.ts) exposes to bench/browser.bench.ts, as `window.waymarkBench`.
export interface HashRun {
  sha1: string;
  ms: number;
  longTasks: number;
  longestTaskMs: number;
}

/** Where the upload benchmark signs in and which new project it uploads to. */
export interface UploadTarget {
  username: string;
  password: string;
  namespace: string;
  project: string;
  /** SHA-1 of the chosen file (the analysis step, measured by the hashing benchmark). */
  sha1: string;
}

export interface UploadRun {
  ms: number;
  /** When the upload was handed to the engine (Date.now(), for the server's request log). */
  startedAt: number;
}

/** The hashing worker's own read (src/workers/sha1.ts), among the read strategies. */
export const PRODUCT_READ = 'product (src/workers/sha1.ts)';

/** The product's read with the upload's copy staged into IndexedDB as it goes (issue 16). */
export const PRODUCT_STAGING = 'product, staging the chunks into IndexedDB';

/**
 * The ways of reading a File in a worker that bench/browser/read.worker.ts measures: with
 * hash-wasm's SHA-1 unless named "into the WebAssembly SHA-1" (src/workers/sha1-wasm).
 */
export const READ_STRATEGIES = [
  PRODUCT_READ,
  PRODUCT_STAGING,
  'Blob.stream() into the WebAssembly SHA-1',
  'BYOB reads of 1 MiB into the WebAssembly SHA-1',
  'the WebAssembly SHA-1 alone (bytes in memory)',
  'Blob.stream()',
  'arrayBuffer() of 4 MiB slices',
  'arrayBuffer() of 16 MiB slices',
  'arrayBuffer() of 64 MiB slices',
  'double-buffered 8 MiB slices',
  'double-buffered 16 MiB slices',
  'FileReaderSync of 4 MiB slices',
  'FileReaderSync of 16 MiB slices',
  'hash-wasm alone (bytes in memory)',
] as const;

export interface ReadRequest {
  strategy: string;
  file: File;
}

export interface ReadAnswer {
  strategy: string;
  sha1: string;
  ms: number;
}

export interface NewProject {
  id: string;
  version: string;
}

export interface AllAtOnceRun {
  ms: number;
  /** False when a request failed and the upload was given up. */
  finished: boolean;
  /** Chunks the server acknowledged. */
  acknowledged: number;
  transaction: string;
}

export interface BenchApi {
  /** The reference web app's way: every chunk at once, given up at the first failure. */
  postEveryChunkAtOnce(target: UploadTarget, project: NewProject): Promise<AllAtOnceRun>;
  /** Waits for the server, then cancels the transaction. */
  cancelWhenReachable(transaction: string): Promise<void>;
  /** Signs in and creates the target's project (before anything is timed). */
  newProject(target: UploadTarget): Promise<NewProject>;
  /** SHA-1 of the chosen file in a worker of its own, read with `strategy`. */
  readChosenFile(strategy: string): Promise<ReadAnswer>;
  hashChosenFile(): Promise<HashRun>;
  uploadChosenFile(target: UploadTarget, project: NewProject): Promise<UploadRun>;
  /**
   * The v1 push of the chosen file straight from the page (start, its 10 MiB slices with
   * `inFlight` requests at once, finish): the server's chunk path without the upload engine.
   */
  postChunksOfChosenFile(
    target: UploadTarget,
    project: NewProject,
    inFlight: number,
  ): Promise<UploadRun>;
}

export interface BenchWindow {
  waymarkBench: BenchApi;
}
