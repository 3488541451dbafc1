import { describe, expect, it, vi } from 'vitest';
import { whenIdle } from './preload';

describe('preparing the Map tab', () => {
  it('runs the idle work once, unless cancelled first', async () => {
    // Cancelled first, so its moment comes before the other's: by then it would have run.
    const skipped = vi.fn();
    whenIdle(skipped)();
    const ran = vi.fn();
    whenIdle(ran);
    await vi.waitFor(() => expect(ran).toHaveBeenCalledTimes(1));
    expect(skipped).not.toHaveBeenCalled();
  });
});
