/**
 * The one HTTP client of the web app (spec 000 §7 and §8).
 *
 * - every request carries cookies and `X-Client: vue`;
 * - the CSRF token is read from the `X-CSRF-Token` header of any response (GET /app/init mints
 *   the first one) and sent on every later request; a 400 "The CSRF token has expired." fetches
 *   a new token and repeats the request once;
 * - a 401 calls the registered session-ended handlers, then the error is passed on;
 * - while the server reports maintenance, writes are refused locally with a 503;
 * - failures become an `ApiError` whose message is the server's `detail` or the call's fallback;
 * - retries are opt-in per call (see retry.ts).
 */
import { readBody } from './body';
import { ApiError, CSRF_EXPIRED_DETAIL, MAINTENANCE_MESSAGE, detailOf } from './errors';
import {
  parseRetryAfter,
  resolveRetryPolicy,
  retryDelay,
  type ResolvedRetryPolicy,
  type RetryPolicy,
} from './retry';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  method?: HttpMethod;
  /** Query string parameters; null and undefined are left out, arrays repeat the key. */
  query?: QueryParams;
  /** Plain values are sent as JSON; Blob, ArrayBuffer, typed arrays, FormData and URLSearchParams as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Error text when the response has no string `detail`. */
  fallbackMessage?: string;
  /** Opt-in retries on network errors and retryable statuses. */
  retry?: boolean | RetryPolicy;
  /** How to read a successful body. `auto`: JSON when it parses, else text, undefined when empty. */
  responseType?: 'auto' | 'text' | 'blob' | 'response';
}

export type SessionEndedHandler = (error: ApiError) => void;

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions, 'method' | 'body'>,
  ): Promise<T>;
  put<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions, 'method' | 'body'>,
  ): Promise<T>;
  patch<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions, 'method' | 'body'>,
  ): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions, 'method'>): Promise<T>;
  /** Absolute-path URL for `path` and `query` (links, downloads). */
  url(path: string, query?: QueryParams): string;
  /** Turns the read-only guard on or off (from GET /ping `maintenance`). */
  setMaintenance(on: boolean): void;
  isMaintenance(): boolean;
  getCsrfToken(): string | null;
  setCsrfToken(token: string | null): void;
  /** Registers a handler for 401 responses; returns a function that unregisters it. */
  onSessionEnded(handler: SessionEndedHandler): () => void;
}

export interface ApiClientConfig {
  /** Prefix for every path; empty for the same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Waits between retries; replaceable in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** Writes that stay allowed in maintenance: the URL contains one of these (spec 000 §8). */
export const MAINTENANCE_EXEMPT_PATHS: readonly string[] = ['/project/by_names', '/app/auth/login'];
export const CSRF_HEADER = 'X-CSRF-Token';
export const CSRF_REFRESH_PATH = '/app/auth/refresh/csrf';
export const INIT_PATH = '/app/init';
const DEFAULT_FALLBACK = 'Request failed';

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

export function buildUrl(baseUrl: string, path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, raw] of Object.entries(query ?? {})) {
    const values: readonly QueryValue[] = Array.isArray(raw) ? raw : [raw as QueryValue];
    for (const value of values) {
      if (value === null || value === undefined) continue;
      params.append(key, String(value));
    }
  }
  const search = params.toString();
  const url = `${baseUrl}${path}`;
  if (!search) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

export function createApiClient(config: ApiClientConfig = {}): ApiClient {
  const baseUrl = config.baseUrl ?? '';
  const doFetch: typeof fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = config.sleep ?? abortableSleep;
  const now = config.now ?? (() => Date.now());

  let csrfToken: string | null = null;
  let maintenance = false;
  const sessionEndedHandlers = new Set<SessionEndedHandler>();
  let csrfRefresh: Promise<boolean> | null = null;

  function captureCsrf(response: Response): void {
    const token = response.headers?.get(CSRF_HEADER);
    if (token) csrfToken = token;
  }

  function send(method: HttpMethod, url: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { 'X-Client': 'vue', ...options.headers };
    if (csrfToken) headers[CSRF_HEADER] = csrfToken;
    let body: BodyInit | undefined;
    if (options.body !== undefined && method !== 'GET' && method !== 'HEAD') {
      if (isRawBody(options.body)) {
        body = options.body;
      } else {
        body = JSON.stringify(options.body);
        if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
          headers['Content-Type'] = 'application/json';
        }
      }
    }
    return doFetch(url, {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  }

  /** Gets a new CSRF token; concurrent callers share one refresh. */
  function refreshCsrf(): Promise<boolean> {
    csrfRefresh ??= (async () => {
      try {
        const response = await send('GET', buildUrl(baseUrl, CSRF_REFRESH_PATH), {});
        captureCsrf(response);
        if (response.ok) {
          const data = await readBody(response);
          if (typeof data === 'object' && data !== null && 'csrf' in data) {
            const { csrf } = data as { csrf: unknown };
            if (typeof csrf === 'string' && csrf) {
              csrfToken = csrf;
              return true;
            }
          }
        }
        // The refresh call needs a login; an anonymous session (e.g. the sign-in form left open
        // past the token lifetime) gets its new token from /app/init instead.
        const init = await send('GET', buildUrl(baseUrl, INIT_PATH), {});
        captureCsrf(init);
        await readBody(init);
        return init.ok && init.headers?.get(CSRF_HEADER) != null;
      } catch {
        return false;
      } finally {
        csrfRefresh = null;
      }
    })();
    return csrfRefresh;
  }

  async function parseSuccess(response: Response, options: RequestOptions): Promise<unknown> {
    switch (options.responseType ?? 'auto') {
      case 'blob':
        return response.blob();
      case 'text':
        return response.text();
      case 'response':
        // The caller reads headers or streams the body itself (downloads, previews).
        return response;
      case 'auto':
        return readBody(response);
    }
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const method = options.method ?? 'GET';
    const url = buildUrl(baseUrl, path, options.query);
    const fallback = options.fallbackMessage ?? DEFAULT_FALLBACK;

    if (maintenance && method !== 'GET' && !MAINTENANCE_EXEMPT_PATHS.some((p) => url.includes(p))) {
      throw new ApiError({
        status: 503,
        data: { detail: MAINTENANCE_MESSAGE, status: 503 },
        message: MAINTENANCE_MESSAGE,
        isMaintenance: true,
      });
    }

    const policy: ResolvedRetryPolicy = resolveRetryPolicy(options.retry);
    let attempt = 0;
    let csrfReplayed = false;

    for (;;) {
      let response: Response;
      try {
        response = await send(method, url, options);
      } catch (cause) {
        if (isAbortError(cause, options.signal)) throw cause;
        const error = new ApiError({ status: 0, message: fallback, isNetworkError: true, cause });
        if (attempt < policy.retries) {
          await sleep(retryDelay(policy, attempt, undefined), options.signal);
          attempt += 1;
          continue;
        }
        throw error;
      }

      captureCsrf(response);
      if (response.ok) return (await parseSuccess(response, options)) as T;

      const data = await readBody(response);
      const detail = detailOf(data);

      if (response.status === 400 && detail === CSRF_EXPIRED_DETAIL && !csrfReplayed) {
        csrfReplayed = true;
        if (await refreshCsrf()) continue;
      }

      const error = new ApiError({ status: response.status, data, message: detail ?? fallback });

      if (response.status === 401) {
        for (const handler of [...sessionEndedHandlers]) {
          try {
            handler(error);
          } catch {
            // A broken handler must not hide the original error from the caller.
          }
        }
        throw error;
      }

      if (attempt < policy.retries && policy.statuses.includes(response.status)) {
        const retryAfter = parseRetryAfter(response.headers?.get('Retry-After') ?? null, now());
        await sleep(retryDelay(policy, attempt, retryAfter), options.signal);
        attempt += 1;
        continue;
      }
      throw error;
    }
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    patch: (path, body, options) => request(path, { ...options, method: 'PATCH', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
    url: (path, query) => buildUrl(baseUrl, path, query),
    setMaintenance(on) {
      maintenance = on;
    },
    isMaintenance: () => maintenance,
    getCsrfToken: () => csrfToken,
    setCsrfToken(token) {
      csrfToken = token;
    },
    onSessionEnded(handler) {
      sessionEndedHandlers.add(handler);
      return () => {
        sessionEndedHandlers.delete(handler);
      };
    },
  };
}
