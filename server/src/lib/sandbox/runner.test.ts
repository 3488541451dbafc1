/**
 * The sandbox pool (runner.ts, child.ts): work runs in child processes, comes back with its
 * Buffers and errors, and is stopped over its time or memory budget with a 422, the verdict
 * kept; a child whose server died does not outlive it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpProblem } from '../../errors';
import { WorkTooHeavyError, type WorkBudget } from './budget';
import { CHILD_NICE, sandboxPool } from './runner';

const WORK = new URL('../../../../tests/server/support/sandbox-work.ts', import.meta.url).href;
const MIB = 1024 * 1024;
const BUDGET: WorkBudget = { timeMs: 60_000, memoryBytes: 512 * MIB };
const pool = sandboxPool({ label: 'The test sandbox', size: 2 });
const scratch = mkdtempSync(path.join(tmpdir(), 'waymark-sandbox-'));

afterAll(() => {
  pool.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const call = (name: string, ...args: unknown[]) => ({ module: WORK, name, args });

/** Polls `condition` until it holds or `ms` pass. */
async function eventually(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the sandbox pool', () => {
  it("runs its processes at the budget's nice value (FILE_WORK_NICE), CHILD_NICE without one", async () => {
    const niceOf = async (budget: WorkBudget) => {
      const own = sandboxPool({ label: 'The nice test sandbox', size: 1 });
      try {
        const answer = (await own.run(call('echo', 0), { budget })) as { pid: number };
        return getPriority(answer.pid);
      } finally {
        own.stop();
      }
    };
    expect(await niceOf({ ...BUDGET, nice: 3 })).toBe(3);
    expect(await niceOf(BUDGET)).toBe(CHILD_NICE);
  });

  it('runs a function in a child process and keeps it for the next request', async () => {
    const first = (await pool.run(call('echo', { a: [1, 2] }), { budget: BUDGET })) as {
      value: unknown;
      bytes: Buffer;
      pid: number;
      calls: number;
    };
    expect(first.value).toEqual({ a: [1, 2] });
    expect(Buffer.isBuffer(first.bytes)).toBe(true);
    expect(first.bytes.toString()).toBe('mvt');
    expect(first.pid).not.toBe(process.pid);
    const second = (await pool.run(call('echo', 2), { budget: BUDGET })) as typeof first;
    expect(second.pid).toBe(first.pid);
    expect(second.calls).toBe(first.calls + 1);
  });

  it('runs a request beside a busy one, in a second process', async () => {
    const marker = path.join(scratch, 'release');
    const busy = pool.run(call('waitFor', marker), { budget: BUDGET });
    const beside = (await pool.run(call('echo', 'beside'), { budget: BUDGET })) as { pid: number };
    writeFileSync(marker, '');
    expect(await busy).not.toBe(beside.pid);
  });

  it('keeps the last free process from one owner, for everyone else', async () => {
    const fair = sandboxPool({ label: 'The fair test sandbox', size: 3 });
    try {
      const marker = path.join(scratch, 'fair');
      const mallory = { budget: BUDGET, owner: 'address:203.0.113.9' };
      const held = [1, 2].map(() => fair.run(call('waitFor', marker), mallory));
      let third = false;
      const queued = fair.run(call('echo', 'third'), mallory).then(() => {
        third = true;
      });
      const answered = await fair.run(call('echo', 'alice'), { budget: BUDGET, owner: 'user:7' });
      expect(answered).toMatchObject({ value: 'alice' });
      expect(third).toBe(false);
      writeFileSync(marker, '');
      await Promise.all([...held, queued]);
      expect(third).toBe(true);
    } finally {
      fair.stop();
    }
  });

  it('stops work that passes its time, with a 422, and answers the next request', async () => {
    const marker = path.join(scratch, 'spin');
    const stopped = pool
      .run(call('spin', marker), { budget: { ...BUDGET, timeMs: 1000 } })
      .catch((error: unknown) => error);
    // The child was really spinning.
    expect(await eventually(() => existsSync(marker), 60_000)).toBe(true);
    const pid = Number(readFileSync(marker, 'utf8'));
    const error = await stopped;
    expect(error).toBeInstanceOf(WorkTooHeavyError);
    expect((error as WorkTooHeavyError).status).toBe(422);
    expect((error as WorkTooHeavyError).reason).toBe('time');
    expect(await eventually(() => !alive(pid), 10_000)).toBe(true);
    expect(await pool.run(call('echo', 'after'), { budget: BUDGET })).toMatchObject({
      value: 'after',
    });
  });

  it('stops SQLite inside a query without end', async () => {
    const error = await pool
      .run(call('recurse'), { budget: { ...BUDGET, timeMs: 1000 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'time', status: 422 });
  });

  it('stops work whose memory passes its budget', async () => {
    const error = await pool
      .run(call('grow'), { budget: { timeMs: 60_000, memoryBytes: 256 * MIB } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkTooHeavyError);
    expect(['memory', 'crash']).toContain((error as WorkTooHeavyError).reason);
  });

  it('holds SQLite to its share of the memory budget', async () => {
    const error = await pool
      .run(call('sqliteHog'), { budget: { timeMs: 60_000, memoryBytes: 256 * MIB } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'memory', status: 422 });
  });

  it('keeps a verdict: the same work asked again fails at once, without running', async () => {
    const marker = path.join(scratch, 'verdict');
    const options = {
      budget: { ...BUDGET, timeMs: 500 },
      verdictKey: 'file-sha1/layers',
      tooHeavy: () => new HttpProblem(422, 'This file is too large or too complex to show'),
    };
    await expect(pool.run(call('spin'), options)).rejects.toThrow('too large or too complex');
    await expect(pool.run(call('spin', marker), options)).rejects.toThrow('too complex');
    expect(existsSync(marker)).toBe(false);
  });

  it('carries HTTP problems and rebuilds errors by name', async () => {
    await expect(pool.run(call('refuse'), { budget: BUDGET })).rejects.toMatchObject({
      status: 404,
      detail: 'Layer nowhere not found',
    });
    const revived = await pool
      .run(call('refuseWithReason', 'no key'), {
        budget: BUDGET,
        revive: ({ name, fields }) =>
          name === 'TestRefusal' ? new Error(`revived ${String(fields.reason)}`) : null,
      })
      .catch((e: unknown) => e);
    expect((revived as Error).message).toBe('revived no key');
    await expect(pool.run(call('refuseWithReason', 'x'), { budget: BUDGET })).rejects.toThrow(
      'Refused: x',
    );
  });

  it('ends a child stuck in work when its server is killed', { timeout: 120_000 }, async () => {
    const marker = path.join(scratch, 'orphan');
    const script = `
      import { sandboxPool } from ${JSON.stringify(fileURLToPath(new URL('./runner.ts', import.meta.url)))};
      const pool = sandboxPool({ label: 'orphan test', size: 1 });
      void pool.run({ module: ${JSON.stringify(WORK)}, name: 'spin', args: [${JSON.stringify(marker)}] },
        { budget: { timeMs: 3_600_000, memoryBytes: 512 * 1024 * 1024 } });
    `;
    const server = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: 'ignore',
      },
    );
    expect(await eventually(() => existsSync(marker), 60_000)).toBe(true);
    const child = Number(readFileSync(marker, 'utf8'));
    expect(alive(child)).toBe(true);
    server.kill('SIGKILL');
    expect(await eventually(() => !alive(child), 20_000)).toBe(true);
  });
});
