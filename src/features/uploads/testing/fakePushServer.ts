/**
 * Tests only: an in-memory server speaking the v1 push protocol through a `fetch` function,
 * with hooks to drop connections, answer errors or lose answers, so the engine's resume,
 * retry and finish logic can be tested without a browser.
 */
import {
  CHUNK_OFFSET_HEADER,
  CHUNK_PREFIX_GONE,
  PUSH_ID_HEADER,
  PUSH_REFUSALS,
} from '@contract/protocol';
import { sha1 as wasmSha1 } from 'hash-wasm';

export interface FakeFile {
  path: string;
  size: number;
  checksum: string;
}

interface Transaction {
  id: string;
  base: number;
  added: (FakeFile & { chunks: string[] })[];
  updated: (FakeFile & { chunks: string[] })[];
  removed: FakeFile[];
  chunks: Map<string, Uint8Array>;
  writes: Map<string, number>;
  /** Bytes of chunks whose request was cut (`{ cut }`), which a request may continue. */
  prefixes: Map<string, Uint8Array>;
}

export interface FakeRequest {
  method: string;
  path: string;
  kind: 'start' | 'chunk' | 'finish' | 'cancel' | 'status' | 'project' | 'ping' | 'csrf' | 'other';
  chunk?: string;
  headers: Record<string, string>;
}

/**
 * What a hook may do with a request: 'network' fails it before the server sees it,
 * 'lost' lets the server handle it and then fails the answer, a status answers with it,
 * 'hang' never answers (until aborted), `cut` (chunks) keeps that many of the chunk's bytes
 * received in this request as its prefix and fails the request; undefined handles it normally.
 */
export type HookAction =
  'network' | 'lost' | 'hang' | { status: number; body?: unknown } | { cut: number };

export class FakePushServer {
  version = 0;
  files = new Map<string, FakeFile & { bytes: Uint8Array }>();
  transactions = new Map<string, Transaction>();
  /** Every request, in order. */
  log: FakeRequest[] = [];
  /** Total writes per chunk id over all transactions. */
  writes = new Map<string, number>();
  inflight = 0;
  maxInflight = 0;
  csrfToken = 'token-1';
  /** What GET /ping says of maintenance (the client reads it again before refusing a write). */
  maintenance = false;
  /** Finish outcomes by `Mm-push-id` (refusals included), answered again to a repeated id. */
  finishOutcomes = new Map<string, { status: number; body: unknown }>();
  hook: ((request: FakeRequest) => HookAction | undefined) | null = null;
  private nextTx = 1;

  constructor(
    readonly namespace = 'ws',
    readonly name = 'proj',
  ) {}

  async seed(files: Record<string, string | Uint8Array>): Promise<void> {
    for (const [path, content] of Object.entries(files)) {
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      this.files.set(path, { path, size: bytes.length, checksum: await sha1(bytes), bytes });
    }
    this.version += 1;
  }

  detail(): Record<string, unknown> {
    return {
      id: 'p1',
      name: this.name,
      namespace: this.namespace,
      version: `v${this.version}`,
      files: [...this.files.values()].map(({ path, size, checksum }) => ({
        path,
        size,
        checksum,
        mtime: '2024-01-01T00:00:00Z',
      })),
    };
  }

  count(kind: FakeRequest['kind']): number {
    return this.log.filter((r) => r.kind === kind).length;
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://test');
    const method = init.method ?? 'GET';
    const headers = { ...(init.headers as Record<string, string>) };
    const request = this.describe(method, url.pathname, headers);
    this.log.push(request);
    const signal = init.signal;
    signal?.throwIfAborted();
    const action = this.hook?.(request);
    if (action === 'network') throw new TypeError('Failed to fetch');
    if (action === 'hang') {
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if (action && typeof action === 'object' && 'status' in action) {
      return json(action.status, action.body);
    }
    this.inflight += 1;
    this.maxInflight = Math.max(this.maxInflight, this.inflight);
    try {
      // Let other requests start, as a real server would.
      await new Promise((resolve) => setTimeout(resolve, 1));
      signal?.throwIfAborted();
      const body =
        init.body instanceof Blob
          ? new Uint8Array(await init.body.arrayBuffer())
          : init.body instanceof Uint8Array
            ? init.body
            : typeof init.body === 'string'
              ? init.body
              : undefined;
      const response = await this.handle(
        request,
        body,
        action && typeof action === 'object' ? action.cut : undefined,
      );
      if (action === 'lost') throw new TypeError('Failed to fetch');
      return response;
    } finally {
      this.inflight -= 1;
    }
  };

  private describe(method: string, path: string, headers: Record<string, string>): FakeRequest {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    let kind: FakeRequest['kind'] = 'other';
    let chunk: string | undefined;
    if (path === '/ping') kind = 'ping';
    else if (path === '/app/auth/refresh/csrf') kind = 'csrf';
    else if (parts[2] === 'push' && parts[3] === 'chunk') {
      kind = 'chunk';
      chunk = parts[5];
    } else if (parts[2] === 'push' && parts[3] === 'finish') kind = 'finish';
    else if (parts[2] === 'push' && parts[3] === 'cancel') kind = 'cancel';
    else if (parts[2] === 'push' && method === 'POST') kind = 'start';
    else if (parts[2] === 'push') kind = 'status';
    else if (parts[1] === 'project') kind = 'project';
    return { method, path, kind, chunk, headers };
  }

  private async handle(
    request: FakeRequest,
    body: Uint8Array | string | undefined,
    cut?: number,
  ): Promise<Response> {
    if (request.kind === 'ping') return json(200, { maintenance: this.maintenance });
    if (request.kind === 'csrf') {
      return json(200, { csrf: this.csrfToken }, { 'X-CSRF-Token': this.csrfToken });
    }
    if (request.method === 'POST' && request.headers['X-CSRF-Token'] !== this.csrfToken) {
      return json(400, { detail: 'The CSRF token has expired.' });
    }
    const parts = request.path.split('/').filter(Boolean).map(decodeURIComponent);
    switch (request.kind) {
      case 'project':
        return json(200, this.detail());
      case 'start':
        return this.start(JSON.parse(String(body)));
      case 'chunk': {
        const tx = this.transactions.get(parts[4]!);
        if (!tx) return json(404, { detail: 'Not found' });
        const chunk = request.chunk!;
        if (![...tx.added, ...tx.updated].some((f) => f.chunks.includes(chunk))) {
          return json(404, { detail: `Chunk ${chunk} is not part of this upload` });
        }
        let bytes = body instanceof Uint8Array ? body.slice() : new Uint8Array();
        const offset = Number(request.headers[CHUNK_OFFSET_HEADER] ?? 0);
        const prefix = tx.prefixes.get(chunk);
        tx.prefixes.delete(chunk);
        if (offset > 0) {
          if (prefix?.length !== offset) {
            return json(409, { detail: 'Prefix gone', code: CHUNK_PREFIX_GONE });
          }
          bytes = concat(prefix, bytes);
        }
        if (cut !== undefined) {
          const kept = bytes.subarray(0, offset + cut);
          if (kept.length > 0) tx.prefixes.set(chunk, kept.slice());
          throw new TypeError('Failed to fetch');
        }
        tx.chunks.set(chunk, bytes);
        tx.writes.set(chunk, (tx.writes.get(chunk) ?? 0) + 1);
        this.writes.set(chunk, (this.writes.get(chunk) ?? 0) + 1);
        return json(200, { checksum: await sha1(bytes), size: bytes.length });
      }
      case 'status': {
        const tx = this.transactions.get(parts[3]!);
        if (!tx) return json(404, { detail: 'Not found' });
        return json(200, {
          transaction: tx.id,
          version: `v${tx.base}`,
          chunks_received: [...tx.chunks.keys()],
          chunk_writes: Object.fromEntries(tx.writes),
          chunk_prefixes: Object.fromEntries(
            [...tx.prefixes].map(([chunk, bytes]) => [chunk, bytes.length]),
          ),
        });
      }
      case 'cancel':
        if (!this.transactions.delete(parts[4]!)) return json(404, { detail: 'Not found' });
        return new Response(null, { status: 200 });
      case 'finish': {
        const pushId = request.headers[PUSH_ID_HEADER];
        const known = pushId ? this.finishOutcomes.get(pushId) : undefined;
        if (known) return json(known.status, known.body);
        const outcome = await this.finish(parts[4]!);
        // Like the reference server: successes and refusals of a finish are kept, 404s not.
        if (pushId && outcome.status !== 404) this.finishOutcomes.set(pushId, outcome);
        return json(outcome.status, outcome.body);
      }
      default:
        return json(404, { detail: 'Not found' });
    }
  }

  private start(input: {
    version: string;
    changes: { added: Transaction['added']; updated: Transaction['updated']; removed: FakeFile[] };
  }): Response {
    if (input.version !== `v${this.version}`) return json(400, { detail: 'Version mismatch' });
    if (this.transactions.size > 0) {
      return json(400, { detail: PUSH_REFUSALS.anotherProcess });
    }
    const { added, updated, removed } = input.changes;
    if (added.length + updated.length === 0) {
      for (const file of removed) this.files.delete(file.path);
      this.version += 1;
      return json(200, this.detail());
    }
    const id = `00000000-0000-4000-8000-${String(this.nextTx++).padStart(12, '0')}`;
    this.transactions.set(id, {
      id,
      base: this.version,
      added,
      updated,
      removed,
      chunks: new Map(),
      writes: new Map(),
      prefixes: new Map(),
    });
    return json(200, { transaction: id });
  }

  private async finish(id: string): Promise<{ status: number; body: unknown }> {
    const tx = this.transactions.get(id);
    if (!tx) return answer(404, { detail: 'Not found' });
    const files = [...tx.added, ...tx.updated];
    const missing = files.flatMap((f) => f.chunks.filter((c) => !tx.chunks.has(c)));
    if (missing.length > 0) {
      return answer(422, { detail: 'Missing chunks (UploadError)', missing_chunks: missing });
    }
    const built = files.map((f) => {
      const parts = f.chunks.map((c) => tx.chunks.get(c)!);
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
      return { file: f, bytes };
    });
    const bad: typeof built = [];
    for (const item of built) if ((await sha1(item.bytes)) !== item.file.checksum) bad.push(item);
    if (bad.length > 0) {
      // Like the real server: nothing is stored, the files' chunks are forgotten.
      for (const { file } of bad) for (const chunk of file.chunks) tx.chunks.delete(chunk);
      const paths = bad.map((b) => b.file.path);
      return answer(422, {
        code: 'UploadError',
        detail: `${PUSH_REFUSALS.filesMismatch}: ${paths.join(', ')} (UploadError)`,
        files: paths,
      });
    }
    for (const { file, bytes } of built) {
      this.files.set(file.path, {
        path: file.path,
        size: bytes.length,
        checksum: file.checksum,
        bytes,
      });
    }
    for (const file of tx.removed) this.files.delete(file.path);
    this.version += 1;
    this.transactions.delete(id);
    return answer(200, this.detail());
  }
}

export function sha1(bytes: Uint8Array | string): Promise<string> {
  return wasmSha1(bytes);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(a.length + b.length);
  bytes.set(a);
  bytes.set(b, a.length);
  return bytes;
}

function answer(status: number, body: unknown): { status: number; body: unknown } {
  return { status, body };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
