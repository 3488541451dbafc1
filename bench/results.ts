// bench/RESULTS.md: the latest figures of every bench, one section per bench. A run rewrites
// the sections of the benches it ran and keeps the others as they were.
import type { BenchResult } from './harness';

/** The machine a run measured on. */
export interface Machine {
  cores: number;
  memoryBytes: number;
  node: string;
  /** The 1-minute load average before the run (the machine may be shared). */
  load?: number;
}

/** The results of one bench (a name of bench/run.ts) in one run. */
export interface BenchRun {
  bench: string;
  results: BenchResult[];
}

const TITLE = '# Bench results';
const INTRO = [
  'Written by `npm run bench` (bench/run.ts); do not edit by hand. Each run rewrites the',
  'sections of the benches it ran and keeps the others. What each bench measures, its',
  'baseline and its target: [README.md](README.md).',
].join('\n');

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function hasTimes(r: BenchResult): boolean {
  return Number.isFinite(r.candidateMs) && Number.isFinite(r.baselineMs);
}

/** A ratio against a baseline (times, throughputs), rather than a count or size under a limit. */
function isRatio(r: BenchResult): boolean {
  return hasTimes(r) || r.atLeast === true;
}

/** The detail text without its trailing "(target …)", which the table has a column for. */
function figureText(r: BenchResult): string {
  if (hasTimes(r)) return ms(r.candidateMs);
  const text = r.detail ?? String(r.ratio);
  return text.replace(/ \(target [≤≥] [^,)]*\)$/, '');
}

function targetText(r: BenchResult): string {
  if (r.atLeast && r.target === 0) return 'none (information)';
  const sign = r.atLeast ? '≥' : '≤';
  return isRatio(r) ? `${sign} ${r.target}×` : `${sign} ${r.target}`;
}

/** Table cells may not hold a bare `|`. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function machineText(machine: Machine): string {
  const gib = machine.memoryBytes / 1024 ** 3;
  const load = machine.load === undefined ? '' : `, load average ${machine.load.toFixed(1)}`;
  return `${machine.cores} cores, ${gib.toFixed(1)} GiB memory, Node ${machine.node}${load}`;
}

/** The section of one bench: heading, date and machine, and a row per result. */
export function renderSection(run: BenchRun, date: Date, machine: Machine): string {
  const rows = run.results.map((r) =>
    [
      r.name,
      figureText(r),
      hasTimes(r) ? ms(r.baselineMs) : '—',
      isRatio(r) ? `${r.ratio.toFixed(2)}×` : '—',
      targetText(r),
      r.ok ? 'met' : '**not met**',
    ]
      .map(cell)
      .join(' | '),
  );
  return [
    `## ${run.bench}`,
    '',
    `Measured ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machineText(machine)}.`,
    '',
    '| measure | figure | baseline | ratio | target | met |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** The sections of an existing RESULTS.md by bench name, in their order. */
export function parseSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = markdown.split(/^## /m).slice(1);
  for (const part of parts) {
    const name = part.slice(0, part.indexOf('\n')).trim();
    if (name) sections.set(name, `## ${part.trimEnd()}`);
  }
  return sections;
}

/**
 * The new RESULTS.md: the sections of `runs` rendered afresh, the other sections of `existing`
 * kept; sections in the order of `order` (the benches of bench/run.ts), then any others.
 */
export function renderResults(
  existing: string | null,
  runs: BenchRun[],
  order: readonly string[],
  date: Date,
  machine: Machine,
): string {
  const sections = parseSections(existing ?? '');
  for (const run of runs) sections.set(run.bench, renderSection(run, date, machine));
  const names = [
    ...order.filter((name) => sections.has(name)),
    ...[...sections.keys()].filter((name) => !order.includes(name)),
  ];
  return [TITLE, INTRO, ...names.map((name) => sections.get(name)!)].join('\n\n') + '\n';
}
