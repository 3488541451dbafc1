import { describe, expect, it } from 'vitest';
import { fileSyncCount, syncWrites, type Syncable } from './file-syncs';

/** A handle whose syncs end when the test says so; `log` records which handle synced when. */
function handles(log: string[]) {
  const pending: { resolve(): void; reject(error: Error): void }[] = [];
  const handle = (name: string): Syncable => ({
    datasync() {
      log.push(`sync ${name}`);
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
  });
  return {
    handle,
    endNext: () => pending.shift()!.resolve(),
    failNext: (error: Error) => pending.shift()!.reject(error),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('syncWrites', () => {
  it('syncs at once when no sync of the file runs', async () => {
    const log: string[] = [];
    const { handle, endNext } = handles(log);
    const before = fileSyncCount();
    const done = syncWrites('/staged/a', handle('a'));
    expect(log).toEqual(['sync a']);
    endNext();
    await done;
    expect(fileSyncCount() - before).toBe(1);
  });

  it('makes writers arriving during a sync share the next one, started after it', async () => {
    const log: string[] = [];
    const { handle, endNext } = handles(log);
    const ended: string[] = [];
    const first = syncWrites('/staged/b', handle('w1')).then(() => ended.push('w1'));
    const second = syncWrites('/staged/b', handle('w2')).then(() => ended.push('w2'));
    const third = syncWrites('/staged/b', handle('w3')).then(() => ended.push('w3'));
    // Only the first sync runs: the writers after it may have written after it started.
    expect(log).toEqual(['sync w1']);
    await settled();
    expect(ended).toEqual([]);
    endNext();
    await first;
    await settled();
    // The next sync covers both later writers, through the first of them.
    expect(log).toEqual(['sync w1', 'sync w2']);
    expect(ended).toEqual(['w1']);
    endNext();
    await Promise.all([second, third]);
    expect(ended).toEqual(['w1', 'w2', 'w3']);
    expect(log).toHaveLength(2);
  });

  it('keeps the syncs of different files apart', async () => {
    const log: string[] = [];
    const { handle, endNext } = handles(log);
    const a = syncWrites('/staged/c', handle('c'));
    const d = syncWrites('/staged/d', handle('d'));
    expect(log).toEqual(['sync c', 'sync d']);
    endNext();
    endNext();
    await Promise.all([a, d]);
  });

  it('fails every writer that waited for a failed sync, and syncs afresh afterwards', async () => {
    const log: string[] = [];
    const { handle, endNext, failNext } = handles(log);
    const first = syncWrites('/staged/e', handle('w1'));
    const second = syncWrites('/staged/e', handle('w2'));
    const third = syncWrites('/staged/e', handle('w3'));
    endNext();
    await first;
    await settled();
    failNext(new Error('EIO'));
    await expect(second).rejects.toThrow('EIO');
    await expect(third).rejects.toThrow('EIO');
    await settled();
    const later = syncWrites('/staged/e', handle('w4'));
    expect(log).toEqual(['sync w1', 'sync w2', 'sync w4']);
    endNext();
    await later;
  });
});
