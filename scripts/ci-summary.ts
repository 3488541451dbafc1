// Adds up the passed and failed counts that vitest and Playwright printed in the given logs and
// prints the failing tests' names with the first line of their error (so the last lines of a CI
// log say what broke and why) and one closing line, `tests: N passed, N failed`.
import { readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ansi = /\u001b\[[0-9;]*m/g;
let passed = 0;
let failed = 0;
/** Failing test name -> the first error line printed after it (vitest prints it below). */
const failures = new Map<string, string>();
/** The failure whose error line is still to come. */
let awaiting: string | null = null;

for (const file of process.argv.slice(2)) {
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(ansi, '');
    // vitest: " FAIL  |server| tests/server/x.test.ts > group > name"
    const vitestFail = /^\s*FAIL\s+(.+\.test\.tsx?\b.*)$/.exec(line);
    if (vitestFail?.[1]) {
      awaiting = vitestFail[1].trim();
      if (!failures.has(awaiting)) failures.set(awaiting, '');
      continue;
    }
    // vitest: "AssertionError: expected 1 to be 2", "Error: Test timed out in 5000ms."
    const error = /^\s*(\w*Error\b.*)$/.exec(line);
    if (awaiting && error?.[1]) {
      if (!failures.get(awaiting)) failures.set(awaiting, error[1].trim().slice(0, 300));
      awaiting = null;
    }
    // Playwright: "  ✘  12 e2e/x.spec.ts:10:3 › name (1.2s)"
    const pwFail = /^\s*✘\s+\d+\s+(.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    if (pwFail?.[1] && !failures.has(pwFail[1].trim())) failures.set(pwFail[1].trim(), '');
    // vitest: " Tests  2 failed | 43 passed (45)"
    const vitest = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
    if (vitest?.[1]) {
      passed += Number(/(\d+) passed/.exec(vitest[1])?.[1] ?? 0);
      failed += Number(/(\d+) failed/.exec(vitest[1])?.[1] ?? 0);
      continue;
    }
    // Playwright: "  12 passed (30.1s)", "  24 passed (2.5m)", "  1 failed"
    const pw = /^\s+(\d+) (passed|failed)(?: \([\d.]+(?:ms|s|m|h)\))?\s*$/.exec(line);
    if (pw) {
      if (pw[2] === 'passed') passed += Number(pw[1]);
      else failed += Number(pw[1]);
    }
  }
}

for (const [name, why] of failures) console.log(`failed: ${name}${why ? `\n        ${why}` : ''}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
