// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClientConfig } from './client';
import { ApiError, MAINTENANCE_MESSAGE } from './errors';

interface Call {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
}

type Reply = Response | Error | DOMException | (() => Response | Promise<Response>);

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function problem(detail: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail, status, title: 'x', type: 'about:blank' }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}

/** A fetch that answers from a queue and records every call. */
function mockFetch(...replies: Reply[]) {
  const calls: Call[] = [];
  const queue = [...replies];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({
      url: String(input),
      init,
      headers: { ...(init.headers as Record<string, string>) },
    });
    const reply = queue.shift();
    if (reply === undefined) throw new Error(`unexpected request ${String(input)}`);
    if (typeof reply === 'function') return reply();
    if (reply instanceof Response) return reply;
    throw reply;
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    calls,
    remaining: () => queue.length,
  };
}

function client(fetch: typeof globalThis.fetch, extra: ApiClientConfig = {}) {
  return createApiClient({ fetch, ...extra });
}

describe('api client: requests', () => {
  it('sends credentials, X-Client and JSON bodies', async () => {
    const m = mockFetch(json({ ok: true }));
    const api = client(m.fetch);
    const data = await api.post('/app/auth/login', { login: 'a', password: 'b' });
    expect(data).toEqual({ ok: true });
    const [call] = m.calls;
    expect(call?.url).toBe('/app/auth/login');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('include');
    expect(call?.headers['X-Client']).toBe('vue');
    expect(call?.headers['Content-Type']).toBe('application/json');
    expect(call?.init.body).toBe('{"login":"a","password":"b"}');
  });

  it('builds query strings and skips empty values', async () => {
    const m = mockFetch(json([]));
    const api = client(m.fetch, { baseUrl: 'http://h' });
    await api.get('/v1/project/paginated', {
      query: { page: 1, name: 'a b', flag: undefined, public: false, tag: ['x', 'y'], n: null },
    });
    expect(m.calls[0]?.url).toBe(
      'http://h/v1/project/paginated?page=1&name=a+b&public=false&tag=x&tag=y',
    );
    expect(api.url('/v1/x', { a: 'b' })).toBe('http://h/v1/x?a=b');
  });

  it('sends binary bodies as they are', async () => {
    const m = mockFetch(json({}));
    const api = client(m.fetch);
    const bytes = new Uint8Array([1, 2, 3]);
    await api.post('/v1/project/push/chunk/t/c', bytes);
    expect(m.calls[0]?.init.body).toBe(bytes);
    expect(m.calls[0]?.headers['Content-Type']).toBeUndefined();
  });

  it('handles empty and non-JSON bodies', async () => {
    const m = mockFetch(
      new Response('', { status: 200 }),
      new Response(null, { status: 204 }),
      new Response('{"maintenance":true}', {
        status: 200,
        headers: { 'Content-Type': 'text/html' },
      }),
      new Response('plain words', { status: 200, headers: { 'Content-Type': 'text/plain' } }),
    );
    const api = client(m.fetch);
    await expect(api.post('/app/auth/login', {})).resolves.toBeUndefined();
    await expect(api.delete('/v1/user')).resolves.toBeUndefined();
    await expect(api.get('/ping')).resolves.toEqual({ maintenance: true });
    await expect(api.get('/x')).resolves.toBe('plain words');
  });

  it('can read a body as a blob or as text', async () => {
    const m = mockFetch(new Response('abc'), new Response('{"a":1}'));
    const api = client(m.fetch);
    const blob = await api.get<Blob>('/file', { responseType: 'blob' });
    expect(await blob.text()).toBe('abc');
    await expect(api.get('/file', { responseType: 'text' })).resolves.toBe('{"a":1}');
  });
});

describe('api client: CSRF', () => {
  it('captures the token from any response header (case-insensitive) and sends it later', async () => {
    const m = mockFetch(
      json({ authenticated: false, superuser: false }, 200, { 'x-csrf-token': 'T1' }),
      json({}),
      json({}, 200, { 'X-CSRF-TOKEN': 'T2' }),
      json({}),
    );
    const api = client(m.fetch);
    expect(api.getCsrfToken()).toBeNull();
    await api.get('/app/init');
    expect(m.calls[0]?.headers['X-CSRF-Token']).toBeUndefined();
    await api.post('/a', {});
    expect(m.calls[1]?.headers['X-CSRF-Token']).toBe('T1');
    await api.get('/b');
    await api.get('/c');
    expect(m.calls[3]?.headers['X-CSRF-Token']).toBe('T2');
    expect(api.getCsrfToken()).toBe('T2');
  });

  it('refreshes an expired token and repeats the request once', async () => {
    const m = mockFetch(
      problem('The CSRF token has expired.', 400),
      json({ csrf: 'NEW' }),
      json({ done: true }),
    );
    const api = client(m.fetch);
    api.setCsrfToken('OLD');
    await expect(api.post('/app/auth/user/profile', { a: 1 })).resolves.toEqual({ done: true });
    expect(m.calls.map((c) => c.url)).toEqual([
      '/app/auth/user/profile',
      '/app/auth/refresh/csrf',
      '/app/auth/user/profile',
    ]);
    expect(m.calls[1]?.init.method).toBe('GET');
    expect(m.calls[0]?.headers['X-CSRF-Token']).toBe('OLD');
    expect(m.calls[2]?.headers['X-CSRF-Token']).toBe('NEW');
    expect(m.calls[2]?.init.body).toBe('{"a":1}');
  });

  it('replays only once', async () => {
    const m = mockFetch(
      problem('The CSRF token has expired.', 400),
      json({ csrf: 'NEW' }),
      problem('The CSRF token has expired.', 400),
    );
    const api = client(m.fetch);
    const error = await api.post('/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('The CSRF token has expired.');
    expect(m.calls).toHaveLength(3);
  });

  it('gets the token from /app/init when the refresh call is refused (anonymous session)', async () => {
    const m = mockFetch(
      problem('The CSRF token has expired.', 400),
      new Response('"Authentication information is missing or invalid."', { status: 401 }),
      json({ authenticated: false, superuser: false }, 200, { 'X-CSRF-Token': 'FRESH' }),
      new Response('', { status: 200 }),
    );
    const api = client(m.fetch);
    const ended = vi.fn();
    api.onSessionEnded(ended);
    await expect(
      api.post('/app/auth/login', { login: 'a', password: 'b' }),
    ).resolves.toBeUndefined();
    expect(m.calls.map((c) => c.url)).toEqual([
      '/app/auth/login',
      '/app/auth/refresh/csrf',
      '/app/init',
      '/app/auth/login',
    ]);
    expect(m.calls[3]?.headers['X-CSRF-Token']).toBe('FRESH');
    expect(ended).not.toHaveBeenCalled();
  });

  it('passes the original error on when no new token can be had', async () => {
    const m = mockFetch(problem('The CSRF token has expired.', 400), new TypeError('offline'));
    const api = client(m.fetch);
    const error = (await api.post('/x', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.message).toBe('The CSRF token has expired.');
  });

  it('does not refresh for other 400 details', async () => {
    const m = mockFetch(problem('Version mismatch', 400));
    const api = client(m.fetch);
    await expect(api.post('/x', {})).rejects.toMatchObject({
      status: 400,
      message: 'Version mismatch',
    });
    expect(m.calls).toHaveLength(1);
  });
});

describe('api client: errors', () => {
  it('takes the message from detail, else the fallback', async () => {
    const m = mockFetch(
      problem('Invalid username or password', 401),
      new Response('"Authentication information is missing or invalid."', { status: 401 }),
      problem({ corrupted_files: ['a.gpkg'] }, 422),
      new Response('<html>oops</html>', { status: 500 }),
    );
    const api = client(m.fetch);
    await expect(api.post('/a', {}, { fallbackMessage: 'Failed to login' })).rejects.toMatchObject({
      status: 401,
      message: 'Invalid username or password',
    });
    await expect(
      api.get('/b', { fallbackMessage: "Failed to fetch user's profile" }),
    ).rejects.toMatchObject({
      status: 401,
      message: "Failed to fetch user's profile",
      data: 'Authentication information is missing or invalid.',
    });
    await expect(api.post('/c', {}, { fallbackMessage: 'F' })).rejects.toMatchObject({
      status: 422,
      message: 'F',
      formErrors: null,
    });
    await expect(api.get('/d', { fallbackMessage: 'G' })).rejects.toMatchObject({
      status: 500,
      message: 'G',
      data: '<html>oops</html>',
    });
  });

  it('exposes form errors per field', async () => {
    const m = mockFetch(
      json({ login: ['This field is required.'], password: ['Too short', 'Weak'] }, 401),
    );
    const api = client(m.fetch);
    const error = (await api
      .post('/app/auth/login', {}, { fallbackMessage: 'Failed to login' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Failed to login');
    expect(error.formErrors).toEqual({
      login: ['This field is required.'],
      password: ['Too short', 'Weak'],
    });
    expect(error.fieldError('password')).toBe('Too short');
    expect(error.fieldError('email')).toBeUndefined();
  });

  it('turns network failures into status 0 errors with the fallback', async () => {
    const m = mockFetch(new TypeError('Failed to fetch'));
    const api = client(m.fetch);
    const error = (await api
      .get('/ping', { fallbackMessage: 'Failed to fetch ping data.' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.isNetworkError).toBe(true);
    expect(error.message).toBe('Failed to fetch ping data.');
  });

  it('lets aborts through untouched', async () => {
    const controller = new AbortController();
    const abortError = new DOMException('aborted', 'AbortError');
    const m = mockFetch(abortError);
    const api = client(m.fetch);
    controller.abort();
    await expect(api.get('/x', { signal: controller.signal })).rejects.toBe(abortError);
  });

  it('calls session-ended handlers on 401 and still rejects', async () => {
    const m = mockFetch(problem('x', 401), problem('y', 401), problem('z', 403));
    const api = client(m.fetch);
    const handler = vi.fn();
    const off = api.onSessionEnded(handler);
    await expect(api.get('/v1/user/profile')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]?.[0]).toBeInstanceOf(ApiError);
    off();
    await expect(api.get('/v1/user/profile')).rejects.toMatchObject({ status: 401 });
    await expect(api.get('/v1/user/profile')).rejects.toMatchObject({ status: 403 });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('api client: maintenance', () => {
  it('refuses non-GET requests locally while in maintenance, once the status still says so', async () => {
    const on = () => json({ maintenance: true });
    const m = mockFetch(on(), on(), on(), on(), json({}), json({}), json({}), json({}), json({}));
    const api = client(m.fetch);
    api.setMaintenance(true);
    expect(api.isMaintenance()).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const error = (await api
        .request('/v1/project/mergin', { method, body: {} })
        .catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(503);
      expect(error.isMaintenance).toBe(true);
      expect(error.message).toBe(MAINTENANCE_MESSAGE);
    }
    // Only the status was read before each refusal: no write went out.
    expect(m.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /ping',
      'GET /ping',
      'GET /ping',
      'GET /ping',
    ]);
    await api.get('/v1/project/paginated');
    await api.post('/app/auth/login', {});
    await api.post('/v1/project/by_names', {});
    // Sign-out is a POST (issue 29): it works in maintenance as sign-in does.
    await api.post('/app/auth/logout');
    expect(m.calls.slice(4).map((c) => c.url)).toEqual([
      '/v1/project/paginated',
      '/app/auth/login',
      '/v1/project/by_names',
      '/app/auth/logout',
    ]);
    api.setMaintenance(false);
    await api.post('/v1/project/mergin', {});
    expect(m.calls).toHaveLength(9);
  });

  it('lets a write through when the maintenance ended since the last ping (issue 31)', async () => {
    const m = mockFetch(json({ maintenance: false }), json({ created: true }));
    const api = client(m.fetch);
    api.setMaintenance(true);
    const heard: boolean[] = [];
    api.onMaintenanceChange((on) => heard.push(on));
    await expect(api.post('/v1/project/mergin', {})).resolves.toEqual({ created: true });
    expect(m.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /ping',
      'POST /v1/project/mergin',
    ]);
    expect(api.isMaintenance()).toBe(false);
    expect(heard).toEqual([false]);
  });

  it('reads the status again when the server refuses a write with 503', async () => {
    const m = mockFetch(problem(MAINTENANCE_MESSAGE, 503), json({ maintenance: true }));
    const api = client(m.fetch);
    await expect(api.post('/v1/project/mergin', {})).rejects.toMatchObject({ status: 503 });
    await vi.waitFor(() => expect(api.isMaintenance()).toBe(true), { timeout: 60_000 });
    expect(m.calls.map((c) => c.url)).toEqual(['/v1/project/mergin', '/ping']);
  });

  it('uses the exact message from the specification', () => {
    expect(MAINTENANCE_MESSAGE).toBe(
      'The service is currently in read-only mode for maintenance. Upload and update functions are not available at this time. Please try again later.',
    );
  });
});

describe('api client: retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not retry by default', async () => {
    const m = mockFetch(problem('down', 503), json({}));
    const api = client(m.fetch);
    await expect(api.get('/x')).rejects.toMatchObject({ status: 503 });
    expect(m.calls).toHaveLength(1);
  });

  it('retries network errors and retryable statuses with backoff when asked', async () => {
    const m = mockFetch(
      new TypeError('offline'),
      problem('x', 502),
      problem('x', 500),
      json({ finally: true }),
    );
    const api = client(m.fetch);
    const promise = api.get('/x', { retry: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(m.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(m.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(m.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(4000);
    await expect(promise).resolves.toEqual({ finally: true });
    expect(m.calls).toHaveLength(4);
  });

  it('gives up after 5 retries', async () => {
    const m = mockFetch(...Array.from({ length: 6 }, () => problem('busy', 503)));
    const api = client(m.fetch);
    const promise = api.get('/x', { retry: true }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(120_000);
    const error = (await promise) as ApiError;
    expect(error.status).toBe(503);
    expect(error.message).toBe('busy');
    expect(m.calls).toHaveLength(6);
  });

  it('honours Retry-After (seconds and dates) and caps every wait at 60 s', async () => {
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const m = mockFetch(
      problem('slow down', 429, { 'Retry-After': '7' }),
      problem('later', 503, { 'Retry-After': 'Thu, 01 Jan 2026 00:00:10 GMT' }),
      problem('much later', 503, { 'Retry-After': '3600' }),
      json({ ok: 1 }),
    );
    const api = client(m.fetch);
    const promise = api.get('/x', { retry: true });
    await vi.advanceTimersByTimeAsync(6_999);
    expect(m.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls).toHaveLength(2);
    // The date is 3 s after the second answer arrived (7 s after start).
    await vi.advanceTimersByTimeAsync(2_999);
    expect(m.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(m.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).resolves.toEqual({ ok: 1 });
  });

  it('does not retry client errors or 401', async () => {
    const m = mockFetch(problem('bad', 400), problem('gone', 401), problem('nope', 404));
    const api = client(m.fetch);
    await expect(api.get('/a', { retry: true })).rejects.toMatchObject({ status: 400 });
    await expect(api.get('/b', { retry: true })).rejects.toMatchObject({ status: 401 });
    await expect(api.get('/c', { retry: true })).rejects.toMatchObject({ status: 404 });
    expect(m.calls).toHaveLength(3);
  });

  it('respects a custom retry count', async () => {
    const m = mockFetch(problem('x', 500), problem('x', 500), problem('x', 500));
    const api = client(m.fetch);
    const promise = api.get('/x', { retry: { retries: 2 } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    await promise;
    expect(m.calls).toHaveLength(3);
  });

  it('stops waiting when the request is aborted', async () => {
    const m = mockFetch(problem('x', 503), json({}));
    const api = client(m.fetch);
    const controller = new AbortController();
    const promise = api
      .get('/x', { retry: true, signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const error = await promise;
    expect((error as DOMException).name).toBe('AbortError');
    expect(m.calls).toHaveLength(1);
  });
});
