/**
 * The v1 push protocol: start (checks and their order), chunks (streamed to their offset,
 * idempotent), the resume status call, finish (size and SHA-1 checked, one version whole
 * or nothing), cancel, the push lock and its takeover, and the cleanup job.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import {
  projectMembers,
  projectVersions,
  uploadChunks,
  uploads,
  workspaces,
  type Project,
  type User,
} from '../../server/src/db/schema';
import { cleanupUploads, LOCK_EXPIRATION_MS } from '../../server/src/services/push';
import {
  chunkChanged,
  digestNextChunk,
  digestSoFar,
  heldByteCount,
} from '../../server/src/services/push/digest';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { commit, createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
let ns: string;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let projectCount = 0;

const sha1 = (bytes: Buffer | string) => createHash('sha1').update(bytes).digest('hex');

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, PASSWORD);
    clients.set(username, client);
  }
  return client;
}

/** A fresh project owned by alice, bob writer, carol reader, dave writer. */
async function newProject(): Promise<Project> {
  const project = await createProject(t, {
    name: `p${++projectCount}`,
    creatorId: people.alice!.id,
  });
  await t.database.db.insert(projectMembers).values([
    { projectId: project.id, userId: people.alice!.id, role: 'owner' },
    { projectId: project.id, userId: people.bob!.id, role: 'writer' },
    { projectId: project.id, userId: people.carol!.id, role: 'reader' },
    { projectId: project.id, userId: people.dave!.id, role: 'writer' },
  ]);
  return project;
}

interface Entry {
  path: string;
  size: number;
  checksum: string;
  chunks: string[];
}

/** Push entries for files; chunk ids are random, one per 10 MiB. */
function entries(files: Record<string, Buffer | string>): {
  list: Entry[];
  bytes: Map<string, Buffer>;
} {
  const bytes = new Map<string, Buffer>();
  const list = Object.entries(files).map(([file, content]) => {
    const buffer = typeof content === 'string' ? Buffer.from(content) : content;
    const count = Math.ceil(buffer.length / CHUNK_SIZE);
    const chunks = Array.from({ length: count }, () => randomUUID());
    chunks.forEach((id, i) => bytes.set(id, buffer.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE)));
    return { path: file, size: buffer.length, checksum: sha1(buffer), chunks };
  });
  return { list, bytes };
}

const pushUrl = (project: Project) => `/v1/project/push/${ns}/${project.name}`;

function sendChunk(client: TestClient, tx: string, chunk: string, bytes: Buffer) {
  return client.request('POST', `/v1/project/push/chunk/${tx}/${chunk}`, {
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

/** Start, all chunks, finish: returns the finish response. */
async function pushAll(
  client: TestClient,
  project: Project,
  version: string,
  changes: {
    added?: Record<string, Buffer | string>;
    updated?: Record<string, Buffer | string>;
    removed?: Entry[];
  },
) {
  const added = entries(changes.added ?? {});
  const updated = entries(changes.updated ?? {});
  const start = await client.post(pushUrl(project), {
    version,
    changes: { added: added.list, updated: updated.list, removed: changes.removed ?? [] },
  });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [chunk, bytes] of [...added.bytes, ...updated.bytes]) {
    expect((await sendChunk(client, transaction, chunk, bytes)).statusCode).toBe(200);
  }
  return client.post(`/v1/project/push/finish/${transaction}`);
}

async function rawFile(client: TestClient, project: Project, file: string) {
  return client.get(`/v1/project/raw/${ns}/${project.name}?file=${encodeURIComponent(file)}`);
}

async function versionCount(project: Project): Promise<number> {
  const rows = await t.database.db
    .select()
    .from(projectVersions)
    .where(eq(projectVersions.projectId, project.id));
  return rows.length;
}

async function uploadRows(project: Project) {
  return t.database.db.select().from(uploads).where(eq(uploads.projectId, project.id));
}

/** `size` bytes with every 4096th set from a pattern of `period` values. */
function patterned(size: number, period: number): Buffer {
  const content = Buffer.alloc(size);
  for (let i = 0; i < content.length; i += 4096) content[i] = (i / 4096) % period;
  return content;
}

/** alice's push of `files` as the first version of a new project: its plan and transaction. */
async function startFirstPush(files: Record<string, Buffer>) {
  const project = await newProject();
  const alice = await as('alice');
  const plan = entries(files);
  const started = await alice.post(pushUrl(project), {
    version: 'v0',
    changes: { added: plan.list, updated: [], removed: [] },
  });
  return { project, alice, plan, transaction: started.json().transaction as string };
}

const stagingDir = (tx: string) => path.join(t.config.dataDir, 'uploads', tx);

beforeAll(async () => {
  t = await createTestApp();
  ns = t.config.globalWorkspace;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'carol', 'dave', 'erin']) {
    people[username] = await insertUser(t.database.db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
});

afterAll(async () => {
  await t?.close();
});

describe('push, chunks and finish', () => {
  it('pushes nested files as v1, then an update and a removal as v2', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const big = Buffer.alloc(CHUNK_SIZE + 1000);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const files = {
      'notes.txt': 'field notes\n',
      'data/deep/nested/points.csv': 'x,y\n1,2\n',
      'photos/big.tif': big,
      'empty.txt': '',
    };
    const finish = await pushAll(alice, project, 'v0', { added: files });
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.headers['content-type']).toBe('application/json');
    const detail = finish.json();
    expect(detail.version).toBe('v1');
    expect(detail.uploads).toEqual([]);
    expect(detail.files.map((f: { path: string }) => f.path).sort()).toEqual(
      Object.keys(files).sort(),
    );
    for (const [file, content] of Object.entries(files)) {
      const response = await rawFile(alice, project, file);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(Buffer.from(content))).toBe(true);
    }
    expect(fs.existsSync(path.join(t.config.dataDir, 'uploads'))).toBe(true);
    expect(await fsp.readdir(path.join(t.config.dataDir, 'uploads'))).toEqual([]);
    expect(await uploadRows(project)).toEqual([]);

    const v2 = await pushAll(await as('bob'), project, 'v1', {
      updated: { 'notes.txt': 'field notes, revised\n' },
      removed: [{ path: 'empty.txt', size: 0, checksum: sha1(''), chunks: [] }],
    });
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json().version).toBe('v2');
    expect((await rawFile(alice, project, 'notes.txt')).body).toBe('field notes, revised\n');
    expect((await rawFile(alice, project, 'empty.txt')).statusCode).toBe(404);
  });

  it('makes a removal-only push a version at once', async () => {
    const project = await newProject();
    await commit(t, project.id, { added: { 'a.txt': 'a', 'b.txt': 'b' } });
    const response = await (
      await as('bob')
    ).post(pushUrl(project), {
      version: 'v1',
      changes: {
        added: [],
        updated: [],
        removed: [{ path: 'a.txt', size: 1, checksum: sha1('a') }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json();
    expect(detail.transaction).toBeUndefined();
    expect(detail.version).toBe('v2');
    expect(detail.files.map((f: { path: string }) => f.path)).toEqual(['b.txt']);
    expect(await uploadRows(project)).toEqual([]);
  });

  it('takes the same chunk twice and chunks out of order, and reports status', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const big = Buffer.alloc(CHUNK_SIZE + 10, 7);
    const plan = entries({ 'big.bin.txt': big, 'small.txt': 'small' });
    const start = await alice.post(pushUrl(project), {
      version: 'v0',
      changes: { added: plan.list, updated: [], removed: [] },
    });
    const { transaction } = start.json();
    const [first, second] = plan.list[0]!.chunks;
    // The last chunk first, then the first one twice.
    const last = await sendChunk(alice, transaction, second!, plan.bytes.get(second!)!);
    expect(last.json()).toEqual({ checksum: sha1(big.subarray(CHUNK_SIZE)), size: 10 });
    const once = await sendChunk(alice, transaction, first!, plan.bytes.get(first!)!);
    const twice = await sendChunk(alice, transaction, first!, plan.bytes.get(first!)!);
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual(once.json());
    expect(once.json()).toEqual({ checksum: sha1(plan.bytes.get(first!)!), size: CHUNK_SIZE });
    const rows = await t.database.db
      .select()
      .from(uploadChunks)
      .where(and(eq(uploadChunks.uploadId, transaction), eq(uploadChunks.chunkId, first!)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.writes).toBe(2);

    const status = await alice.get(`/v1/project/push/${transaction}`);
    expect(status.statusCode).toBe(200);
    const body = status.json();
    expect(body).toMatchObject({ transaction, project: project.id, version: 'v0' });
    expect(body.chunks_received.sort()).toEqual([first, second].sort());
    // The first chunk was written twice, the last one once; unsent chunks are not listed.
    expect(body.chunk_writes).toEqual({ [first!]: 2, [second!]: 1 });
    expect(body.files).toEqual([
      { path: 'big.bin.txt', size: big.length, chunks: [first, second], received: big.length },
      { path: 'small.txt', size: 5, chunks: plan.list[1]!.chunks, received: 0 },
    ]);
    expect(Date.parse(body.expires)).toBeGreaterThan(t.clock.ms);
    expect((await (await as('bob')).get(`/v1/project/push/${transaction}`)).statusCode).toBe(403);

    // Finishing with a chunk missing: 422, the upload stays.
    const missing = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: 'UploadError', files: ['small.txt'] });
    const small = plan.list[1]!.chunks[0]!;
    await sendChunk(alice, transaction, small, plan.bytes.get(small)!);
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    expect((await rawFile(alice, project, 'big.bin.txt')).rawPayload.equals(big)).toBe(true);
  });

  it('refuses a wrong checksum at finish, keeps the upload, and finishes after a re-send', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const plan = entries({ 'good.txt': 'good', 'bad.txt': 'the right bytes' });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    const [good, bad] = plan.list.map((e) => e.chunks[0]!);
    await sendChunk(alice, transaction, good!, plan.bytes.get(good!)!);
    await sendChunk(alice, transaction, bad!, Buffer.from('the wrong bytes'));
    const refused = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.json()).toMatchObject({ code: 'UploadError', files: ['bad.txt'] });
    expect(refused.json().detail).toMatch(/bad\.txt.*\(UploadError\)$/);
    expect(await versionCount(project)).toBe(1);
    expect(await uploadRows(project)).toHaveLength(1);

    // The refused file's chunks are forgotten, so a resuming client sends them again.
    const status = (await alice.get(`/v1/project/push/${transaction}`)).json();
    expect(status.chunks_received).toEqual([good]);

    await sendChunk(alice, transaction, bad!, plan.bytes.get(bad!)!);
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    expect((await rawFile(alice, project, 'bad.txt')).body).toBe('the right bytes');
  });

  it('hashes files while their chunks arrive, in any order, and starts over when bytes change', async () => {
    const content = patterned(2 * CHUNK_SIZE + 5, 251);
    const { project, alice, plan, transaction } = await startFirstPush({ 'big.bin': content });
    const [c0, c1, c2] = plan.list[0]!.chunks as [string, string, string];
    const digest = async () => digestNextChunk(transaction, 0);

    // A chunk must fill its place exactly: 10 MiB, or the rest of the file for the last one.
    const short = await sendChunk(alice, transaction, c1, Buffer.alloc(5));
    expect(short.statusCode).toBe(400);
    expect(problem(short).detail).toBe(
      `Chunk 2 of 'big.bin' must be ${CHUNK_SIZE} bytes, received 5`,
    );
    expect((await alice.get(`/v1/project/push/${transaction}`)).json().chunks_received).toEqual([]);

    await sendChunk(alice, transaction, c2, plan.bytes.get(c2)!);
    expect(await digest()).toBe(0);
    await sendChunk(alice, transaction, c0, plan.bytes.get(c0)!);
    expect(await digest()).toBe(1);
    expect(await digestSoFar(transaction, 0)).toBe(sha1(plan.bytes.get(c0)!));
    // Chunk 0 sent again with other bytes: the running SHA-1 starts over from them.
    await sendChunk(alice, transaction, c0, Buffer.alloc(CHUNK_SIZE, 1));
    expect(await digest()).toBe(1);
    expect(await digestSoFar(transaction, 0)).toBe(sha1(Buffer.alloc(CHUNK_SIZE, 1)));
    await sendChunk(alice, transaction, c1, plan.bytes.get(c1)!);
    expect(await digest()).toBe(3);
    const wrong = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'UploadError', files: ['big.bin'] });

    for (const chunk of [c1, c0, c2]) {
      expect((await sendChunk(alice, transaction, chunk, plan.bytes.get(chunk)!)).statusCode).toBe(
        200,
      );
    }
    expect(await digest()).toBe(3);
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    const raw = await rawFile(alice, project, 'big.bin');
    expect(raw.rawPayload.equals(content)).toBe(true);
    expect(fs.existsSync(stagingDir(transaction))).toBe(false);
  });

  it('follows the running SHA-1 from the bytes as they arrived, never reading them back', async () => {
    const content = patterned(2 * CHUNK_SIZE + 7, 241);
    const { alice, plan, transaction } = await startFirstPush({ 'held.bin': content });
    const [c0, c1, c2] = plan.list[0]!.chunks as [string, string, string];
    const heldBefore = heldByteCount();
    // Chunks 1 and 2 first: the running SHA-1 cannot take them yet, so their bytes are held.
    for (const chunk of [c1, c2]) {
      expect((await sendChunk(alice, transaction, chunk, plan.bytes.get(chunk)!)).statusCode).toBe(
        200,
      );
    }
    expect(heldByteCount() - heldBefore).toBe(CHUNK_SIZE + 7);
    // The staged file loses those bytes on disk: only the held ones can give the right SHA-1.
    await fsp.truncate(path.join(stagingDir(transaction), '0.part'), 0);
    await sendChunk(alice, transaction, c0, plan.bytes.get(c0)!);
    expect(digestNextChunk(transaction, 0)).toBe(3);
    expect(await digestSoFar(transaction, 0)).toBe(sha1(content));
    expect(heldByteCount()).toBe(heldBefore);
    await alice.post(`/v1/project/push/cancel/${transaction}`);
  });

  it('takes a long file four chunks at a time in any order and verifies its SHA-1 at finish', async () => {
    // Six chunks: more than the running SHA-1 may lag behind, so the first chunks are
    // answered before it covers them and the last ones wait for it.
    const project = await newProject();
    const alice = await as('alice');
    const content = Buffer.alloc(5 * CHUNK_SIZE + 3);
    for (let i = 0; i + 4 <= content.length; i += 512) content.writeUInt32LE(i, i);
    const plan = entries({ 'long.bin': content });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    const ids = plan.list[0]!.chunks;
    const order = [1, 0, 3, 2, 5, 4].map((index) => ids[index]!);
    const sending = [...order];
    const worker = async () => {
      for (let chunk = sending.shift(); chunk; chunk = sending.shift()) {
        const answer = await sendChunk(alice, transaction, chunk, plan.bytes.get(chunk)!);
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toEqual({
          checksum: sha1(plan.bytes.get(chunk)!),
          size: plan.bytes.get(chunk)!.length,
        });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().files).toMatchObject([
      { path: 'long.bin', size: content.length, checksum: sha1(content) },
    ]);
    const raw = await rawFile(alice, project, 'long.bin');
    expect(raw.rawPayload.equals(content)).toBe(true);
  });

  it('finishes from the staged bytes when the running SHA-1 is gone (a restart, another instance)', async () => {
    const content = patterned(2 * CHUNK_SIZE + 11, 239);
    const { project, alice, plan, transaction } = await startFirstPush({ 'gone.bin': content });
    for (const chunk of plan.list[0]!.chunks) {
      expect((await sendChunk(alice, transaction, chunk, plan.bytes.get(chunk)!)).statusCode).toBe(
        200,
      );
    }
    expect(digestNextChunk(transaction, 0)).toBe(3);
    // What a restart does to this process's memory: the running SHA-1 is lost.
    chunkChanged(transaction, 0, 0);
    expect(digestNextChunk(transaction, 0)).toBe(0);
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
    expect((await rawFile(alice, project, 'gone.bin')).rawPayload.equals(content)).toBe(true);
  });

  it('notices at finish a chunk that another instance received again with other bytes', async () => {
    const content = patterned(2 * CHUNK_SIZE + 13, 233);
    const { alice, plan, transaction } = await startFirstPush({ 'elsewhere.bin': content });
    const chunks = plan.list[0]!.chunks;
    for (const chunk of chunks) {
      expect((await sendChunk(alice, transaction, chunk, plan.bytes.get(chunk)!)).statusCode).toBe(
        200,
      );
    }
    expect(await digestSoFar(transaction, 0)).toBe(sha1(content));
    // Another instance (same staging, same database) takes chunk 1 again with other bytes:
    // this process's running SHA-1 covered the first bytes and is not told.
    const other = Buffer.alloc(CHUNK_SIZE, 9);
    const handle = await fsp.open(path.join(stagingDir(transaction), '0.part'), 'r+');
    await handle.write(other, 0, other.length, CHUNK_SIZE);
    await handle.close();
    await t.database.db
      .update(uploadChunks)
      .set({ sha1: sha1(other), sha256: createHash('sha256').update(other).digest('hex') })
      .where(and(eq(uploadChunks.uploadId, transaction), eq(uploadChunks.chunkId, chunks[1]!)));
    const refused = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'UploadError', files: ['elsewhere.bin'] });
    await alice.post(`/v1/project/push/cancel/${transaction}`);
  });

  it('refuses too large chunks, unknown chunks and unknown transactions', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const plan = entries({ 'a.txt': 'a' });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    const chunk = plan.list[0]!.chunks[0]!;
    const tooBig = await sendChunk(alice, transaction, chunk, Buffer.alloc(CHUNK_SIZE + 1));
    expect(tooBig.statusCode).toBe(400);
    expect(problem(tooBig).detail).toBe(
      'Chunk size exceeds maximum allowed size 10.0 MB (BigChunkError)',
    );
    const unknownChunk = await sendChunk(alice, transaction, 'nope', Buffer.from('a'));
    expect(unknownChunk.statusCode).toBe(404);
    expect(problem(unknownChunk).detail).toBe('Chunk nope is not part of this upload');
    for (const tx of [randomUUID(), 'not-a-uuid']) {
      expect((await sendChunk(alice, tx, chunk, Buffer.from('a'))).statusCode).toBe(404);
      expect((await alice.post(`/v1/project/push/finish/${tx}`)).statusCode).toBe(404);
      expect((await alice.post(`/v1/project/push/cancel/${tx}`)).statusCode).toBe(404);
    }
    // Any content type, or none, is taken as raw bytes.
    const plain = await alice.request('POST', `/v1/project/push/chunk/${transaction}/${chunk}`, {
      payload: 'a',
      headers: { 'content-type': 'application/json' },
    });
    expect(plain.json()).toEqual({ checksum: sha1('a'), size: 1 });
  });
});

describe('push start checks', () => {
  it('checks versions, changes and names in the reference order', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const start = (version: string, changes: object) =>
      alice.post(pushUrl(project), {
        version,
        changes: { added: [], updated: [], removed: [], ...changes },
      });
    const one = entries({ 'a.txt': 'a' }).list;
    const detail = async (response: Awaited<ReturnType<typeof start>>) => {
      expect(response.statusCode, response.body).toBe(400);
      return problem(response).detail;
    };
    expect(await detail(await start('v3', { added: one }))).toBe('Version mismatch');
    expect(await detail(await start('v0', {}))).toBe('No changes');
    expect(await detail(await start('v0', { added: one, removed: one }))).toBe(
      'Not unique changes',
    );
    const bad = ['../x.txt', '/abs.txt', 'a\\b.txt', 'nul\u0000.txt', `${'x'.repeat(252)}yz.txt`];
    for (const name of bad) {
      expect(await detail(await start('v0', { added: entries({ [name]: 'x' }).list }))).toBe(
        `Unsupported file name detected: '${name}'. Please remove the invalid characters.`,
      );
    }
    for (const name of ['README', 'run.exe', 'dir/script.sh']) {
      expect(await detail(await start('v0', { added: entries({ [name]: 'x' }).list }))).toBe(
        `Unsupported file type detected: '${name}'. Please remove the file or try compressing it into a ZIP file before uploading.`,
      );
    }
    expect(await uploadRows(project)).toEqual([]);
    expect(fs.existsSync(path.join(t.config.dataDir, '..', 'x.txt'))).toBe(false);

    // Blacklisted names are dropped silently.
    const ok = await start('v0', {
      added: entries({ 'keep.txt': 'k', '.DS_Store': 'x', '.mergin/state.json': '{}' }).list,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const status = await alice.get(`/v1/project/push/${ok.json().transaction}`);
    expect(status.json().files.map((f: { path: string }) => f.path)).toEqual(['keep.txt']);
    expect(status.json()).toMatchObject({ chunks_received: [], chunk_writes: {} });
    await alice.post(`/v1/project/push/cancel/${ok.json().transaction}`);

    await commit(t, project.id, { added: { 'a.txt': 'a' } });
    expect(await detail(await start('v1', { added: one }))).toBe(
      'File a.txt has been already uploaded',
    );
  });

  it('refuses pushes over the storage limit', async () => {
    const project = await newProject();
    const db = t.database.db;
    const [ws] = await db.select().from(workspaces).where(eq(workspaces.id, t.setup.workspaceId));
    await db.update(workspaces).set({ storage: 100 }).where(eq(workspaces.id, ws!.id));
    try {
      const response = await (
        await as('alice')
      ).post(pushUrl(project), {
        version: 'v0',
        changes: { added: entries({ 'a.txt': 'x'.repeat(200) }).list, updated: [], removed: [] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'StorageLimitHit',
        detail: 'You have reached a data limit (StorageLimitHit)',
        storage_limit: 100,
      });
    } finally {
      await db.update(workspaces).set({ storage: ws!.storage }).where(eq(workspaces.id, ws!.id));
    }
  });

  it('refuses readers, anonymous visitors, other users and cookie sessions without CSRF', async () => {
    const project = await newProject();
    const body = {
      version: 'v0',
      changes: { added: entries({ 'a.txt': 'a' }).list, updated: [], removed: [] },
    };
    const reader = await (await as('carol')).post(pushUrl(project), body);
    expect(reader.statusCode).toBe(403);
    const anonymous = await t.client().post(pushUrl(project), body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toBe('Authentication information is missing or invalid.');
    const noCsrf = await (await as('alice')).post(pushUrl(project), body, { csrf: false });
    expect(noCsrf.statusCode).toBe(400);
    expect(await uploadRows(project)).toEqual([]);

    const alice = await as('alice');
    const plan = entries({ 'a.txt': 'a' });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    const bob = await as('bob');
    const chunk = plan.list[0]!.chunks[0]!;
    for (const response of [
      await sendChunk(bob, transaction, chunk, Buffer.from('a')),
      await bob.post(`/v1/project/push/finish/${transaction}`),
      await bob.post(`/v1/project/push/cancel/${transaction}`),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(problem(response).detail).toBe('You do not have permissions for ongoing upload');
    }
    const noCsrfChunk = await alice.request(
      'POST',
      `/v1/project/push/chunk/${transaction}/${chunk}`,
      {
        payload: 'a',
        csrf: false,
      },
    );
    expect(noCsrfChunk.statusCode).toBe(400);

    const cancel = await alice.post(`/v1/project/push/cancel/${transaction}`);
    expect(cancel.statusCode).toBe(200);
    expect(await uploadRows(project)).toEqual([]);
    expect(fs.existsSync(stagingDir(transaction))).toBe(false);
    expect((await alice.post(`/v1/project/push/finish/${transaction}`)).statusCode).toBe(404);
  });
});

describe('the push lock', () => {
  it('lets exactly one of two pushes on the same base version make a version', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const bob = await as('bob');
    const body = (content: string) => ({
      version: 'v0',
      changes: { added: entries({ 'same.txt': content }).list, updated: [], removed: [] },
    });
    const [a, b] = await Promise.all([
      alice.post(pushUrl(project), body('alice')),
      bob.post(pushUrl(project), body('bob')),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 400]);
    const loser = a.statusCode === 400 ? a : b;
    expect(problem(loser).detail).toBe('Another process is running. Please try later.');

    const third = await (await as('dave')).post(pushUrl(project), body('dave'));
    expect(problem(third).detail).toBe('Another process is running. Please try later.');

    // The winner finishes; the loser's retry is then behind.
    const [winnerClient, winnerContent] = a.statusCode === 200 ? [alice, 'alice'] : [bob, 'bob'];
    const winner = a.statusCode === 200 ? a : b;
    const tx = winner.json().transaction as string;
    const chunk = (await winnerClient.get(`/v1/project/push/${tx}`)).json().files[0].chunks[0];
    await sendChunk(winnerClient, tx, chunk, Buffer.from(winnerContent));
    expect((await winnerClient.post(`/v1/project/push/finish/${tx}`)).statusCode).toBe(200);
    const retry = await (winnerClient === alice ? bob : alice).post(pushUrl(project), body('late'));
    expect(problem(retry).detail).toBe('Version mismatch');
    expect(await versionCount(project)).toBe(2);
  });

  it('loses a finish to a version made meanwhile, keeping nothing', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const plan = entries({ 'a.txt': 'a' });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    await sendChunk(alice, transaction, plan.list[0]!.chunks[0]!, Buffer.from('a'));
    await commit(t, project.id, { added: { 'other.txt': 'o' } });
    const finish = await alice.post(`/v1/project/push/finish/${transaction}`);
    expect(finish.statusCode).toBe(400);
    expect(problem(finish).detail).toBe('Version mismatch');
    expect(await versionCount(project)).toBe(2);
    expect(await uploadRows(project)).toEqual([]);
    expect(fs.existsSync(stagingDir(transaction))).toBe(false);
  });

  it('is taken over after five minutes without requests', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const dave = await as('dave');
    const body = () => ({
      version: 'v0',
      changes: { added: entries({ 'a.txt': 'a' }).list, updated: [], removed: [] },
    });
    const first = await alice.post(pushUrl(project), body());
    const oldTx = first.json().transaction as string;
    t.clock.advance(LOCK_EXPIRATION_MS - 1000);
    expect((await dave.post(pushUrl(project), body())).statusCode).toBe(400);
    t.clock.advance(2000);
    const second = await dave.post(pushUrl(project), body());
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().transaction).not.toBe(oldTx);
    expect((await alice.post(`/v1/project/push/finish/${oldTx}`)).statusCode).toBe(404);
    expect((await uploadRows(project)).map((u) => u.userId)).toEqual([people.dave!.id]);
  });
});

describe('the upload cleanup job', () => {
  it('removes uploads idle for a day and staging folders without an upload', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const plan = entries({ 'a.txt': 'a' });
    const { transaction } = (
      await alice.post(pushUrl(project), {
        version: 'v0',
        changes: { added: plan.list, updated: [], removed: [] },
      })
    ).json();
    await sendChunk(alice, transaction, plan.list[0]!.chunks[0]!, Buffer.from('a'));
    const orphan = randomUUID();
    await fsp.mkdir(stagingDir(orphan), { recursive: true });

    const early = await cleanupUploads(t.app.ctx);
    expect(early.folders).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(stagingDir(orphan))).toBe(false);
    expect(fs.existsSync(stagingDir(transaction))).toBe(true);

    t.clock.advance(24 * 3600 * 1000 + 1000);
    const result = await cleanupUploads(t.app.ctx);
    expect(result.uploads).toBeGreaterThanOrEqual(1);
    expect(await uploadRows(project)).toEqual([]);
    expect(fs.existsSync(stagingDir(transaction))).toBe(false);
  });
});
