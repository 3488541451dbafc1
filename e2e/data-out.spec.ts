// Data out (issue 32) in real Chromium against the real server: the attribute table's filtered
// rows exported as CSV and a layer as GeoJSON from a version that is not the latest (the
// downloaded files' content checked), the OGC API address to copy, a read-only view link made
// by the owner, opened in a fresh signed-out context (the map and tables, nothing else), then
// revoked and refused; a view link refused once it has expired (a server of the spec's own,
// port E2E_PORT + 1, started again with its clock a day ahead); and a public map's share link
// and embed page in another origin's frame.
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Download, type FrameLocator, type Page } from '@playwright/test';
import { createViewLink, signInSession } from './support/api';
import { e2eAdmin, e2eDataDir, freePorts } from './support/env';
import { MAP_FILE, pixelOf, seedMapProject } from './support/map-project';
import { V1, V2 } from './support/map-geopackage';
import { OwnServer } from './support/own-server';
import { signIn } from './pages/session';
import { unique } from './support/unique';

const suffix = unique;

const mapPath = (name: string, search: Record<string, string> = {}) => {
  const query = new URLSearchParams(search).toString();
  return `/projects/waymark/${encodeURIComponent(name)}/map${query ? `?${query}` : ''}`;
};

const VIEW = { lon: 20, lat: 51, zoom: 7 };
const viewParam = `${VIEW.lon},${VIEW.lat},${VIEW.zoom}`;

/** Clicks a menu item and waits for the download it starts; its name and text. */
async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), text: await textOf(file) };
}

async function textOf(file: Download): Promise<string> {
  const path = await file.path();
  return readFile(path, 'utf8');
}

/** CSV text as rows of cells (the test data's cells hold no commas or quotes). */
function csvRows(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
}

test('exports the filtered table as CSV and a layer as GeoJSON at an older version', async ({
  page,
}) => {
  const name = `Export trees ${suffix()}`;
  const [v1] = await seedMapProject(name, { isPublic: false, versions: [V1, V2] });
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);

  // v1 (not the latest): Elm is only there; the table filtered to it.
  await page.goto(mapPath(name, { version: v1!, table: 'trees', view: viewParam }));
  const table = page.getByRole('region', { name: 'Attribute table of trees' });
  await table.getByLabel('Filter rows').fill('elm');
  await expect(table.getByRole('row')).toHaveCount(2);

  await table.getByRole('button', { name: 'Export trees' }).click();
  await expect(page.getByRole('menuitem', { name: 'CSV of the 1 row shown' })).toBeVisible();
  const csv = await download(page, () =>
    page.getByRole('menuitem', { name: 'CSV of the 1 row shown' }).click(),
  );
  expect(csv.name).toMatch(new RegExp(`trees.*${v1}.*\\.csv$`));
  const rows = csvRows(csv.text);
  expect(rows).toHaveLength(2);
  const header = rows[0]!;
  const cell = (column: string) => rows[1]![header.indexOf(column)];
  expect(header).toEqual(expect.arrayContaining(['WKT', 'X', 'Y', 'name', 'height']));
  expect(cell('name')).toBe('Elm');
  expect(cell('height')).toBe('8');
  expect(Number(cell('X'))).toBeCloseTo(20, 6);
  expect(Number(cell('Y'))).toBeCloseTo(50, 6);
  expect(cell('WKT')).toMatch(/^POINT ?\(20 50\)$/);
  // The choice closed the table's menu (it offers 'GeoJSON of all rows' too).
  await expect(page.getByRole('menu')).toHaveCount(0);

  // All rows of the layer at v1 as GeoJSON, from the layer panel's export.
  const layers = page.getByRole('complementary', { name: 'Layers' });
  await layers.getByRole('button', { name: 'Export trees' }).click();
  const geojson = await download(page, () =>
    page.getByRole('menuitem', { name: 'GeoJSON of all rows' }).click(),
  );
  expect(geojson.name).toMatch(new RegExp(`trees.*${v1}.*\\.geojson$`));
  const collection = JSON.parse(geojson.text) as {
    type: string;
    features: {
      properties: { name: string; height: number };
      geometry: { coordinates: number[] };
    }[];
  };
  expect(collection.type).toBe('FeatureCollection');
  const byName = new Map(collection.features.map((f) => [f.properties.name, f]));
  expect([...byName.keys()].sort()).toEqual(V1.trees.map((tree) => tree.name).sort());
  for (const tree of V1.trees) {
    expect(byName.get(tree.name)!.properties.height).toBe(tree.height);
    expect(byName.get(tree.name)!.geometry.coordinates).toEqual([...tree.at]);
  }

  // The OGC API address to copy, for QGIS and GDAL.
  await page.getByRole('button', { name: 'Use in QGIS' }).click();
  const qgis = page.getByRole('dialog', { name: 'Use in QGIS' });
  await expect(qgis.getByRole('textbox', { name: 'Address of the latest version' })).toHaveValue(
    new RegExp(`/ogc/waymark/${encodeURIComponent(name)}/latest$`),
  );
  await expect(
    qgis.getByRole('button', { name: 'Copy address of the latest version' }),
  ).toBeVisible();
});

test('a read-only view link opens the map signed out until it is revoked', async ({
  page,
  browser,
}) => {
  const name = `Private trees ${suffix()}`;
  await seedMapProject(name, { isPublic: false, versions: [V1, V2] });
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);

  await page.goto(mapPath(name, { view: viewParam }));
  await page.getByRole('button', { name: 'View links' }).click();
  const dialog = page.getByRole('dialog', { name: 'Read-only view links' });
  await expect(dialog.getByText('No view links yet')).toBeVisible();
  await dialog.getByLabel('Label (optional)').fill('For the council');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const field = dialog.getByRole('textbox', { name: 'New link' });
  await expect(field).toHaveValue(/\/view\/.+/);
  const link = new URL(await field.inputValue());
  const links = dialog.getByRole('table', { name: 'View links' });
  await expect(links.getByRole('row', { name: /For the council/ })).toContainText('active');

  // Whoever holds the link, signed out, sees the map and its tables, read-only.
  const visitor = await browser.newContext();
  try {
    const guest = await visitor.newPage();
    await guest.goto(link.pathname + `?view=${viewParam}`);
    await expect(guest.getByRole('heading', { name: `waymark/${name}` })).toBeVisible();
    await expect(guest.getByText('Read-only view')).toBeVisible();
    const layers = guest.getByRole('complementary', { name: 'Layers' });
    await expect(layers.getByRole('checkbox', { name: 'trees' })).toBeChecked();
    await expect(guest.getByRole('application', { name: 'Map' })).toBeVisible();
    await layers.getByRole('button', { name: 'Attribute table of trees' }).click();
    const rows = guest.getByRole('region', { name: 'Attribute table of trees' }).getByRole('row');
    await expect(rows).toHaveCount(V2.trees.length + 1);
    await expect(guest.getByRole('cell', { name: 'Old oak' })).toBeVisible();
    // Read-only: nothing to export, no files, no members, no other links.
    await expect(guest.getByRole('button', { name: /^Export/ })).toHaveCount(0);
    await expect(guest.getByRole('tab', { name: 'Files' })).toHaveCount(0);
    await expect(guest.getByRole('button', { name: 'View links' })).toHaveCount(0);

    // Its use is counted on the owner's list.
    await page.reload();
    await page.getByRole('button', { name: 'View links' }).click();
    const row = links.getByRole('row', { name: /For the council/ });
    await expect(row).toContainText(/[1-9]\d* times?/);

    // Revoked: the link shows the not-found page and none of the project.
    await row.getByRole('button', { name: 'Revoke For the council' }).click();
    await expect(row).toContainText('revoked');
    await expectLinkRefused(guest, name, link.pathname.slice('/view/'.length));
  } finally {
    await visitor.close();
  }
});

/**
 * Reloads a view link's page whose link has ended: the not-found page (spec 000 §2), nothing
 * of the project on it, no answer with its data, and the API refusing the token.
 */
async function expectLinkRefused(guest: Page, name: string, token: string) {
  const answered: string[] = [];
  const record = (response: { url(): string; status(): number }) => {
    const url = new URL(response.url());
    const data = url.pathname.startsWith('/app/view/') || url.searchParams.has('link');
    if (data && response.status() < 400) answered.push(`${response.status()} ${url.pathname}`);
  };
  guest.on('response', record);
  try {
    await guest.reload();
    await expect(
      guest.getByRole('heading', { name: 'Ooops, it seems the GPS has lost its way.' }),
    ).toBeVisible();
    await expect(
      guest.getByText('This page does not exist, check your url for mistakes, please.'),
    ).toBeVisible();
  } finally {
    guest.off('response', record);
  }
  await expect(guest.getByRole('application', { name: 'Map' })).toHaveCount(0);
  await expect(guest.getByRole('complementary', { name: 'Layers' })).toHaveCount(0);
  await expect(guest.getByText(name)).toHaveCount(0);
  await expect(guest.getByText('Old oak')).toHaveCount(0);
  expect(answered).toEqual([]);
  // The API behind the page refuses the token alike: the link, and the map's layers through it.
  const open = await guest.request.get(`/app/view/${token}`);
  expect(open.status()).toBe(404);
  const layers = await guest.request.get(
    `/app/map/waymark/${encodeURIComponent(name)}/layers?${new URLSearchParams({ file: MAP_FILE, link: token })}`,
  );
  expect(layers.status()).toBe(404);
  expect(await layers.text()).not.toContain('trees');
}

test('an expired view link shows the not-found page and nothing of the project', async ({
  browser,
}) => {
  // A server of its own, whose clock the test moves a day ahead (no restart: tests/clock-offset.mjs).
  const dataDir = join(e2eDataDir, 'view-link-clock');
  await rm(dataDir, { recursive: true, force: true });
  const HOUR = 60 * 60 * 1000;
  const [port] = (await freePorts()) as [number];
  const server = new OwnServer(port, dataDir, { CLOCK_JUMP_MS: String(24 * HOUR) }, [
    pathToFileURL(resolve('tests/clock-offset.mjs')).href,
  ]);
  const contexts: { close(): Promise<void> }[] = [];
  try {
    await server.start();
    const name = `Expiring trees ${suffix()}`;
    await seedMapProject(name, {
      isPublic: false,
      versions: [V1, V2],
      baseURL: server.url,
    });
    const ownerContext = await browser.newContext({ baseURL: server.url });
    contexts.push(ownerContext);
    const owner = await ownerContext.newPage();
    await signIn(owner, e2eAdmin.username, e2eAdmin.password);
    const token = await createViewLink(
      owner,
      'waymark',
      name,
      new Date(Date.now() + HOUR),
      'For one hour',
    );

    // While it lasts, a visitor signed out sees the map and its rows.
    const visitor = await browser.newContext({ baseURL: server.url });
    contexts.push(visitor);
    const guest = await visitor.newPage();
    await guest.goto(`/view/${token}?view=${viewParam}`);
    await expect(guest.getByRole('heading', { name: `waymark/${name}` })).toBeVisible();
    await expect(guest.getByRole('application', { name: 'Map' })).toBeVisible();
    const layers = guest.getByRole('complementary', { name: 'Layers' });
    await layers.getByRole('button', { name: 'Attribute table of trees' }).click();
    // The fresh server's first reading of the file: generous on a busy machine.
    await expect(guest.getByRole('cell', { name: 'Old oak' })).toBeVisible({ timeout: 90_000 });

    // A day later (the server's clock moved a day ahead): expired.
    server.jumpClock();
    await expect
      .poll(async () => (await guest.request.get(`/app/view/${token}`)).status())
      .toBe(404);
    await expectLinkRefused(guest, name, token);

    // The owner's list says so.
    await owner.goto(mapPath(name, { view: viewParam }));
    await owner.getByRole('button', { name: 'View links' }).click();
    const links = owner
      .getByRole('dialog', { name: 'Read-only view links' })
      .getByRole('table', { name: 'View links' });
    await expect(links.getByRole('row', { name: /For one hour/ })).toContainText('expired');
  } finally {
    for (const context of contexts) await context.close();
    await server.stop();
  }
});

/**
 * A page of another origin (its own server on this machine: Chromium keeps pages that are not
 * local from framing local ones) that frames `src`; its address and how to stop it.
 */
async function embedderSite(src: string) {
  const html = `<!doctype html><title>Neighbours</title><h1>Our trees</h1><iframe src="${src.replaceAll('"', '&quot;')}" title="Trees map" width="900" height="500" style="border:0"></iframe>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/trees`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The embedded map, framed by the page of another origin. */
async function framedEmbed(page: Page, site: { url: string }): Promise<FrameLocator> {
  await page.goto(site.url);
  await expect(page.getByRole('heading', { name: 'Our trees' })).toBeVisible();
  return page.frameLocator('iframe[title="Trees map"]');
}

test('a public map’s share link and its embed page in another site’s frame', async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Public trees ${suffix()}`;
  await seedMapProject(name, { isPublic: true, versions: [V1, V2] });
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);

  await page.goto(mapPath(name, { view: viewParam, layers: 'trees' }));
  await page.getByRole('button', { name: 'Share map' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share map' });
  const share = new URL(
    await dialog.getByRole('textbox', { name: 'Link to this map' }).inputValue(),
  );
  expect(share.searchParams.get('layers')).toBe('trees');
  expect(share.searchParams.get('view')).toBe(viewParam);
  const snippet = await dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
  const src = /src="([^"]+)"/.exec(snippet)![1]!.replaceAll('&amp;', '&');
  expect(new URL(src).pathname).toBe(`/embed/waymark/${encodeURIComponent(name)}`);

  // The share link, opened by an anonymous visitor.
  const visitor = await browser.newContext();
  const sites: { close: () => Promise<void> }[] = [];
  try {
    const guest = await visitor.newPage();
    await guest.goto(share.pathname + share.search);
    const layers = guest.getByRole('complementary', { name: 'Layers' });
    await expect(layers.getByRole('checkbox', { name: 'trees' })).toBeChecked();
    await expect(layers.getByRole('checkbox', { name: 'wells' })).not.toBeChecked();

    // The embed page in another origin's frame: the map, its layer toggles, a feature's
    // attributes on click, the credit; no app shell.
    const site = await embedderSite(`${baseURL}${new URL(src).pathname}${new URL(src).search}`);
    sites.push(site);
    expect(new URL(site.url).origin).not.toBe(new URL(baseURL!).origin);
    const frame = await framedEmbed(guest, site);
    const map = frame.getByRole('application', { name: 'Map' });
    await expect(map).toBeVisible({ timeout: 30_000 });
    const framedLayers = frame.getByRole('complementary', { name: 'Layers' });
    await expect(framedLayers.getByRole('checkbox', { name: 'trees' })).toBeChecked();
    await expect(framedLayers.getByRole('checkbox', { name: 'fields' })).not.toBeChecked();
    await expect(frame.getByRole('link', { name: `waymark/${name}` })).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Attribute table of trees' })).toHaveCount(0);
    await expect(frame.getByRole('navigation')).toHaveCount(0);
    const pine = V2.trees.find((tree) => tree.name === 'Pine')!.at;
    const panel = frame.getByRole('region', { name: 'Feature trees 4' });
    await expect(async () => {
      const { x, y } = await pixelOf(map, VIEW, pine);
      await guest.mouse.click(x, y);
      await expect(panel).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(panel.getByRole('row', { name: 'name Pine' })).toBeVisible();
  } finally {
    await visitor.close();
    for (const site of sites) await site.close();
  }
});
