// What the benchmark page (main.ts) exposes to bench/browser.bench.ts, as `window.waymarkBench`.
export interface HashRun {
  sha1: string;
  ms: number;
  longTasks: number;
  longestTaskMs: number;
}

export interface BenchApi {
  hashChosenFile(): Promise<HashRun>;
}

export interface BenchWindow {
  waymarkBench: BenchApi;
}
