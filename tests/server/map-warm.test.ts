/**
 * The map of a pushed GeoPackage is prepared in the background after the push (issue 19):
 * its copy for the map and the point index of its point layers exist before anyone opens it.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDir } from '../../server/src/services/map/store';
import { keptPointIndex } from '../../server/src/services/map/tiles';
import {
  mapWarmIdle,
  WARM_SETTLE_MS,
  warmCounts,
  warmMapFiles,
  warmSettings,
} from '../../server/src/services/map/warm';
import { gridPoints, writeGeoPackage } from './support/map-geopackage';
import { scratch, type Scratch } from './support/geopackage';
import { finishPush, plan, sendChunk, sha1, startPush } from './support/push-client';
import { createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const POINTS = 12_345;

let t: TestApp;
let s: Scratch;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
  await s.cleanup();
});

async function push(project: string, files: Record<string, Buffer>): Promise<void> {
  const changes = plan(files);
  const start = await startPush(admin, project, 'v0', { added: changes.list });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [id, bytes] of changes.chunks) {
    expect((await sendChunk(admin, transaction, id, bytes)).statusCode).toBe(200);
  }
  const finish = await finishPush(admin, transaction);
  expect(finish.statusCode, finish.body).toBe(200);
}

/** A GeoPackage of a `wells` point layer of `points` points (its bytes). */
async function wells(name: string, points: number): Promise<Buffer> {
  const file = path.join(s.dir, `${name}-${points}.gpkg`);
  writeGeoPackage(file, [
    {
      name: 'wells',
      srsId: 4326,
      type: 'POINT',
      rtree: true,
      columns: { name: 'TEXT' },
      rows: gridPoints(points, [14, 49, 24, 55]),
    },
  ]);
  return readFile(file);
}

describe('warming the map after a push', () => {
  it('copies a pushed GeoPackage and builds its point index in the background', async () => {
    // A point count no other test uses: the caches are process-wide, keyed by content.
    const bytes = await wells('warm', POINTS);
    const checksum = sha1(bytes);
    const project = await createProject(t, { name: 'warm' });
    expect(keptPointIndex(checksum, 'wells')).toBeUndefined();

    await push(`${t.config.globalWorkspace}/${project.name}`, {
      'survey/wells.gpkg': bytes,
      'notes.txt': Buffer.from('not a map'),
    });
    await mapWarmIdle(t.app.ctx);

    expect(keptPointIndex(checksum, 'wells')?.count).toBe(POINTS);
    expect((await stat(path.join(cacheDir(t.app.ctx), `${checksum}.gpkg`))).size).toBe(
      bytes.length,
    );
  });

  it('waits for a burst of pushes to end: only its last version is warmed', async () => {
    // Longer than any pause between these calls, however busy the machine.
    warmSettings.settleMs = 10 * 60_000;
    try {
      const files = [];
      for (const points of [12_350, 12_351, 12_352]) {
        const blob = await t.app.ctx.blobStore.put(Readable.from([await wells('burst', points)]));
        files.push({
          path: 'burst/wells.gpkg',
          size: blob.size,
          checksum: blob.sha1,
          blobKey: blob.key,
        });
      }
      const before = warmCounts.warmed;
      for (const file of files) {
        warmMapFiles(t.app.ctx, 'project-burst', [file]);
        // Turns of the event loop: the warming would have started on the first file here.
        for (let turn = 0; turn < 3; turn++) await new Promise((done) => setImmediate(done));
        expect(warmCounts.warmed).toBe(before);
      }
      // Someone waits for the map: the warming starts at once, on the last version only.
      await mapWarmIdle(t.app.ctx);
      expect(warmCounts.warmed - before).toBe(1);
      expect(keptPointIndex(files[0]!.checksum, 'wells')).toBeUndefined();
      expect(keptPointIndex(files[1]!.checksum, 'wells')).toBeUndefined();
      expect(keptPointIndex(files[2]!.checksum, 'wells')?.count).toBe(12_352);
    } finally {
      warmSettings.settleMs = WARM_SETTLE_MS;
    }
  });

  it('starts by itself once nothing was pushed for a while', async () => {
    warmSettings.settleMs = 50;
    try {
      const blob = await t.app.ctx.blobStore.put(Readable.from([await wells('settled', 12_353)]));
      warmMapFiles(t.app.ctx, 'project-settled', [
        { path: 'survey/wells.gpkg', size: blob.size, checksum: blob.sha1, blobKey: blob.key },
      ]);
      await expect
        .poll(() => keptPointIndex(blob.sha1, 'wells')?.count, { timeout: 120_000 })
        .toBe(12_353);
    } finally {
      warmSettings.settleMs = WARM_SETTLE_MS;
    }
  });

  it('warms only the newest waiting version of a file of a project', async () => {
    // Point counts no other test uses: the caches are process-wide, keyed by content.
    const versions = [];
    for (const points of [12_346, 12_347, 12_348, 12_349]) {
      const blob = await t.app.ctx.blobStore.put(Readable.from([await wells('often', points)]));
      versions.push({
        path: 'survey/wells.gpkg',
        size: blob.size,
        checksum: blob.sha1,
        blobKey: blob.key,
      });
    }
    const [first, second, third, elsewhere] = versions as [
      (typeof versions)[0],
      (typeof versions)[0],
      (typeof versions)[0],
      (typeof versions)[0],
    ];
    // Three versions of one file pushed before the warming starts, and the same path in
    // another project.
    warmMapFiles(t.app.ctx, 'project-a', [first]);
    warmMapFiles(t.app.ctx, 'project-b', [elsewhere]);
    warmMapFiles(t.app.ctx, 'project-a', [second]);
    warmMapFiles(t.app.ctx, 'project-a', [third]);
    await mapWarmIdle(t.app.ctx);

    expect(keptPointIndex(first.checksum, 'wells')).toBeUndefined();
    expect(keptPointIndex(second.checksum, 'wells')).toBeUndefined();
    expect(keptPointIndex(third.checksum, 'wells')?.count).toBe(12_348);
    expect(keptPointIndex(elsewhere.checksum, 'wells')?.count).toBe(12_349);
  });
});
