import { describe, expect, it } from 'vitest';
import { CoalescingRun } from './coalescingRun';

/** A round that waits until the test lets it end. */
function gatedWork() {
  const gates: (() => void)[] = [];
  let rounds = 0;
  let inParallel = 0;
  let mostInParallel = 0;
  const work = async () => {
    rounds++;
    inParallel++;
    mostInParallel = Math.max(mostInParallel, inParallel);
    await new Promise<void>((resolve) => gates.push(resolve));
    inParallel--;
  };
  const release = async () => {
    while (gates.length === 0) await Promise.resolve();
    gates.shift()!();
  };
  return { work, release, counts: () => ({ rounds, mostInParallel }) };
}

describe('CoalescingRun', () => {
  it('runs one round at a time, and triggers during a round make exactly one more', async () => {
    const gated = gatedWork();
    const run = new CoalescingRun(gated.work);
    const first = run.trigger();
    void run.trigger();
    void run.trigger();
    await gated.release();
    await gated.release();
    await first;
    expect(gated.counts()).toEqual({ rounds: 2, mostInParallel: 1 });
    await run.idle();
  });

  it('a trigger after the rounds ended starts a new round', async () => {
    let rounds = 0;
    const run = new CoalescingRun(async () => {
      rounds++;
    });
    await run.trigger();
    await run.trigger();
    expect(rounds).toBe(2);
  });

  it('stopping ends the rounds although a trigger asked for one more', async () => {
    const gated = gatedWork();
    let stopped = false;
    const run = new CoalescingRun(gated.work, () => stopped);
    const first = run.trigger();
    void run.trigger();
    stopped = true;
    await gated.release();
    await first;
    expect(gated.counts().rounds).toBe(1);
  });

  it('idle resolves after a failed round, and the next trigger runs again', async () => {
    let fail = true;
    let rounds = 0;
    const run = new CoalescingRun(async () => {
      rounds++;
      if (fail) throw new Error('round failed');
    });
    await expect(run.trigger()).rejects.toThrow('round failed');
    await run.idle();
    fail = false;
    await run.trigger();
    expect(rounds).toBe(2);
  });
});
