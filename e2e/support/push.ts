// Pushes a new version through the real v1 push protocol (start, chunks, finish) with a
// session (support/api.ts), for tests that need versions without going through the upload
// screen.
import { createHash, randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import { csrfToken, type Session } from './api';

const CHUNK_SIZE = 10 * 1024 * 1024;

export interface PushFilesInput {
  /** Files to add or replace, by project path. */
  files?: Record<string, string | Buffer>;
  /** Project paths to remove. */
  removed?: string[];
}

interface ServerFile {
  path: string;
  checksum: string;
  size: number;
}

/** Pushes on top of the project's latest version and returns the new version name. */
export async function pushFiles(
  session: Session,
  namespace: string,
  name: string,
  input: PushFilesInput,
): Promise<string> {
  const { request } = session;
  const projectPath = `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
  const entries = Object.entries(input.files ?? {}).map(([path, content]) => {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    return {
      path,
      bytes,
      size: bytes.length,
      checksum: createHash('sha1').update(bytes).digest('hex'),
    };
  });
  const detail = await request.get(`/v1/project/${projectPath}`);
  expect(detail.status(), `project ${projectPath}`).toBe(200);
  const project = (await detail.json()) as { version: string; files: ServerFile[] };
  const existing = new Map(project.files.map((f) => [f.path, f]));
  const mtime = new Date().toISOString();
  const describe = (e: (typeof entries)[number]) => ({
    path: e.path,
    checksum: e.checksum,
    size: e.size,
    mtime,
    chunks: Array.from({ length: Math.ceil(e.size / CHUNK_SIZE) }, () => randomUUID()),
  });
  const changes = {
    added: entries.filter((e) => !existing.has(e.path)).map(describe),
    updated: entries.filter((e) => existing.has(e.path)).map(describe),
    removed: (input.removed ?? []).map((path) => {
      const file = existing.get(path);
      return { path, checksum: file?.checksum ?? '', size: file?.size ?? 0 };
    }),
  };
  const headers = { 'x-csrf-token': await csrfToken(session) };
  const start = await request.post(`/v1/project/push/${projectPath}`, {
    headers,
    data: { version: project.version, changes },
  });
  expect(start.status(), `push ${await start.text()}`).toBe(200);
  const started = (await start.json()) as { transaction?: string; version?: string };
  if (!started.transaction) return started.version ?? '';
  const transaction = started.transaction;
  for (const file of [...changes.added, ...changes.updated]) {
    const entry = entries.find((e) => e.path === file.path)!;
    for (const [index, chunk] of file.chunks.entries()) {
      const sent = await request.post(`/v1/project/push/chunk/${transaction}/${chunk}`, {
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        data: entry.bytes.subarray(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE),
      });
      expect(sent.status(), `chunk ${await sent.text()}`).toBe(200);
    }
  }
  const finish = await request.post(`/v1/project/push/finish/${transaction}`, { headers });
  expect(finish.status(), `finish ${await finish.text()}`).toBe(200);
  return ((await finish.json()) as { version: string }).version;
}
