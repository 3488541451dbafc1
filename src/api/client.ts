/**
 * The page's API client (spec 000 §7 and §8) on the one HTTP transport (transport.ts: cookies,
 * `X-Client`, the CSRF token and its replay, the maintenance guard, error texts from
 * `detail`). On top of it:
 *
 * - a 401 calls the registered session-ended handlers, then the error is passed on;
 * - failures become an `ApiError` whose message is the server's `detail` or the call's fallback;
 * - successful bodies are read as the call asks (JSON or text, a Blob, the Response);
 * - retries are opt-in per call (see retry.ts).
 */
import { readBody } from './body';
import { ApiError } from './errors';
import {
  abortableSleep,
  parseRetryAfter,
  resolveRetryPolicy,
  retryDelay,
  type ResolvedRetryPolicy,
  type RetryPolicy,
} from './retry';
import {
  NetworkError,
  createTransport,
  type HttpMethod,
  type QueryParams,
  type TransportAnswer,
} from './transport';

export type { HttpMethod, QueryParams, QueryValue } from './transport';
export {
  CSRF_HEADER,
  CSRF_REFRESH_PATH,
  INIT_PATH,
  MAINTENANCE_EXEMPT_PATHS,
  buildUrl,
} from './transport';

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
  /** Reads GET /ping again and answers whether maintenance is on (see transport.ts). */
  checkMaintenance(): Promise<boolean>;
  /** Calls `listener` whenever the guard changes; returns the function that stops it. */
  onMaintenanceChange(listener: (on: boolean) => void): () => void;
  getCsrfToken(): string | null;
  setCsrfToken(token: string | null): void;
  /** Gets a fresh CSRF token from the server now (the upload worker asks through the page). */
  refreshCsrf(): Promise<boolean>;
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

const DEFAULT_FALLBACK = 'Request failed';

export function createApiClient(config: ApiClientConfig = {}): ApiClient {
  const sleep = config.sleep ?? abortableSleep;
  const now = config.now ?? (() => Date.now());
  const sessionEndedHandlers = new Set<SessionEndedHandler>();

  function failure(answer: TransportAnswer, fallback: string): ApiError {
    return new ApiError({
      status: answer.status,
      data: answer.data,
      message: answer.detail ?? fallback,
    });
  }

  const transport = createTransport({ baseUrl: config.baseUrl, fetch: config.fetch });

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
    const fallback = options.fallbackMessage ?? DEFAULT_FALLBACK;
    const policy: ResolvedRetryPolicy = resolveRetryPolicy(options.retry);
    let attempt = 0;

    for (;;) {
      let answer: TransportAnswer;
      try {
        answer = await transport.request({
          method,
          path,
          query: options.query,
          body: options.body,
          headers: options.headers,
          signal: options.signal,
        });
      } catch (cause) {
        if (!(cause instanceof NetworkError)) throw cause;
        if (attempt < policy.retries) {
          await sleep(retryDelay(policy, attempt, undefined), options.signal);
          attempt += 1;
          continue;
        }
        throw new ApiError({
          status: 0,
          message: fallback,
          isNetworkError: true,
          cause: cause.cause,
        });
      }
      if (answer.ok) return (await parseSuccess(answer.response, options)) as T;
      const { status } = answer;
      if (status === 401) {
        const error = failure(answer, fallback);
        for (const handler of [...sessionEndedHandlers]) {
          try {
            handler(error);
          } catch {
            // A broken handler must not hide the original error from the caller.
          }
        }
        throw error;
      }
      if (attempt < policy.retries && policy.statuses.includes(status)) {
        const retryAfter = parseRetryAfter(
          answer.response.headers?.get('Retry-After') ?? null,
          now(),
        );
        await sleep(retryDelay(policy, attempt, retryAfter), options.signal);
        attempt += 1;
        continue;
      }
      throw failure(answer, fallback);
    }
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    put: (path, body, options) => request(path, { ...options, method: 'PUT', body }),
    patch: (path, body, options) => request(path, { ...options, method: 'PATCH', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
    url: transport.url,
    setMaintenance: transport.setMaintenance,
    isMaintenance: transport.isMaintenance,
    checkMaintenance: transport.checkMaintenance,
    onMaintenanceChange: transport.onMaintenanceChange,
    getCsrfToken: transport.getCsrfToken,
    setCsrfToken: transport.setCsrfToken,
    refreshCsrf: transport.refreshCsrf,
    onSessionEnded(handler) {
      sessionEndedHandlers.add(handler);
      return () => {
        sessionEndedHandlers.delete(handler);
      };
    },
  };
}
