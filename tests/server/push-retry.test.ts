/**
 * Retry-safe finish (issue 17): the optional `Mm-push-id` header on
 * `POST /v1/project/push/finish/{transaction}` and `POST /v2/projects/{id}/versions`. A repeat
 * with the same id gets the first outcome again (status and body, refusals included), from
 * the database, for 30 days; `check_only` is never cached; an id that is not a UUID is 400.
 * A finish retried without an id after its version was made is answered with that version.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectVersions } from '../../server/src/db/schema';
import { PUSH_RECORD_TTL_MS, sweepPushes } from '../../server/src/services/push';
import { plan, sendChunk, startPush } from './support/push-client';
import { PythonClient } from './support/python-client';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const NS = 'waymark';
let t: TestApp;
let admin: TestClient;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

async function newProject(): Promise<{ path: string; id: string }> {
  const name = `retry-${++counter}`;
  const created = await admin.post(`/v1/project/${NS}`, { name, public: false });
  expect(created.statusCode, created.body).toBe(200);
  const info = await admin.get(`/v1/project/${NS}/${name}`);
  return { path: `${NS}/${name}`, id: info.json().id };
}

async function versionsOf(projectId: string): Promise<number[]> {
  const rows = await t.database.db
    .select({ name: projectVersions.name })
    .from(projectVersions)
    .where(eq(projectVersions.projectId, projectId));
  return rows.map((r) => r.name).sort((a, b) => a - b);
}

const finish = (tx: string, pushId?: string) =>
  admin.post(`/v1/project/push/finish/${tx}`, undefined, {
    headers: pushId ? { 'mm-push-id': pushId } : {},
  });

/** A started v1 push of `files` with every chunk sent except the `skip` first ones. */
async function stagedPush(project: string, files: Record<string, string>, skip = 0) {
  const p = plan(files);
  const start = await startPush(admin, project, 'v0', { added: p.list });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [id, bytes] of p.chunks.slice(skip)) {
    expect((await sendChunk(admin, transaction, id, bytes)).statusCode).toBe(200);
  }
  return { transaction, chunks: p.chunks };
}

describe('Mm-push-id on the v1 finish', () => {
  it(
    'answers 100 repeats (some at once) with the first answer, making one version',
    { timeout: 90_000 },
    async () => {
      const project = await newProject();
      const { transaction } = await stagedPush(project.path, { 'a.txt': 'alpha', 'b.txt': 'beta' });
      const pushId = randomUUID();
      const concurrent = await Promise.all(
        Array.from({ length: 20 }, () => finish(transaction, pushId)),
      );
      const sequential = [];
      for (let i = 0; i < 80; i++) sequential.push(await finish(transaction, pushId));
      const answers = [...concurrent, ...sequential];
      expect(answers).toHaveLength(100);
      const first = answers[0]!;
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().version).toBe('v1');
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.body).toBe(first.body);
        expect(answer.headers['content-type']).toBe(first.headers['content-type']);
      }
      expect(await versionsOf(project.id)).toEqual([0, 1]);
    },
  );

  it('repeats a refusal, while a new id runs the finish again', async () => {
    const project = await newProject();
    const { transaction, chunks } = await stagedPush(project.path, { 'late.txt': 'late' }, 1);
    const pushId = randomUUID();
    const refused = await finish(transaction, pushId);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'UploadError', files: ['late.txt'] });
    const [id, bytes] = chunks[0]!;
    expect((await sendChunk(admin, transaction, id, bytes)).statusCode).toBe(200);
    const repeated = await finish(transaction, pushId);
    expect(repeated.statusCode).toBe(422);
    expect(repeated.body).toBe(refused.body);
    const fresh = await finish(transaction, randomUUID());
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await versionsOf(project.id)).toEqual([0, 1]);
  });

  it('refuses an id that is not a UUID, and an id used for another transaction', async () => {
    const project = await newProject();
    const { transaction } = await stagedPush(project.path, { 'a.txt': 'a' });
    for (const bad of ['abc', '', `${randomUUID()}x`, '1234']) {
      const response = await finish(transaction, bad || ' ');
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().detail).toBe('Mm-push-id must be a UUID');
    }
    const pushId = randomUUID();
    expect((await finish(transaction, pushId)).statusCode).toBe(200);
    const other = await stagedPush((await newProject()).path, { 'b.txt': 'b' });
    const reused = await finish(other.transaction, pushId);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().detail).toBe('This Mm-push-id was used for another request');
  });

  it('answers a finish repeated without an id with the version it made', async () => {
    const project = await newProject();
    const { transaction } = await stagedPush(project.path, { 'a.txt': 'a' });
    const first = await finish(transaction);
    expect(first.statusCode).toBe(200);
    const again = await finish(transaction);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: project.id, version: 'v1' });
    expect(await versionsOf(project.id)).toEqual([0, 1]);
  });
});

describe('Mm-push-id on the v2 versions call', () => {
  it('never caches check_only, and repeats the version answer', async () => {
    const client = new PythonClient(t.app);
    await client.login('admin', ADMIN_PASSWORD);
    const project = await newProject();
    const pushId = randomUUID();
    const call = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/projects/${project.id}/versions`,
        headers: {
          authorization: client.authorization!,
          'content-type': 'application/json',
          'mm-push-id': pushId,
        },
        payload: JSON.stringify(body),
      });
    // An empty file needs no chunk: the version call alone makes it.
    const changes = {
      added: [
        {
          path: 'empty.txt',
          size: 0,
          checksum: 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
          chunks: [],
        },
      ],
      updated: [],
      removed: [],
    };
    const check = await call({ version: 'v0', changes, check_only: true });
    expect(check.statusCode, check.body).toBe(204);
    const made = await call({ version: 'v0', changes });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().version).toBe('v1');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call({ version: 'v0', changes })),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(201);
      expect(answer.body).toBe(made.body);
    }
    // check_only with a used id runs the checks (now refused: v0 is no longer the latest).
    const stale = await call({ version: 'v0', changes, check_only: true });
    expect(stale.statusCode).toBe(409);
    expect(await versionsOf(project.id)).toEqual([0, 1]);
  });
});

describe('Mm-push-id records', () => {
  it('keeps answers for 30 days, then the sweep job forgets them', async () => {
    const project = await newProject();
    const { transaction } = await stagedPush(project.path, { 'a.txt': 'a' });
    const pushId = randomUUID();
    const first = await finish(transaction, pushId);
    expect(first.statusCode).toBe(200);
    t.clock.advance(PUSH_RECORD_TTL_MS - 60_000);
    await sweepPushes(t.app.ctx);
    // Sessions and CSRF tokens expire long before: sign in again.
    admin = t.client();
    await admin.login('admin', ADMIN_PASSWORD);
    expect((await finish(transaction, pushId)).body).toBe(first.body);
    t.clock.advance(2 * 60_000);
    expect((await sweepPushes(t.app.ctx)).records).toBeGreaterThanOrEqual(2);
    // Forgotten: the finish runs again and finds no transaction.
    expect((await finish(transaction, pushId)).statusCode).toBe(404);
  });
});
