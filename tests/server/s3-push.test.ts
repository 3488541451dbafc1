/**
 * Pushes and downloads through the S3 store (s3rver, started by the test): chunks staged as
 * objects in the bucket, finish assembling each file under its content key, ranges read
 * with GetObject Range, and nothing left in staging after finish, cancel or the cleanup job.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, type User } from '../../server/src/db/schema';
import { cleanupUploads } from '../../server/src/services/push';
import { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { finishPush, plan, rawFile, sendChunk, sha1, startPush } from './support/push-client';
import { startS3, type TestS3 } from './support/s3-server';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let s3: TestS3;
let t: TestApp;
let bucket: string;
let alice: User;
let client: TestClient;
let count = 0;

beforeAll(async () => {
  s3 = await startS3();
  bucket = await s3.createBucket();
  t = await createTestApp({ env: s3.env(bucket) });
  alice = await insertUser(t.database.db, {
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  client = t.client();
  await client.login('alice', PASSWORD);
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function newProject(): Promise<string> {
  const project = await createProject(t, { name: `p${++count}`, creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: alice.id, role: 'owner' });
  return `${t.config.globalWorkspace}/${project.name}`;
}

/** Object keys in the bucket under `prefix`. */
async function objects(prefix = ''): Promise<string[]> {
  const out = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((item) => item.Key!).sort();
}

describe('pushing to the S3 store', () => {
  it('is the configured store', () => {
    expect(t.app.ctx.blobStore).toBeInstanceOf(S3BlobStore);
  });

  it('pushes, updates and removes files, and serves them whole and in ranges', async () => {
    const project = await newProject();
    const big = randomBytes(2 * CHUNK_SIZE + 1000);
    const v1 = plan({ 'maps/big.tif': big, 'notes.txt': 'field notes\n', 'empty.txt': '' });
    const start = await startPush(client, project, 'v0', { added: v1.list });
    const { transaction } = start.json() as { transaction: string };
    // Out of order, and one chunk twice.
    for (const index of [3, 1, 0, 2, 1]) {
      const [id, bytes] = v1.chunks[index]!;
      const sent = await sendChunk(client, transaction, id, bytes);
      expect(sent.statusCode, sent.body).toBe(200);
    }
    expect((await objects('staging/')).length).toBe(4);
    const finish = await finishPush(client, transaction);
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().version).toBe('v1');
    expect(await objects('staging/')).toEqual([]);
    expect(await objects('tmp/')).toEqual([]);
    expect((await objects()).every((key) => key.startsWith('blobs/'))).toBe(true);

    const whole = await rawFile(client, project, 'maps/big.tif');
    expect(whole.statusCode).toBe(200);
    expect(sha1(whole.rawPayload)).toBe(sha1(big));
    const from = 2 * CHUNK_SIZE - 10;
    const part = await rawFile(client, project, 'maps/big.tif', `bytes=${from}-`);
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${from}-${big.length - 1}/${big.length}`);
    expect(part.rawPayload.equals(big.subarray(from))).toBe(true);
    expect((await rawFile(client, project, 'empty.txt')).body).toBe('');

    const v2 = plan({ 'notes.txt': 'field notes, revised\n' });
    const removed = v1.list.filter((e) => e.path === 'empty.txt');
    const second = await startPush(client, project, 'v1', { updated: v2.list, removed });
    const tx2 = (second.json() as { transaction: string }).transaction;
    expect((await sendChunk(client, tx2, v2.chunks[0]![0], v2.chunks[0]![1])).statusCode).toBe(200);
    const done = await finishPush(client, tx2);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().version).toBe('v2');
    expect((await rawFile(client, project, 'notes.txt')).body).toBe('field notes, revised\n');
    expect((await rawFile(client, project, 'empty.txt')).statusCode).toBe(404);

    const zip = await client.get(`/v1/project/download/${project}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.length).toBeGreaterThan(big.length);
  });

  it('refuses a wrong checksum at finish, keeps the upload, and finishes after a re-send', async () => {
    const project = await newProject();
    const files = plan({ 'good.txt': 'good', 'bad.txt': 'the right bytes' });
    const start = await startPush(client, project, 'v0', { added: files.list });
    const { transaction } = start.json() as { transaction: string };
    const [[good, goodBytes], [bad, badBytes]] = files.chunks as [
      [string, Buffer],
      [string, Buffer],
    ];
    await sendChunk(client, transaction, good, goodBytes);
    await sendChunk(client, transaction, bad, Buffer.from('the wrong bytes'));
    const refused = await finishPush(client, transaction);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'UploadError', files: ['bad.txt'] });
    await sendChunk(client, transaction, bad, badBytes);
    const finish = await finishPush(client, transaction);
    expect(finish.statusCode, finish.body).toBe(200);
    expect((await rawFile(client, project, 'bad.txt')).body).toBe('the right bytes');
  });

  it('drops the staged chunks of a cancelled push, and the cleanup job those without an upload', async () => {
    const project = await newProject();
    const files = plan({ 'a.txt': 'cancelled bytes' });
    const start = await startPush(client, project, 'v0', { added: files.list });
    const { transaction } = start.json() as { transaction: string };
    await sendChunk(client, transaction, files.chunks[0]![0], files.chunks[0]![1]);
    expect(await objects(`staging/${transaction}/`)).toEqual([`staging/${transaction}/0/0`]);
    expect((await client.post(`/v1/project/push/cancel/${transaction}`)).statusCode).toBe(200);
    expect(await objects('staging/')).toEqual([]);

    const orphan = randomUUID();
    await s3.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: `staging/${orphan}/0/0`, Body: 'left over' }),
    );
    expect(await cleanupUploads(t.app.ctx)).toMatchObject({ uploads: 0, folders: 1 });
    expect(await objects('staging/')).toEqual([]);
  });
});
