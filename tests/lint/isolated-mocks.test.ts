/**
 * A server test file that replaces a module (vi.mock) runs in a worker of its own: the server
 * project shares workers between files (isolate: false), so its replacement would reach the
 * files after it, or miss the server's modules an earlier file already loaded.
 */
import { describe, expect, it } from 'vitest';
import { ISOLATED_SERVER_TESTS } from '../isolated-server-tests';
import { sourceFiles } from './source-files';

const mocking = ['tests/server', 'server/src']
  .flatMap((dir) => sourceFiles(dir, /\.test\.ts$/))
  .filter(([, text]) => text.includes('vi.mock('))
  .map(([file]) => file);

describe('server test files that replace modules', () => {
  it('are found', () => {
    expect(mocking.length).toBeGreaterThan(0);
  });

  it.each(mocking)('%s runs in a worker of its own', (file) => {
    expect(ISOLATED_SERVER_TESTS).toContain(file);
  });
});
