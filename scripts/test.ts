// `npm test`: every tier of the suite (typecheck, lint, unit, server integration, end-to-end),
// each to its end even when an earlier one failed, then one line per tier with its time and
// outcome. Exit code 1 when any tier failed.
//
// Typecheck and lint run side by side: each is one single-threaded process, so on two cores
// the pair takes about as long as lint alone. The other tiers keep both cores busy on their
// own and run one after another, their output shown as it comes.
import { spawn } from 'node:child_process';

type Tier = { name: string; script: string };
const STAGES: Tier[][] = [
  [
    { name: 'typecheck', script: 'typecheck' },
    { name: 'lint', script: 'lint' },
  ],
  [{ name: 'unit', script: 'test:unit' }],
  [{ name: 'server', script: 'test:server' }],
  [{ name: 'end-to-end', script: 'test:e2e' }],
];

type Result = { name: string; seconds: number; ok: boolean; beside: boolean };

/** Runs one tier; beside another its output is kept and printed whole when it ends. */
function run({ name, script }: Tier, beside: boolean): Promise<Result> {
  const started = performance.now();
  const header = `\n== ${name} (npm run ${script}) ==`;
  if (!beside) console.log(header);
  const child = spawn('npm', ['run', '--silent', script], {
    stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      if (beside) {
        console.log(header);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, seconds: (performance.now() - started) / 1000, ok: code === 0, beside });
    });
  });
}

const only = process.argv.slice(2);
const results: Result[] = [];
const suiteStarted = performance.now();
for (const stage of STAGES) {
  const tiers = stage.filter(({ name }) => only.length === 0 || only.includes(name));
  results.push(...(await Promise.all(tiers.map((tier) => run(tier, tiers.length > 1)))));
}

// Rounded to whole seconds first: 299.6 s is 5 min 00 s, not 4 min 60 s.
const clock = (seconds: number) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};
console.log('\nTiers:');
for (const { name, seconds, ok, beside } of results) {
  const outcome = `${ok ? 'passed' : 'FAILED'}${beside ? ' (side by side)' : ''}`;
  console.log(`  ${name.padEnd(11)} ${clock(seconds).padStart(13)}  ${outcome}`);
}
const total = (performance.now() - suiteStarted) / 1000;
console.log(`  ${'all'.padEnd(11)} ${clock(total).padStart(13)}`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
