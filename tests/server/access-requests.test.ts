import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { accessRequests, projects, type User } from '../../server/src/db/schema';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Password-1';
const DAY = 24 * 3600 * 1000;
let t: TestApp;
const people: Record<string, User> = {};
const requestIds: Record<string, number> = {};
const clients = new Map<string, TestClient>();
let start: number;

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, username === 'admin' ? ADMIN_PASSWORD : PASSWORD);
    clients.set(username, client);
  }
  return client;
}

function isoZ(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface ListBody {
  items: { id: number; project_name: string; status: string; [key: string]: unknown }[];
  count: number;
}

async function own(username: string, query = ''): Promise<ListBody> {
  const response = await (
    await as(username)
  ).get(`/app/project/access-requests?page=1&per_page=10${query}`);
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}

beforeAll(async () => {
  t = await createTestApp();
  start = Math.floor(t.clock.ms / 1000) * 1000;
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['bob', 'carol', 'tina']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
    });
  }
  const team = await insertWorkspace(db, { name: 'team', storage: 1000 });
  await setWorkspaceMember(db, team.id, people.tina!.id, 'admin');
  const [survey, roads, removed, parcels] = await db
    .insert(projects)
    .values([
      { workspaceId: t.setup.workspaceId, name: 'survey' },
      { workspaceId: t.setup.workspaceId, name: 'roads' },
      { workspaceId: t.setup.workspaceId, name: 'removed', removedAt: new Date(start) },
      { workspaceId: team.id, name: 'parcels' },
    ])
    .returning();
  const rows = await db
    .insert(accessRequests)
    .values([
      // bob: one pending (expires in 5 days), one already expired, one on a removed
      // project, one declined.
      {
        projectId: survey!.id,
        requestedBy: people.bob!.id,
        requestedAt: new Date(start - 2 * DAY),
        expiresAt: new Date(start + 5 * DAY),
      },
      {
        projectId: parcels!.id,
        requestedBy: people.bob!.id,
        requestedAt: new Date(start - 8 * DAY),
        expiresAt: new Date(start - DAY),
      },
      {
        projectId: removed!.id,
        requestedBy: people.bob!.id,
        expiresAt: new Date(start + 6 * DAY),
      },
      {
        projectId: roads!.id,
        requestedBy: people.bob!.id,
        expiresAt: new Date(start + 6 * DAY),
        status: 'declined',
      },
      {
        projectId: roads!.id,
        requestedBy: people.carol!.id,
        requestedAt: new Date(start - DAY),
        expiresAt: new Date(start + 6 * DAY),
      },
    ])
    .returning();
  requestIds.survey = rows[0]!.id;
  requestIds.parcels = rows[1]!.id;
  requestIds.carol = rows[4]!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('GET /app/project/access-requests', () => {
  it("lists the caller's unresolved requests with their status", async () => {
    expect(await own('bob', '&order_params=expire ASC')).toEqual({
      items: [
        {
          id: requestIds.parcels,
          requested_by: 'bob',
          project_name: 'parcels',
          namespace: 'team',
          expire: isoZ(start - DAY),
          status: 'expired',
        },
        {
          id: requestIds.survey,
          requested_by: 'bob',
          project_name: 'survey',
          namespace: 'waymark',
          expire: isoZ(start + 5 * DAY),
          status: 'pending',
        },
      ],
      count: 2,
    });
    expect((await own('carol')).items.map((i) => i.project_name)).toEqual(['roads']);
  });

  it('sorts by SQL-style order_params and filters by exact project name', async () => {
    const order = async (param: string) =>
      (await own('bob', `&order_params=${encodeURIComponent(param)}`)).items.map(
        (i) => i.project_name,
      );
    expect(await order('expire DESC')).toEqual(['survey', 'parcels']);
    expect(await order('requested_at asc')).toEqual(['parcels', 'survey']);
    expect(await order('requested_at DESC,id ASC')).toEqual(['survey', 'parcels']);
    // Malformed tokens and unknown columns are ignored (then: by id).
    expect(await order('expire  DESC,bogus ASC,expire')).toEqual(['survey', 'parcels']);
    expect((await own('bob', '&project_name=parcels')).items.map((i) => i.id)).toEqual([
      requestIds.parcels,
    ]);
    expect(await own('bob', '&project_name=Parcels')).toEqual({ items: [], count: 0 });
  });

  it('shows a request as expired once its expiry has passed', async () => {
    t.clock.ms = start + 5 * DAY + 1000;
    expect((await own('bob', '&project_name=survey')).items[0]?.status).toBe('expired');
    t.clock.ms = start + 1000;
  });

  it('pages: count is the total, past the end is 404', async () => {
    const client = await as('bob');
    const first = await client.get(
      '/app/project/access-requests?page=2&per_page=1&order_params=expire ASC',
    );
    expect(first.json()).toMatchObject({ items: [{ project_name: 'survey' }], count: 2 });
    const past = await client.get('/app/project/access-requests?page=3&per_page=1');
    expect(past.statusCode).toBe(404);
    expect((await client.get('/app/project/access-requests?page=1&per_page=0')).statusCode).toBe(
      404,
    );
  });

  it.each([
    ['per_page=10', "Missing query parameter 'page'"],
    ['page=1', "Missing query parameter 'per_page'"],
    ['page=0&per_page=10', '0 is less than the minimum of 1'],
    ['page=1&per_page=101', '101 is greater than the maximum of 100'],
  ])('answers 400 for %s', async (query, detail) => {
    const response = await (await as('bob')).get(`/app/project/access-requests?${query}`);
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe(detail);
  });

  it('needs a signed-in user', async () => {
    const response = await t.client().get('/app/project/access-requests?page=1&per_page=10');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toBe('Authentication information is missing or invalid.');
  });
});

describe('GET /app/project/access-request/:namespace', () => {
  const url = (namespace: string, query = '') =>
    `/app/project/access-request/${namespace}?page=1&per_page=10${query}`;

  it('lists the requests for the workspace to its admins', async () => {
    const admin = await as('admin');
    const global = await admin.get(url('waymark', '&order_params=id ASC'));
    expect(global.statusCode).toBe(200);
    expect(global.json()).toEqual({
      items: [
        expect.objectContaining({ id: requestIds.survey, requested_by: 'bob', status: 'pending' }),
        {
          id: requestIds.carol,
          requested_by: 'carol',
          project_name: 'roads',
          namespace: 'waymark',
          expire: isoZ(start + 6 * DAY),
          status: 'pending',
        },
      ],
      count: 2,
    });
    const team = await (await as('tina')).get(url('team'));
    expect(team.json()).toEqual({
      items: [expect.objectContaining({ id: requestIds.parcels, status: 'expired' })],
      count: 1,
    });
    const filtered = await admin.get(url('waymark', '&project_name=roads'));
    expect(filtered.json<ListBody>().items.map((i) => i.id)).toEqual([requestIds.carol]);
  });

  it('answers 403 to others, and for unknown workspaces', async () => {
    for (const [username, namespace] of [
      ['tina', 'waymark'],
      ['bob', 'team'],
      ['admin', 'nowhere'],
    ] as const) {
      const response = await (await as(username)).get(url(namespace));
      expect(response.statusCode, `${username} ${namespace}`).toBe(403);
      expect(problem(response).detail).toBe(
        "You don't have permissions to list project access requests",
      );
    }
  });
});
