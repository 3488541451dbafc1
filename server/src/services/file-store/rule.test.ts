import { describe, expect, it } from 'vitest';
import { CHECKPOINT_DIFFS, DEFAULT_LIMITS, placeCopies, type FileStep } from './rule';

const MB = 1024 * 1024;

/** v1 stored whole, then `n` versions each made from a diff of `diff` bytes (linear). */
function history(n: number, diff: number, size = 10 * MB, stored = () => false): FileStep[] {
  const steps: FileStep[] = [
    { key: 'k1', size, stored: true, recipe: false, linearDiff: null, shared: false },
  ];
  for (let i = 2; i <= n + 1; i++) {
    steps.push({
      key: `k${i}`,
      size,
      stored: stored(),
      recipe: true,
      linearDiff: diff,
      shared: false,
    });
  }
  return steps;
}

/** Diff bytes and diffs each version's rebuild applies once the placement is done. */
function chains(steps: FileStep[], storedAfter: Set<string>): { bytes: number; diffs: number }[] {
  let bytes = 0;
  let diffs = 0;
  return steps.map((step) => {
    if (storedAfter.has(step.key)) {
      bytes = 0;
      diffs = 0;
    } else {
      bytes += step.linearDiff ?? 0;
      diffs += 1;
    }
    return { bytes, diffs };
  });
}

function apply(steps: FileStep[], latestDue = true): Set<string> {
  const placement = placeCopies(steps, latestDue, { share: 0.1, diffs: 32 });
  const stored = new Set(steps.filter((s) => s.stored).map((s) => s.key));
  for (const key of placement.store) stored.add(key);
  for (const key of placement.unstore) stored.delete(key);
  return stored;
}

describe('the checkpoint rule', () => {
  it('bounds every rebuild by 10 % of the file in diff bytes and keeps the latest whole', () => {
    const steps = history(200, 50 * 1024);
    const stored = apply(steps);
    for (const chain of chains(steps, stored)) {
      expect(chain.bytes).toBeLessThanOrEqual(MB);
      expect(chain.diffs).toBeLessThanOrEqual(32);
    }
    expect(stored.has('k1')).toBe(true);
    expect(stored.has('k201')).toBe(true);
    // 20 diffs of 50 KiB fill the 1 MiB budget: every 21st version is whole (k22, k43, …).
    expect(stored.size).toBe(1 + 9 + 1);
    expect(stored.has('k22')).toBe(true);
  });

  it('counts diffs too: small diffs get a checkpoint every 32 versions', () => {
    const steps = history(100, 10);
    const stored = apply(steps);
    expect([...stored].sort()).toEqual(['k1', 'k100', 'k101', 'k34', 'k67'].sort());
    for (const chain of chains(steps, stored)) expect(chain.diffs).toBeLessThanOrEqual(32);
  });

  it('keeps chains of at most CHECKPOINT_DIFFS (16) diffs by default', () => {
    const steps = history(100, 10);
    const stored = new Set(steps.filter((s) => s.stored).map((s) => s.key));
    for (const key of placeCopies(steps, true).store) stored.add(key);
    expect(CHECKPOINT_DIFFS).toBe(16);
    expect([...stored].sort()).toEqual(['k1', 'k18', 'k35', 'k52', 'k69', 'k86', 'k101'].sort());
    for (const chain of chains(steps, stored)) expect(chain.diffs).toBeLessThanOrEqual(16);
  });

  it('bounds the page patches a rebuild writes by 20 % of the file', () => {
    // Diffs of 10 KiB whose patches are 400 KiB: 5 patches fill the 2 MiB budget.
    const steps = history(20, 10 * 1024).map((step) =>
      step.recipe ? { ...step, patch: 400 * 1024 } : step,
    );
    const placement = placeCopies(steps, true, DEFAULT_LIMITS);
    expect(placement.store.sort()).toEqual(['k21', 'k7', 'k13', 'k19'].sort());
    // Patches about their diffs' size (as measured): the diffs' bounds place the copies.
    const even = history(100, 50 * 1024).map((step) =>
      step.recipe ? { ...step, patch: 55 * 1024 } : step,
    );
    expect(placeCopies(even, true, DEFAULT_LIMITS).store).toEqual(
      placeCopies(history(100, 50 * 1024), true, DEFAULT_LIMITS).store,
    );
  });

  it('drops the copies of old versions stored whole (conversion) by the same rule', () => {
    const steps = history(50, 200 * 1024, 10 * MB, () => true);
    const placement = placeCopies(steps, true, { share: 0.1, diffs: 32 });
    expect(placement.store).toEqual([]);
    // Each 5 diffs fill the 1 MB budget: versions 7, 13, … stay whole.
    expect(placement.unstore).not.toContain('k7');
    expect(placement.unstore).toContain('k2');
    expect(placement.unstore).not.toContain('k51');
  });

  it('keeps the latest a diff until its copy is due, unless its chain is too long', () => {
    const steps = history(3, 10 * 1024);
    expect(placeCopies(steps, false).store).toEqual([]);
    const long = history(3, 600 * 1024);
    // 2 × 600 KB passes 1 MB at k3: k3 is a checkpoint; k4's chain is then 600 KB.
    expect(placeCopies(long, false).store).toEqual(['k3']);
    const longer = history(1, 2 * MB);
    expect(placeCopies(longer, false).store).toEqual(['k2']);
  });

  it('leaves shared blobs and blobs with another base as they are', () => {
    const steps = history(3, 10 * 1024, 10 * MB, () => true);
    steps[2]!.shared = true;
    steps[3]!.linearDiff = null;
    const placement = placeCopies(steps, true);
    expect(placement.unstore).toEqual(['k2']);
  });

  it('never leaves a file without a whole copy to start from', () => {
    const steps = history(5, 10 * 1024);
    steps[0] = {
      ...steps[0]!,
      stored: false,
      recipe: true,
      linearDiff: null,
      chainBytes: Infinity,
    };
    const stored = apply(steps);
    // k1 has an unknown chain: the next version becomes whole.
    expect(stored.has('k2')).toBe(true);
  });
});
