/**
 * The upload engine's HTTP calls, on the app's one transport (src/api/transport.ts: cookies,
 * `X-Client`, the CSRF token and its replay, `NetworkError` when no answer comes). The engine
 * wants every HTTP answer as data to sort it itself (see runner.ts `answerError`), so this
 * returns status and parsed body instead of throwing; only a failed connection throws.
 */
import { readBody } from '@/api/body';
import type { Transport } from '@/api/transport';
import { PUSH_ID_HEADER } from '@contract/protocol';

export { NetworkError } from '@/api/transport';

export interface HttpAnswer {
  status: number;
  data: unknown;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  /** JSON value, or raw bytes (a Blob or a buffer, sent as application/octet-stream). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function isBytes(body: unknown): boolean {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

export class PushHttp {
  constructor(private readonly transport: Transport) {}

  async call({ headers, ...request }: HttpRequest): Promise<HttpAnswer> {
    // A page opened offline has no CSRF token yet: a write gets one first (the page's client
    // refreshes it), else the server refuses it as missing.
    if (request.method === 'POST' && !this.transport.getCsrfToken()) {
      await this.transport.refreshCsrf();
    }
    const answer = await this.transport.request({
      ...request,
      headers: isBytes(request.body)
        ? { 'Content-Type': 'application/octet-stream', ...headers }
        : headers,
    });
    return {
      status: answer.status,
      data: answer.ok ? await readBody(answer.response) : answer.data,
    };
  }
}

/** The finish call's idempotency key (the reference server's PR #628): the plan's push id. */
export { PUSH_ID_HEADER };

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
