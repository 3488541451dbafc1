import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import {
  blobs,
  fileHistory,
  projectFiles,
  projectMembers,
  projects,
  projectVersions,
  type User,
} from '../../server/src/db/schema';
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
let teamId: number;
let base: number;
const people: Record<string, User> = {};
const ids: Record<string, string> = {};
const clients = new Map<string, TestClient>();

async function as(username: string | null): Promise<TestClient> {
  if (username === null) return t.client();
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, username === 'admin' ? ADMIN_PASSWORD : PASSWORD);
    clients.set(username, client);
  }
  return client;
}

interface ListBody {
  projects: {
    id: string;
    name: string;
    namespace: string;
    permissions: Record<string, boolean>;
    access: Record<string, unknown>;
    [key: string]: unknown;
  }[];
  count: number;
}

async function list(username: string | null, query = ''): Promise<ListBody> {
  const client = await as(username);
  const response = await client.get(`/v1/project/paginated?page=1&per_page=100${query}`);
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}

async function names(username: string | null, query = ''): Promise<string[]> {
  return (await list(username, query)).projects.map((p) => `${p.namespace}/${p.name}`);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'carol', 'dave', 'erin']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  const team = await insertWorkspace(db, { name: 'team', storage: 10_000 });
  teamId = team.id;
  await setWorkspaceMember(db, teamId, people.alice!.id, 'admin');
  await setWorkspaceMember(db, teamId, people.dave!.id, 'reader');
  await setWorkspaceMember(db, t.setup.workspaceId, people.erin!.id, 'writer');

  // Dates relative to today, so the clock only ever moves forward (CSRF tokens stay valid).
  base = Math.floor(t.clock.ms / DAY) * DAY - 29 * DAY;
  const rows = await db
    .insert(projects)
    .values([
      {
        workspaceId: t.setup.workspaceId,
        name: 'survey',
        creatorId: people.alice!.id,
        createdAt: new Date(base),
        updatedAt: new Date(base + 5 * DAY),
        diskUsage: 300,
        latestVersion: 3,
        tags: ['valid_qgis', 'input_use'],
      },
      {
        workspaceId: t.setup.workspaceId,
        name: 'Roads',
        public: true,
        creatorId: people.bob!.id,
        createdAt: new Date(base + DAY),
        updatedAt: new Date(base + 9 * DAY),
        diskUsage: 1000,
      },
      {
        workspaceId: t.setup.workspaceId,
        name: 'old',
        creatorId: people.alice!.id,
        createdAt: new Date(base + 2 * DAY),
        updatedAt: new Date(base + 2 * DAY),
        removedAt: new Date(base + 3 * DAY),
        public: true,
      },
      {
        workspaceId: teamId,
        name: 'parcels',
        creatorId: people.alice!.id,
        createdAt: new Date(base + 3 * DAY),
        updatedAt: new Date(base + 7 * DAY),
        diskUsage: 50,
      },
      {
        workspaceId: teamId,
        name: 'trees_100%',
        creatorId: null,
        createdAt: new Date(base + 4 * DAY),
        updatedAt: new Date(base + 4 * DAY),
        diskUsage: 20,
        public: true,
      },
    ])
    .returning();
  for (const row of rows) ids[row.name] = row.id;

  await db.insert(projectMembers).values([
    { projectId: ids.survey!, userId: people.alice!.id, role: 'owner' },
    { projectId: ids.survey!, userId: people.bob!.id, role: 'writer' },
    { projectId: ids.survey!, userId: people.carol!.id, role: 'reader' },
    { projectId: ids.parcels!, userId: people.bob!.id, role: 'reader' },
  ]);

  // A conflicted copy in parcels.
  const [version] = await db
    .insert(projectVersions)
    .values({ projectId: ids.parcels!, name: 1 })
    .returning();
  await db.insert(blobs).values({ key: 'a'.repeat(64), size: 5, sha1: 'b'.repeat(40) });
  for (const path of ['data.gpkg', 'data.gpkg (conflicted copy, bob v1)']) {
    const [history] = await db
      .insert(fileHistory)
      .values({
        projectId: ids.parcels!,
        versionId: version!.id,
        versionName: 1,
        path,
        change: 'create',
        size: 5,
        checksum: 'b'.repeat(40),
        blobKey: 'a'.repeat(64),
      })
      .returning();
    await db.insert(projectFiles).values({
      projectId: ids.parcels!,
      path,
      size: 5,
      checksum: 'b'.repeat(40),
      blobKey: 'a'.repeat(64),
      historyId: history!.id,
    });
  }
});

afterAll(async () => {
  await t?.close();
});

describe('GET /v1/project/paginated: who sees what', () => {
  it('anonymous visitors see public projects only', async () => {
    expect(await names(null, '&order_params=name_asc')).toEqual([
      'waymark/Roads',
      'team/trees_100%',
    ]);
  });

  it('a user without roles sees public projects plus direct memberships', async () => {
    expect(await names('carol', '&order_params=name_asc')).toEqual([
      'waymark/Roads',
      'waymark/survey',
      'team/trees_100%',
    ]);
  });

  it('workspace readers see every project of the workspace', async () => {
    expect(await names('dave', '&order_params=name_asc')).toEqual([
      'team/parcels',
      'waymark/Roads',
      'team/trees_100%',
    ]);
  });

  it('public=false drops projects visible only because they are public', async () => {
    expect(await names('carol', '&public=false')).toEqual(['waymark/survey']);
    expect(await names('dave', '&public=False&order_params=name_asc')).toEqual([
      'team/parcels',
      'team/trees_100%',
    ]);
    expect(await names(null, '&public=false&order_params=name_asc')).toEqual([
      'waymark/Roads',
      'team/trees_100%',
    ]);
  });

  it('only_public lists public projects for everyone', async () => {
    expect(await names('alice', '&only_public=true&order_params=name_asc')).toEqual([
      'waymark/Roads',
      'team/trees_100%',
    ]);
  });

  it('superusers see all live projects, and removed ones with as_admin', async () => {
    expect((await list('admin')).count).toBe(4);
    expect(await names('admin', '&as_admin=True&order_params=name_asc')).toEqual([
      'waymark/old',
      'team/parcels',
      'waymark/Roads',
      'waymark/survey',
      'team/trees_100%',
    ]);
    // as_admin means nothing for others.
    expect(await names('carol', '&as_admin=true&public=false')).toEqual(['waymark/survey']);
  });
});

describe('GET /v1/project/paginated: items', () => {
  it('have the reference shape with cumulative access lists', async () => {
    const body = await list('bob', '&name=survey');
    expect(body.count).toBe(1);
    expect(body.projects[0]).toEqual({
      id: ids.survey,
      name: 'survey',
      namespace: 'waymark',
      version: 'v3',
      created: new Date(base).toISOString().replace('.000Z', 'Z'),
      updated: new Date(base + 5 * DAY).toISOString().replace('.000Z', 'Z'),
      creator: people.alice!.id,
      disk_usage: 300,
      tags: ['valid_qgis', 'input_use'],
      has_conflict: false,
      permissions: { upload: true, update: false, delete: false },
      access: {
        owners: [people.alice!.id],
        ownersnames: ['alice'],
        writers: [people.alice!.id, people.bob!.id],
        writersnames: ['alice', 'bob'],
        editors: [people.alice!.id, people.bob!.id],
        editorsnames: ['alice', 'bob'],
        readers: [people.alice!.id, people.bob!.id, people.carol!.id],
        readersnames: ['alice', 'bob', 'carol'],
        public: false,
      },
    });
  });

  it('report permissions from direct and workspace roles', async () => {
    const perms = async (user: string | null, name: string) =>
      (await list(user, `&name=${encodeURIComponent(name)}`)).projects[0]!.permissions;
    const none = { upload: false, update: false, delete: false };
    const all = { upload: true, update: true, delete: true };
    expect(await perms(null, 'Roads')).toEqual(none);
    expect(await perms('carol', 'survey')).toEqual(none);
    expect(await perms('alice', 'survey')).toEqual(all);
    expect(await perms('alice', 'parcels')).toEqual(all); // team admin
    expect(await perms('dave', 'parcels')).toEqual(none); // team reader
    expect(await perms('erin', 'Roads')).toEqual({ upload: true, update: false, delete: false });
    expect(await perms('admin', 'parcels')).toEqual(all);
  });

  it('flag conflicted copies', async () => {
    const body = await list('alice', '&name=parcels');
    expect(body.projects[0]).toMatchObject({
      has_conflict: true,
      access: { readersnames: ['bob'] },
    });
  });
});

describe('GET /v1/project/paginated: filters and sorting', () => {
  it('name is a case-insensitive substring, wildcards taken literally', async () => {
    expect(await names('admin', '&name=OAD')).toEqual(['waymark/Roads']);
    expect(await names('admin', '&name=%25')).toEqual(['team/trees_100%']);
    expect(await names('admin', '&name=s_1')).toEqual(['team/trees_100%']);
    expect(await names('admin', '&name=zzz')).toEqual([]);
  });

  it('namespace and only_namespace filter by workspace; unknown ones give nothing', async () => {
    expect(await names('admin', '&namespace=team&order_params=name_asc')).toEqual([
      'team/parcels',
      'team/trees_100%',
    ]);
    expect(await names('admin', '&only_namespace=waymark&order_params=name_asc')).toEqual([
      'waymark/Roads',
      'waymark/survey',
    ]);
    expect(await list('admin', '&only_namespace=nowhere')).toEqual({ projects: [], count: 0 });
  });

  it('flag=created and flag=shared, for the caller or the named user', async () => {
    expect(await names('alice', '&flag=created&order_params=name_asc')).toEqual([
      'team/parcels',
      'waymark/survey',
    ]);
    expect(await names('bob', '&flag=created')).toEqual(['waymark/Roads']);
    expect(await names('bob', '&flag=shared&order_params=name_asc')).toEqual([
      'team/parcels',
      'waymark/survey',
    ]);
    // Dave reads the whole team workspace: everything there not made by him is shared.
    expect(await names('admin', '&flag=shared&user=dave&order_params=name_asc')).toEqual([
      'team/parcels',
      'team/trees_100%',
    ]);
    // Unknown user: the flag is ignored.
    expect((await list('admin', '&flag=created&user=nobody')).count).toBe(4);
    // Anonymous: the flag is ignored.
    expect((await list(null, '&flag=created')).count).toBe(2);
  });

  it('last_updated_in counts days back from now', async () => {
    t.clock.ms = base + 30 * DAY;
    expect(await names('admin', '&last_updated_in=21')).toEqual(['waymark/Roads']);
    expect(await names('admin', '&last_updated_in=23&order_params=updated_desc')).toEqual([
      'waymark/Roads',
      'team/parcels',
    ]);
  });

  it('sorts by order_params tokens, the web client names included', async () => {
    expect(await names('admin', '&order_params=name_desc')).toEqual([
      'team/trees_100%',
      'waymark/survey',
      'waymark/Roads',
      'team/parcels',
    ]);
    // A bare column sorts descending.
    expect(await names('admin', '&order_params=name')).toEqual(
      await names('admin', '&order_params=name_desc'),
    );
    expect(await names('admin', '&order_params=meta.size_desc')).toEqual([
      'waymark/Roads',
      'waymark/survey',
      'team/parcels',
      'team/trees_100%',
    ]);
    expect(await names('admin', '&order_params=disk_usage_asc')).toEqual([
      'team/trees_100%',
      'team/parcels',
      'waymark/survey',
      'waymark/Roads',
    ]);
    expect(await names('admin', '&order_params=namespace_asc,created_desc')).toEqual([
      'team/trees_100%',
      'team/parcels',
      'waymark/Roads',
      'waymark/survey',
    ]);
    expect(await names('admin', '&order_params=updated_desc')).toEqual([
      'waymark/Roads',
      'team/parcels',
      'waymark/survey',
      'team/trees_100%',
    ]);
    // Legacy order_by + descending.
    expect(await names('admin', '&order_by=created&descending=true')).toEqual([
      'team/trees_100%',
      'team/parcels',
      'waymark/Roads',
      'waymark/survey',
    ]);
  });

  it('refuses unknown sort fields with a clear error', async () => {
    for (const order of ['bogus_asc', 'name_asc,owner_desc', 'disk usage_desc']) {
      const response = await t
        .client()
        .get(`/v1/project/paginated?page=1&per_page=10&order_params=${encodeURIComponent(order)}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/^Cannot sort by '[^']+': order_params takes/);
    }
  });

  it('pages with a total count; past the end is 404', async () => {
    const client = await as('admin');
    const page = async (query: string) =>
      client.get(`/v1/project/paginated?order_params=name_asc&${query}`);
    const second = await page('page=2&per_page=3');
    expect(second.statusCode).toBe(200);
    expect(second.json<ListBody>().count).toBe(4);
    expect(second.json<ListBody>().projects.map((p) => p.name)).toEqual(['trees_100%']);
    const past = await page('page=3&per_page=3');
    expect(past.statusCode).toBe(404);
    expect(problem(past).detail).toMatch(/^The requested URL was not found/);
    const empty = await client.get('/v1/project/paginated?page=1&per_page=5&name=zzz');
    expect(empty.json()).toEqual({ projects: [], count: 0 });
    expect((await page('page=1&per_page=0')).statusCode).toBe(404);
  });

  it.each([
    ['per_page=10', "Missing query parameter 'page'"],
    ['page=1', "Missing query parameter 'per_page'"],
    ['page=0&per_page=10', '0 is less than the minimum of 1'],
    ['page=1&per_page=101', '101 is greater than the maximum of 100'],
    ['page=x&per_page=10', "'x' is not of type 'integer'"],
    ['page=1&per_page=10&flag=mine', "'mine' is not one of ['created', 'shared']"],
    ['page=1&per_page=10&as_admin=maybe', "'maybe' is not of type 'boolean'"],
  ])('answers 400 for %s', async (query, detail) => {
    const response = await t.client().get(`/v1/project/paginated?${query}`);
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe(detail);
  });
});

describe('POST /v1/project/:namespace', () => {
  async function create(username: string | null, namespace: string, body: unknown) {
    const client = await as(username);
    await client.init(); // a CSRF token for the test clock's current time
    return client.post(`/v1/project/${encodeURIComponent(namespace)}`, body);
  }

  it('needs a signed-in user', async () => {
    const response = await create(null, 'waymark', { name: 'x' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toBe('Authentication information is missing or invalid.');
  });

  it.each([
    [{}, "'name' is a required property"],
    [{ name: '  ' }, 'Project name cannot be empty'],
    [{ name: 'a/b' }, 'Please use only alphanumeric or the following -_. characters.'],
    [{ name: ' .dot' }, 'Value can not start with space or dot.'],
    [{ name: 'admin' }, 'The provided value is invalid.'],
    [{ name: 'aux' }, 'The provided value is invalid.'],
    [{ name: 'ok', public: 'yes' }, "'yes' is not of type 'boolean' - 'public'"],
  ])('answers 400 for %j', async (body, detail) => {
    // The name is checked before the workspace.
    const response = await create('carol', 'nowhere', body);
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe(detail);
  });

  it('answers 404 for an unknown workspace, 403 without workspace admin', async () => {
    const unknown = await create('carol', 'nowhere', { name: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown).detail).toBe('Workspace does not exist');
    const own = await create('carol', 'Carol', { name: 'x' });
    expect(problem(own).detail).toBe(
      'Workspace does not exist. Please try updating to the newest version',
    );
    const denied = await create('dave', 'team', { name: 'x' });
    expect(denied.statusCode).toBe(403);
    expect(problem(denied).detail).toBe('You do not have permissions for this workspace');
    const writer = await create('erin', 'waymark', { name: 'x' });
    expect(writer.statusCode).toBe(403);
  });

  it('creates an empty project at v0 whose creator is its owner', async () => {
    t.clock.advance(3600 * 1000 + 500);
    const now = new Date(t.clock.ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const response = await create('alice', 'team', { name: '  Field survey 2024 ', public: true });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const [project] = await t.database.db
      .select()
      .from(projects)
      .where(and(eq(projects.workspaceId, teamId), eq(projects.name, 'Field survey 2024')));
    expect(project).toMatchObject({ public: true, creatorId: people.alice!.id, latestVersion: 0 });
    const versions = await t.database.db
      .select()
      .from(projectVersions)
      .where(eq(projectVersions.projectId, project!.id));
    expect(versions).toEqual([
      expect.objectContaining({ name: 0, authorId: people.alice!.id, projectSize: 0 }),
    ]);
    const item = (await list('alice', '&name=Field survey')).projects[0];
    expect(item).toMatchObject({
      namespace: 'team',
      version: 'v0',
      created: now,
      updated: now,
      creator: people.alice!.id,
      disk_usage: 0,
      tags: [],
      permissions: { upload: true, update: true, delete: true },
      access: expect.objectContaining({
        owners: [people.alice!.id],
        ownersnames: ['alice'],
        readers: [people.alice!.id],
        public: true,
      }),
    });
    // Private by default; superusers may create anywhere.
    expect((await create('admin', 'waymark', { name: 'private one' })).statusCode).toBe(200);
    const [hidden] = await t.database.db
      .select()
      .from(projects)
      .where(eq(projects.name, 'private one'));
    expect(hidden?.public).toBe(false);
  });

  it('answers 409 for a name taken in the workspace (case-sensitive)', async () => {
    const taken = await create('admin', 'waymark', { name: 'survey' });
    expect(taken.statusCode).toBe(409);
    expect(problem(taken).detail).toBe('Project with the same name already exists');
    expect((await create('admin', 'waymark', { name: 'Survey' })).statusCode).toBe(200);
    expect((await create('alice', 'team', { name: 'survey' })).statusCode).toBe(200);

    // Scheduled for deletion 4 days ago: purged (and the name free) in 3 days.
    await t.database.db.insert(projects).values({
      workspaceId: teamId,
      name: 'gone',
      removedAt: new Date(t.clock.ms - 4 * DAY),
    });
    const removed = await create('admin', 'team', { name: 'gone' });
    expect(removed.statusCode).toBe(409);
    expect(problem(removed).detail).toBe(
      'Project with the same name is scheduled for deletion, you can create a project with this name in 3 days',
    );
    const old = await create('admin', 'waymark', { name: 'old' });
    expect(problem(old).detail).toMatch(/is scheduled for deletion, .* in N\/A$/);
  });

  it('needs a CSRF token with a session cookie', async () => {
    const client = await as('alice');
    await client.init();
    const response = await client.post('/v1/project/team', { name: 'csrf' }, { csrf: false });
    expect(problem(response).detail).toBe('The CSRF token is missing.');
  });
});
