import { describe, expect, it } from 'vitest';
import {
  DIFFS_PER_REQUEST,
  INTERACTIVE_DIFF_BYTES,
  INTERACTIVE_FILE_BYTES,
  rebuildBatches,
  rebuildLane,
} from './rebuild';

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

describe('the sandbox calls of a rebuild', () => {
  const links = (...sizes: number[]) => sizes.map((diffSize) => ({ diffSize }));

  it('applies a chain the rule allows in one call', () => {
    expect(rebuildBatches(links(...Array<number>(32).fill(49_000)))).toEqual([
      { from: 0, to: 32, diffBytes: 32 * 49_000 },
    ]);
  });

  it('splits where the interactive lane would be passed, and past the most diffs a call', () => {
    const half = INTERACTIVE_DIFF_BYTES / 2;
    expect(rebuildBatches(links(half, half, 1, INTERACTIVE_DIFF_BYTES + 5, 10))).toEqual([
      { from: 0, to: 2, diffBytes: INTERACTIVE_DIFF_BYTES },
      { from: 2, to: 3, diffBytes: 1 },
      { from: 3, to: 4, diffBytes: INTERACTIVE_DIFF_BYTES + 5 },
      { from: 4, to: 5, diffBytes: 10 },
    ]);
    const many = rebuildBatches(links(...Array<number>(DIFFS_PER_REQUEST + 1).fill(1)));
    expect(many.map((b) => b.to - b.from)).toEqual([DIFFS_PER_REQUEST, 1]);
    expect(rebuildBatches([])).toEqual([]);
  });
});
