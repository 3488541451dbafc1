/**
 * Hostile files (issue 29): a GeoPackage whose reading never ends, needs more memory than
 * allowed, or costs seconds per tile must not stop the server. The work runs in the sandbox
 * (lib/sandbox) with a budget: it answers 422 when the budget runs out, other requests are
 * answered meanwhile, and asking again answers at once. Views, and tables without a rowid or
 * an integer key, are not offered as layers. A pushed diff whose base file carries a trigger
 * without end is refused, and nothing changes.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../server/src/db/schema';
import { createChangeset } from '../../server/src/geodiff/create';
import type { MapLayers } from '../../server/src/schemas/map';
import { verdictCounts } from '../../server/src/lib/sandbox';
import { DIFF_TOO_COMPLEX } from '../../server/src/services/push/diffs';
import { FILE_TOO_COMPLEX, LAYER_TOO_COMPLEX } from '../../server/src/services/map/read';
import {
  endlessMetadata,
  endlessTrigger,
  hugePolygon,
  hungryMetadata,
  recursiveViewLayer,
} from './support/hostile-geopackage';
import { scratch, type Scratch } from './support/geopackage';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';
import { tileOf } from './support/tiles';

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let anonymous: TestClient;
let project: Project;

/** The interactive budget of this app (FILE_WORK_SECONDS), in ms. */
const BUDGET_MS = 1000;

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

async function build(name: string, write: (file: string) => void): Promise<Buffer> {
  const file = s.file(name);
  write(file);
  return readFile(file);
}

const mapQuery = (file: string) => `file=${encodeURIComponent(file)}`;
const base = () => `/app/map/${t.config.globalWorkspace}/${project.name}`;
const layers = (file: string) => anonymous.get(`${base()}/layers?${mapQuery(file)}`);

/** Starts `slow`, then runs `others` one after another; says which finished first. */
async function answeredMeanwhile(
  slow: Promise<unknown>,
  others: () => Promise<unknown>[],
): Promise<{ othersFirst: boolean }> {
  let slowDone = false;
  const watched = slow.then(() => {
    slowDone = true;
  });
  for (const request of others()) await request;
  const othersFirst = !slowDone;
  await watched;
  return { othersFirst };
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FILE_WORK_SECONDS: String(BUDGET_MS / 1000),
      FILE_WORK_BACKGROUND_SECONDS: '2',
      FILE_WORK_MEMORY_MB: '256',
    },
  });
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  anonymous = t.client();
  project = await createProject(t, { name: 'hostile', public: true });
  await commit(t, project.id, {
    added: {
      'view.gpkg': await build('view.gpkg', recursiveViewLayer),
      'endless.gpkg': await build('endless.gpkg', endlessMetadata),
      'hungry.gpkg': await build('hungry.gpkg', hungryMetadata),
      'coast.gpkg': await build('coast.gpkg', (file) => hugePolygon(file, 1_000_000)),
    },
  });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('a GeoPackage that attacks the server reading it', () => {
  it('offers no view as a layer, nor a table without a rowid or an integer key', async () => {
    const response = await layers('view.gpkg');
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as MapLayers).layers.map((layer) => layer.name)).toEqual(['trees']);
    const forever = await anonymous.get(`${base()}/features/forever?${mapQuery('view.gpkg')}`);
    expect(forever.statusCode).toBe(404);
    const tile = await anonymous.get(`${base()}/tiles/forever/0/0/0.mvt?${mapQuery('view.gpkg')}`);
    expect(tile.statusCode).toBe(404);
    const keyless = await anonymous.get(`${base()}/features/keyless?${mapQuery('view.gpkg')}`);
    expect(keyless.statusCode).toBe(404);
  });

  it('stops listing layers that never end with a 422, answering others meanwhile', async () => {
    const slow = layers('endless.gpkg');
    const { othersFirst } = await answeredMeanwhile(slow, () => [
      anonymous.get('/ping'),
      anonymous.get('/v1/project/paginated?page=1&per_page=10'),
      layers('view.gpkg'),
    ]);
    expect(othersFirst).toBe(true);
    const response = await slow;
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe(FILE_TOO_COMPLEX);
    // The verdict is kept: asked again, it answers from the verdict, not after another budget
    // (counted, not timed: a busy machine makes any answer slow).
    const answered = verdictCounts.answered;
    const again = await layers('endless.gpkg');
    expect(again.statusCode).toBe(422);
    expect(verdictCounts.answered).toBe(answered + 1);
  });

  it('stops listing layers that need more memory than allowed', async () => {
    const response = await layers('hungry.gpkg');
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe(FILE_TOO_COMPLEX);
    expect((await anonymous.get('/ping')).statusCode).toBe(200);
  });

  it('stops a tile that takes longer than allowed, and the layer’s other tiles with it', async () => {
    const listed = await layers('coast.gpkg');
    expect(listed.statusCode, listed.body).toBe(200);
    const { x, y } = tileOf(14.5, 49.5, 7);
    const tile = (z: number, tx: number, ty: number) =>
      anonymous.get(`${base()}/tiles/coast/${z}/${tx}/${ty}.mvt?${mapQuery('coast.gpkg')}`);
    const slow = tile(7, x, y);
    const { othersFirst } = await answeredMeanwhile(slow, () => [
      anonymous.get('/ping'),
      layers('view.gpkg'),
    ]);
    expect(othersFirst).toBe(true);
    const response = await slow;
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe(LAYER_TOO_COMPLEX);
    const { x: x8, y: y8 } = tileOf(14.9, 49.5, 8);
    const other = await tile(8, x8, y8);
    expect(other.statusCode).toBe(422);
  });
});

describe('a pushed diff onto a file with a trigger without end', () => {
  it('is refused when applying it passes the budget; the project is unchanged', async () => {
    const file = 'trap.gpkg';
    const v1 = await build('trap.gpkg', endlessTrigger);
    const trapped = await createProject(t, { name: 'trap', creatorId: 1 });
    await commit(t, trapped.id, { added: { [file]: v1 } });
    const edited = s.file('trap-v2.gpkg');
    await writeFile(edited, v1);
    const db = new Database(edited);
    db.exec(
      `DROP TRIGGER rtree_trees_geom_forever; UPDATE trees SET name = 'renamed' WHERE fid = 1;`,
    );
    db.close();
    const diff = createChangeset(s.file('trap.gpkg'), edited);
    const chunk = await admin.request('POST', `/v2/projects/${trapped.id}/chunks`, {
      payload: Buffer.from(diff),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(chunk.statusCode, chunk.body).toBe(200);
    const push = admin.post(`/v2/projects/${trapped.id}/versions`, {
      version: 'v1',
      changes: {
        added: [],
        removed: [],
        updated: [
          {
            path: file,
            size: (await readFile(edited)).length,
            checksum: sha1(v1),
            chunks: [(chunk.json() as { id: string }).id],
            diff: { path: `${file}-diff-1`, checksum: sha1(diff), size: diff.length },
          },
        ],
      },
    });
    const { othersFirst } = await answeredMeanwhile(push, () => [anonymous.get('/ping')]);
    expect(othersFirst).toBe(true);
    const response = await push;
    expect(response.statusCode, response.body).toBe(422);
    expect(response.body).toContain(DIFF_TOO_COMPLEX);
    const info = await admin.get(`/v1/project/${t.config.globalWorkspace}/trap`);
    expect((info.json() as { version: string }).version).toBe('v1');
  });
});
