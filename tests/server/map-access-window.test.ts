/**
 * The map's requests of one view reuse one access decision (issue 35): the tiles of a file
 * version asked with the same credential within ACCESS_WINDOW_MS send no database statement
 * beyond the first (services/permissions/access-window.ts, plugins/auth.ts `deferAuth`), and
 * a revoked access (member removed, project made private, token revoked, session ended) stops
 * the tiles once that window has passed, on the test clock. 'Show on map' of a version's
 * changes reads the project and the caller's roles once (permissions/request-memo.ts).
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import type { Project, User } from '../../server/src/db/schema';
import type { CreatedPersonalToken } from '../../server/src/schemas/personal-tokens';
import { runPendingChangesets } from '../../server/src/services/changesets';
import { ACCESS_WINDOW_MS, clearAccessWindow } from '../../server/src/services/permissions';
import { gridPoints, writeGeoPackage, type TestLayer } from './support/map-geopackage';
import { scratch, type Scratch } from './support/geopackage';
import { recordStatements, statementsOf as statementsIn } from './support/statements';
import { commit, createProject, signedInUser } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const FILE = 'survey/points.gpkg';
const AREA: [number, number, number, number] = [14, 49, 24, 55];

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let surveyor: { user: User; client: TestClient };
let survey: Project;
let open: Project;
let statements: string[] = [];
/** The project lookup by path with the caller's roles (db/queries/projects.ts findProjectByPath). */
const PROJECT_LOOKUP = /from "workspaces" left join "projects"/i;

const layer = (count: number): TestLayer => ({
  name: 'points',
  srsId: 4326,
  type: 'POINT',
  rtree: true,
  columns: { name: 'TEXT' },
  rows: gridPoints(count, AREA),
});

async function gpkg(name: string, count: number): Promise<Buffer> {
  const file = path.join(s.dir, name);
  writeGeoPackage(file, [layer(count)]);
  return readFile(file);
}

/** The tiles of one view at zoom 5 over AREA (the data's extent). */
const VIEW: [number, number, number][] = [
  [5, 17, 10],
  [5, 18, 10],
  [5, 17, 11],
  [5, 18, 11],
  [5, 17, 12],
  [5, 18, 12],
];

const tileUrl = (project: Project, [z, x, y]: [number, number, number], version = 'v1') =>
  `/app/map/waymark/${project.name}/tiles/points/${z}/${x}/${y}.mvt?file=${encodeURIComponent(FILE)}&version=${version}`;

/** A request with exactly these headers (no cookie jar: a credential kept after it ended). */
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

const statementsOf = (run: () => Promise<void>) => statementsIn(statements, run);

/** The status of a tile request made after the access window of earlier decisions. */
async function afterTheWindow(url: string, headers: Record<string, string> = {}) {
  t.clock.advance(ACCESS_WINDOW_MS);
  return (await get(url, headers)).statusCode;
}

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  surveyor = await signedInUser(t, 'surveyor');
  survey = await createProject(t, { name: 'survey', public: false });
  await upsertProjectMembers(t.database.db, survey.id, [
    { userId: surveyor.user.id, role: 'reader' },
  ]);
  await commit(t, survey.id, { added: { [FILE]: await gpkg('v1.gpkg', 500) } });
  await commit(t, survey.id, { updated: { [FILE]: await gpkg('v2.gpkg', 600) } });
  await runPendingChangesets(t.app.ctx);
  open = await createProject(t, { name: 'open-data', public: true });
  await commit(t, open.id, { added: { [FILE]: await gpkg('open.gpkg', 500) } });
  statements = recordStatements(t.database);
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

beforeEach(() => {
  clearAccessWindow(t.app.ctx);
});

describe('the tiles of one view', () => {
  it('cost one access decision: the first tile reads the project and the file; the others read nothing', async () => {
    const cookie = surveyor.client.cookieHeader();
    const first = await statementsOf(async () => {
      const response = await get(tileUrl(survey, VIEW[0]!), { cookie });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(first.some((sql) => PROJECT_LOOKUP.test(sql))).toBe(true);
    for (const tile of VIEW.slice(1)) {
      const warm = await statementsOf(async () => {
        const response = await get(tileUrl(survey, tile), { cookie });
        expect([200, 204], response.body).toContain(response.statusCode);
      });
      expect(warm).toEqual([]);
    }
    // Another version, or the same one after the window: decided again.
    const other = await statementsOf(async () => {
      expect((await get(tileUrl(survey, VIEW[0]!, 'v2'), { cookie })).statusCode).toBe(200);
    });
    expect(other.some((sql) => PROJECT_LOOKUP.test(sql))).toBe(true);
    t.clock.advance(ACCESS_WINDOW_MS);
    const later = await statementsOf(async () => {
      expect((await get(tileUrl(survey, VIEW[1]!), { cookie })).statusCode).toBe(200);
    });
    expect(later.some((sql) => PROJECT_LOOKUP.test(sql))).toBe(true);
  });

  it('asked at the same time (six at once, as a browser does) share one decision', async () => {
    const cookie = surveyor.client.cookieHeader();
    const all = await statementsOf(async () => {
      const answers = await Promise.all(VIEW.map((tile) => get(tileUrl(survey, tile), { cookie })));
      for (const answer of answers) expect([200, 204]).toContain(answer.statusCode);
    });
    expect(all.filter((sql) => PROJECT_LOOKUP.test(sql))).toHaveLength(1);
    expect(all.filter((sql) => /from "sessions"/i.test(sql)).length).toBeLessThanOrEqual(1);
  });

  it('are not shared between credentials: another caller is decided for itself', async () => {
    const cookie = surveyor.client.cookieHeader();
    expect((await get(tileUrl(survey, VIEW[0]!), { cookie })).statusCode).toBe(200);
    // Anonymous, and a session of someone else without a role: refused at once.
    expect((await get(tileUrl(survey, VIEW[0]!))).statusCode).toBe(403);
    const stranger = await signedInUser(t, 'stranger');
    const refused = await get(tileUrl(survey, VIEW[0]!), {
      cookie: stranger.client.cookieHeader(),
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('a revoked access stops the tiles within the window', () => {
  it('member removed', async () => {
    const { user, client } = await signedInUser(t, 'removed-member');
    await upsertProjectMembers(t.database.db, survey.id, [{ userId: user.id, role: 'reader' }]);
    const cookie = client.cookieHeader();
    expect((await get(tileUrl(survey, VIEW[0]!), { cookie })).statusCode).toBe(200);
    const removed = await admin.delete(`/v2/projects/${survey.id}/collaborators/${user.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    // Within the window the decision made before stands (that is the window)...
    expect((await get(tileUrl(survey, VIEW[1]!), { cookie })).statusCode).toBe(200);
    // ...and once it has passed, the tiles stop.
    expect(await afterTheWindow(tileUrl(survey, VIEW[2]!), { cookie })).toBe(403);
  });

  it('project made private', async () => {
    expect((await get(tileUrl(open, VIEW[0]!))).statusCode).toBe(200);
    const patched = await admin.request('PATCH', `/app/project/${open.id}/access`, {
      json: { public: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await get(tileUrl(open, VIEW[1]!))).statusCode).toBe(200);
    expect(await afterTheWindow(tileUrl(open, VIEW[2]!))).toBe(403);
    const reopened = await admin.request('PATCH', `/app/project/${open.id}/access`, {
      json: { public: true },
    });
    expect(reopened.statusCode, reopened.body).toBe(200);
  });

  it('personal access token revoked', async () => {
    const made = await surveyor.client.post('/app/auth/tokens', {
      name: 'map',
      scope: 'read',
      expires_in_days: 30,
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json() as CreatedPersonalToken;
    const authorization = `Bearer ${token.token}`;
    const warm = await statementsOf(async () => {
      expect((await get(tileUrl(survey, VIEW[0]!), { authorization })).statusCode).toBe(200);
    });
    expect(warm.length).toBeGreaterThan(0);
    const second = await statementsOf(async () => {
      expect((await get(tileUrl(survey, VIEW[1]!), { authorization })).statusCode).toBe(200);
    });
    expect(second).toEqual([]);
    expect((await surveyor.client.delete(`/app/auth/tokens/${token.id}`)).statusCode).toBe(204);
    expect(await afterTheWindow(tileUrl(survey, VIEW[2]!), { authorization })).toBe(401);
  });

  it('session ended', async () => {
    const { user, client } = await signedInUser(t, 'leaving');
    await upsertProjectMembers(t.database.db, survey.id, [{ userId: user.id, role: 'reader' }]);
    const cookie = client.cookieHeader();
    expect((await get(tileUrl(survey, VIEW[0]!), { cookie })).statusCode).toBe(200);
    expect((await client.post('/app/auth/logout')).statusCode).toBe(200);
    // The ended session's cookie, sent again: an anonymous caller of a private project.
    expect(await afterTheWindow(tileUrl(survey, VIEW[1]!), { cookie })).toBe(403);
  });
});

describe("'Show on map' of a version's changes", () => {
  it('reads the project and the caller’s roles once for the changeset, the file and the file before', async () => {
    const cookie = surveyor.client.cookieHeader();
    const url = `/app/map/waymark/survey/changes?file=${encodeURIComponent(FILE)}&version=v2`;
    // The first call may still compute the changeset; then it answers from it.
    await get(url, { cookie });
    const sent = await statementsOf(async () => {
      const response = await get(url, { cookie });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(sent.filter((sql) => PROJECT_LOOKUP.test(sql))).toHaveLength(1);
  });
});
