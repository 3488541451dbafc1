/**
 * A corpus of path-traversal and bad file names against every call that takes a file path
 * (found from the route table: push start entries, raw download `file=`, file history and
 * changesets `path=`; path parameters of project and upload routes; and the admin folder
 * import). Every one is refused with a 4xx (the import with an error), never a 500, and no
 * file appears outside the data directory's own places.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCurrentFiles } from '../../server/src/db/queries/files';
import { importFolder } from '../../server/src/services/project-import';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const NS = 'waymark';
const PROJECT = 'corpus';

const long = (n: number) => 'a'.repeat(n);

/** Names as they arrive decoded (JSON bodies, decoded query values). */
const BAD_NAMES: readonly string[] = [
  '../escape.txt',
  '../../../../etc/passwd',
  'a/../../escape.txt',
  'a/./b.txt',
  './a.txt',
  '..',
  '.',
  '...\\escape.txt',
  '..\\escape.txt',
  'a\\..\\..\\escape.txt',
  '/etc/passwd',
  '/abs.txt',
  '//server/share/x.txt',
  '\\\\server\\share\\x.txt',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  'c:escape.txt',
  'nul\u0000byte.txt',
  'x.txt\u0000.png',
  'CON',
  'con.txt',
  'PRN',
  'prn.gpkg',
  'AUX.csv',
  'NUL',
  'nul.txt',
  'COM1',
  'com1.tif',
  'LPT1',
  'lpt1.txt',
  'dir/CON/x.txt',
  'dir/aux.tar.gz',
  `${long(252)}.txt`,
  `dir/${long(256)}`,
  `${`${long(200)}/`.repeat(21)}x.txt`,
  'trailing.',
  'trailing ',
  'dir./x.txt',
  'dir /x.txt',
  'dir../x.txt',
  'a\u0001b.txt',
  'line\nbreak.txt',
  'carriage\rreturn.txt',
  'tab\tname.txt',
  'del\u007fname.txt',
  'a//b.txt',
  'dir/',
  '',
  'ques?tion.txt',
  'star*.txt',
  'pipe|.txt',
  'angle<>.txt',
  'colon:stream.txt',
];

/** Raw query or path texts (percent-encoding as sent on the wire). */
const ENCODED: readonly string[] = [
  '%2e%2e%2fescape.txt',
  '%2E%2E%2Fescape.txt',
  '%2e%2e/escape.txt',
  '..%2fescape.txt',
  '..%5cescape.txt',
  '%2e%2e%5cescape.txt',
  '%252e%252e%252fescape.txt',
  '%25252e%25252e%25252fescape.txt',
  '%c0%ae%c0%ae%c0%afescape.txt',
  '%2fetc%2fpasswd',
  'nul%00byte.txt',
  'a%0ab.txt',
  '%E0%A4%A',
];

let t: TestApp;
let admin: TestClient;
let projectVersion = 1;
let projectId: string;

/** Every file under `dir`, as paths relative to it. */
async function tree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

let parentBefore: string[];
let dataBefore: string[];

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  const project = await createProject(t, { name: PROJECT });
  projectId = project.id;
  await commit(t, project.id, {
    added: { 'data.txt': 'inside', 'survey.gpkg': 'not really a geopackage' },
  });
  projectVersion = 1;
  parentBefore = await fs.readdir(path.dirname(t.config.dataDir));
  dataBefore = await tree(t.config.dataDir);
});

afterAll(async () => t.close());

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

function expectRefused(response: { statusCode: number; body: string }, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(500);
}

describe('push start', () => {
  it('refuses every bad name in added, updated and removed', { timeout: 120_000 }, async () => {
    for (const name of BAD_NAMES) {
      const entry = { path: name, size: 1, checksum: sha1('x'), chunks: [randomUUID()] };
      for (const kind of ['added', 'updated', 'removed'] as const) {
        const changes = { added: [], updated: [], removed: [], [kind]: [entry] };
        const response = await admin.post(`/v1/project/push/${NS}/${PROJECT}`, {
          version: `v${projectVersion}`,
          changes,
        });
        expectRefused(response, `${kind} ${JSON.stringify(name)}`);
      }
    }
  });

  it('refuses bad names in the project path', async () => {
    for (const raw of [...ENCODED, '..', '.', '%2e%2e', '%2e']) {
      const response = await admin.post(`/v1/project/push/${NS}/${raw}`, {
        version: 'v1',
        changes: {
          added: [{ path: 'x.txt', size: 1, checksum: sha1('x'), chunks: [randomUUID()] }],
          updated: [],
          removed: [],
        },
      });
      expectRefused(response, raw);
    }
  });

  it('refuses bad upload ids in chunk, finish and cancel paths', async () => {
    for (const raw of [...ENCODED, '..', '%2e%2e', randomUUID().replace(/-/g, '/')]) {
      for (const url of [
        `/v1/project/push/chunk/${raw}/${randomUUID()}`,
        `/v1/project/push/chunk/${randomUUID()}/${raw}`,
        `/v1/project/push/finish/${raw}`,
        `/v1/project/push/cancel/${raw}`,
      ]) {
        const response = await admin.request('POST', url, {
          payload: Buffer.from('x'),
          headers: { 'content-type': 'application/octet-stream' },
        });
        expectRefused(response, url);
      }
      expectRefused(await admin.get(`/v1/project/push/${raw}`), raw);
    }
  });
});

describe('reads that take a file path', () => {
  const reads = (q: string) => [
    `/v1/project/raw/${NS}/${PROJECT}?file=${q}`,
    `/v1/project/raw/${NS}/${PROJECT}?file=${q}&version=v1`,
    `/v1/project/raw/${NS}/${PROJECT}?file=${q}&diff=true&version=v1`,
    `/v1/resource/history/${NS}/${PROJECT}?path=${q}`,
    `/v1/resource/changesets/${NS}/${PROJECT}/v1?path=${q}`,
  ];

  it('refuses every bad name, encoded once', { timeout: 60_000 }, async () => {
    for (const name of BAD_NAMES) {
      for (const url of reads(encodeURIComponent(name))) {
        for (const method of ['GET', 'HEAD'] as const) {
          expectRefused(await admin.request(method, url), `${method} ${url}`);
        }
      }
    }
  });

  it('refuses encoded and double-encoded traversal', async () => {
    for (const raw of ENCODED) {
      for (const url of reads(raw)) expectRefused(await admin.get(url), url);
    }
  });

  it('refuses traversal in the project path of downloads and history', async () => {
    for (const raw of [...ENCODED, '..', '%2e%2e', '%2e%2e%2f%2e%2e']) {
      for (const url of [
        `/v1/project/raw/${NS}/${raw}?file=data.txt`,
        `/v1/project/raw/${raw}/${PROJECT}?file=data.txt`,
        `/v1/project/download/${NS}/${raw}?format=zip`,
        `/v1/resource/history/${NS}/${raw}?path=data.txt`,
        `/v1/project/versions/paginated/${NS}/${raw}?page=1&per_page=10`,
        `/v1/project/${NS}/${raw}`,
      ]) {
        expectRefused(await admin.get(url), url);
      }
    }
  });

  it('still serves the good file (the corpus is refused for its names only)', async () => {
    const response = await admin.get(`/v1/project/raw/${NS}/${PROJECT}?file=data.txt`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('inside');
  });
});

describe('names in bodies', () => {
  it('refuses bad project names on create and clone, and NUL in any text field', async () => {
    // Project names are trimmed first (reference A.5): 'trailing ' is the name 'trailing'.
    for (const name of BAD_NAMES.filter((n) => n !== 'trailing ')) {
      expectRefused(await admin.post(`/v1/project/${NS}`, { name, public: false }), name);
      expectRefused(
        await admin.post(`/v1/project/clone/${NS}/${PROJECT}`, { project: name, namespace: NS }),
        `clone ${name}`,
      );
    }
    const profile = await admin.post('/app/auth/user/profile', {
      email: 'admin@example.com',
      first_name: 'a\u0000b',
    });
    expectRefused(profile, 'profile');
  });
});

describe('project import (admin)', () => {
  it('refuses a folder holding a bad name, and imports nothing', async () => {
    // Names a Linux file system can hold; the others cannot reach an import.
    const creatable = BAD_NAMES.filter(
      (name) =>
        name !== '' &&
        !name.includes('\u0000') &&
        !name.startsWith('/') &&
        !name.split('/').some((s) => s === '..' || s === '.' || s === '' || s.length > 255) &&
        Buffer.byteLength(name) < 4000,
    );
    expect(creatable.length).toBeGreaterThan(20);
    for (const name of creatable) {
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'waymark-corpus-'));
      try {
        await fs.writeFile(path.join(folder, 'good.txt'), 'good');
        await fs.mkdir(path.dirname(path.join(folder, name)), { recursive: true });
        await fs.writeFile(path.join(folder, name), 'bad');
        await expect(
          importFolder(t.database, t.app.ctx.blobStore, {
            workspace: NS,
            project: PROJECT,
            folder,
            replace: false,
          }),
          JSON.stringify(name),
        ).rejects.toThrow(/Cannot import/);
      } finally {
        await fs.rm(folder, { recursive: true, force: true });
      }
    }
    const files = await listCurrentFiles(t.database.db, projectId);
    expect(files.map((f) => f.path).sort()).toEqual(['data.txt', 'survey.gpkg']);
  });
});

describe('afterwards', () => {
  it('wrote nothing outside the data directory or into it besides its own places', async () => {
    // The temp folder is shared with other processes: only names from the corpus count.
    const added = (await fs.readdir(path.dirname(t.config.dataDir))).filter(
      (name) => !parentBefore.includes(name),
    );
    expect(added.filter((name) => /escape|passwd|win\.ini|CON|x\.txt/i.test(name))).toEqual([]);
    const after = await tree(t.config.dataDir);
    const fresh = after.filter((file) => !dataBefore.includes(file));
    // The database, the blob store and upload staging are the only places that change.
    expect(fresh.filter((file) => !/^(pglite|blobs|uploads|outbox)\//.test(file))).toEqual([]);
    expect(after.filter((file) => /escape|passwd|win\.ini/.test(file))).toEqual([]);
    const files = await listCurrentFiles(t.database.db, projectId);
    expect(files.map((f) => f.path).sort()).toEqual(['data.txt', 'survey.gpkg']);
  });
});
