/**
 * Versions stored as their diffs on the S3 store (s3rver): the diff push keeps the diff in
 * the bucket and no copy of the file; the latest version is written whole under its key when
 * due; older copies leave the bucket by the checkpoint rule; every version downloads with
 * its SHA-1, whole and in ranges, from a second instance too (its own cache, rebuilt from
 * the bucket).
 */
import { mkdir } from 'node:fs/promises';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { blobs, fileHistory, projectMembers } from '../../server/src/db/schema';
import {
  fileCacheOf,
  fileStoreWorkIdle,
  runFileStoreTasks,
} from '../../server/src/services/file-store';
import type { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { DiffClient, sha1 } from './support/diff-client';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { startS3, type TestS3 } from './support/s3-server';
import { createProject } from './support/seed';
import { createTestApp, TestClient, withSecondInstance, type TestApp } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const FILE = 'survey/trees.gpkg';
let s3: TestS3;
let bucket: string;
let t: TestApp;
let s: Scratch;

beforeAll(async () => {
  s3 = await startS3();
  bucket = await s3.createBucket();
  t = await createTestApp({ env: s3.env(bucket) });
  s = await scratch();
});

afterAll(async () => {
  await t?.close();
  await s3?.close();
  await s?.cleanup();
});

async function inBucket(key: string): Promise<boolean> {
  const store = t.app.ctx.blobStore as S3BlobStore;
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: store.objectKey(key) }));
    return true;
  } catch {
    return false;
  }
}

describe('versions stored as diffs on S3', () => {
  it(
    'keep the diffs in the bucket, copies where the rule wants them, every version readable',
    { timeout: 300_000 },
    async () => {
      const alice = await insertUser(t.database.db, {
        username: 'alice',
        email: 'alice@example.com',
        passwordHash: await hashPassword(PASSWORD),
        verifiedEmail: true,
      });
      const client = t.client();
      await client.login('alice', PASSWORD);
      const project = await createProject(t, { name: 's3', creatorId: alice.id });
      await t.database.db
        .insert(projectMembers)
        .values({ projectId: project.id, userId: alice.id, role: 'owner' });
      const dir = s.file('client');
      await mkdir(dir, { recursive: true });
      const desk = new DiffClient(client, `${t.config.globalWorkspace}/${project.name}`, FILE, dir);
      const v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(2000));
      await desk.pushWhole(v1);
      const bytes = new Map<number, Buffer>([[1, v1]]);
      for (let v = 2; v <= 5; v++) {
        await desk.pushEdit(`UPDATE trees SET name = 's3 v${v}' WHERE fid % 50 = ${v};`);
        bytes.set(v, await desk.baseBytes());
      }
      const keyOf = async (version: number) => {
        const rows = await t.database.db
          .select({ key: blobs.key, stored: blobs.stored })
          .from(fileHistory)
          .innerJoin(blobs, eq(blobs.key, fileHistory.blobKey))
          .where(and(eq(fileHistory.projectId, project.id), eq(fileHistory.versionName, version)));
        return rows[0]!;
      };
      expect(await keyOf(5)).toMatchObject({ stored: false });
      expect(await inBucket((await keyOf(5)).key)).toBe(false);

      await fileStoreWorkIdle(t.app.ctx);
      t.clock.advance(t.config.versionCopyDelayMs + 1000);
      await runFileStoreTasks(t.app.ctx);
      expect(await keyOf(5)).toMatchObject({ stored: true });
      expect(await inBucket((await keyOf(5)).key)).toBe(true);
      expect(await keyOf(3)).toMatchObject({ stored: false });
      expect(await inBucket((await keyOf(3)).key)).toBe(false);

      // A second instance: its own cache (empty), every version rebuilt from the bucket.
      const url = (version: number) =>
        `/v1/project/raw/${t.config.globalWorkspace}/${project.name}?file=${encodeURIComponent(FILE)}&version=v${version}&diff=False`;
      await withSecondInstance(t, async (other) => {
        const elsewhere = new TestClient(other);
        await elsewhere.login('alice', PASSWORD);
        for (const [version, expected] of bytes) {
          const response = await elsewhere.get(url(version));
          expect(response.statusCode).toBe(200);
          expect(sha1(response.rawPayload), `v${version}`).toBe(sha1(expected));
          expect(sha1(response.rawPayload)).toBe(desk.answered.get(version));
        }
        const ranged = await elsewhere.get(url(3), { headers: { range: 'bytes=100-199' } });
        expect(ranged.statusCode).toBe(206);
        expect(ranged.rawPayload.equals(bytes.get(3)!.subarray(100, 200))).toBe(true);
        expect(fileCacheOf(other.ctx).dir).not.toBe(fileCacheOf(t.app.ctx).dir);
      });
    },
  );
});
