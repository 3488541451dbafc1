// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHashClient, type HashWorkerHandle } from './hashWorker';

/** A worker stand-in whose hashes finish when the test says so. */
function fakeWorkers() {
  const started: Array<HashWorkerHandle & { terminated: boolean; finish: (d: string) => void }> =
    [];
  const factory = vi.fn(() => {
    const pending: Array<(d: string) => void> = [];
    const handle = {
      terminated: false,
      api: {
        sha1: vi.fn((_file: Blob, onProgress?: (l: number, t: number) => void) => {
          onProgress?.(1, 2);
          return new Promise<string>((resolve) => pending.push(resolve));
        }),
      },
      terminate() {
        handle.terminated = true;
      },
      finish(digest: string) {
        pending.shift()?.(digest);
      },
    };
    started.push(handle);
    return handle;
  });
  return { factory, started };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('hash worker bridge', () => {
  it('starts the worker lazily and shares it', async () => {
    const { factory, started } = fakeWorkers();
    const client = createHashClient({ factory });
    expect(factory).not.toHaveBeenCalled();
    expect(client.isRunning()).toBe(false);
    const progress = vi.fn();
    const a = client.sha1(new Blob(['a']), { onProgress: progress });
    const b = client.sha1(new Blob(['b']));
    expect(factory).toHaveBeenCalledTimes(1);
    expect(progress).toHaveBeenCalledWith(1, 2);
    started[0]?.finish('aa');
    started[0]?.finish('bb');
    await expect(a).resolves.toBe('aa');
    await expect(b).resolves.toBe('bb');
  });

  it('terminates the worker after an idle period', async () => {
    const { factory, started } = fakeWorkers();
    const client = createHashClient({ factory, idleMs: 1000 });
    const a = client.sha1(new Blob(['a']));
    started[0]?.finish('aa');
    await a;
    await vi.advanceTimersByTimeAsync(999);
    expect(started[0]?.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(started[0]?.terminated).toBe(true);
    expect(client.isRunning()).toBe(false);
    const b = client.sha1(new Blob(['b']));
    expect(factory).toHaveBeenCalledTimes(2);
    started[1]?.finish('bb');
    await expect(b).resolves.toBe('bb');
  });

  it('rejects on abort and stops a worker nobody else uses', async () => {
    const { factory, started } = fakeWorkers();
    const client = createHashClient({ factory });
    const controller = new AbortController();
    const a = client.sha1(new Blob(['a']), { signal: controller.signal });
    controller.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(started[0]?.terminated).toBe(true);
  });

  it('keeps the worker for other requests when one is aborted', async () => {
    const { factory, started } = fakeWorkers();
    const client = createHashClient({ factory });
    const controller = new AbortController();
    const a = client.sha1(new Blob(['a']), { signal: controller.signal });
    const b = client.sha1(new Blob(['b']));
    controller.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(started[0]?.terminated).toBe(false);
    started[0]?.finish('ignored');
    started[0]?.finish('bb');
    await expect(b).resolves.toBe('bb');
  });

  it('rejects at once when already aborted', async () => {
    const { factory } = fakeWorkers();
    const client = createHashClient({ factory });
    await expect(
      client.sha1(new Blob(['a']), { signal: AbortSignal.abort() }),
    ).rejects.toBeDefined();
    expect(factory).not.toHaveBeenCalled();
  });
});
