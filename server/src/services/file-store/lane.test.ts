import { describe, expect, it } from 'vitest';
import { INTERACTIVE_DIFF_BYTES, INTERACTIVE_FILE_BYTES, rebuildLane } from './rebuild';

describe('the lane of a rebuild', () => {
  it('keeps a small rebuild a person waits for on the interactive lane', () => {
    expect(rebuildLane('interactive', 13 * 1024 * 1024, 16 * 49_000)).toBe('interactive');
    expect(rebuildLane('interactive', INTERACTIVE_FILE_BYTES, INTERACTIVE_DIFF_BYTES)).toBe(
      'interactive',
    );
  });

  it('sends large files and large batches of diffs to the background lane', () => {
    expect(rebuildLane('interactive', INTERACTIVE_FILE_BYTES + 1, 1000)).toBe('background');
    expect(rebuildLane('interactive', 1024 * 1024, INTERACTIVE_DIFF_BYTES + 1)).toBe('background');
  });

  it('never moves background work to the interactive lane', () => {
    expect(rebuildLane('background', 1024, 10)).toBe('background');
  });
});
