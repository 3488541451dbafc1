/**
 * Community templates (spec 001 §1, api-reference A.5): the list, and POST /v1/project/{ns}
 * with `template` starting a project at v1 with the template's latest files (by reference);
 * only templates the caller may read, and only the operator names an account TEMPLATES
 * (issue 29).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { fileHistory, projectFiles, projects, users, type User } from '../../server/src/db/schema';
import { USERNAME_RESERVED } from '../../server/src/services/templates';
import { commit, createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let templateId: string;

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, PASSWORD);
    clients.set(username, client);
  }
  return client;
}

const create = async (user: string, namespace: string, body: unknown) =>
  (await as(user)).post(`/v1/project/${namespace}`, body);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'TEMPLATES']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username.toLowerCase()}@example.com`,
      passwordHash,
      verifiedEmail: true,
      active: true,
    });
  }
  // The templates live in a workspace alice is no member of: a public template is anybody's.
  const library = await insertWorkspace(db, { name: 'library', storage: 10_000 });
  await setWorkspaceMember(db, library.id, people.TEMPLATES!.id, 'owner');
  const small = await insertWorkspace(db, { name: 'small', storage: 10 });
  await setWorkspaceMember(db, small.id, people.alice!.id, 'admin');
  const team = await insertWorkspace(db, { name: 'team', storage: 10_000 });
  await setWorkspaceMember(db, team.id, people.alice!.id, 'admin');
  await setWorkspaceMember(db, team.id, people.bob!.id, 'writer');

  const template = await createProject(t, {
    workspaceId: library.id,
    name: 'tree-survey',
    creatorId: people.TEMPLATES!.id,
    public: true,
  });
  templateId = template.id;
  await commit(t, template.id, {
    added: { 'survey.qgz': 'PK\u0003\u0004old', 'data/trees.gpkg': 'SQLite format 3\0' },
  });
  await commit(t, template.id, {
    added: { 'qgis_cfg.xml': '<cfg/>' },
    updated: { 'survey.qgz': 'PK\u0003\u0004new' },
  });
  // Someone else's project of a template's name is no template.
  const lookalike = await createProject(t, { workspaceId: team.id, name: 'lookalike' });
  await commit(t, lookalike.id, { added: { 'x.txt': 'x' } });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /app/project/templates', () => {
  it('lists the TEMPLATES user’s live public projects to any signed-in user', async () => {
    const response = await (await as('bob')).get('/app/project/templates');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: templateId, name: 'tree-survey', namespace: 'library', version: 'v2' },
    ]);
  });
});

describe('POST /v1/project/{namespace} with a template', () => {
  it('starts the project at v1 with the template’s latest files, by reference', async () => {
    const response = await create('alice', 'team', {
      name: ' Trees 2026 ',
      template: 'tree-survey',
      public: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');

    const detail = (await (await as('alice')).get('/v1/project/team/Trees 2026')).json();
    expect(detail).toMatchObject({
      name: 'Trees 2026',
      namespace: 'team',
      version: 'v1',
      public: false,
      creator: people.alice!.id,
      access: { ownersnames: ['alice'] },
    });
    // The clone's exclusions apply: qgis_cfg.xml is not copied.
    expect(detail.files.map((f: { path: string }) => f.path)).toEqual([
      'data/trees.gpkg',
      'survey.qgz',
    ]);
    const db = t.database.db;
    const keys = async (projectId: string) =>
      (
        await db
          .select({ path: projectFiles.path, key: projectFiles.blobKey })
          .from(projectFiles)
          .where(eq(projectFiles.projectId, projectId))
      )
        .filter((row) => row.path !== 'qgis_cfg.xml')
        .sort((a, b) => a.path.localeCompare(b.path));
    expect(await keys(detail.id)).toEqual(await keys(templateId));
    const history = await db
      .select({ change: fileHistory.change, version: fileHistory.versionName })
      .from(fileHistory)
      .where(eq(fileHistory.projectId, detail.id));
    expect(history).toEqual(Array(2).fill({ change: 'create', version: 1 }));
    // No v0 record.
    const v0 = await (await as('alice')).get('/v1/project/team/Trees 2026?version=v0');
    expect(v0.statusCode).toBe(404);
    // The template is untouched.
    const [template] = await db.select().from(projects).where(eq(projects.id, templateId));
    expect(template!.latestVersion).toBe(2);
  });

  it('answers the reference’s 404 for a name that is not a template', async () => {
    for (const template of ['lookalike', 'no-such', 'TREE-SURVEY']) {
      const response = await create('alice', 'team', { name: `from-${template}`, template });
      expect(response.statusCode).toBe(404);
    }
    const made = await (await as('alice')).get('/v1/project/team/from-lookalike');
    expect(made.statusCode).toBe(404);
  });

  it('checks name, workspace, permission and name clash before the template', async () => {
    const unknown = { template: 'no-such' };
    let response = await create('alice', 'team', { ...unknown, name: ' ' });
    expect(problem(response)).toMatchObject({
      status: 400,
      detail: 'Project name cannot be empty',
    });
    response = await create('alice', 'nowhere', { ...unknown, name: 'x' });
    expect(problem(response)).toMatchObject({ status: 404, detail: 'Workspace does not exist' });
    response = await create('bob', 'team', { ...unknown, name: 'x' });
    expect(problem(response)).toMatchObject({
      status: 403,
      detail: 'You do not have permissions for this workspace',
    });
    await create('alice', 'team', { name: 'taken' });
    response = await create('alice', 'team', { ...unknown, name: 'taken' });
    expect(problem(response)).toMatchObject({
      status: 409,
      detail: 'Project with the same name already exists',
    });
  });

  it('refuses a template that does not fit the storage with the reference’s 400', async () => {
    const response = await create('alice', 'small', { name: 'too-big', template: 'tree-survey' });
    expect(problem(response)).toMatchObject({
      status: 400,
      detail: 'Failed to initialize project: Disk quota reached',
    });
    expect((await (await as('alice')).get('/v1/project/small/too-big')).statusCode).toBe(404);
  });

  it('refuses a template of the wrong type and treats null or empty as no template', async () => {
    let response = await create('alice', 'team', { name: 'typed', template: 5 });
    expect(response.statusCode).toBe(400);
    for (const [name, template] of [
      ['blank-null', null],
      ['blank-empty', ''],
    ] as const) {
      response = await create('alice', 'team', { name, template });
      expect(response.statusCode).toBe(200);
      const detail = (await (await as('alice')).get(`/v1/project/team/${name}`)).json();
      expect(detail).toMatchObject({ version: 'v0', files: [] });
    }
  });

  it('does not offer a template scheduled for deletion', async () => {
    const gone = await createProject(t, {
      name: 'gone',
      creatorId: people.TEMPLATES!.id,
      public: true,
    });
    await commit(t, gone.id, { added: { 'a.txt': 'a' } });
    await t.database.db
      .update(projects)
      .set({ removedAt: t.clock.now() })
      .where(eq(projects.id, gone.id));
    const response = await create('alice', 'team', { name: 'from-gone', template: 'gone' });
    expect(response.statusCode).toBe(404);
  });
});

describe('who publishes templates and who sees them (issue 29)', () => {
  /** Alice administers `team`: she may create accounts in it through POST /v2/users. */
  async function createAccount(body: Record<string, unknown>) {
    return (await as('alice')).post('/v2/users', {
      password: 'Template-Password-1',
      role: 'writer',
      workspace_id: await teamId(),
      ...body,
    });
  }

  it('a workspace admin cannot create a TEMPLATES account, in any letter case', async () => {
    // Without the operator's account, the name is free: a workspace admin must not take it.
    await t.database.db
      .update(users)
      .set({ username: 'TEMPLATES-operator' })
      .where(eq(users.id, people.TEMPLATES!.id));
    try {
      for (const username of ['TEMPLATES', 'templates', 'Templates', ' TEMPLATES ']) {
        const response = await createAccount({
          username,
          email: `${username.trim().toLowerCase()}-${username.length}@example.org`,
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({ username: [`Username ${USERNAME_RESERVED}`] });
      }
      // A name made from the email skips it too.
      const derived = await createAccount({ email: 'templates@example.org' });
      expect(derived.statusCode, derived.body).toBe(201);
      expect(derived.json().username).toBe('templates1');
      const names = (await t.database.db.select({ name: users.username }).from(users)).map((row) =>
        row.name.toLowerCase(),
      );
      expect(names).not.toContain('templates');
    } finally {
      await t.database.db
        .update(users)
        .set({ username: 'TEMPLATES' })
        .where(eq(users.id, people.TEMPLATES!.id));
    }
  });

  it('neither can someone registering from an invitation link', async () => {
    const invite = await (
      await as('alice')
    ).post(`/v2/workspaces/${await teamId()}/invitations`, {
      email: 'newcomer@example.org',
      role: 'reader',
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const mail = (await t.outbox()).filter((m) => m.to === 'newcomer@example.org').at(-1)!;
    const token = mail.links[0]!.split('/').at(-1)!;
    const visitor = t.client();
    await visitor.init();
    const response = await visitor.post(`/app/invitations/${token}/register`, {
      username: 'templates',
      password: 'Template-Password-1',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ username: [`Username ${USERNAME_RESERVED}`] });
  });

  it('lists and copies only templates the caller may read', async () => {
    const db = t.database.db;
    const hidden = await insertWorkspace(db, { name: 'hidden-library', storage: 10_000 });
    const secret = await createProject(t, {
      workspaceId: hidden.id,
      name: 'secret-template',
      creatorId: people.TEMPLATES!.id,
    });
    await commit(t, secret.id, { added: { 'secret.txt': 'private' } });

    const listed = async (user: string) =>
      ((await (await as(user)).get('/app/project/templates')).json() as { name: string }[]).map(
        (row) => row.name,
      );
    expect(await listed('alice')).toEqual(['tree-survey']);
    const refused = await create('alice', 'team', {
      name: 'from-secret',
      template: 'secret-template',
    });
    expect(refused.statusCode).toBe(404);
    expect((await (await as('alice')).get('/v1/project/team/from-secret')).statusCode).toBe(404);

    // A member of its workspace reads it: it is theirs to list and copy.
    await setWorkspaceMember(db, hidden.id, people.alice!.id, 'reader');
    expect(await listed('alice')).toEqual(['secret-template', 'tree-survey']);
    const copied = await create('alice', 'team', {
      name: 'from-secret',
      template: 'secret-template',
    });
    expect(copied.statusCode, copied.body).toBe(200);
    expect(await listed('bob')).toEqual(['tree-survey']);
  });
});

async function teamId(): Promise<number> {
  const list = (await (await as('alice')).get('/v1/workspaces')).json() as {
    id: number;
    name: string;
  }[];
  return list.find((w) => w.name === 'team')!.id;
}
