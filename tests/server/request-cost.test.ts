// Request cost: how many database statements one authenticated project-list request makes
// (issue 9's requests-per-second target; on PGlite each statement costs about a millisecond),
// with and without the read cache (server/src/db/read-cache.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers } from '../../server/src/db/schema';
import { createProject } from './support/seed';
import { recordStatements, statementsOf as statementsIn } from './support/statements';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const LIST = '/v1/project/paginated?page=1&per_page=25&order_params=updated_desc';
let t: TestApp;
let admin: TestClient;
let statements: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (let n = 0; n < 30; n++) {
    const project = await createProject(t, { name: `cost-${n}`, public: n % 3 === 0 });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: project.id, userId: 1, role: 'owner' });
  }
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  statements = recordStatements(t.database);
});

afterAll(async () => {
  await t.close();
});

const statementsOf = (run: () => Promise<void>) => statementsIn(statements, run);

/**
 * The statements of a request that answers from the read cache, measured again (for up to
 * 45 s) until it does: on PostgreSQL any commit in the cluster (other test files share it)
 * changes the snapshot between two requests, and the request then rightly reads everything.
 */
async function cachedStatementsOf(expected: number, run: () => Promise<void>) {
  const until = Date.now() + 45_000;
  let measured: string[];
  do {
    measured = await statementsOf(run);
  } while (measured.length !== expected && Date.now() < until);
  return measured;
}

describe('authenticated project list', () => {
  it('costs the session with its user, the workspace roles and one page statement; then only the snapshot while nothing is committed', async () => {
    let body: { projects: { access: { owners: number[] } }[]; count: number } | undefined;
    // The first request after sign-in: nothing cached for this session; no touch (the
    // session was recorded at sign-in).
    const first = await statementsOf(async () => {
      const response = await admin.get(LIST);
      expect(response.statusCode).toBe(200);
      body = response.json();
    });
    expect(body?.count).toBe(30);
    expect(body?.projects).toHaveLength(25);
    expect(body?.projects.every((p) => p.access.owners.includes(1))).toBe(true);
    // Nothing cached under the session: no snapshot read first (the session's read answers it).
    expect(first).toHaveLength(3);
    expect(first[0]).toMatch(/from "sessions" inner join "users"/i);

    // Nothing committed since: the session, its user and the page come from the read cache.
    let cachedBody: unknown;
    const cached = await cachedStatementsOf(1, async () => {
      const response = await admin.get(LIST);
      expect(response.statusCode).toBe(200);
      cachedBody = response.json();
    });
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/pg_current_snapshot/);
    expect(cachedBody).toEqual(body);
    // On PGlite not even the snapshot is read again while no statement at all ran since
    // (db/pglite-snapshot.ts); PostgreSQL is asked each time.
    const pglite = t.database.kind === 'pglite';
    const next = await cachedStatementsOf(pglite ? 0 : 1, async () => {
      expect((await admin.get(LIST)).json()).toEqual(body);
    });
    expect(next).toHaveLength(pglite ? 0 : 1);

    // A minute later the session's last-seen time is recorded once: the session is read
    // again and touched (the page is still the cached one: nothing was committed between
    // the snapshot and the session read).
    t.clock.advance(61_000);
    const touched = await statementsOf(async () => {
      expect((await admin.get(LIST)).statusCode).toBe(200);
    });
    // (On PostgreSQL a commit elsewhere in the cluster may add the page's statements, and
    // lookups that kept missing meanwhile spare the snapshot probe: db/read-cache.ts.)
    if (pglite) expect(touched).toHaveLength(2);
    else expect(touched.length).toBeGreaterThanOrEqual(2);
    expect(touched.filter((s) => /^update "sessions"/i.test(s))).toHaveLength(1);
    // The touch was a commit: everything is read once more, then cached again.
    const after = await statementsOf(async () => {
      expect((await admin.get(LIST)).statusCode).toBe(200);
    });
    if (pglite) expect(after).toHaveLength(4);
    else expect(after.length).toBeGreaterThanOrEqual(3);
    expect(after.filter((s) => /^update /i.test(s))).toHaveLength(0);
    const again = await cachedStatementsOf(1, async () => {
      expect((await admin.get(LIST)).statusCode).toBe(200);
    });
    expect(again).toHaveLength(1);
  });

  it('reads again after any commit, here a new member of a listed project', async () => {
    expect((await admin.get(LIST)).statusCode).toBe(200);
    const idle = t.database.kind === 'pglite' ? 0 : 1;
    expect(
      (await cachedStatementsOf(idle, async () => void (await admin.get(LIST)))).length,
    ).toBeLessThan(2);
    const [newest] = (await admin.get(LIST)).json().projects as { id: string }[];
    const reader = await insertUser(t.database.db, {
      username: 'cost-reader',
      email: 'cost-reader@example.com',
      passwordHash: 'x',
    });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: newest!.id, userId: reader.id, role: 'reader' });
    let item: { id: string; access: { readers: number[] } } | undefined;
    const statementsAfter = await statementsOf(async () => {
      item = (await admin.get(LIST)).json().projects[0];
    });
    expect(statementsAfter.length).toBeGreaterThan(1);
    expect(item?.id).toBe(newest!.id);
    expect(item?.access.readers).toEqual([1, reader.id]);
  });
});
