// A tiny benchmark harness: runs a baseline and a candidate alternately (so machine noise hits
// both alike), keeps the median of each, and reports candidate / baseline against a target ratio.
export interface BenchResult {
  name: string;
  baselineMs: number;
  candidateMs: number;
  ratio: number;
  target: number;
  ok: boolean;
  /** The ratio must reach `target` (a throughput) rather than stay under it. */
  atLeast?: boolean;
  /** Replaces the default "X ms vs baseline Y ms = R×" text (counts, throughputs). */
  detail?: string;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Median times of `baseline` and `candidate`, alternating, ROUNDS each after one warm-up;
 * `prepare`, when given, runs before each candidate, untimed (e.g. emptying a cache), and
 * `prepareBaseline` before each baseline.
 */
export async function measure(
  name: string,
  baseline: () => Promise<void>,
  candidate: () => Promise<void>,
  target: number,
  prepare?: () => Promise<void>,
  prepareBaseline?: () => Promise<void>,
): Promise<BenchResult> {
  await prepareBaseline?.();
  await baseline();
  await prepare?.();
  await candidate();
  const base: number[] = [];
  const cand: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await prepareBaseline?.();
    let t = performance.now();
    await baseline();
    base.push(performance.now() - t);
    await prepare?.();
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
    const text =
      r.detail ??
      `${r.candidateMs.toFixed(1)} ms vs baseline ${r.baselineMs.toFixed(1)} ms = ${r.ratio.toFixed(2)}× (target ≤ ${r.target}×)`;
    console.log(`${r.ok ? 'ok  ' : 'SLOW'} ${r.name}: ${text}`);
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

/** A count that must stay at or under `limit` (no baseline). */
export function countResult(name: string, count: number, limit: number): BenchResult {
  return {
    name,
    baselineMs: NaN,
    candidateMs: NaN,
    ratio: count,
    target: limit,
    ok: count <= limit,
    detail: `${count} (target ≤ ${limit})`,
  };
}

/**
 * A throughput ratio that must reach `minimum`: the candidate's throughput over the
 * baseline's, from the times each took for the same bytes.
 */
export function throughputResult(
  name: string,
  baselineMs: number,
  candidateMs: number,
  minimum: number,
): BenchResult {
  const ratio = baselineMs / candidateMs;
  return {
    name,
    baselineMs,
    candidateMs,
    ratio,
    target: minimum,
    ok: ratio >= minimum,
    atLeast: true,
    detail: `${candidateMs.toFixed(0)} ms vs baseline ${baselineMs.toFixed(0)} ms: throughput ${ratio.toFixed(2)}× the baseline's (target ≥ ${minimum}×)`,
  };
}

/** A measured amount (a size, a figure) that must stay at or under `limit` (no baseline). */
export function limitResult(
  name: string,
  value: number,
  limit: number,
  detail = `${value} (target ≤ ${limit})`,
): BenchResult {
  return {
    name,
    baselineMs: NaN,
    candidateMs: NaN,
    ratio: value,
    target: limit,
    ok: value <= limit,
    detail,
  };
}

/** A figure printed for information (no target, never fails the run): `detail` says it. */
export function informationResult(name: string, value: number, detail: string): BenchResult {
  return {
    name,
    baselineMs: NaN,
    candidateMs: NaN,
    ratio: value,
    target: 0,
    ok: true,
    atLeast: true,
    detail,
  };
}
