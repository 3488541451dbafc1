// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { createTransport, NetworkError } from './transport';

function problem(detail: string, status: number): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('transport (page and upload worker)', () => {
  it('replays once with the token a pluggable refresh gives (the worker asks the page)', async () => {
    const sent: (string | undefined)[] = [];
    const fetch = vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      const token = (init.headers as Record<string, string>)['X-CSRF-Token'];
      sent.push(token);
      return token === 'fresh'
        ? new Response('{"ok":true}', { status: 200 })
        : problem('The CSRF token has expired.', 400);
    });
    const refreshCsrf = vi.fn(async () => 'fresh');
    const transport = createTransport({ fetch: fetch as typeof globalThis.fetch, refreshCsrf });
    transport.setCsrfToken('stale');
    const answer = await transport.request({ method: 'POST', path: '/x', body: new Blob(['b']) });
    expect(answer).toMatchObject({ ok: true, status: 200, data: undefined });
    expect(await answer.response.json()).toEqual({ ok: true });
    expect(sent).toEqual(['stale', 'fresh']);
    expect(refreshCsrf).toHaveBeenCalledTimes(1);
    expect(transport.getCsrfToken()).toBe('fresh');
  });

  it.each([
    'The CSRF tokens do not match.',
    'The CSRF session token is missing.',
    'The CSRF token is missing.',
    'The CSRF token is invalid.',
  ])('replays once with a fresh token after "%s" (the secret cookie changed)', async (detail) => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) =>
      (init.headers as Record<string, string>)['X-CSRF-Token'] === 'fresh'
        ? new Response('{}', { status: 200 })
        : problem(detail, 400),
    );
    const transport = createTransport({
      fetch: fetch as typeof globalThis.fetch,
      refreshCsrf: async () => 'fresh',
    });
    transport.setCsrfToken('old');
    expect((await transport.request({ method: 'POST', path: '/x' })).ok).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not replay other 400s', async () => {
    const fetch = vi.fn(async () => problem('Version mismatch', 400));
    const refreshCsrf = vi.fn(async () => 'fresh');
    const transport = createTransport({ fetch: fetch as typeof globalThis.fetch, refreshCsrf });
    const answer = await transport.request({ method: 'POST', path: '/x' });
    expect(answer).toMatchObject({ ok: false, detail: 'Version mismatch' });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(refreshCsrf).not.toHaveBeenCalled();
  });

  it('returns a failed answer with its detail when no token can be had', async () => {
    const fetch = vi.fn(async () => problem('The CSRF token has expired.', 400));
    const transport = createTransport({
      fetch: fetch as unknown as typeof globalThis.fetch,
      refreshCsrf: async () => null,
    });
    const answer = await transport.request({ method: 'POST', path: '/x' });
    expect(answer).toMatchObject({ ok: false, status: 400, detail: 'The CSRF token has expired.' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('throws NetworkError when no answer comes, and lets aborts through', async () => {
    const failing = createTransport({
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof globalThis.fetch,
    });
    await expect(failing.request({ method: 'GET', path: '/ping' })).rejects.toBeInstanceOf(
      NetworkError,
    );
    const abort = new DOMException('aborted', 'AbortError');
    const aborting = createTransport({
      fetch: (async () => {
        throw abort;
      }) as typeof globalThis.fetch,
    });
    await expect(aborting.request({ method: 'GET', path: '/ping' })).rejects.toBe(abort);
  });
});
