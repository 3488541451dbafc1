/**
 * The upload engine's HTTP calls (runs in the upload worker, or in tests with an injected
 * fetch). Same conventions as src/api/client.ts: cookies go along (same origin), every request
 * carries `X-Client: vue` and the current CSRF token, a token in any response replaces it, and
 * 'The CSRF token has expired.' gets a fresh token (from the page, through `refreshCsrf`) and
 * one replay. Every HTTP answer is returned; only a failed connection throws (NetworkError).
 */
import { readBody } from '@/api/body';
import { CSRF_HEADER } from '@/api/client';
import { CSRF_EXPIRED_DETAIL } from '@/api/errors';

/** The request never got an HTTP answer (offline, connection reset, server down). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export interface HttpAnswer {
  status: number;
  data: unknown;
}

export interface HttpDeps {
  fetch: typeof fetch;
  /** Prefix of every path; empty for the same origin. */
  baseUrl?: string;
  getCsrfToken: () => string | null;
  setCsrfToken: (token: string) => void;
  /** Asks the page for a fresh token; null when none could be had. */
  refreshCsrf: () => Promise<string | null>;
}

export function detailOf(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const { detail } = data as { detail?: unknown };
    if (typeof detail === 'string' && detail !== '') return detail;
  }
  return undefined;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { name?: unknown }).name === 'AbortError')
  );
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  /** JSON value, or raw bytes (a Blob or a buffer, sent as application/octet-stream). */
  body?: unknown;
  signal?: AbortSignal;
}

export class PushHttp {
  constructor(private readonly deps: HttpDeps) {}

  async call(request: HttpRequest): Promise<HttpAnswer> {
    let replayed = false;
    for (;;) {
      const answer = await this.once(request);
      if (
        !replayed &&
        answer.status === 400 &&
        detailOf(answer.data) === CSRF_EXPIRED_DETAIL &&
        (await this.deps.refreshCsrf()) !== null
      ) {
        replayed = true;
        continue;
      }
      return answer;
    }
  }

  private async once({ method, path, body, signal }: HttpRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'X-Client': 'vue' };
    const token = this.deps.getCsrfToken();
    if (token) headers[CSRF_HEADER] = token;
    let payload: BodyInit | undefined;
    if (body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
      headers['Content-Type'] = 'application/octet-stream';
      payload = body as BodyInit;
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.deps.fetch(`${this.deps.baseUrl ?? ''}${path}`, {
        method,
        headers,
        body: payload,
        credentials: 'include',
        signal,
      });
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      throw new NetworkError(error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
    const fresh = response.headers?.get(CSRF_HEADER);
    if (fresh) this.deps.setCsrfToken(fresh);
    let data: unknown;
    try {
      data = await readBody(response);
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      throw new NetworkError('The response was cut off', { cause: error });
    }
    return { status: response.status, data };
  }
}

const enc = encodeURIComponent;

export const pushPaths = {
  start: (namespace: string, name: string) => `/v1/project/push/${enc(namespace)}/${enc(name)}`,
  chunk: (transaction: string, chunk: string) =>
    `/v1/project/push/chunk/${enc(transaction)}/${enc(chunk)}`,
  finish: (transaction: string) => `/v1/project/push/finish/${enc(transaction)}`,
  cancel: (transaction: string) => `/v1/project/push/cancel/${enc(transaction)}`,
  status: (transaction: string) => `/v1/project/push/${enc(transaction)}`,
  project: (namespace: string, name: string) => `/v1/project/${enc(namespace)}/${enc(name)}`,
  ping: () => '/ping',
};
