/**
 * Plays the calls of the python client (mergin-client 0.13.3, the library inside the
 * desktop plugin) against the real app through app.inject, as client-compat.md describes
 * them: no cookies, no CSRF token, `Authorization: Bearer <token>`, booleans as
 * `True`/`False`, chunk uuids per 10 MiB, downloads in inclusive ranges of 100 MiB + 1 bytes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export const USER_AGENT = 'Python-client/0.13.3 (Linux/Debian)';
/** Upload chunk size (client-compat §5). */
export const UPLOAD_CHUNK_SIZE = 10 * 1024 * 1024;
/** Download part size (client-compat §6.1): ranges are this + 1 bytes. */
export const DOWNLOAD_CHUNK_SIZE = 100 * 1024 * 1024;

/** The keys a stored file entry may hold (client-compat §9): any other crashes the client. */
export const ALLOWED_FILE_KEYS = new Set([
  'path',
  'checksum',
  'size',
  'mtime',
  'origin_checksum',
  'chunks',
  'diff',
  'upload_file',
  'version',
  'history',
  'location',
  'diffs',
]);

export const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/**
 * decode_token_data of the python client: the header must start with `Bearer .`; the text
 * up to the next `.` is base64url with its padding restored, zlib-inflated, then JSON.
 */
export function decodeTokenLikePythonClient(header: string): Record<string, unknown> {
  const prefix = 'Bearer .';
  if (!header.startsWith(prefix)) throw new Error(`Token doesn't start with 'Bearer .'`);
  let data = header.slice(prefix.length).split('.')[0]!;
  data += '='.repeat((4 - (data.length % 4)) % 4);
  const decoded = inflateSync(Buffer.from(data, 'base64url'));
  return JSON.parse(decoded.toString('utf8')) as Record<string, unknown>;
}

/** dateutil-style check: an ISO 8601 time that carries a zone. */
export function parseZonedTime(text: unknown): Date {
  expect(typeof text).toBe('string');
  expect(text as string).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
  return new Date(text as string);
}

export interface FileEntry {
  path: string;
  size: number;
  checksum: string;
  mtime: string | null;
  [key: string]: unknown;
}

export interface ProjectInfo {
  id: string;
  name: string;
  namespace: string;
  version: string;
  files: FileEntry[];
  role: string | null;
  [key: string]: unknown;
}

export interface LocalChanges {
  added?: Record<string, Buffer>;
  updated?: Record<string, Buffer>;
  /** Removed paths with the checksum and size the client had stored. */
  removed?: Record<string, { checksum: string; size: number }>;
}

interface ChangeEntry {
  path: string;
  checksum: string;
  size: number;
  chunks: string[];
}

export interface PushPayload {
  added: ChangeEntry[];
  updated: ChangeEntry[];
  removed: ChangeEntry[];
}

/** The changes object the client sends (no mtime; a fresh uuid per 10 MiB). */
export function changesPayload(changes: LocalChanges): {
  payload: PushPayload;
  bytesOf: Map<string, Buffer>;
} {
  const bytesOf = new Map<string, Buffer>();
  const entry = (path: string, bytes: Buffer): ChangeEntry => {
    bytesOf.set(path, bytes);
    return {
      path,
      checksum: sha1(bytes),
      size: bytes.length,
      chunks: Array.from({ length: Math.ceil(bytes.length / UPLOAD_CHUNK_SIZE) }, () =>
        randomUUID(),
      ),
    };
  };
  return {
    payload: {
      added: Object.entries(changes.added ?? {}).map(([p, b]) => entry(p, b)),
      updated: Object.entries(changes.updated ?? {}).map(([p, b]) => entry(p, b)),
      removed: Object.entries(changes.removed ?? {}).map(([path, stored]) => ({
        path,
        ...stored,
        chunks: [],
      })),
    },
    bytesOf,
  };
}

export class PythonClient {
  /** `Bearer <token>` once logged in. */
  authorization: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...extra };
    if (this.authorization) headers.authorization = this.authorization;
    return headers;
  }

  get(url: string, extra?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'GET', url, headers: this.headers(extra) });
  }

  delete(url: string): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'DELETE', url, headers: this.headers() });
  }

  post(url: string, json?: unknown): Promise<LightMyRequestResponse> {
    if (json === undefined) {
      // Finish and cancel: an empty body, no Content-Type.
      return this.app.inject({ method: 'POST', url, headers: this.headers() });
    }
    return this.app.inject({
      method: 'POST',
      url,
      headers: this.headers({ 'content-type': 'application/json' }),
      payload: JSON.stringify(json),
    });
  }

  patch(url: string, json: unknown): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'PATCH',
      url,
      headers: this.headers({ 'content-type': 'application/json' }),
      payload: JSON.stringify(json),
    });
  }

  postBytes(url: string, bytes: Buffer): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'POST',
      url,
      headers: this.headers({ 'content-type': 'application/octet-stream' }),
      payload: bytes,
    });
  }

  /** POST /v1/auth/login; keeps `Bearer <session.token>`. */
  async login(login: string, password: string): Promise<Record<string, unknown>> {
    const response = await this.post('/v1/auth/login', { login, password });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { session: { token: string } };
    this.authorization = `Bearer ${body.session.token}`;
    return body as Record<string, unknown>;
  }

  async config(): Promise<Record<string, unknown>> {
    const response = await this.get('/config');
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  async info(project: string, query = ''): Promise<ProjectInfo> {
    const response = await this.get(`/v1/project/${project}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  /** v1 push (client-compat §5.1): start, chunks, finish; the new project object. */
  async pushV1(project: string, version: string, changes: LocalChanges): Promise<ProjectInfo> {
    const { payload, bytesOf } = changesPayload(changes);
    const start = await this.post(`/v1/project/push/${project}`, { version, changes: payload });
    expect(start.statusCode, start.body).toBe(200);
    const uploads = [...payload.added, ...payload.updated];
    if (uploads.length === 0) return start.json();
    const { transaction } = start.json() as { transaction: string };
    for (const file of uploads) {
      const bytes = bytesOf.get(file.path)!;
      for (const [index, chunk] of file.chunks.entries()) {
        const data = bytes.subarray(index * UPLOAD_CHUNK_SIZE, (index + 1) * UPLOAD_CHUNK_SIZE);
        const response = await this.postBytes(
          `/v1/project/push/chunk/${transaction}/${chunk}`,
          data,
        );
        expect(response.statusCode, response.body).toBe(200);
        // The client cancels unless both match what it sent.
        expect(response.json()).toEqual({ size: data.length, checksum: sha1(data) });
      }
    }
    const finish = await this.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    return finish.json();
  }

  /**
   * v2 push (client-compat §5.2): check_only with the client's own chunk uuids, the chunks
   * (identical content sent once, its server id reused), then the version; its answer.
   */
  async pushV2(
    projectId: string,
    version: string,
    changes: LocalChanges,
  ): Promise<LightMyRequestResponse> {
    const { payload, bytesOf } = changesPayload(changes);
    const check = await this.post(`/v2/projects/${projectId}/versions`, {
      version,
      changes: payload,
      check_only: true,
    });
    expect(check.statusCode, check.body).toBe(204);
    const cache = new Map<string, string>();
    for (const file of [...payload.added, ...payload.updated]) {
      const bytes = bytesOf.get(file.path)!;
      file.chunks = await Promise.all(
        file.chunks.map(async (_, index) => {
          const data = bytes.subarray(index * UPLOAD_CHUNK_SIZE, (index + 1) * UPLOAD_CHUNK_SIZE);
          const cached = cache.get(sha1(data));
          if (cached) return cached;
          const response = await this.postBytes(`/v2/projects/${projectId}/chunks`, data);
          expect(response.statusCode, response.body).toBe(200);
          const { id } = response.json() as { id: string };
          cache.set(sha1(data), id);
          return id;
        }),
      );
    }
    return this.post(`/v2/projects/${projectId}/versions`, { version, changes: payload });
  }

  /**
   * One file as the client downloads it (client-compat §6.1): parts of `partSize` + 1 bytes,
   * `Range: bytes=S-(S+partSize)` with S = i × (partSize + 1); 200 or 206 accepted.
   */
  async download(
    project: string,
    file: FileEntry,
    version: string,
    partSize = DOWNLOAD_CHUNK_SIZE,
  ): Promise<Buffer> {
    const parts: Buffer[] = [];
    const count = Math.ceil(file.size / partSize);
    const query = `file=${encodeURIComponent(file.path).replace(/%20/g, '+')}&version=${version}&diff=False`;
    for (let i = 0; i < count; i++) {
      const start = i * (partSize + 1);
      const response = await this.get(`/v1/project/raw/${project}?${query}`, {
        range: `bytes=${start}-${start + partSize}`,
      });
      expect([200, 206], response.body.slice(0, 200)).toContain(response.statusCode);
      parts.push(response.rawPayload);
    }
    const bytes = Buffer.concat(parts);
    expect(bytes.length).toBe(file.size);
    return bytes;
  }
}
