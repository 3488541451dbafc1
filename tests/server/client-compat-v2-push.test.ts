/**
 * Desktop and mobile clients, part 3 (client-compat §5.2): the v2 push the python client uses
 * because /config says `v2_push_enabled`: check_only with the client's own chunk uuids, raw
 * chunks answered with server ids (identical content sent once and listed by two files),
 * the version (201, stored as metadata), a stale base (409 ProjectVersionExists), the lock
 * shared with v1 (409 AnotherUploadRunning), a removal-only push, and refusals.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWED_FILE_KEYS,
  changesPayload,
  PythonClient,
  sha1,
  UPLOAD_CHUNK_SIZE,
  type FileEntry,
} from './support/python-client';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';
import {
  diffOnlyForUpdates,
  diffOnlyForVersioned,
  invalidDiff,
} from '../../server/src/services/push/diffs';

const NS = 'waymark';

let t: TestApp;
let client: PythonClient;
let counter = 0;

async function newProject(): Promise<{ path: string; id: string }> {
  const name = `field-${++counter}`;
  const response = await client.post(`/v1/project/${NS}`, { name, public: false });
  expect(response.statusCode, response.body).toBe(200);
  const info = await client.info(`${NS}/${name}`);
  return { path: `${NS}/${name}`, id: info.id };
}

const checksums = (files: FileEntry[]) =>
  Object.fromEntries(files.map((f) => [f.path, f.checksum]));

beforeAll(async () => {
  t = await createTestApp();
  client = new PythonClient(t.app);
  await client.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

describe('v2 push', () => {
  it('makes two versions whose files download byte for byte', async () => {
    const project = await newProject();
    const shared = randomBytes(UPLOAD_CHUNK_SIZE);
    const files = {
      'notes.txt': Buffer.from('a note\n'),
      // Both files start with the same 10 MiB: the client sends that chunk once.
      'raster/a.tif': Buffer.concat([shared, randomBytes(1234)]),
      'raster/b.tif': Buffer.concat([shared, randomBytes(99)]),
      'empty.txt': Buffer.alloc(0),
    };
    const first = await client.pushV2(project.id, 'v0', { added: files });
    expect(first.statusCode, first.body).toBe(201);
    const v1 = first.json();
    expect(v1).toMatchObject({
      id: project.id,
      name: project.path.split('/')[1],
      workspace: { name: NS },
      version: 'v1',
      role: 'owner',
    });
    expect(typeof v1.workspace.id).toBe('number');
    expect(checksums(v1.files)).toEqual(
      Object.fromEntries(Object.entries(files).map(([p, b]) => [p, sha1(b)])),
    );
    for (const file of v1.files as FileEntry[]) {
      for (const key of Object.keys(file)) expect(ALLOWED_FILE_KEYS.has(key), key).toBe(true);
      expect(typeof file.mtime).toBe('string');
    }

    const updated = { 'notes.txt': Buffer.from('a longer note\n') };
    const second = await client.pushV2(project.id, 'v1', {
      updated,
      removed: { 'empty.txt': { checksum: sha1(Buffer.alloc(0)), size: 0 } },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().version).toBe('v2');

    for (const [version, expected] of [
      ['v1', files],
      ['v2', { ...files, ...updated }],
    ] as const) {
      const info = await client.info(project.path, `?version=${version}`);
      for (const file of info.files) {
        if (file.size === 0) continue;
        const bytes = await client.download(project.path, file, version);
        expect(bytes.equals(expected[file.path as keyof typeof expected]!), file.path).toBe(true);
      }
    }
    const latest = await client.info(project.path);
    expect(latest.files.map((f) => f.path)).not.toContain('empty.txt');
  });

  it('answers the v2 project, with the files of a version when asked', async () => {
    const project = await newProject();
    const a = Buffer.from('version one');
    expect((await client.pushV2(project.id, 'v0', { added: { 'a.txt': a } })).statusCode).toBe(201);
    const b = Buffer.from('version two');
    expect((await client.pushV2(project.id, 'v1', { updated: { 'a.txt': b } })).statusCode).toBe(
      201,
    );
    const plain = await client.get(`/v2/projects/${project.id}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({
      id: project.id,
      version: 'v2',
      role: 'owner',
      public: false,
    });
    expect(plain.json()).not.toHaveProperty('files');
    const atV1 = await client.get(`/v2/projects/${project.id}?files_at_version=v1`);
    expect(atV1.json().files).toEqual([
      { path: 'a.txt', mtime: expect.any(String), size: a.length, checksum: sha1(a) },
    ]);
    const atV2 = await client.get(`/v2/projects/${project.id}?files_at_version=v2`);
    expect(atV2.json().files[0].checksum).toBe(sha1(b));
    const missing = await client.get(`/v2/projects/${project.id}?files_at_version=v9`);
    expect(missing.json()).not.toHaveProperty('files');
    // Private: anonymous visitors are told it does not exist.
    const anonymous = await new PythonClient(t.app).get(`/v2/projects/${project.id}`);
    expect(anonymous.statusCode).toBe(404);
  });

  it('refuses a stale base with 409 ProjectVersionExists, in check_only too', async () => {
    const project = await newProject();
    const ok = await client.pushV2(project.id, 'v0', { added: { 'a.txt': Buffer.from('a') } });
    expect(ok.statusCode).toBe(201);
    const { payload } = changesPayload({ added: { 'b.txt': Buffer.from('b') } });
    for (const checkOnly of [true, false]) {
      const response = await client.post(`/v2/projects/${project.id}/versions`, {
        version: 'v0',
        changes: payload,
        ...(checkOnly ? { check_only: true } : {}),
      });
      expect(response.statusCode).toBe(409);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.json()).toMatchObject({
        code: 'ProjectVersionExists',
        detail: 'Project version mismatch (ProjectVersionExists)',
        client_version: 'v0',
        server_version: 'v1',
      });
    }
  });

  it('makes a removal-only push (check_only 204, then 201)', async () => {
    const project = await newProject();
    const bytes = Buffer.from('to be removed');
    expect(
      (await client.pushV2(project.id, 'v0', { added: { 'old.txt': bytes } })).statusCode,
    ).toBe(201);
    const response = await client.pushV2(project.id, 'v1', {
      removed: { 'old.txt': { checksum: sha1(bytes), size: bytes.length } },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ version: 'v2', files: [] });
  });

  it('waits for a running v1 upload (409 AnotherUploadRunning)', async () => {
    const project = await newProject();
    const { payload } = changesPayload({ added: { 'slow.txt': Buffer.from('slow') } });
    const start = await client.post(`/v1/project/push/${project.path}`, {
      version: 'v0',
      changes: payload,
    });
    expect(start.statusCode).toBe(200);
    const other = await client.pushV2(project.id, 'v0', {
      added: { 'fast.txt': Buffer.from('x') },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('AnotherUploadRunning');
  });

  it('answers 422 DataSyncError when the chunks do not make the declared file', async () => {
    const project = await newProject();
    const chunk = await client.postBytes(`/v2/projects/${project.id}/chunks`, Buffer.from('abc'));
    const { id } = chunk.json() as { id: string };
    const cases = [
      // Wrong checksum for the chunk's bytes.
      { path: 'a.txt', size: 3, checksum: sha1(Buffer.from('abd')), chunks: [id] },
      // A chunk the server never received.
      { path: 'b.txt', size: 3, checksum: sha1(Buffer.from('abc')), chunks: [randomUUID()] },
    ];
    for (const file of cases) {
      const response = await client.post(`/v2/projects/${project.id}/versions`, {
        version: 'v0',
        changes: { added: [file], updated: [], removed: [] },
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'DataSyncError',
        failed_files: { [file.path]: 'corrupted' },
      });
    }
    expect((await client.info(project.path)).version).toBe('v0');
  });

  it('forgets chunks after a day', async () => {
    const project = await newProject();
    const bytes = Buffer.from('late chunk');
    const chunk = await client.postBytes(`/v2/projects/${project.id}/chunks`, bytes);
    const { id, valid_until: validUntil } = chunk.json() as { id: string; valid_until: string };
    expect(new Date(validUntil).getTime()).toBeGreaterThan(t.clock.now().getTime());
    t.clock.advance(24 * 3600 * 1000 + 1000);
    // The 12-hour token has ended too: the client logs in again.
    await client.login('admin', ADMIN_PASSWORD);
    const response = await client.post(`/v2/projects/${project.id}/versions`, {
      version: 'v0',
      changes: {
        added: [{ path: 'late.txt', size: bytes.length, checksum: sha1(bytes), chunks: [id] }],
        updated: [],
        removed: [],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().failed_files).toEqual({ 'late.txt': 'corrupted' });
  });

  it('answers 422 UploadError for invalid changes, and 413 for a chunk over 10 MiB', async () => {
    const project = await newProject();
    const exists = await client.pushV2(project.id, 'v0', { added: { 'a.txt': Buffer.from('a') } });
    expect(exists.statusCode).toBe(201);
    const { payload } = changesPayload({ added: { 'a.txt': Buffer.from('again') } });
    const again = await client.post(`/v2/projects/${project.id}/versions`, {
      version: 'v1',
      changes: payload,
      check_only: true,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({
      code: 'UploadError',
      detail: 'Add changes contain files which already exist (UploadError)',
    });
    const none = await client.post(`/v2/projects/${project.id}/versions`, {
      version: 'v1',
      changes: { added: [], updated: [], removed: [] },
    });
    expect(none.json()).toMatchObject({ code: 'UploadError', detail: 'No changes (UploadError)' });

    const big = await client.postBytes(
      `/v2/projects/${project.id}/chunks`,
      Buffer.alloc(UPLOAD_CHUNK_SIZE + 1),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('BigChunkError');
  });

  it('refuses misplaced or malformed GeoPackage diff entries as 422 UploadError', async () => {
    const project = await newProject();
    const diff = { path: `a.gpkg-diff-${randomUUID()}`, checksum: sha1(Buffer.from('d')), size: 1 };
    const entry = (path: string, extra: Record<string, unknown> = {}) => ({
      path,
      size: 4096,
      checksum: sha1(Buffer.from('old')),
      chunks: [randomUUID()],
      diff,
      ...extra,
    });
    const cases: [Record<string, unknown[]>, string][] = [
      [{ added: [entry('a.gpkg')] }, diffOnlyForUpdates('a.gpkg')],
      [{ updated: [entry('notes.txt')] }, diffOnlyForVersioned('notes.txt')],
      [{ updated: [entry('a.gpkg', { diff: { path: 'x' } })] }, invalidDiff('a.gpkg')],
    ];
    for (const [changes, text] of cases) {
      const response = await client.post(`/v2/projects/${project.id}/versions`, {
        version: 'v0',
        check_only: true,
        changes: { added: [], updated: [], removed: [], ...changes },
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'UploadError',
        detail: `${text} (UploadError)`,
      });
    }
  });

  it('refuses chunks and versions without upload rights', async () => {
    const project = await newProject();
    const anonymous = new PythonClient(t.app);
    const chunk = await anonymous.postBytes(`/v2/projects/${project.id}/chunks`, Buffer.from('x'));
    expect(chunk.statusCode).toBe(401);
    const version = await anonymous.post(`/v2/projects/${project.id}/versions`, {
      version: 'v0',
      changes: { added: [], updated: [], removed: [] },
    });
    expect(version.statusCode).toBe(401);
    const unknown = await client.postBytes(`/v2/projects/${randomUUID()}/chunks`, Buffer.from('x'));
    expect(unknown.statusCode).toBe(404);
  });
});
