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
}

export interface BenchApi {
  hashChosenFile(): Promise<HashRun>;
  uploadChosenFile(target: UploadTarget): Promise<UploadRun>;
}

export interface BenchWindow {
  waymarkBench: BenchApi;
}
