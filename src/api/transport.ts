/**
 * The one HTTP transport of the web app (spec 000 §7 and §8), used by the page's API client
 * (client.ts) and by the upload worker (features/uploads/worker/pushApi.ts). It touches no
 * DOM, React or `window`, so it runs in a worker too.
 *
 * - every request carries cookies and `X-Client: vue`;
 * - the CSRF token is read from the `X-CSRF-Token` header of any response and sent on every
 *   later request; a 400 refusing the token ("The CSRF token has expired.", or a missing,
 *   invalid or foreign one: `isCsrfRefusal`) gets a fresh token (`refreshCsrf`) and repeats
 *   the request once;
 * - while the server reports maintenance, writes are refused locally with a 503 `ApiError`,
 *   after the status was read again (GET /ping): a maintenance that ended meanwhile refuses
 *   nothing (issue 31); a write the server refuses with 503 reads it again too;
 * - a request that gets no HTTP answer throws `NetworkError`; aborts pass through untouched.
 *
 * A successful answer's body is left for the caller to read (JSON, text, a Blob, a stream); a
 * failed answer's body is read, and its `detail` is the error text.
 */
import type { Csrf } from '@contract/auth';
import type { Ping } from '@contract/instance';
import { readBody } from './body';
import { ApiError, detailOf, isCsrfRefusal } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;

export const CSRF_HEADER = 'X-CSRF-Token';
export const CSRF_REFRESH_PATH = '/app/auth/refresh/csrf';
export const INIT_PATH = '/app/init';
export const PING_PATH = '/ping';
/** Writes that stay allowed in maintenance: the URL contains one of these (spec 000 §8). */
export const MAINTENANCE_EXEMPT_PATHS: readonly string[] = [
  '/project/by_names',
  '/app/auth/login',
  // Sign-out is a POST (with the CSRF token) and must work in read-only mode too.
  '/app/auth/logout',
];

/** The request never got an HTTP answer (offline, DNS, connection reset, server down). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export interface TransportRequest {
  method: HttpMethod;
  path: string;
  /** Query string parameters; null and undefined are left out, arrays repeat the key. */
  query?: QueryParams;
  /** Plain values are sent as JSON; Blob, ArrayBuffer, typed arrays, FormData and URLSearchParams as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface TransportAnswer {
  response: Response;
  /** The response's status. */
  status: number;
  ok: boolean;
  /** The parsed body of a failed answer (JSON, text or undefined); undefined when ok. */
  data: unknown;
  /** The failed answer's string `detail`, if any. */
  detail: string | undefined;
}

export interface TransportConfig {
  /** Prefix for every path; empty for the same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /**
   * Gets a fresh CSRF token after a refused one (`isCsrfRefusal`), or null when none can be had.
   * Default: `GET /app/auth/refresh/csrf`, else `GET /app/init` (an anonymous session). The
   * upload worker asks the page instead, so one tab refreshes one token.
   */
  refreshCsrf?: (transport: Transport) => Promise<string | null>;
}

export interface Transport {
  /** Sends the request; replays it once with a fresh CSRF token when the token was refused. */
  request(request: TransportRequest): Promise<TransportAnswer>;
  /** One fetch with the transport's headers and body encoding, no replay (refresh calls). */
  send(request: TransportRequest): Promise<Response>;
  /** Absolute-path URL for `path` and `query`. */
  url(path: string, query?: QueryParams): string;
  getCsrfToken(): string | null;
  setCsrfToken(token: string | null): void;
  /** Gets a fresh token now; concurrent callers share one refresh. */
  refreshCsrf(): Promise<boolean>;
  /** Turns the read-only guard on or off (from GET /ping `maintenance`). */
  setMaintenance(on: boolean): void;
  isMaintenance(): boolean;
  /**
   * Reads the server's status again (GET /ping; concurrent callers share one read), turns the
   * guard on or off by it and answers whether maintenance is on. Unreadable: the guard stays.
   */
  checkMaintenance(): Promise<boolean>;
  /** Calls `listener` whenever the guard changes; returns the function that stops it. */
  onMaintenanceChange(listener: (on: boolean) => void): () => void;
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

export function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
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

/** The default refresh: the refresh call, else /app/init for an anonymous session. */
async function refreshFromServer(transport: Transport): Promise<string | null> {
  const response = await transport.send({ method: 'GET', path: CSRF_REFRESH_PATH });
  if (response.ok) {
    // The contract's answer (`Csrf`): `{"csrf": "..."}`.
    const { csrf } = (await readBody(response)) as Csrf;
    if (csrf) return csrf;
  }
  // The refresh call needs a login; an anonymous session (e.g. the sign-in form left open
  // past the token lifetime) gets its new token from /app/init instead.
  const init = await transport.send({ method: 'GET', path: INIT_PATH });
  await readBody(init);
  return init.ok ? init.headers?.get(CSRF_HEADER) || null : null;
}

export function createTransport(config: TransportConfig = {}): Transport {
  const baseUrl = config.baseUrl ?? '';
  const doFetch: typeof fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const refresher = config.refreshCsrf ?? refreshFromServer;
  let csrfToken: string | null = null;
  let maintenance = false;
  const maintenanceListeners = new Set<(on: boolean) => void>();
  let csrfRefresh: Promise<boolean> | null = null;
  let maintenanceCheck: Promise<boolean> | null = null;

  async function send(request: TransportRequest): Promise<Response> {
    const { method } = request;
    const headers: Record<string, string> = { 'X-Client': 'vue', ...request.headers };
    if (csrfToken) headers[CSRF_HEADER] = csrfToken;
    let body: BodyInit | undefined;
    if (request.body !== undefined && method !== 'GET' && method !== 'HEAD') {
      if (isRawBody(request.body)) {
        body = request.body;
      } else {
        body = JSON.stringify(request.body);
        if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
          headers['Content-Type'] = 'application/json';
        }
      }
    }
    let response: Response;
    try {
      response = await doFetch(buildUrl(baseUrl, request.path, request.query), {
        method,
        headers,
        body,
        credentials: 'include',
        signal: request.signal,
      });
    } catch (cause) {
      if (isAbortError(cause, request.signal)) throw cause;
      throw new NetworkError(cause instanceof Error ? cause.message : String(cause), { cause });
    }
    const token = response.headers?.get(CSRF_HEADER);
    if (token) csrfToken = token;
    return response;
  }

  const transport: Transport = {
    async request(request) {
      const url = buildUrl(baseUrl, request.path, request.query);
      const guarded =
        request.method !== 'GET' &&
        request.method !== 'HEAD' &&
        !MAINTENANCE_EXEMPT_PATHS.some((path) => url.includes(path));
      // Refused only once the server still says so: the maintenance may have ended.
      if (guarded && maintenance && (await transport.checkMaintenance())) {
        throw ApiError.maintenance();
      }
      let replayed = false;
      for (;;) {
        const response = await send(request);
        // Maintenance began meanwhile: the guard learns it for the next writes.
        if (guarded && response.status === 503) void transport.checkMaintenance();
        if (response.ok) {
          return {
            response,
            status: response.status,
            ok: true,
            data: undefined,
            detail: undefined,
          };
        }
        const data = await readBody(response);
        const detail = detailOf(data);
        if (
          response.status === 400 &&
          isCsrfRefusal(detail) &&
          !replayed &&
          (await transport.refreshCsrf())
        ) {
          replayed = true;
          continue;
        }
        return { response, status: response.status, ok: false, data, detail };
      }
    },
    send,
    url: (path, query) => buildUrl(baseUrl, path, query),
    getCsrfToken: () => csrfToken,
    setCsrfToken(token) {
      csrfToken = token;
    },
    refreshCsrf() {
      csrfRefresh ??= (async () => {
        try {
          const token = await refresher(transport);
          if (token) csrfToken = token;
          return token !== null;
        } catch {
          return false;
        } finally {
          csrfRefresh = null;
        }
      })();
      return csrfRefresh;
    },
    setMaintenance(on) {
      if (maintenance === on) return;
      maintenance = on;
      for (const listener of maintenanceListeners) listener(on);
    },
    isMaintenance: () => maintenance,
    checkMaintenance() {
      maintenanceCheck ??= (async () => {
        try {
          const response = await send({ method: 'GET', path: PING_PATH });
          const data = await readBody(response);
          if (!response.ok) return maintenance;
          transport.setMaintenance((data as Ping).maintenance);
        } catch {
          // Unreachable: what was known stays.
        } finally {
          maintenanceCheck = null;
        }
        return maintenance;
      })();
      return maintenanceCheck;
    },
    onMaintenanceChange(listener) {
      maintenanceListeners.add(listener);
      return () => maintenanceListeners.delete(listener);
    },
  };
  return transport;
}
