/**
 * The desktop plugin's library (mergin-client) with a personal access token instead of a
 * password (issue 33): `MerginClient(url, auth_token="Bearer <token>")` decodes the token
 * itself (support/python-client.ts: `Bearer .`, zlib, JSON with username and a zoned
 * expire), then sends it as is. With a read-and-write token it lists, pushes (v1 and v2) and
 * pulls; a read-only token lists and pulls, and its push is refused with a 403 whose detail
 * the client prints; a revoked token is a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import {
  TOKEN_READ_ONLY,
  type CreatedPersonalToken,
} from '../../server/src/schemas/personal-tokens';
import {
  changesPayload,
  decodeTokenLikePythonClient,
  parseZonedTime,
  PythonClient,
  sha1,
} from './support/python-client';
import { createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const NS = 'waymark';
const PROJECT = `${NS}/token-survey`;
let t: TestApp;
let web: TestClient;
let projectId: string;

/** A token made on the profile screen, handed to the library as MERGIN_AUTH would be. */
async function tokenClient(scope: 'read' | 'write'): Promise<{ client: PythonClient; id: number }> {
  const made = await web.post('/app/auth/tokens', {
    name: `plugin ${scope}`,
    scope,
    expires_in_days: 30,
  });
  expect(made.statusCode, made.body).toBe(201);
  const { token, id } = made.json() as CreatedPersonalToken;
  const client = new PythonClient(t.app);
  client.authorization = `Bearer ${token}`;
  // What MerginClient.__init__ does with auth_token: a token it cannot decode is refused there.
  const data = decodeTokenLikePythonClient(client.authorization);
  expect(data.username).toBe('fieldworker');
  expect(parseZonedTime(data.expire).getTime()).toBeGreaterThan(t.clock.now().getTime());
  return { client, id };
}

beforeAll(async () => {
  t = await createTestApp();
  const user = await insertUser(t.database.db, {
    username: 'fieldworker',
    email: 'fieldworker@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  const project = await createProject(t, { name: 'token-survey' });
  projectId = project.id;
  await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role: 'writer' }]);
  web = t.client();
  await web.login('fieldworker', PASSWORD);
});

afterAll(async () => {
  await t?.close();
});

describe('the python client with a personal access token', () => {
  it('lists, pushes (v1 and v2) and pulls with a read-and-write token', async () => {
    const { client } = await tokenClient('write');
    expect((await client.config()).version).toBeTruthy();
    const list = await client.get(`/v1/project/paginated?page=1&per_page=50&only_namespace=${NS}`);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { projects: { name: string }[] }).projects.map((p) => p.name)).toEqual([
      'token-survey',
    ]);

    const first = Buffer.from('first visit\n');
    const v1 = await client.pushV1(PROJECT, 'v0', { added: { 'notes/visit.txt': first } });
    expect(v1.version).toBe('v1');
    const second = Buffer.from('second visit\n');
    const v2 = await client.pushV2(projectId, 'v1', { updated: { 'notes/visit.txt': second } });
    expect(v2.statusCode, v2.body).toBe(201);

    // Pull: what changed since v1, then the file as the client downloads it.
    const info = await client.info(PROJECT, '?since=v1');
    expect(info.version).toBe('v2');
    const file = info.files.find((f) => f.path === 'notes/visit.txt')!;
    expect(file.checksum).toBe(sha1(second));
    expect((await client.download(PROJECT, file, 'v2')).equals(second)).toBe(true);
  });

  it('lists and pulls with a read-only token; its push is refused with a clear answer', async () => {
    const { client } = await tokenClient('read');
    const info = await client.info(PROJECT);
    const file = info.files.find((f) => f.path === 'notes/visit.txt')!;
    expect((await client.download(PROJECT, file, info.version)).length).toBe(file.size);

    const { payload } = changesPayload({ added: { 'notes/sneaky.txt': Buffer.from('no') } });
    const v1 = await client.post(`/v1/project/push/${PROJECT}`, {
      version: info.version,
      changes: payload,
    });
    expect(v1.statusCode).toBe(403);
    // The client prints the detail of a problem answer.
    expect(problem(v1).detail).toBe(TOKEN_READ_ONLY);
    const v2 = await client.post(`/v2/projects/${projectId}/versions`, {
      version: info.version,
      changes: payload,
      check_only: true,
    });
    expect(v2.statusCode).toBe(403);
    expect(problem(v2).detail).toBe(TOKEN_READ_ONLY);
    const chunk = await client.postBytes(`/v2/projects/${projectId}/chunks`, Buffer.from('no'));
    expect(chunk.statusCode).toBe(403);
    expect((await client.info(PROJECT)).version).toBe(info.version);
  });

  it('is answered 401 once the token is revoked', async () => {
    const { client, id } = await tokenClient('write');
    expect((await client.get(`/v1/project/${PROJECT}`)).statusCode).toBe(200);
    expect((await web.delete(`/app/auth/tokens/${id}`)).statusCode).toBeLessThan(300);
    expect((await client.get(`/v1/project/${PROJECT}`)).statusCode).toBe(401);
  });
});
