/**
 * The v2 push on several instances (one database, one blob store: the local folder on a
 * shared disk, and an S3 bucket with no disk shared at all): chunks sent to one instance make
 * a version through a push sent to another, and the scheduler's sweep removes chunks a day
 * after they arrived (rows and bytes) on one instance only, keeping fresh ones.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, projectVersions, v2Chunks, type User } from '../../server/src/db/schema';
import { defaultJobs, Scheduler, UPLOAD_CLEANUP_JOB } from '../../server/src/jobs/scheduler';
import { CHUNK_TTL_MS } from '../../server/src/storage/chunk-store';
import { stagingOf } from '../../server/src/storage/staging';
import { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { startInstance, type Instance } from './support/instances';
import { rawFile, sha1 } from './support/push-client';
import { startS3, type TestS3 } from './support/s3-server';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let s3: TestS3;

beforeAll(async () => {
  s3 = await startS3();
});

afterAll(async () => {
  await s3?.close();
});

describe.each(['local', 's3'] as const)('v2 push on two instances, %s blob store', (kind) => {
  let t: TestApp;
  let b: Instance;
  let alice: User;
  let count = 0;
  let otherDir: string;

  beforeAll(async () => {
    t = await createTestApp({ env: kind === 's3' ? s3.env(await s3.createBucket()) : {} });
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-instance-b-'));
    b = await startInstance(t, kind === 's3' ? { dataDir: otherDir } : {});
    alice = await insertUser(t.database.db, {
      username: 'alice',
      email: 'alice@example.com',
      passwordHash: await hashPassword(PASSWORD),
      verifiedEmail: true,
    });
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
    fs.rmSync(otherDir, { recursive: true, force: true });
  });

  async function newProject(): Promise<{ id: string; path: string }> {
    const project = await createProject(t, { name: `v2-${++count}`, creatorId: alice.id });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: project.id, userId: alice.id, role: 'owner' });
    return { id: project.id, path: `${t.config.globalWorkspace}/${project.name}` };
  }

  async function login(): Promise<TestClient> {
    const client = t.client();
    await client.login('alice', PASSWORD);
    return client;
  }

  async function sendChunk(client: TestClient, projectId: string, bytes: Buffer): Promise<string> {
    const response = await client.request('POST', `/v2/projects/${projectId}/chunks`, {
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { id: string }).id;
  }

  /** Chunk ids (and transactions) that have staged bytes: the push's one staging. */
  const storedChunks = async () => (await stagingOf(t.app.ctx.blobStore).list()).sort();

  async function chunkRows(ids: string[]) {
    return t.database.db.select().from(v2Chunks).where(inArray(v2Chunks.id, ids));
  }

  it('uses the configured store', () => {
    expect(t.app.ctx.blobStore instanceof S3BlobStore).toBe(kind === 's3');
    expect(b.app.ctx.blobStore instanceof S3BlobStore).toBe(kind === 's3');
  });

  it('makes one correct version from chunks sent to A and a push sent to B', async () => {
    const project = await newProject();
    const onA = await login();
    const onB = b.client(onA);
    const big = randomBytes(CHUNK_SIZE + 4321);
    const notes = Buffer.from('field notes\n');
    const bigChunks = [
      await sendChunk(onA, project.id, big.subarray(0, CHUNK_SIZE)),
      await sendChunk(onA, project.id, big.subarray(CHUNK_SIZE)),
    ];
    const notesChunk = await sendChunk(onA, project.id, notes);
    const ids = [...bigChunks, notesChunk];
    expect((await chunkRows(ids)).map((r) => [r.id, r.projectId, r.size, r.sha1]).sort()).toEqual(
      [
        [bigChunks[0], project.id, CHUNK_SIZE, sha1(big.subarray(0, CHUNK_SIZE))],
        [bigChunks[1], project.id, 4321, sha1(big.subarray(CHUNK_SIZE))],
        [notesChunk, project.id, notes.length, sha1(notes)],
      ].sort(),
    );
    if (kind === 's3') {
      // No chunk touched either instance's disk.
      for (const dir of [t.config.dataDir, otherDir]) {
        expect(fs.existsSync(path.join(dir, 'v2-chunks'))).toBe(false);
      }
    }

    const response = await onB.post(`/v2/projects/${project.id}/versions`, {
      version: 'v0',
      changes: {
        added: [
          { path: 'maps/big.tif', size: big.length, checksum: sha1(big), chunks: bigChunks },
          { path: 'notes.txt', size: notes.length, checksum: sha1(notes), chunks: [notesChunk] },
        ],
        updated: [],
        removed: [],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().version).toBe('v1');
    const versions = await t.database.db
      .select({ name: projectVersions.name })
      .from(projectVersions)
      .where(eq(projectVersions.projectId, project.id));
    expect(versions.map((v) => v.name).sort()).toEqual([0, 1]);

    for (const client of [onA, onB]) {
      const whole = await rawFile(client, project.path, 'maps/big.tif');
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(big)).toBe(true);
      expect((await rawFile(client, project.path, 'notes.txt')).body).toBe('field notes\n');
    }
    // Used chunks are gone: rows and bytes.
    expect(await chunkRows(ids)).toEqual([]);
    expect((await storedChunks()).filter((id) => ids.includes(id))).toEqual([]);
  });

  it('sweeps chunks a day old on one instance, keeping fresh ones', async () => {
    const project = await newProject();
    const old = await sendChunk(await login(), project.id, Buffer.from('old chunk'));
    t.clock.advance(CHUNK_TTL_MS - 60 * 1000);
    const onB = b.client(await login());
    const fresh = await sendChunk(onB, project.id, Buffer.from('fresh chunk'));
    // Bytes without a row (a process killed between the two): removed too.
    const orphan = '00000000-0000-4000-8000-000000000001';
    await stagingOf(b.app.ctx.blobStore).writeChunk(
      orphan,
      0,
      0,
      (async function* () {
        yield Buffer.from('orphan');
      })(),
      { limit: CHUNK_SIZE, truncate: true },
    );
    expect(await storedChunks()).toEqual(expect.arrayContaining([old, fresh, orphan]));
    t.clock.advance(2 * 60 * 1000);

    const job = defaultJobs().find((j) => j.name === UPLOAD_CLEANUP_JOB)!;
    const schedulers = [new Scheduler(t.app.ctx, [job]), new Scheduler(b.app.ctx, [job])];
    const outcomes = await Promise.all(schedulers.map((s) => s.runDue()));
    expect(outcomes.map((o) => o[UPLOAD_CLEANUP_JOB]).sort()).toEqual(['ran', 'skipped']);

    expect((await chunkRows([old, fresh])).map((r) => r.id)).toEqual([fresh]);
    const stored = await storedChunks();
    expect(stored).toContain(fresh);
    expect(stored).not.toContain(old);
    expect(stored).not.toContain(orphan);

    // The fresh chunk still makes a file.
    const bytes = Buffer.from('fresh chunk');
    const response = await onB.post(`/v2/projects/${project.id}/versions`, {
      version: 'v0',
      changes: {
        added: [{ path: 'fresh.txt', size: bytes.length, checksum: sha1(bytes), chunks: [fresh] }],
        updated: [],
        removed: [],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect((await rawFile(onB, project.path, 'fresh.txt')).body).toBe('fresh chunk');
  });
});
