/**
 * Projects scheduled for deletion are purged after 7 days by a scheduled job that runs
 * once across several app instances sharing one database.
 */
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import {
  accessRequests,
  blobs,
  fileHistory,
  jobRuns,
  projectMembers,
  projects,
  projectVersions,
  type Project,
  type User,
} from '../../server/src/db/schema';
import { PURGE_JOB, Scheduler } from '../../server/src/jobs/scheduler';
import { LocalBlobStore } from '../../server/src/storage/local-blob-store';
import { commit, createProject, putBytes } from './support/seed';
import { createTestApp, type TestApp } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
let t: TestApp;
let second: FastifyInstance;
let alice: User;
let doomed: Project;
let keeper: Project;
let recent: Project;

beforeAll(async () => {
  t = await createTestApp();
  // A second instance on the same database and blob store, as behind a load balancer.
  second = buildApp({
    config: t.config,
    database: t.database,
    blobStore: new LocalBlobStore(path.join(t.config.dataDir, 'blobs')),
    now: t.clock.now,
    distDir: null,
    logger: false,
  });
  await second.ready();
  alice = await insertUser(t.database.db, {
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword(PASSWORD),
  });

  doomed = await createProject(t, { name: 'doomed', creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: doomed.id, userId: alice.id, role: 'owner' });
  await commit(t, doomed.id, {
    added: { 'own.txt': 'only in doomed\n', 'shared.txt': 'shared\n' },
  });
  await commit(t, doomed.id, { updated: { 'own.txt': 'only in doomed, v2\n' } });
  keeper = await createProject(t, { name: 'keeper' });
  await commit(t, keeper.id, { added: { 'copy.txt': 'shared\n' } });
  recent = await createProject(t, { name: 'recent' });
  await commit(t, recent.id, { added: { 'r.txt': 'recent\n' } });
});

afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('purging deleted projects', () => {
  it('runs once across instances, 7 days after scheduleDelete, and frees name and bytes', async () => {
    const client = t.client();
    await client.login('alice', PASSWORD);
    const first = t.clock.now();
    expect((await client.post(`/v2/projects/${doomed.id}/scheduleDelete`)).statusCode).toBe(204);
    await t.database.db.insert(accessRequests).values({
      projectId: doomed.id,
      requestedBy: 1,
      expiresAt: new Date(first.getTime() + 7 * DAY),
    });
    const own1 = await putBytes(t, 'only in doomed\n');
    const own2 = await putBytes(t, 'only in doomed, v2\n');
    const shared = await putBytes(t, 'shared\n');
    const store = t.app.ctx.blobStore;

    // Not due yet: the project stays (as a name that is taken).
    t.clock.advance(6 * DAY);
    await t.database.db
      .update(projects)
      .set({ removedAt: t.clock.now() })
      .where(eq(projects.id, recent.id));
    expect(await t.app.scheduler.runDue()).toMatchObject({ [PURGE_JOB]: 'ran' });
    expect(
      await t.database.db.select().from(projects).where(eq(projects.id, doomed.id)),
    ).toHaveLength(1);

    // A day and an hour later both instances poll at once: one runs the purge.
    t.clock.advance(DAY + HOUR);
    const outcomes = await Promise.all([t.app.scheduler.runDue(), second.scheduler.runDue()]);
    expect(outcomes.map((o) => o[PURGE_JOB]).sort()).toEqual(['ran', 'skipped']);

    const db = t.database.db;
    for (const table of [projectVersions, fileHistory, projectMembers, accessRequests]) {
      expect(await db.select().from(table).where(eq(table.projectId, doomed.id))).toHaveLength(0);
    }
    expect(await db.select().from(projects).where(eq(projects.id, doomed.id))).toHaveLength(0);
    // Bytes nobody references are gone; shared ones stay.
    expect(await store.has(own1.key)).toBe(false);
    expect(await store.has(own2.key)).toBe(false);
    expect(await store.has(shared.key)).toBe(true);
    const keys = (
      await db
        .select({ key: blobs.key })
        .from(blobs)
        .where(inArray(blobs.key, [own1.key, own2.key, shared.key]))
    ).map((r) => r.key);
    expect(keys).toEqual([shared.key]);
    // Removed a day ago: still there.
    expect(await db.select().from(projects).where(eq(projects.id, recent.id))).toHaveLength(1);
    expect((await t.client().get('/v1/project/waymark/keeper')).statusCode).toBe(403);

    // The name is free again.
    const admin = t.client();
    await admin.login('admin', 'Admin-Password-1');
    expect((await admin.post('/v1/project/waymark', { name: 'doomed' })).statusCode).toBe(200);
  });

  it('runs a job again only after its interval, and takes over a lapsed lease', async () => {
    expect(await t.app.scheduler.runDue()).toMatchObject({ [PURGE_JOB]: 'skipped' });
    t.clock.advance(HOUR);
    expect(await second.scheduler.runDue()).toMatchObject({ [PURGE_JOB]: 'ran' });

    // An instance claimed it and died: nobody runs it until the lease runs out.
    t.clock.advance(2 * HOUR);
    await t.database.db
      .update(jobRuns)
      .set({ lockedUntil: new Date(t.clock.ms + 30 * 60 * 1000) })
      .where(eq(jobRuns.name, PURGE_JOB));
    expect(await t.app.scheduler.runDue()).toMatchObject({ [PURGE_JOB]: 'skipped' });
    t.clock.advance(31 * 60 * 1000);
    expect(await t.app.scheduler.runDue()).toMatchObject({ [PURGE_JOB]: 'ran' });
  });

  it('logs a failed run and tries it again at the next poll', async () => {
    let calls = 0;
    const scheduler = new Scheduler(t.app.ctx, [
      {
        name: 'flaky',
        intervalMs: DAY,
        leaseMs: HOUR,
        run: async () => {
          calls++;
          if (calls === 1) throw new Error('boom');
        },
      },
    ]);
    expect(await scheduler.runDue()).toEqual({ flaky: 'failed' });
    expect(await scheduler.runDue()).toEqual({ flaky: 'ran' });
    expect(await scheduler.runDue()).toEqual({ flaky: 'skipped' });
    expect(calls).toBe(2);
  });
});
