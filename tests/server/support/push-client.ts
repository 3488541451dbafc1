/** The v1 push protocol from a test client: plans, chunks, finish, downloads. */
import { createHash, randomUUID } from 'node:crypto';
import { CHUNK_SIZE } from '../../../server/src/storage/upload-staging';
import type { TestClient } from './test-app';

export const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex');

export interface PlanEntry {
  path: string;
  size: number;
  checksum: string;
  chunks: string[];
}

export interface Plan {
  list: PlanEntry[];
  /** Chunk id → its bytes, in file order. */
  chunks: [string, Buffer][];
}

/** Push entries for files; chunk ids are random, one per 10 MiB. */
export function plan(files: Record<string, Buffer | string>): Plan {
  const chunks: [string, Buffer][] = [];
  const list = Object.entries(files).map(([file, content]) => {
    const buffer = typeof content === 'string' ? Buffer.from(content) : content;
    const count = Math.ceil(buffer.length / CHUNK_SIZE);
    const ids = Array.from({ length: count }, () => randomUUID());
    ids.forEach((id, i) =>
      chunks.push([id, buffer.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE)]),
    );
    return { path: file, size: buffer.length, checksum: sha1(buffer), chunks: ids };
  });
  return { list, chunks };
}

export function startPush(
  client: TestClient,
  project: string,
  version: string,
  changes: { added?: PlanEntry[]; updated?: PlanEntry[]; removed?: PlanEntry[] },
) {
  return client.post(`/v1/project/push/${project}`, {
    version,
    changes: {
      added: changes.added ?? [],
      updated: changes.updated ?? [],
      removed: changes.removed ?? [],
    },
  });
}

export function sendChunk(client: TestClient, tx: string, chunk: string, bytes: Buffer) {
  return client.request('POST', `/v1/project/push/chunk/${tx}/${chunk}`, {
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

export function finishPush(client: TestClient, tx: string) {
  return client.post(`/v1/project/push/finish/${tx}`);
}

export function rawFile(client: TestClient, project: string, file: string, range?: string) {
  return client.get(`/v1/project/raw/${project}?file=${encodeURIComponent(file)}`, {
    headers: range ? { range } : {},
  });
}
