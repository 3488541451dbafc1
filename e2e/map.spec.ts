// The Map tab (issue 19) in real Chromium against the real server: a GeoPackage with a point and
// a polygon layer in EPSG:4326 and a point layer in EPSG:2180 shows each feature where it
// belongs (a click at a feature's screen position opens its attributes), the attribute table
// sorts and filters, the version picker shows v1's rows after v2 changed them, 'Show on map'
// colours the changed features, an anonymous visitor sees a public project's map, and the map
// and its table open offline after being seen once.
//
// Screen positions come from the view in the link (`view=lon,lat,zoom`): the map's center is
// the middle of its element, and a zoom's resolution is Web Mercator's.
import { expect, test, type Page } from '@playwright/test';
import { signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { colourAtPoint } from './support/map-canvas';
import { e2eAdmin } from './support/env';
import { V1, V2, wellLonLat } from './support/map-geopackage';
import { MAP_FILE as FILE, pixelOf, seedMapProject } from './support/map-project';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { unique } from './support/unique';
import { setOffline } from './support/offline';

test.use(withServiceWorker);

const suffix = unique;

/** The admin creates a project with survey.gpkg at v1 and its changes at v2. */
async function seedProject(name: string, isPublic: boolean) {
  const [v1, v2] = await seedMapProject(name, { isPublic, versions: [V1, V2] });
  return { v1: v1!, v2: v2! };
}

const mapPath = (name: string, search: Record<string, string> = {}) => {
  const query = new URLSearchParams(search).toString();
  return `/projects/waymark/${encodeURIComponent(name)}/map${query ? `?${query}` : ''}`;
};

const VIEW = { lon: 20, lat: 51, zoom: 7 };
const viewParam = `${VIEW.lon},${VIEW.lat},${VIEW.zoom}`;

/**
 * Clicks at a place until the feature panel `name` opens (tiles may still be loading). A click
 * is a single click only after the map's double-click delay, so on a busy machine an earlier
 * attempt's click (or the last feature's) can open its panel late, over the place to click:
 * each attempt first closes whatever other feature is open.
 */
async function openFeature(page: Page, at: readonly [number, number], name: string) {
  const map = page.getByRole('application', { name: 'Map' });
  const panel = page.getByRole('region', { name });
  await expect(async () => {
    for (const open of await page.getByRole('region', { name: /^Feature / }).all()) {
      if ((await open.getAttribute('aria-label')) === name) continue;
      await open.getByRole('button', { name: 'Close the feature' }).click({ timeout: 1000 });
    }
    const { x, y } = await pixelOf(map, VIEW, at);
    await page.mouse.click(x, y);
    await expect(panel).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  return panel;
}

/** The colour drawn at a place on the map, as [r, g, b] of the topmost non-transparent canvas. */
async function colourAt(page: Page, at: readonly [number, number]) {
  const map = page.getByRole('application', { name: 'Map' });
  const { x, y } = await pixelOf(map, VIEW, at);
  return colourAtPoint(page, x, y);
}

const near = (hex: string) => {
  const value = Number.parseInt(hex.slice(1), 16);
  const expected = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return (actual: number[] | null) =>
    actual !== null && actual.every((channel, i) => Math.abs(channel - expected[i]!) <= 24);
};

/** Where the tree of that name is (v2, or v1 for the one v2 deleted). */
const treeAt = (name: string) => [...V2.trees, ...V1.trees].find((tree) => tree.name === name)!.at;

function tableRows(page: Page, layer: string) {
  return page.getByRole('region', { name: `Attribute table of ${layer}` }).getByRole('row');
}

test('the map shows every layer where it belongs, its attributes, tables and versions', async ({
  page,
}) => {
  const name = `Tree survey ${suffix()}`;
  const { v1, v2 } = await seedProject(name, false);
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);

  // The Map tab, for a project with a GeoPackage; it fits the data (the view lands in the link).
  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
  await page.getByRole('tab', { name: 'Map' }).click();
  await expect(page).toHaveURL(/\/map/);
  const layers = page.getByRole('complementary', { name: 'Layers' });
  for (const [layer, count] of [
    ['trees', 5],
    ['fields', 2],
    ['wells', 2],
  ] as const) {
    await expect(layers.getByRole('checkbox', { name: layer })).toBeChecked();
    await expect(layers.getByLabel(`${count} features`).first()).toBeVisible();
  }
  await expect(page).toHaveURL(/view=/);
  const fitted = new URL(page.url()).searchParams.get('view')?.split(',').map(Number) ?? [];
  const map = page.getByRole('application', { name: 'Map' });
  const box = await map.boundingBox();
  for (const at of [...V2.trees.map((tree) => tree.at), ...V2.wells.map(wellLonLat)]) {
    const { x, y } = await pixelOf(map, { lon: fitted[0]!, lat: fitted[1]!, zoom: fitted[2]! }, at);
    expect(x).toBeGreaterThan(box!.x);
    expect(x).toBeLessThan(box!.x + box!.width);
    expect(y).toBeGreaterThan(box!.y);
    expect(y).toBeLessThan(box!.y + box!.height);
  }

  // Every control is labelled and reachable by keyboard; the map itself takes the focus.
  await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Zoom out' })).toBeVisible();
  await expectAccessible(page, 'map');
  await map.focus();
  await expect(map).toBeFocused();
  const fittedView = new URL(page.url()).searchParams.get('view');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => new URL(page.url()).searchParams.get('view')).not.toBe(fittedView);

  // A known view: clicking a feature opens its attributes, in each layer and CRS.
  await page.goto(mapPath(name, { view: viewParam }));
  const birch = await openFeature(page, treeAt('Birch'), 'Feature trees 2');
  await expect(birch.getByRole('row', { name: 'name Birch' })).toBeVisible();
  await expect(birch.getByRole('row', { name: 'height 30' })).toBeVisible();
  await birch.getByRole('button', { name: 'Close the feature' }).click();
  const well = await openFeature(page, wellLonLat(V2.wells[0]!), 'Feature wells 1');
  await expect(well.getByRole('row', { name: 'label Well A' })).toBeVisible();
  await well.getByRole('button', { name: 'Close the feature' }).click();
  const wheat = await openFeature(page, [19.6, 51.75], 'Feature fields 1');
  await expect(wheat.getByRole('row', { name: 'crop Wheat' })).toBeVisible();
  await wheat.getByRole('button', { name: 'Close the feature' }).click();

  // Hiding a layer is in the link; a hidden layer is not drawn.
  await layers.getByRole('checkbox', { name: 'fields' }).uncheck();
  await expect(page).toHaveURL(/layers=trees,wells/);
  await layers.getByRole('checkbox', { name: 'fields' }).check();
  await expect(page).not.toHaveURL(/layers=/);

  // The attribute table: its rows, sorted and filtered; the geometry's type zooms the map.
  await layers.getByRole('button', { name: 'Attribute table of trees' }).click();
  const rows = tableRows(page, 'trees');
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(1)).toContainText('Old oak');
  const table = page.getByRole('region', { name: 'Attribute table of trees' });
  await table.getByRole('button', { name: 'height', exact: true }).click();
  await expect(rows.nth(1)).toContainText('Rowan');
  await expect(table.getByRole('columnheader', { name: 'height', exact: true })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await table.getByRole('button', { name: 'height', exact: true }).click();
  await expect(rows.nth(1)).toContainText('Birch');
  await expect(rows.nth(5)).toContainText('Rowan');
  await table.getByLabel('Filter rows').fill('pine');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Pine');
  await expect(rows.nth(1)).toContainText('POINT');
  await table.getByRole('button', { name: 'Zoom to feature 4' }).click();
  await expect
    .poll(() => new URL(page.url()).searchParams.get('view')?.split(',').map(Number))
    .toEqual([20.5, 50.5, 18]);

  // The version picker: v1's rows, which v2 changed.
  await table.getByLabel('Filter rows').fill('');
  await page.getByLabel('Version').selectOption(v1);
  await expect(page).toHaveURL(new RegExp(`version=${v1}`));
  await expect(rows).toHaveCount(6);
  await expect(table.getByRole('cell', { name: 'Oak', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Elm', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Old oak' })).toHaveCount(0);
  await page.getByLabel('Version').selectOption(v2);
  await expect(table.getByRole('cell', { name: 'Old oak' })).toBeVisible();

  // 'Show on map' from the version's detail: the changes in three colours, the table filtered.
  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/history?version_id=${v2}`);
  // The link shows once the server has calculated the changeset.
  await page.getByRole('link', { name: 'Show on map' }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(
    new RegExp(`version=${v2}.*changes=true|changes=true.*version=${v2}`),
  );
  await expect(page.getByRole('list', { name: 'Changes' })).toContainText('Inserted');
  const changesUrl = new URL(page.url());
  changesUrl.searchParams.set('view', viewParam);
  changesUrl.searchParams.set('table', 'trees');
  await page.goto(changesUrl.pathname + changesUrl.search);
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Rowan' })).toContainText('Inserted');
  await expect(rows.filter({ hasText: 'Old oak' })).toContainText('Updated');
  const rowan = treeAt('Rowan');
  const oak = treeAt('Old oak');
  const elm = treeAt('Elm');
  const birchAt = treeAt('Birch');
  await expect
    .poll(async () => near('#2f9e44')(await colourAt(page, rowan)), { timeout: 20_000 })
    .toBe(true);
  await expect.poll(async () => near('#f08c00')(await colourAt(page, oak))).toBe(true);
  await expect.poll(async () => near('#e03131')(await colourAt(page, elm))).toBe(true);
  // An unchanged feature keeps its layer's colour.
  await expect
    .poll(async () => {
      const colour = await colourAt(page, birchAt);
      return colour !== null && !['#2f9e44', '#f08c00', '#e03131'].some((hex) => near(hex)(colour));
    })
    .toBe(true);
  const deleted = await openFeature(page, elm, 'Feature trees 3');
  await expect(deleted).toContainText('Deleted');
  await expect(deleted.getByRole('row', { name: 'name Elm' })).toBeVisible();

  // The file version detail has it too.
  await page.goto(
    `/projects/waymark/${encodeURIComponent(name)}/history/${v2}/${encodeURIComponent(FILE)}`,
  );
  await expect(page.getByRole('link', { name: 'Show on map' })).toHaveAttribute(
    'href',
    new RegExp(`/map\\?.*changes=true`),
  );
});

test('an anonymous visitor sees a public project’s map, also offline once seen', async ({
  page,
  context,
}) => {
  const name = `Public trees ${suffix()}`;
  await seedProject(name, true);

  // At 768 px the layer panel is a drawer.
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto(mapPath(name));
  await expect(page.getByRole('complementary', { name: 'Layers' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Layers' }).click();
  const drawer = page.getByRole('dialog', { name: 'Layers' });
  await expect(drawer.getByRole('checkbox', { name: 'wells' })).toBeChecked();
  await drawer.getByRole('button', { name: 'Attribute table of wells' }).click();
  await expect(drawer).toBeHidden();
  await expect(tableRows(page, 'wells')).toHaveCount(3);
  await page.setViewportSize({ width: 1280, height: 720 });

  const url = mapPath(name, { view: viewParam, table: 'trees' });
  await page.goto(url);
  await waitForServiceWorker(page);
  // Seen under the service worker's control, so it keeps what the map loads.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Map' })).toHaveAttribute('aria-selected', 'true');
  await expect(tableRows(page, 'trees')).toHaveCount(6);
  const pine = await openFeature(page, treeAt('Pine'), 'Feature trees 4');
  await expect(pine.getByRole('row', { name: 'name Pine' })).toBeVisible();
  await expect(page.getByRole('application', { name: 'Map' })).toHaveAttribute(
    'aria-busy',
    'false',
  );

  await setOffline(context, true);
  try {
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'wells' })).toBeChecked();
    await expect(tableRows(page, 'trees')).toHaveCount(6);
    await expect(page.getByRole('cell', { name: 'Old oak' })).toBeVisible();
    const again = await openFeature(page, treeAt('Pine'), 'Feature trees 4');
    await expect(again.getByRole('row', { name: 'name Pine' })).toBeVisible();
  } finally {
    await setOffline(context, false);
  }
});
