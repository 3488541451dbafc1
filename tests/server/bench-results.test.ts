// The writer of bench/RESULTS.md: a pure function from results to markdown.
import { describe, expect, it } from 'vitest';
import {
  countResult,
  limitResult,
  ratioResult,
  throughputResult,
  type BenchResult,
} from '../../bench/harness';
import { parseSections, renderResults, renderSection } from '../../bench/results';

const MACHINE = { cores: 2, memoryBytes: 8 * 1024 ** 3, node: 'v20.19.0' };
const ORDER = ['blob-store', 'http', 'api-rps', 'bundle-size'];
const MONDAY = new Date('2026-11-23T10:05:00Z');
const TUESDAY = new Date('2026-11-24T14:40:30Z');

const apiRps: BenchResult = {
  name: 'authenticated project list req/s vs bare Fastify hello-world (PGlite)',
  baselineMs: NaN,
  candidateMs: NaN,
  ratio: 9095 / 22167,
  target: 0.1,
  ok: true,
  atLeast: true,
  detail: '9095 req/s vs 22167 req/s = 0.41× (target ≥ 0.1×, 8 connections)',
};

/** RESULTS.md after a run of one bench with one result. */
function afterRun(existing: string | null, bench: string, result: BenchResult, date = TUESDAY) {
  return renderResults(existing, [{ bench, results: [result] }], ORDER, date, MACHINE);
}

function rowOf(markdown: string, measure: string): string[] {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${measure} |`));
  if (!line) throw new Error(`no row ${measure} in\n${markdown}`);
  return line
    .slice(2, -2)
    .split(' | ')
    .map((c) => c.trim());
}

describe('bench/RESULTS.md writer', () => {
  it('writes the heading, date and machine of a section', () => {
    const section = renderSection(
      { bench: 'http', results: [ratioResult('GET /ping', 10, 13, 1.5)] },
      TUESDAY,
      MACHINE,
    );
    expect(section.startsWith('## http\n')).toBe(true);
    expect(section).toContain(
      'Measured 2026-11-24 14:40 UTC on 2 cores, 8.0 GiB memory, Node v20.19.0.',
    );
  });

  // Each result's row: figure, baseline, ratio, target, met.
  it.each<[string, BenchResult, string[]]>([
    [
      'a ratio of two times',
      ratioResult('GET /ping vs bare Fastify', 10, 13, 1.5),
      ['13.0 ms', '10.0 ms', '1.30×', '≤ 1.5×', 'met'],
    ],
    [
      'a throughput that misses its minimum',
      throughputResult('upload of 1 GiB vs cp + fsync', 580, 5360, 0.3),
      ['5360.0 ms', '580.0 ms', '0.11×', '≥ 0.3×', '**not met**'],
    ],
    [
      'a size under a limit, without its "(target …)"',
      limitResult('/login: JS + CSS gzipped', 149.9, 170, '149.9 KB (target ≤ 170 KB)'),
      ['149.9 KB', '—', '—', '≤ 170', 'met'],
    ],
    [
      'a count over its limit',
      countResult('/login: files with hashing, upload or map code', 1, 0),
      ['1', '—', '—', '≤ 0', '**not met**'],
    ],
    [
      'a request rate with a minimum ratio and no time baseline',
      apiRps,
      [
        '9095 req/s vs 22167 req/s = 0.41× (target ≥ 0.1×, 8 connections)',
        '—',
        '0.41×',
        '≥ 0.1×',
        'met',
      ],
    ],
  ])('writes %s', (_, result, cells) => {
    const section = renderSection({ bench: 'any', results: [result] }, TUESDAY, MACHINE);
    expect(rowOf(section, result.name)).toEqual([result.name, ...cells]);
  });

  it('rewrites the sections of the benches that ran and keeps the others', () => {
    const first = renderResults(
      null,
      [
        { bench: 'http', results: [ratioResult('GET /ping', 10, 12, 1.5)] },
        { bench: 'blob-store', results: [ratioResult('put 64 MiB', 100, 120, 1.5)] },
      ],
      ORDER,
      MONDAY,
      MACHINE,
    );
    expect(first.startsWith('# Bench results\n')).toBe(true);
    // Sections follow the order of bench/run.ts, not the order they ran in.
    expect(first.indexOf('## blob-store')).toBeLessThan(first.indexOf('## http'));

    const second = renderResults(
      first,
      [{ bench: 'http', results: [ratioResult('GET /ping', 10, 30, 1.5)] }],
      ORDER,
      TUESDAY,
      { ...MACHINE, cores: 4, load: 3.42 },
    );
    const sections = parseSections(second);
    expect([...sections.keys()]).toEqual(['blob-store', 'http']);
    expect(sections.get('blob-store')).toBe(parseSections(first).get('blob-store'));
    expect(sections.get('http')).toContain(
      '2026-11-24 14:40 UTC on 4 cores, 8.0 GiB memory, Node v20.19.0, load average 3.4.',
    );
    expect(rowOf(second, 'GET /ping')[1]).toBe('30.0 ms');
    expect(rowOf(second, 'GET /ping')[5]).toBe('**not met**');
    expect(second.match(/^# Bench results$/gm)).toHaveLength(1);
    // Rendering again from its own output changes nothing but what ran.
    expect(renderResults(second, [], ORDER, TUESDAY, MACHINE)).toBe(second);
  });

  it('keeps a section of a bench it does not know, after the known ones', () => {
    const old = afterRun(null, 'pull-v2', ratioResult('pull', 1, 1, 2), MONDAY);
    const next = afterRun(old, 'http', ratioResult('GET /ping', 10, 12, 1.5));
    expect([...parseSections(next).keys()]).toEqual(['http', 'pull-v2']);
  });

  it('escapes a pipe in a measure name so the table keeps its columns', () => {
    const section = renderSection(
      { bench: 'http', results: [ratioResult('a | b', 1, 1, 2)] },
      TUESDAY,
      MACHINE,
    );
    expect(section).toContain('| a \\| b | 1.0 ms |');
  });
});
