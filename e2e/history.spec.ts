import { expect, test, type Locator } from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { e2eAdmin } from './support/env';
import { pointWkt, pointsGeoPackage, type PointFeature } from './support/geopackage';
import { pushFiles } from './support/push';
import { unique } from './support/unique';

const V1: PointFeature[] = [
  { fid: 1, name: 'oak', height: 12.5, x: 14.1, y: 50.1 },
  { fid: 2, name: 'ash', height: 8.25, x: 14.2, y: 50.2 },
  { fid: 3, name: 'fir', height: 20.5, x: 14.3, y: 50.3 },
  { fid: 4, name: 'elm', height: 6.75, x: 14.4, y: 50.4 },
  { fid: 5, name: 'yew', height: 4.5, x: 14.5, y: 50.5 },
];

const INSERTED: PointFeature[] = [
  { fid: 6, name: 'birch', height: 9.5, x: 14.6, y: 50.6 },
  { fid: 7, name: 'lime', height: 15.25, x: 14.7, y: 50.7 },
  { fid: 8, name: 'pine', height: 22.75, x: 14.8, y: 50.8 },
];

/** v2: 3 inserted; fid 1 renamed (an attribute), fid 2 moved (the geometry); fid 5 deleted. */
const MOVED = { x: 14.25, y: 50.27 };
const V2: PointFeature[] = [
  { ...(V1[0] as PointFeature), name: 'beech' },
  { ...(V1[1] as PointFeature), ...MOVED },
  V1[2] as PointFeature,
  V1[3] as PointFeature,
  ...INSERTED,
];

/** Each body row as [change type (the icon's name), ...cell texts]. */
async function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('td')].map(
          (cell) =>
            cell.querySelector('[role="img"]')?.getAttribute('aria-label') ??
            (cell.textContent ?? '').trim(),
        ),
      ),
    );
}

test('a push that inserts 3, updates 2 and deletes 1 feature shows exactly those rows', async ({
  page,
  browser,
}) => {
  const name = `History ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name, true);
  expect(
    await pushFiles(page, 'waymark', name, {
      files: {
        'survey.gpkg': pointsGeoPackage('points', V1),
        // A SQLite file is versioned as a GeoPackage is (GDAL writes either layout).
        'survey.sqlite': pointsGeoPackage('points', V1),
        'notes.txt': 'Tree survey\n',
      },
    }),
  ).toBe('v1');
  expect(
    await pushFiles(page, 'waymark', name, {
      files: {
        'survey.gpkg': pointsGeoPackage('points', V2),
        'survey.sqlite': pointsGeoPackage('points', V2),
      },
    }),
  ).toBe('v2');

  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('link', { name: 'v2', exact: true })).toBeVisible();
  expect(await tableRows(versions)).toHaveLength(2);

  // Each version downloads the project as it was then.
  const download = versions.getByRole('link', { name: 'Download v1' });
  const href = `/v1/project/download/waymark/${encodeURIComponent(name)}?format=zip&version=v1`;
  await expect(download).toHaveAttribute('href', href);
  const archive = await page.request.get(href);
  expect(archive.status()).toBe(200);
  expect(archive.headers()['content-disposition']).toContain(`-v1.zip`);
  const zip = await archive.body();
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(zip.includes(Buffer.from('notes.txt'))).toBe(true);

  // A row (not only its link) opens the version's details.
  const v2Row = versions.getByRole('row').filter({ has: page.getByRole('link', { name: 'v2' }) });
  await v2Row.getByRole('cell').nth(2).click();
  await expect(page).toHaveURL(/\/history\?version_id=v2$/);
  const sidebar = page.getByRole('dialog', { name: 'v2', exact: true });
  await expect(sidebar.getByText('User agent')).toBeVisible();
  await expect(sidebar.getByText(e2eAdmin.username, { exact: true })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /^Files added\s*0$/ })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /^Files edited\s*2$/ })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: /^Files removed\s*0$/ })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    href.replace('version=v1', 'version=v2'),
  );
  // The server calculates the changeset in the background; the sidebar asks until it is there.
  const summary = sidebar.getByRole('table', { name: 'Changes of survey.gpkg' });
  await expect(summary.locator('tbody tr')).toHaveCount(1, { timeout: 60_000 });
  expect(await tableRows(summary)).toEqual([['1', 'points', '3', '2', '1']]);
  // The SQLite file has its changes and 'Show on map' too, as the Map tab takes it.
  const sqliteSummary = sidebar.getByRole('table', { name: 'Changes of survey.sqlite' });
  await expect(sqliteSummary.locator('tbody tr')).toHaveCount(1, { timeout: 60_000 });
  const onMap = sidebar.getByRole('link', { name: 'Show on map' });
  await expect(onMap).toHaveCount(2);
  const mapLinks = await onMap.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const file of ['survey.gpkg', 'survey.sqlite']) {
    expect(mapLinks.some((href) => href?.endsWith(`?version=v2&file=${file}&changes=true`))).toBe(
      true,
    );
  }
  await expectAccessible(page, 'version detail');

  await sidebar
    .getByRole('link', { name: 'Show advanced' })
    .and(page.locator('[href$="/survey.gpkg"]'))
    .click();
  await expect(page).toHaveURL(/\/history\/v2\/survey\.gpkg$/);
  await expect(page.getByRole('heading', { name: 'survey.gpkg' })).toBeVisible();
  const points = page.getByRole('table', { name: 'Changes of points' });
  await expect(points.locator('tbody tr')).toHaveCount(6);
  expect(
    await points.locator('thead th').evaluateAll((cells) => cells.map((c) => c.textContent)),
  ).toEqual(['Change', 'fid', 'geom', 'name', 'height']);
  const moved = V1[1] as PointFeature;
  const deleted = V1[4] as PointFeature;
  const expected = [
    ...INSERTED.map((f) => ['insert', String(f.fid), pointWkt(f), f.name, String(f.height)]),
    ['update', '1', '', 'oak → beech', ''],
    ['update', '2', `${pointWkt(moved)} → ${pointWkt(MOVED)}`, '', ''],
    ['delete', '5', pointWkt(deleted), deleted.name, String(deleted.height)],
  ];
  const sorted = (rows: string[][]) => [...rows].sort((a, b) => a.join().localeCompare(b.join()));
  expect(sorted(await tableRows(points))).toEqual(sorted(expected));
  await expect(points.getByRole('img', { name: 'insert' })).toHaveCount(3);
  await expect(points.getByRole('img', { name: 'update' })).toHaveCount(2);
  await expect(points.getByRole('img', { name: 'delete' })).toHaveCount(1);
  await expectAccessible(page, 'file version detail');

  // The file version detail of a public project is open to anonymous visitors.
  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await anon.goto(page.url());
  const seen = anon.getByRole('table', { name: 'Changes of points' });
  await expect(seen.locator('tbody tr')).toHaveCount(6);
  expect(sorted(await tableRows(seen))).toEqual(sorted(expected));
  await visitor.close();
});

test("a project without versions says 'No versions found.'", async ({ page }) => {
  const name = `Empty history ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/history`);
  await expect(page.getByText('No versions found.')).toBeVisible();
});
