/**
 * Faults during finish: the blob store or the database failing midway leaves no partial
 * version and keeps the upload, so the client's retry (on any instance) completes it; a
 * full disk or bucket answers 507 with a clear detail and loses nothing already stored.
 * (faults-kill.test.ts kills a real server process mid-finish.)
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, projectVersions, uploads, type User } from '../../server/src/db/schema';
import {
  STORAGE_FULL_TEXT,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PutOptions,
} from '../../server/src/storage/blob-store';
import { openBlobStore } from '../../server/src/storage/open-blob-store';
import type { ReadProgress } from '../../server/src/storage/read-into';
import type { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { startInstance, type Instance } from './support/instances';
import { finishPush, plan, rawFile, sendChunk, startPush } from './support/push-client';
import { commit, createProject } from './support/seed';
import { startS3, type TestS3 } from './support/s3-server';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Password-1';

type Method = 'put' | 'adopt' | 'stat';

/** The real store, with failures armed per method: the nth next call throws `error`. */
class FaultyStore implements BlobStore {
  private armed: { method: Method; after: number; error: Error } | null = null;
  failures = 0;

  constructor(private readonly inner: BlobStore) {}

  /** Calls of `method` fail with `error` once `after` more calls have passed. */
  failOn(method: Method, error: Error, after = 0): void {
    this.armed = { method, after, error };
  }

  private check(method: Method): void {
    const armed = this.armed;
    if (!armed || armed.method !== method) return;
    if (armed.after > 0) {
      armed.after--;
      return;
    }
    this.armed = null;
    this.failures++;
    throw armed.error;
  }

  async put(source: AsyncIterable<Uint8Array> | Readable, options?: PutOptions) {
    this.check('put');
    return this.inner.put(source, options);
  }
  async adopt(file: string, info: BlobInfo) {
    this.check('adopt');
    return this.inner.adopt(file, info);
  }
  async stat(key: string) {
    this.check('stat');
    return this.inner.stat(key);
  }
  checkAccess() {
    return this.inner.checkAccess();
  }
  readInto(key: string, into: Uint8Array, size: number, progress: ReadProgress) {
    return this.inner.readInto(key, into, size, progress);
  }
  has(key: string) {
    return this.inner.has(key);
  }
  open(key: string, range?: ByteRange) {
    return this.inner.open(key, range);
  }
  read(key: string) {
    return this.inner.read(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  sweepTemp(maxAgeMs: number, now?: number) {
    return this.inner.sweepTemp(maxAgeMs, now);
  }
  /** The real store's staging, placing files through this store (so its faults apply). */
  openStaging() {
    return this.inner.openStaging(this);
  }
}

let t: TestApp;
/** An instance whose blob store fails on demand, beside the healthy test app. */
let a: Instance;
let faulty: FaultyStore;
let alice: User;
let count = 0;

beforeAll(async () => {
  t = await createTestApp();
  faulty = new FaultyStore(openBlobStore(t.config));
  a = await startInstance(t, { blobStore: faulty });
  alice = await insertUser(t.database.db, {
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
});

afterAll(async () => {
  await a?.close();
  await t?.close();
});

async function newProject(): Promise<{ id: string; path: string }> {
  const project = await createProject(t, { name: `p${++count}`, creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: alice.id, role: 'owner' });
  return { id: project.id, path: `${t.config.globalWorkspace}/${project.name}` };
}

async function versions(projectId: string): Promise<number[]> {
  const rows = await t.database.db
    .select({ name: projectVersions.name })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId));
  return rows.map((r) => r.name).sort((x, y) => x - y);
}

/** Alice on the faulty instance and on the healthy one, and a started push with all chunks. */
async function stagedPush(
  project: string,
  version: string,
  files: Record<string, Buffer | string>,
) {
  const healthy = t.client();
  await healthy.login('alice', PASSWORD);
  const onFaulty: TestClient = a.client(healthy);
  const p = plan(files);
  const start = await startPush(onFaulty, project, version, { added: p.list });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [id, bytes] of p.chunks) {
    expect((await sendChunk(onFaulty, transaction, id, bytes)).statusCode).toBe(200);
  }
  return { healthy, onFaulty, transaction };
}

describe('a finish that fails midway', () => {
  it('leaves no partial version when the blob store fails between files, and the retry on another instance completes it', async () => {
    const project = await newProject();
    const big = randomBytes(CHUNK_SIZE + 4096);
    const { healthy, onFaulty, transaction } = await stagedPush(project.path, 'v0', {
      'big.tif': big,
      'notes.txt': 'field notes\n',
    });
    faulty.failOn('adopt', new Error('EIO: i/o error, rename'), 1);
    const failed = await finishPush(onFaulty, transaction);
    expect(failed.statusCode).toBe(500);
    expect(faulty.failures).toBe(1);
    expect(await versions(project.id)).toEqual([0]);
    const files = (await healthy.get(`/v1/project/${project.path}`)).json().files;
    expect(files).toEqual([]);
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.id, transaction));
    expect(row?.status).toBe('open');

    const retry = await finishPush(healthy, transaction);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().version).toBe('v1');
    expect(await versions(project.id)).toEqual([0, 1]);
    expect((await rawFile(healthy, project.path, 'big.tif')).rawPayload.equals(big)).toBe(true);
    expect((await rawFile(healthy, project.path, 'notes.txt')).body).toBe('field notes\n');
  });

  it('rolls back a version whose transaction fails, keeps the upload, and the retry completes it', async () => {
    const project = await newProject();
    const { healthy, onFaulty, transaction } = await stagedPush(project.path, 'v0', {
      'a.txt': 'alpha',
      'b.txt': 'beta',
    });
    // commitVersion checks each blob inside the version's database transaction.
    faulty.failOn('stat', new Error('Connection terminated unexpectedly'), 1);
    const failed = await finishPush(onFaulty, transaction);
    expect(failed.statusCode).toBe(500);
    expect(faulty.failures).toBeGreaterThan(0);
    expect(await versions(project.id)).toEqual([0]);
    expect((await healthy.get(`/v1/project/push/${transaction}`)).statusCode).toBe(200);

    const retry = await finishPush(onFaulty, transaction);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await versions(project.id)).toEqual([0, 1]);
    expect((await rawFile(healthy, project.path, 'b.txt')).body).toBe('beta');
  });
});

describe('a full disk', () => {
  it('answers 507 with a clear detail, loses nothing stored, and the retry completes once space is free', async () => {
    const project = await newProject();
    await commit(t, project.id, { added: { 'kept.txt': 'stored before' } });
    const { healthy, onFaulty, transaction } = await stagedPush(project.path, 'v1', {
      'new.txt': 'new bytes',
    });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
    });
    faulty.failOn('adopt', full);
    const response = await finishPush(onFaulty, transaction);
    expect(response.statusCode).toBe(507);
    expect(problem(response)).toMatchObject({
      status: 507,
      title: 'Insufficient Storage',
      detail: STORAGE_FULL_TEXT,
    });
    expect(await versions(project.id)).toEqual([0, 1]);
    expect((await rawFile(healthy, project.path, 'kept.txt')).body).toBe('stored before');

    const retry = await finishPush(onFaulty, transaction);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await versions(project.id)).toEqual([0, 1, 2]);
    expect((await rawFile(healthy, project.path, 'new.txt')).body).toBe('new bytes');
    expect((await rawFile(healthy, project.path, 'kept.txt')).body).toBe('stored before');
  });
});

describe('a full bucket', () => {
  let s3: TestS3;
  let st: TestApp;
  /** Commands that fail, by name (the S3 client's own middleware stack injects the fault). */
  const failing = new Set<string>();

  beforeAll(async () => {
    s3 = await startS3();
    st = await createTestApp({ env: s3.env(await s3.createBucket()) });
    const store = st.app.ctx.blobStore as S3BlobStore;
    store.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (failing.has(context.commandName ?? '')) {
          throw Object.assign(
            new Error('Storage backend has reached its minimum free drive threshold.'),
            {
              name: 'XMinioStorageFull',
            },
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'testFaults' },
    );
  });

  afterAll(async () => {
    await st?.close();
    await s3?.close();
  });

  it('answers 507 for chunks and finish, keeps what is stored, and completes once space is free', async () => {
    const project = await createProject(st, { name: 'full', creatorId: 1 });
    await commit(st, project.id, { added: { 'kept.txt': 'stored before' } });
    const path = `${st.config.globalWorkspace}/full`;
    const client = st.client();
    await client.login('admin', ADMIN_PASSWORD);
    const big = randomBytes(CHUNK_SIZE + 10);
    const files = plan({ 'big.bin': big });
    const start = await startPush(client, path, 'v1', { added: files.list });
    expect(start.statusCode, start.body).toBe(200);
    const { transaction } = start.json() as { transaction: string };
    const [[first, firstBytes], [second, secondBytes]] = files.chunks as [
      [string, Buffer],
      [string, Buffer],
    ];

    failing.add('PutObjectCommand');
    const refused = await sendChunk(client, transaction, first, firstBytes);
    expect(refused.statusCode).toBe(507);
    expect(problem(refused).detail).toBe(STORAGE_FULL_TEXT);
    const status = (await client.get(`/v1/project/push/${transaction}`)).json();
    expect(status.chunks_received).toEqual([]);
    failing.clear();
    for (const [id, bytes] of [
      [first, firstBytes],
      [second, secondBytes],
    ] as const) {
      expect((await sendChunk(client, transaction, id, bytes)).statusCode).toBe(200);
    }

    // Assembling the file under its key fails too.
    failing.add('CreateMultipartUploadCommand');
    const finish = await finishPush(client, transaction);
    expect(finish.statusCode).toBe(507);
    expect(problem(finish).detail).toBe(STORAGE_FULL_TEXT);
    expect((await rawFile(client, path, 'kept.txt')).body).toBe('stored before');
    failing.clear();

    const retry = await finishPush(client, transaction);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().version).toBe('v2');
    expect((await rawFile(client, path, 'big.bin')).rawPayload.equals(big)).toBe(true);
    expect((await rawFile(client, path, 'kept.txt')).body).toBe('stored before');
  });
});
