import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAST_INIT_KEY } from '@/offline/lastInit';
import { fetchInit } from './init';

function answer(body: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

function unreachable() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('fetchInit', () => {
  it('answers the server and remembers who was logged in', async () => {
    answer({ authenticated: true, superuser: true });
    await expect(fetchInit()).resolves.toEqual({ authenticated: true, superuser: true });
    expect(JSON.parse(localStorage.getItem(LAST_INIT_KEY) ?? 'null')).toEqual({
      authenticated: true,
      superuser: true,
    });
  });

  it('offline, starts as the visitor last known in this browser', async () => {
    answer({ authenticated: true, superuser: false });
    await fetchInit();
    unreachable();
    await expect(fetchInit()).resolves.toEqual({ authenticated: true, superuser: false });
  });

  it('offline with nothing remembered, starts anonymous', async () => {
    unreachable();
    await expect(fetchInit()).resolves.toEqual({ authenticated: false, superuser: false });
  });

  it('a server error still fails with the fallback message', async () => {
    answer({ authenticated: true, superuser: false });
    await fetchInit();
    answer('', 500);
    await expect(fetchInit()).rejects.toThrow('Failed to init application.');
  });
});
