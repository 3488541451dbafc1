// `npm test`: every tier of the suite in turn (typecheck, lint, unit, server integration,
// end-to-end), each to its end even when an earlier one failed, then one line per tier with
// its time and outcome. Exit code 1 when any tier failed.
import { spawnSync } from 'node:child_process';

const TIERS: [name: string, script: string][] = [
  ['typecheck', 'typecheck'],
  ['lint', 'lint'],
  ['unit', 'test:unit'],
  ['server', 'test:server'],
  ['end-to-end', 'test:e2e'],
];

const only = process.argv.slice(2);
const results: { name: string; seconds: number; ok: boolean }[] = [];
for (const [name, script] of TIERS) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n== ${name} (npm run ${script}) ==`);
  const started = performance.now();
  const run = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
  results.push({ name, seconds: (performance.now() - started) / 1000, ok: run.status === 0 });
}

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
console.log('\nTiers:');
for (const { name, seconds, ok } of results) {
  console.log(`  ${name.padEnd(11)} ${clock(seconds).padStart(13)}  ${ok ? 'passed' : 'FAILED'}`);
}
const total = results.reduce((sum, result) => sum + result.seconds, 0);
console.log(`  ${'all'.padEnd(11)} ${clock(total).padStart(13)}`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
