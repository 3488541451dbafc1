/**
 * A server test file that replaces a module (vi.mock) runs in a worker of its own: the server
 * project shares workers between files (isolate: false), so its replacement would reach the
 * files after it, or miss the server's modules an earlier file already loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_SERVER_TESTS } from '../../vitest.config';

const root = path.resolve(import.meta.dirname, '../..');

const mocking = ['tests/server', 'server/src']
  .flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[]).map((file) =>
      path.posix.join(dir, file.split(path.sep).join('/')),
    ),
  )
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => fs.readFileSync(path.join(root, file), 'utf8').includes('vi.mock('));

describe('server test files that replace modules', () => {
  it('are found', () => {
    expect(mocking.length).toBeGreaterThan(0);
  });

  it.each(mocking)('%s runs in a worker of its own', (file) => {
    expect(ISOLATED_SERVER_TESTS).toContain(file);
  });
});
