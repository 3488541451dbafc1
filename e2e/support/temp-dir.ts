import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * A new folder under the system's temporary folder, removed when this process exits.
 * Playwright loads every spec file in the runner and in each worker, so a folder made at a
 * spec's top level exists once per process that loaded it: an `afterAll` in the worker that
 * ran the tests would remove only its own, and every run would leave the others behind.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `waymark-e2e-${prefix}-`));
  if (made.length === 0) {
    process.once('exit', () => {
      for (const each of made) rmSync(each, { recursive: true, force: true });
    });
  }
  made.push(dir);
  return dir;
}
