// Request cost of the chunk paths (issue 36): the database statements of one chunk request
// of a signed-in session. v1: the first chunk resolves the session, the upload and the
// project access; the chunks after it, within the access window (routes/push.ts,
// withCallerWindow), reuse that and cost one statement: the chunk's record. Once the window
// has passed (on the test clock) the next chunk resolves again. v2 (routes/push-v2.ts): the
// same window for the caller and the project; a chunk then costs its own two statements.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { projectMembers } from '../../server/src/db/schema';
import { ACCESS_WINDOW_MS } from '../../server/src/services/permissions';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { recordStatements } from './support/statements';
import { createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

let t: TestApp;
let admin: TestClient;
let statements: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  statements = recordStatements(t.database);
});

afterAll(async () => {
  await t.close();
});

const RECORD = /^\s*with touched as \(\s*update "uploads"/i;

it('costs one statement a chunk within the access window, the chunk record', async () => {
  const project = await createProject(t, { name: 'chunk-cost' });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: 1, role: 'owner' });
  const namespace = (await admin.get(`/v1/project/by_uuid/${project.id}`)).json().namespace;
  const count = 12;
  // Small chunks of a file of `count` chunks: only the last may be short.
  const bytes = Buffer.alloc(CHUNK_SIZE * (count - 1) + 1, 7);
  const chunks = Array.from({ length: count }, () => randomUUID());
  const start = await admin.post(`/v1/project/push/${namespace}/chunk-cost`, {
    version: 'v0',
    changes: {
      added: [
        {
          path: 'a.bin',
          size: bytes.length,
          checksum: createHash('sha1').update(bytes).digest('hex'),
          chunks,
        },
      ],
      updated: [],
      removed: [],
    },
  });
  expect(start.statusCode, start.body).toBe(200);
  const transaction = start.json().transaction as string;
  const costs: string[][] = [];
  for (const [i, chunk] of chunks.entries()) {
    // The window passes once, before the eighth chunk: it resolves everything again.
    if (i === 7) t.clock.advance(ACCESS_WINDOW_MS);
    statements.length = 0;
    const answer = await admin.request('POST', `/v1/project/push/chunk/${transaction}/${chunk}`, {
      payload: bytes.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    costs.push([...statements]);
  }
  const resolving = (cost: string[]) => cost.some((s) => /from "sessions"/i.test(s));
  // The first chunk and the first after the window resolve the session (and the upload and
  // the project access: at least three statements beside the record).
  for (const i of [0, 7]) {
    expect(resolving(costs[i]!), costs[i]!.join('\n')).toBe(true);
    expect(costs[i]!.length).toBeGreaterThanOrEqual(4);
  }
  // The others reuse it: the record alone. Work the app does in the background meanwhile
  // (a job's tick, a warm-up, the last chunks' running SHA-1) may add a statement to a
  // chunk's count on a busy machine: most chunks, not all, show the bare one.
  const reused = costs.filter((_, i) => i !== 0 && i !== 7);
  for (const cost of reused) expect(resolving(cost), cost.join('\n')).toBe(false);
  const bare = reused.filter((c) => c.length === 1);
  expect(bare.length).toBeGreaterThanOrEqual(reused.length / 2);
  for (const cost of bare) expect(cost[0]).toMatch(RECORD);
  const finish = await admin.post(`/v1/project/push/finish/${transaction}`);
  expect(finish.statusCode, finish.body).toBe(200);
});

const V2_CHUNK = /^\s*(insert into|update) "v2_chunks"/i;

it('costs a v2 chunk its own two statements within the access window', async () => {
  const project = await createProject(t, { name: 'chunk-cost-v2' });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: 1, role: 'owner' });
  const costs: string[][] = [];
  for (let i = 0; i < 8; i++) {
    // The window passes once, before the sixth chunk: it resolves everything again.
    if (i === 5) t.clock.advance(ACCESS_WINDOW_MS);
    statements.length = 0;
    const answer = await admin.request('POST', `/v2/projects/${project.id}/chunks`, {
      payload: Buffer.alloc(1024, i),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    costs.push([...statements]);
  }
  const resolving = (cost: string[]) => cost.some((s) => /from "sessions"/i.test(s));
  for (const i of [0, 5]) expect(resolving(costs[i]!), costs[i]!.join('\n')).toBe(true);
  const reused = costs.filter((_, i) => i !== 0 && i !== 5);
  for (const cost of reused) expect(resolving(cost), cost.join('\n')).toBe(false);
  // Background work on a busy machine may add a statement to a chunk's count: most chunks,
  // not all, show the bare two.
  const bare = reused.filter((c) => c.length === 2);
  expect(bare.length).toBeGreaterThanOrEqual(reused.length / 2);
  for (const cost of bare) for (const s of cost) expect(s).toMatch(V2_CHUNK);
});

it('refuses a v2 chunk without a signed-in caller', async () => {
  const project = await createProject(t, { name: 'chunk-cost-v2-refused' });
  const nobody = t.client();
  const anonymous = await nobody.request('POST', `/v2/projects/${project.id}/chunks`, {
    payload: Buffer.alloc(16),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(anonymous.statusCode).toBe(401);
});
