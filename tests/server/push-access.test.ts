/**
 * A running push belongs to its author only while the author may still push to the project
 * (issue 22): a collaborator removed from the project, or whose role dropped below writer,
 * can no longer send chunks to an open transaction (403), nor finish it. The chunks of one
 * upload reuse the access decided in the last ACCESS_WINDOW_MS (routes/push.ts): a revoked
 * writer's chunks are refused once that window has passed (on the test clock), the finish
 * at once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, type User } from '../../server/src/db/schema';
import { plan, sendChunk, startPush } from './support/push-client';
import { createProject } from './support/seed';
import { ACCESS_WINDOW_MS } from '../../server/src/services/permissions';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
let owner: User;
let writer: User;
let count = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['olga', 'walt']) {
    const user = await insertUser(t.database.db, {
      username: name,
      email: `${name}@example.com`,
      passwordHash: await hashPassword(PASSWORD),
      verifiedEmail: true,
    });
    if (name === 'olga') owner = user;
    else writer = user;
  }
});

afterAll(async () => {
  await t.close();
});

async function signedIn(username: string): Promise<TestClient> {
  const client = t.client();
  await client.login(username, PASSWORD);
  return client;
}

/** walt (writer) starts a push to olga's project and sends its first chunk. */
async function runningPush() {
  const project = await createProject(t, { name: `shared-${++count}`, creatorId: owner.id });
  await t.database.db.insert(projectMembers).values([
    { projectId: project.id, userId: owner.id, role: 'owner' },
    { projectId: project.id, userId: writer.id, role: 'writer' },
  ]);
  const walt = await signedIn('walt');
  const files = plan({ 'a.txt': 'first file', 'b.txt': 'second file' });
  const start = await startPush(walt, `${t.config.globalWorkspace}/${project.name}`, 'v0', {
    added: files.list,
  });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  const [first, second] = files.chunks;
  expect((await sendChunk(walt, transaction, first![0], first![1])).statusCode).toBe(200);
  const membership = and(
    eq(projectMembers.projectId, project.id),
    eq(projectMembers.userId, writer.id),
  );
  return { walt, transaction, second: second!, membership };
}

describe('a collaborator who lost write access during a push', () => {
  it('is refused further chunks and the finish once removed from the project', async () => {
    const push = await runningPush();
    await t.database.db.delete(projectMembers).where(push.membership);
    const finish = await push.walt.post(`/v1/project/push/finish/${push.transaction}`);
    expect(finish.statusCode).toBe(403);
    t.clock.advance(ACCESS_WINDOW_MS);
    const chunk = await sendChunk(push.walt, push.transaction, push.second[0], push.second[1]);
    expect(chunk.statusCode, chunk.body).toBe(403);
  });

  it('is refused further chunks once demoted to reader', async () => {
    const push = await runningPush();
    await t.database.db.update(projectMembers).set({ role: 'reader' }).where(push.membership);
    t.clock.advance(ACCESS_WINDOW_MS);
    const chunk = await sendChunk(push.walt, push.transaction, push.second[0], push.second[1]);
    expect(chunk.statusCode, chunk.body).toBe(403);
    // Restored as writer: the same transaction goes on.
    await t.database.db.update(projectMembers).set({ role: 'writer' }).where(push.membership);
    const again = await sendChunk(push.walt, push.transaction, push.second[0], push.second[1]);
    expect(again.statusCode, again.body).toBe(200);
    const finish = await push.walt.post(`/v1/project/push/finish/${push.transaction}`);
    expect(finish.statusCode, finish.body).toBe(200);
  });

  it('still gets 404 for an unknown transaction', async () => {
    const walt = await signedIn('walt');
    const response = await sendChunk(walt, randomUUID(), randomUUID(), Buffer.from('x'));
    expect(response.statusCode).toBe(404);
  });
});
