// A SpatiaLite file on the map (issue 19: "every GeoPackage (and SQLite with geometry)
// file"): a project holding only a .sqlite file gets the Map tab, its layers are listed with
// their counts, and a feature in a projected CRS (EPSG:2180, from spatial_ref_sys) is where it
// belongs: a click there opens its attributes. The file is written byte by byte
// (tests/server/support/spatialite.ts), no SpatiaLite binaries.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import proj4 from 'proj4';
import {
  EPSG_2180_PROJ4,
  spatiaLiteBlob,
  writeSpatiaLite,
} from '../tests/server/support/spatialite';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { unique } from './support/unique';

const WELL = { x: 604085, y: 404783 };

function spatiaLiteFile(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-e2e-sl-'));
  try {
    const file = join(dir, 'wells.sqlite');
    writeSpatiaLite(file, 'spatialite4', [
      {
        name: 'Wells',
        type: 1001,
        dims: 'XYZ',
        srid: 2180,
        columns: { label: 'TEXT' },
        rows: [
          {
            fid: 7,
            geometry: spatiaLiteBlob({ point: [WELL.x, WELL.y, 150] }, { srid: 2180, dims: 'XYZ' }),
            values: { label: 'Deep well' },
          },
          {
            fid: 8,
            geometry: spatiaLiteBlob({ point: [WELL.x + 20000, WELL.y] }, { srid: 2180 }),
            values: { label: 'Shallow well' },
          },
        ],
      },
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a SpatiaLite file shows on the map, reprojected from its own CRS', async ({ page }) => {
  const name = `Wells ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'wells.sqlite': spatiaLiteFile() } });

  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
  await page.getByRole('tab', { name: 'Map' }).click();
  const layers = page.getByRole('complementary', { name: 'Layers' });
  await expect(layers.getByRole('checkbox', { name: 'Wells' })).toBeChecked();
  await expect(layers.getByLabel('2 features')).toBeVisible();

  // The view centred where the well is (computed here with proj4, apart from the server).
  const [lon, lat] = proj4(EPSG_2180_PROJ4, 'EPSG:4326', [WELL.x, WELL.y]);
  const url = new URL(page.url());
  url.searchParams.set('view', `${lon},${lat},12`);
  await page.goto(url.pathname + url.search);
  const map = page.getByRole('application', { name: 'Map' });
  const panel = page.getByRole('region', { name: 'Feature Wells 7' });
  await expect(async () => {
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(panel).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(panel.getByRole('row', { name: 'label Deep well' })).toBeVisible();
});
