// Pushes a new version through the real v1 push protocol (start, chunks, finish) with the
// page's own session, for tests that need versions without going through the upload screen.
import { createHash } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

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
  page: Page,
  namespace: string,
  name: string,
  input: PushFilesInput,
): Promise<string> {
  const entries = Object.entries(input.files ?? {}).map(([path, content]) => {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    return {
      path,
      size: bytes.length,
      checksum: createHash('sha1').update(bytes).digest('hex'),
      base64: bytes.toString('base64'),
    };
  });
  const result = await page.evaluate(
    async ({ projectPath, entries, removed, chunkSize }) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const post = (url: string, body?: RequestInit['body'], type = 'application/json') =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': type, 'x-csrf-token': token },
          body,
        });
      const detail = await fetch(`/v1/project/${projectPath}`);
      if (!detail.ok) return { error: `project ${detail.status}` };
      const project = (await detail.json()) as { version: string; files: ServerFile[] };
      const existing = new Map(project.files.map((f) => [f.path, f]));
      const mtime = new Date().toISOString();
      const describe = (e: (typeof entries)[number]) => ({
        path: e.path,
        checksum: e.checksum,
        size: e.size,
        mtime,
        chunks: Array.from({ length: Math.ceil(e.size / chunkSize) }, () => crypto.randomUUID()),
      });
      const changes = {
        added: entries.filter((e) => !existing.has(e.path)).map(describe),
        updated: entries.filter((e) => existing.has(e.path)).map(describe),
        removed: removed.map((path) => {
          const file = existing.get(path);
          return { path, checksum: file?.checksum ?? '', size: file?.size ?? 0 };
        }),
      };
      const start = await post(
        `/v1/project/push/${projectPath}`,
        JSON.stringify({ version: project.version, changes }),
      );
      if (!start.ok) return { error: `push ${start.status} ${await start.text()}` };
      const started = (await start.json()) as {
        transaction?: string;
        version?: string;
        files?: ServerFile[];
      };
      if (!started.transaction) return { version: started.version ?? '' };
      const transaction = started.transaction;
      for (const file of [...changes.added, ...changes.updated]) {
        const entry = entries.find((e) => e.path === file.path);
        if (!entry) return { error: `no bytes for ${file.path}` };
        const bytes = Uint8Array.from(atob(entry.base64), (c) => c.charCodeAt(0));
        for (const [index, chunk] of file.chunks.entries()) {
          const slice = bytes.slice(index * chunkSize, (index + 1) * chunkSize);
          const sent = await post(
            `/v1/project/push/chunk/${transaction}/${chunk}`,
            slice,
            'application/octet-stream',
          );
          if (!sent.ok) return { error: `chunk ${sent.status} ${await sent.text()}` };
        }
      }
      const finish = await post(`/v1/project/push/finish/${transaction}`);
      if (!finish.ok) return { error: `finish ${finish.status} ${await finish.text()}` };
      return { version: ((await finish.json()) as { version: string }).version };
    },
    {
      projectPath: `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
      entries,
      removed: input.removed ?? [],
      chunkSize: CHUNK_SIZE,
    },
  );
  expect(result.error).toBeUndefined();
  return result.version ?? '';
}
