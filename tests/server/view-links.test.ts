/**
 * Read-only view links (issue 32): owners make, list and revoke them; whoever holds one reads
 * the project's map and attribute tables (not its files, not its members, no exports) until
 * it expires or is revoked, each opening logged; ended, forged and foreign links are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import type { Project } from '../../server/src/db/schema';
import {
  VIEW_LINK_EXPIRY,
  VIEW_LINK_NOT_FOUND,
  type ViewLink,
  type ViewLinkList,
  type ViewLinkOpen,
  type ViewLinkUses,
} from '../../server/src/schemas/view-links';
import { dataOutGeoPackage } from './support/data-out';
import { scratch, type Scratch } from './support/geopackage';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

let t: TestApp;
let s: Scratch;
let owner: TestClient;
let reader: TestClient;
let anonymous: TestClient;
let survey: Project;
let other: Project;

const FILE = 'survey/data.gpkg';
const DAY = 24 * 3600 * 1000;
const links = (project: Project) => `/app/project/view-links/waymark/${project.name}`;
const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();

async function makeLink(project: Project, days = 7, label = 'for the council'): Promise<ViewLink> {
  const response = await owner.post(links(project), { expires_at: inDays(days), label });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ViewLink;
}

const layersWith = (project: Project, token: string) =>
  `/app/map/waymark/${project.name}/layers?file=${encodeURIComponent(FILE)}&link=${token}`;

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  owner = t.client();
  await owner.login('admin', ADMIN_PASSWORD);
  const readerUser = await insertUser(t.database.db, {
    username: 'reader',
    email: 'reader@example.com',
    passwordHash: await hashPassword('Field-Password-1'),
    verifiedEmail: true,
  });
  reader = t.client();
  await reader.login('reader', 'Field-Password-1');
  anonymous = t.client();
  await anonymous.init();
  survey = await createProject(t, { name: 'survey' });
  other = await createProject(t, { name: 'other' });
  await upsertProjectMembers(t.database.db, survey.id, [{ userId: readerUser.id, role: 'reader' }]);
  await commit(t, survey.id, {
    added: { [FILE]: await dataOutGeoPackage(s.dir, false), 'notes.txt': 'x' },
  });
  await commit(t, other.id, { added: { [FILE]: await dataOutGeoPackage(s.dir, false) } });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('view links', () => {
  it('opens the map and attribute tables of a private project, and logs each use', async () => {
    const link = await makeLink(survey);
    expect(link).toMatchObject({
      label: 'for the council',
      status: 'active',
      uses: 0,
      created_by: 'admin',
    });
    expect(link.token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);

    expect((await anonymous.get(layersWith(survey, 'x'))).statusCode).toBe(400);
    const plain = `/app/map/waymark/survey/layers?file=${encodeURIComponent(FILE)}`;
    expect((await anonymous.get(plain)).statusCode).toBe(403);

    const opened = await anonymous.get(`/app/view/${link.token}`, {
      headers: { 'user-agent': 'Field tablet' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({
      namespace: 'waymark',
      name: 'survey',
      label: 'for the council',
      expires_at: link.expires_at,
      latest_version: 'v1',
      map_files: [FILE],
    } satisfies ViewLinkOpen);

    expect((await anonymous.get(layersWith(survey, link.token))).statusCode).toBe(200);
    const features = await anonymous.get(
      `/app/map/waymark/survey/features/trees?file=${encodeURIComponent(FILE)}&version=v1&link=${link.token}`,
    );
    expect(features.statusCode).toBe(200);
    expect((features.json() as { count: number }).count).toBe(3);
    const tile = await anonymous.get(
      `/app/map/waymark/survey/tiles/parks/0/0/0.mvt?file=${encodeURIComponent(FILE)}&link=${link.token}`,
    );
    // Past the access check (the park is too small to show at zoom 0).
    expect([200, 204]).toContain(tile.statusCode);

    const uses = (await owner.get(`${links(survey)}/${link.id}/uses`)).json() as ViewLinkUses;
    expect(uses.uses).toHaveLength(1);
    expect(uses.uses[0]).toMatchObject({ username: null, user_agent: 'Field tablet' });
    const listed = (await owner.get(links(survey))).json() as ViewLinkList;
    expect(listed.links.find((l) => l.id === link.id)).toMatchObject({ uses: 1, status: 'active' });
  });

  it('gives neither files, members nor exports', async () => {
    const link = await makeLink(survey);
    const q = `link=${link.token}`;
    expect(
      (await anonymous.get(`/v1/project/raw/waymark/survey?file=notes.txt&${q}`)).statusCode,
    ).toBe(403);
    expect((await anonymous.get(`/v1/project/waymark/survey?${q}`)).statusCode).toBe(403);
    expect(
      (
        await anonymous.get(
          `/app/export/waymark/survey/trees?file=${encodeURIComponent(FILE)}&format=csv&${q}`,
        )
      ).statusCode,
    ).toBe(403);
  });

  it('opens only its own project', async () => {
    const link = await makeLink(survey);
    const response = await anonymous.get(layersWith(other, link.token));
    expect(problem(response)).toMatchObject({ status: 404, detail: VIEW_LINK_NOT_FOUND });
  });

  it('ends at its expiry', async () => {
    const link = await makeLink(survey, 1);
    expect((await anonymous.get(`/app/view/${link.token}`)).statusCode).toBe(200);
    t.clock.advance(DAY + 1000);
    try {
      expect(problem(await anonymous.get(`/app/view/${link.token}`))).toMatchObject({
        status: 404,
        detail: VIEW_LINK_NOT_FOUND,
      });
      expect((await anonymous.get(layersWith(survey, link.token))).statusCode).toBe(404);
      const listed = (await owner.get(links(survey))).json() as ViewLinkList;
      expect(listed.links.find((l) => l.id === link.id)?.status).toBe('expired');
    } finally {
      t.clock.advance(-(DAY + 1000));
    }
  });

  it('ends when revoked', async () => {
    const link = await makeLink(survey);
    expect((await anonymous.get(layersWith(survey, link.token))).statusCode).toBe(200);
    expect((await owner.delete(`${links(survey)}/${link.id}`)).statusCode).toBe(204);
    expect((await owner.delete(`${links(survey)}/${link.id}`)).statusCode).toBe(204);
    expect((await anonymous.get(`/app/view/${link.token}`)).statusCode).toBe(404);
    expect((await anonymous.get(layersWith(survey, link.token))).statusCode).toBe(404);
    // Even a reader of the project is refused a map named through an ended link.
    expect((await reader.get(layersWith(survey, link.token))).statusCode).toBe(404);
    const listed = (await owner.get(links(survey))).json() as ViewLinkList;
    expect(listed.links.find((l) => l.id === link.id)).toMatchObject({ status: 'revoked' });
    expect((await owner.delete(`${links(other)}/${link.id}`)).statusCode).toBe(404);
  });

  it('refuses a forged token and a bad expiry', async () => {
    const link = await makeLink(survey);
    const forged = `${link.id}.${'A'.repeat(43)}`;
    expect((await anonymous.get(`/app/view/${forged}`)).statusCode).toBe(404);
    expect((await anonymous.get(`/app/view/not-a-token`)).statusCode).toBe(400);
    for (const days of [-1, 366]) {
      const response = await owner.post(links(survey), { expires_at: inDays(days) });
      expect(problem(response)).toMatchObject({ status: 400, detail: VIEW_LINK_EXPIRY });
    }
  });

  it('is managed by owners only', async () => {
    expect((await reader.get(links(survey))).statusCode).toBe(403);
    expect((await reader.post(links(survey), { expires_at: inDays(3) })).statusCode).toBe(403);
    expect((await anonymous.get(links(survey))).statusCode).toBe(401);
  });
});
