// A tiny benchmark harness: runs a baseline and a candidate alternately (so machine noise hits
// both alike), keeps the median of each, and reports candidate / baseline against a target ratio.
export interface BenchResult {
  name: string;
  baselineMs: number;
  candidateMs: number;
  ratio: number;
  target: number;
  ok: boolean;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function measure(
  name: string,
  baseline: () => Promise<void>,
  candidate: () => Promise<void>,
  target: number,
): Promise<BenchResult> {
  await baseline();
  await candidate();
  const base: number[] = [];
  const cand: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await baseline();
    base.push(performance.now() - t);
    t = performance.now();
    await candidate();
    cand.push(performance.now() - t);
  }
  const baselineMs = median(base);
  const candidateMs = median(cand);
  const ratio = candidateMs / baselineMs;
  return { name, baselineMs, candidateMs, ratio, target, ok: ratio <= target };
}

export function report(results: BenchResult[]): void {
  for (const r of results) {
    console.log(
      `${r.ok ? 'ok  ' : 'SLOW'} ${r.name}: ${r.candidateMs.toFixed(1)} ms vs baseline ${r.baselineMs.toFixed(1)} ms = ${r.ratio.toFixed(2)}× (target ≤ ${r.target}×)`,
    );
  }
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

/** Percentile (0–100) of the values, nearest-rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** A result from two figures measured separately in the same run. */
export function ratioResult(
  name: string,
  baselineMs: number,
  candidateMs: number,
  target: number,
): BenchResult {
  const ratio = candidateMs / baselineMs;
  return { name, baselineMs, candidateMs, ratio, target, ok: ratio <= target };
}
