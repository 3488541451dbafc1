/**
 * Several server instances on one database and one blob store (the local folder on a shared
 * disk, and an S3 bucket with no disk shared at all): nothing that matters lives in one
 * instance's memory or on its own disk. A push whose
 * chunks alternate between instances makes one correct version, jobs due on every instance
 * run once, and two pushes on the same base version through two instances make one version.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, projectVersions, type User } from '../../server/src/db/schema';
import {
  BLOB_TEMP_JOB,
  PURGE_JOB,
  Scheduler,
  UPLOAD_CLEANUP_JOB,
  type JobOutcome,
} from '../../server/src/jobs/scheduler';
import { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { S3UploadStaging } from '../../server/src/storage/s3-upload-staging';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { startInstance, type Instance } from './support/instances';
import { finishPush, plan, rawFile, sendChunk, sha1, startPush } from './support/push-client';
import { startS3, type TestS3 } from './support/s3-server';
import { createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let s3: TestS3;

beforeAll(async () => {
  s3 = await startS3();
});

afterAll(async () => {
  await s3?.close();
});

describe.each(['local', 's3'] as const)('two instances on one %s blob store', (kind) => {
  let t: TestApp;
  let b: Instance;
  let alice: User;
  let bob: User;
  let count = 0;
  let otherDir: string;

  beforeAll(async () => {
    t = await createTestApp({ env: kind === 's3' ? s3.env(await s3.createBucket()) : {} });
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-instance-b-'));
    b = await startInstance(t, kind === 's3' ? { dataDir: otherDir } : {});
    const passwordHash = await hashPassword(PASSWORD);
    alice = await insertUser(t.database.db, {
      username: 'alice',
      email: 'alice@example.com',
      passwordHash,
      verifiedEmail: true,
    });
    bob = await insertUser(t.database.db, {
      username: 'bob',
      email: 'bob@example.com',
      passwordHash,
      verifiedEmail: true,
    });
  });

  afterAll(async () => {
    await b?.close();
    await t?.close();
    fs.rmSync(otherDir, { recursive: true, force: true });
  });

  async function newProject(): Promise<string> {
    const project = await createProject(t, { name: `p${++count}`, creatorId: alice.id });
    await t.database.db.insert(projectMembers).values([
      { projectId: project.id, userId: alice.id, role: 'owner' },
      { projectId: project.id, userId: bob.id, role: 'writer' },
    ]);
    return `${t.config.globalWorkspace}/${project.name}`;
  }

  async function login(username: string): Promise<TestClient> {
    const client = t.client();
    await client.login(username, PASSWORD);
    return client;
  }

  async function versions(project: string): Promise<number[]> {
    const name = project.split('/')[1]!;
    const detail = (await (await login('alice')).get(`/v1/project/${project}`)).json();
    expect(detail.name).toBe(name);
    const rows = await t.database.db
      .select({ name: projectVersions.name })
      .from(projectVersions)
      .where(eq(projectVersions.projectId, detail.id));
    return rows.map((r) => r.name).sort((x, y) => x - y);
  }

  async function staged(): Promise<string[]> {
    if (kind === 'local') {
      const dir = path.join(t.config.dataDir, 'uploads');
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    }
    return new S3UploadStaging(t.app.ctx.blobStore as S3BlobStore).list();
  }

  it('uses the configured store', () => {
    expect(t.app.ctx.blobStore instanceof S3BlobStore).toBe(kind === 's3');
    expect(b.app.ctx.blobStore instanceof S3BlobStore).toBe(kind === 's3');
  });

  it('makes one correct version from chunks that alternate between the instances', async () => {
    const project = await newProject();
    const onA = await login('alice');
    const onB = b.client(onA);
    const big = randomBytes(2 * CHUNK_SIZE + 12345);
    const files = plan({ 'maps/big.tif': big, 'notes.txt': 'field notes\n' });
    const start = await startPush(onA, project, 'v0', { added: files.list });
    expect(start.statusCode, start.body).toBe(200);
    const { transaction } = start.json() as { transaction: string };

    // Chunks in a shuffled order, every other one on the other instance.
    const order = [2, 0, 3, 1];
    for (const [n, index] of order.entries()) {
      const [id, bytes] = files.chunks[index]!;
      const response = await sendChunk(n % 2 === 0 ? onB : onA, transaction, id, bytes);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ checksum: sha1(bytes), size: bytes.length });
    }
    const status = (await onA.get(`/v1/project/push/${transaction}`)).json();
    expect(status.chunks_received.sort()).toEqual(files.chunks.map(([id]) => id).sort());

    const finish = await finishPush(onB, transaction);
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().version).toBe('v1');
    expect(await versions(project)).toEqual([0, 1]);
    expect(await staged()).toEqual([]);
    if (kind === 's3') {
      // Nothing of the push touched either instance's disk.
      for (const dir of [t.config.dataDir, otherDir]) {
        expect(fs.existsSync(path.join(dir, 'uploads'))).toBe(false);
        expect(fs.existsSync(path.join(dir, 'blobs'))).toBe(false);
      }
    }

    for (const client of [onA, onB]) {
      const whole = await rawFile(client, project, 'maps/big.tif');
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(big)).toBe(true);
      const from = CHUNK_SIZE - 100;
      const part = await rawFile(client, project, 'maps/big.tif', `bytes=${from}-${from + 199}`);
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(big.subarray(from, from + 200))).toBe(true);
      expect((await rawFile(client, project, 'notes.txt')).body).toBe('field notes\n');
    }
  });

  it('gives exactly one new version to two pushes on the same base version', async () => {
    const project = await newProject();
    const onA = await login('alice');
    const onB = b.client(await login('bob'));
    const pushes = [
      startPush(onA, project, 'v0', { added: plan({ 'a.txt': 'from alice' }).list }),
      startPush(onB, project, 'v0', { added: plan({ 'b.txt': 'from bob' }).list }),
    ];
    const [first, second] = await Promise.all(pushes);
    const won = [first!, second!].filter((r) => r.statusCode === 200);
    const lost = [first!, second!].filter((r) => r.statusCode !== 200);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(problem(lost[0]!).detail).toBe('Another process is running. Please try later.');

    const winner = won[0] === first ? onA : onB;
    const loser = winner === onA ? onB : onA;
    const content = winner === onA ? 'from alice' : 'from bob';
    const file = winner === onA ? 'a.txt' : 'b.txt';
    const { transaction } = won[0]!.json() as { transaction: string };
    const status = (await winner.get(`/v1/project/push/${transaction}`)).json();
    const chunkId = status.files[0].chunks[0] as string;
    expect((await sendChunk(loser, transaction, chunkId, Buffer.from(content))).statusCode).toBe(
      403,
    );
    expect((await sendChunk(winner, transaction, chunkId, Buffer.from(content))).statusCode).toBe(
      200,
    );
    expect((await finishPush(winner, transaction)).statusCode).toBe(200);
    // The other push, still on v0, is now out of date.
    const late = await startPush(loser, project, 'v0', {
      added: plan({ 'c.txt': 'late' }).list,
    });
    expect(problem(late).detail).toBe('Version mismatch');
    expect(await versions(project)).toEqual([0, 1]);
    expect((await rawFile(loser, project, file)).body).toBe(content);
  });

  it('runs a job due on both instances once', async () => {
    t.clock.advance(2 * 3600 * 1000);
    const outcomes = await Promise.all([t.app.scheduler.runDue(), b.app.scheduler.runDue()]);
    for (const job of [PURGE_JOB, UPLOAD_CLEANUP_JOB, BLOB_TEMP_JOB]) {
      expect(outcomes.map((o) => o[job]).sort()).toEqual(['ran', 'skipped']);
    }

    let runs = 0;
    const job = {
      name: `count-${kind}`,
      intervalMs: 3600 * 1000,
      leaseMs: 3600 * 1000,
      run: async () => {
        runs++;
      },
    };
    const schedulers = [new Scheduler(t.app.ctx, [job]), new Scheduler(b.app.ctx, [job])];
    const results: Record<string, JobOutcome>[] = await Promise.all(
      schedulers.map((s) => s.runDue()),
    );
    expect(runs).toBe(1);
    expect(results.map((r) => r[job.name]).sort()).toEqual(['ran', 'skipped']);
    expect(await Promise.all(schedulers.map((s) => s.runDue()))).toEqual([
      { [job.name]: 'skipped' },
      { [job.name]: 'skipped' },
    ]);
    expect(runs).toBe(1);
  });
});
