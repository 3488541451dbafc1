// Field capture (issue 34) in Chromium at 768 px with touch, against the real server, with the
// QGIS project real QGIS wrote (tests/fixtures/qgis): the form shows the project's aliases,
// widgets and tabs; an empty not-null field blocks 'Save' with the reason beside it; offline,
// a point is added where the map is tapped (with a photo), another point's attribute changed,
// a polygon drawn and a third point deleted; after a reload, still offline, all four are
// pending, drawn and listed in the Outbox; once online they make exactly one new version whose
// changeset lists 2 inserts, 1 update and 1 delete and whose files include the photo.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInSession } from './support/api';
import {
  CAPTURE_FILE,
  TREES,
  browserJpeg,
  changesetCounts,
  projectInfo,
  seedCaptureProject,
  versionCount,
} from './support/capture-project';
import { e2eAdmin } from './support/env';
import { colourAtPoint } from './support/map-canvas';
import { linkView, pixelOf, type LinkView } from './support/map-project';
import { storedRows } from './support/outbox';
import { pushFiles } from './support/push';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { signIn } from './pages/session';
import { unique } from './support/unique';
import { setOffline } from './support/offline';

test.use(withServiceWorker);

const suffix = unique;

const VIEW: LinkView = { lon: 21.0131, lat: 52.2296, zoom: 17 };
const mapUrl = (name: string, table?: string) =>
  `/projects/waymark/${encodeURIComponent(name)}/map?view=${VIEW.lon},${VIEW.lat},${VIEW.zoom}${table ? `&table=${table}` : ''}`;

const PENDING_GREEN = [0x2f, 0x9e, 0x44];
const PENDING_ORANGE = [0xf0, 0x8c, 0x00];
const PENDING_RED = [0xe0, 0x31, 0x31];
const near = (actual: number[] | null, expected: number[]) =>
  actual !== null && actual.every((channel, i) => Math.abs(channel - expected[i]!) <= 40);

/** Whether the map shows `colour` at a page position (waits for it to be drawn). */
const drawnIn = (page: Page, at: { x: number; y: number }, colour: number[]) =>
  expect
    .poll(async () => near(await colourAtPoint(page, at.x, at.y), colour), { timeout: 20_000 })
    .toBe(true);

/** Taps a tree until its feature panel opens (tiles may still be loading). */
async function openTree(page: Page, map: Locator, tree: keyof typeof TREES, fid: number) {
  const panel = page.getByRole('region', { name: `Feature trees ${fid}` });
  await expect(async () => {
    const { x, y } = await pixelOf(map, VIEW, TREES[tree]);
    await page.touchscreen.tap(x, y);
    await expect(panel).toBeVisible({ timeout: 1500 });
  }).toPass({ timeout: 30_000 });
  return panel;
}

/** A point of the map element, from its centre (px). */
async function mapPoint(map: Locator, dx: number, dy: number) {
  const box = (await map.boundingBox())!;
  return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
}

async function startAdding(page: Page, layer: string) {
  await page.getByRole('button', { name: 'Add feature' }).click();
  await page.getByRole('menuitem', { name: layer }).click();
  await expect(page.getByRole('region', { name: `New feature in ${layer}` })).toBeVisible();
}

test('offline: add, change, draw and delete; reloaded still pending; online one version', async ({
  browser,
}) => {
  const name = `Capture ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: true });

  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await waitForServiceWorker(page);
    const jpeg = await browserJpeg(page);

    // Online once: the map, its forms and the trees' table are seen (and kept for offline use).
    await page.goto(mapUrl(name, 'trees'));
    const map = page.getByRole('application', { name: 'Map' });
    const table = page.getByRole('region', { name: 'Attribute table of trees' });
    await expect(table.getByRole('row')).toHaveCount(4, { timeout: 60_000 });
    // The forms come from the QGIS project, read by the server's capture worker (which may start
    // with this first call).
    await expect(page.getByRole('button', { name: 'Add feature' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(map).toHaveAttribute('aria-busy', 'false');
    // The point and polygon layers are offered; the attribute-only table is not on the map.
    await page.getByRole('button', { name: 'Add feature' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['Plots', 'Trees']);
    await page.keyboard.press('Escape');
    // Pine's and Plane's panels were never opened: offline they come from the table seen.

    await setOffline(context, true);

    // 1. A tree where the map is tapped, with a photo.
    await startAdding(page, 'Trees');
    const placed = await mapPoint(map, -70, 90);
    await page.touchscreen.tap(placed.x, placed.y);
    const form = page.getByRole('region', { name: 'New feature in Trees' });
    await expect(form).toBeVisible();
    // The QGIS form: its two tabs, aliases, widgets and group; the hidden uuid is not shown.
    await expect(form.getByRole('tab')).toHaveText(['Tree', 'Survey']);
    await expect(form.getByRole('tab', { name: 'Tree' })).toHaveAttribute('aria-selected', 'true');
    await expect(form.getByRole('textbox', { name: 'Tree name' })).toBeVisible();
    const condition = form.getByRole('combobox', { name: 'Condition' });
    await expect(condition.getByRole('option')).toHaveText(['(no value)', 'Good', 'Poor', 'Dead']);
    // Its default ('good'), as QGIS's default value says.
    await expect(condition).toHaveValue('string:good');
    // The value relation lists the species its filter ("native" = 1) keeps.
    await expect(form.getByRole('combobox', { name: 'Species' }).getByRole('option')).toHaveText([
      '(no value)',
      'Oak',
      'Pine',
    ]);
    await expect(form.getByRole('checkbox', { name: 'Healthy' })).toBeVisible();
    const measures = form.getByRole('group', { name: 'Measures' });
    await expect(measures.getByRole('spinbutton', { name: 'Height (m)' })).toBeVisible();
    await expect(measures.getByText('Height below 100 m')).toBeVisible();
    await expect(form.getByText('uuid', { exact: true })).toHaveCount(0);
    await form.getByRole('tab', { name: 'Survey' }).click();
    // now(): the date and time of the moment the form opened.
    await expect(form.getByLabel('Surveyed on')).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await expect(form.getByRole('textbox', { name: 'Notes' })).toBeVisible();
    await expect(form.getByRole('group', { name: 'Photo' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Take photo' })).toBeVisible();
    // A widget the browser does not have falls back to text, and the form says which.
    await expect(form.getByText(/surveyor \(Color\)/)).toBeVisible();

    // The empty not-null field blocks 'Save': its tab comes back, the reason is beside it.
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('tab', { name: 'Tree' })).toHaveAttribute('aria-selected', 'true');
    const treeName = form.getByRole('textbox', { name: 'Tree name' });
    await expect(treeName).toHaveAttribute('aria-invalid', 'true');
    await expect(treeName).toHaveAccessibleDescription(/A value is required/);
    await expect(form.getByRole('alert')).toContainText('Not saved: 1 field needs a change');
    expect(await storedRows(page, 'featureEdits')).toBe(0);

    await treeName.fill('Young lime');
    await expect(treeName).not.toHaveAttribute('aria-invalid', 'true');
    await form.getByRole('tab', { name: 'Survey' }).click();
    const chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Choose photo' }).click();
    await (await chooser).setFiles({ name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    const thumbnail = form.getByRole('img', { name: /^Photo photos\/\d{8}_\d{6}_\w+\.jpg$/ });
    await expect(thumbnail).toBeVisible();
    const photoPath = (await thumbnail.getAttribute('alt'))!.replace(/^Photo /, '');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    expect(await storedRows(page, 'featureEdits')).toBe(1);
    expect(await storedRows(page, 'editPhotos')).toBe(1);

    // 2. Pine's condition changes (its panel offline comes from the table seen online).
    const pine = await openTree(page, map, 'Pine', 2);
    await expect(pine.getByRole('row', { name: 'name Pine' })).toBeVisible();
    await pine.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('region', { name: 'Edit Trees 2' });
    await expect(edit.getByRole('textbox', { name: 'Tree name' })).toHaveValue('Pine');
    await edit.getByRole('combobox', { name: 'Condition' }).selectOption({ label: 'Dead' });
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();

    // 3. A polygon of three tapped vertices, with undo of a wrong one.
    await startAdding(page, 'Plots');
    const bar = page.getByRole('region', { name: 'New feature in Plots' });
    const corners = [
      await mapPoint(map, -250, 120),
      await mapPoint(map, -140, 120),
      await mapPoint(map, -140, 230),
    ];
    const stray = await mapPoint(map, 0, 250);
    await page.touchscreen.tap(corners[0]!.x, corners[0]!.y);
    await page.touchscreen.tap(corners[1]!.x, corners[1]!.y);
    await page.touchscreen.tap(stray.x, stray.y);
    await expect(bar.getByRole('status')).toHaveText('3 vertices');
    await bar.getByRole('button', { name: 'Undo last vertex' }).click();
    await expect(bar.getByRole('status')).toHaveText('2 vertices');
    await expect(bar.getByRole('button', { name: 'Finish' })).toBeDisabled();
    await page.touchscreen.tap(corners[2]!.x, corners[2]!.y);
    await bar.getByRole('button', { name: 'Finish' }).click();
    const plot = page.getByRole('region', { name: 'New feature in Plots' });
    await plot.getByRole('textbox', { name: 'label' }).fill('Plot B');
    await plot.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('region', { name: 'New feature in Plots' })).toBeHidden();

    // 4. Plane is deleted, after a question.
    const plane = await openTree(page, map, 'Plane', 3);
    await plane.getByRole('button', { name: 'Delete feature' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete feature' });
    await expect(dialog).toContainText('Delete trees 3?');
    await dialog.getByRole('button', { name: 'Delete feature' }).click();
    await expect(dialog).toBeHidden();
    // (The dialog closes before the deletion is stored.)
    await expect.poll(() => storedRows(page, 'featureEdits')).toBe(4);

    // Reloaded, still offline: all four pending, drawn and in the table with their marks.
    await page.reload();
    await expect(table.getByRole('row')).toHaveCount(5, { timeout: 30_000 });
    await expect(table.getByRole('row', { name: /Pending: added.*Young lime/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /Pending: changed.*Pine/ })).toContainText('dead');
    await expect(table.getByRole('row', { name: /Pending: deleted.*Plane/ })).toBeVisible();
    await expect(map).toHaveAttribute('aria-busy', 'false');
    await drawnIn(page, placed, PENDING_GREEN);
    await drawnIn(page, await pixelOf(map, VIEW, TREES.Pine), PENDING_ORANGE);
    await drawnIn(page, await pixelOf(map, VIEW, TREES.Plane), PENDING_RED);
    // The polygon's outline runs between its first two corners.
    await expect
      .poll(async () => {
        for (let step = 1; step < 10; step++) {
          const x = corners[0]!.x + ((corners[1]!.x - corners[0]!.x) * step) / 10;
          if (near(await colourAtPoint(page, x, corners[0]!.y), PENDING_GREEN)) return true;
        }
        return false;
      })
      .toBe(true);
    // The new tree's panel shows its photo from this device.
    await page.touchscreen.tap(placed.x, placed.y);
    const added = page.getByRole('region', { name: 'Feature trees (new)' });
    await expect(added.getByText('Pending: added')).toBeVisible();
    await expect(added.getByRole('img', { name: `Photo ${photoPath}` })).toBeVisible();

    // The Outbox lists them, waiting for the network.
    await page.goto('/outbox');
    const item = page.getByRole('listitem', { name: `Edits of waymark/${name}` });
    await expect(item).toContainText(
      '2 features added · 1 feature changed · 1 feature deleted · 1 photo',
    );
    await expect(item).toContainText(photoPath);
    await expect(item).toContainText('Waiting for the network…');

    // Online: one new version with the four row changes and the photo.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/v2\/projects\/[^/]+\/edits$/.test(request.url())) {
        sent.push(request.headers()['mm-push-id'] ?? '');
      }
    });
    await setOffline(context, false);
    await expect(page.getByText(`Edits of waymark/${name} sent: version v2`)).toBeVisible({
      timeout: 60_000,
    });
    await expect(item).toHaveCount(0);
    expect(new Set(sent).size).toBe(1);
    expect(await versionCount(page, name)).toBe(2);
    const project = await projectInfo(page, name);
    expect(project.version).toBe('v2');
    expect(project.files.map((file) => file.path)).toContain(photoPath);
    expect(await changesetCounts(page, name, 'v2', CAPTURE_FILE)).toEqual({
      insert: 2,
      update: 1,
      delete: 1,
    });
    const photo = await page.request.get(
      `/v1/project/raw/waymark/${encodeURIComponent(name)}?file=${encodeURIComponent(photoPath)}`,
    );
    expect((await photo.body()).equals(jpeg)).toBe(true);
    expect(await storedRows(page, 'featureEdits')).toBe(0);
    expect(await storedRows(page, 'editPhotos')).toBe(0);
  } finally {
    await context.close();
  }
});

test('a layer the QGIS project marks read-only is not offered; an older version says why not', async ({
  page,
}) => {
  const name = `Read-only plots ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: false });
  await signIn(page, e2eAdmin.username, e2eAdmin.password, mapUrl(name));
  await page.getByRole('button', { name: 'Add feature' }).click({ timeout: 60_000 });
  await expect(page.getByRole('menuitem')).toHaveText(['Trees']);
  await page.keyboard.press('Escape');

  // v2 comes: the map of v1 offers no editing, and says so beside the disabled button.
  expect(await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'v2' } })).toBe('v2');
  await page.goto(`${mapUrl(name)}&version=v1`);
  const add = page.getByRole('button', { name: 'Add feature' });
  await expect(add).toBeDisabled({ timeout: 60_000 });
  await expect(add).toHaveAccessibleDescription(
    'Features are added and edited on the latest version: choose it to edit',
  );
});

test('offline, a map seen without its forms says why features cannot be added', async ({
  browser,
}) => {
  const name = `Formless ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: false });
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await waitForServiceWorker(page);
    await page.goto(mapUrl(name, 'trees'));
    await expect(
      page.getByRole('region', { name: 'Attribute table of trees' }).getByRole('row'),
    ).toHaveCount(4, { timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Add feature' })).toBeEnabled({
      timeout: 60_000,
    });
    // The map was kept for offline use, its forms not (as on a device that saw the map before
    // this app version served forms).
    const removed = (await page.evaluate(`(async () => {
      let count = 0;
      for (const cacheName of await caches.keys()) {
        const cache = await caches.open(cacheName);
        for (const request of await cache.keys()) {
          if (new URL(request.url).pathname.endsWith('/forms')) {
            await cache.delete(request);
            count++;
          }
        }
      }
      return count;
    })()`)) as number;
    expect(removed).toBeGreaterThan(0);

    await setOffline(context, true);
    // Offline emulation does not always reach the service worker's own fetches (seen with
    // Playwright 1.65: after a reload they went to the server): the forms are cut off for sure.
    await context.route('**/app/map/**/forms?*', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Attribute table of trees' }).getByRole('row'),
    ).toHaveCount(4, { timeout: 60_000 });
    const add = page.getByRole('button', { name: 'Add feature' });
    await expect(add).toBeDisabled();
    await expect(add).toHaveAccessibleDescription(
      'Not available offline: open this map online once to edit its layers here',
    );
  } finally {
    await context.close();
  }
});

/** Whether the element has the focus. */
const focused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** Presses Tab until `target` has the focus (as a keyboard user gets there). */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i++) {
    if (await focused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

test('by keyboard at 768 px: a point added at the centre mark, another moved there', async ({
  browser,
}) => {
  const name = `Keyboard capture ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: false });
  const oak = TREES['Old oak'];
  // The device's position: 40 m north of the oak, to within 12 m.
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    geolocation: { longitude: oak[0], latitude: oak[1] + 0.00036, accuracy: 12 },
    permissions: ['geolocation'],
  });
  try {
    const page = await context.newPage();
    await signInSession(page, e2eAdmin.username, e2eAdmin.password);
    await page.goto(
      `/projects/waymark/${encodeURIComponent(name)}/map?view=${oak[0]},${oak[1]},17`,
    );
    const map = page.getByRole('application', { name: 'Map' });
    const add = page.getByRole('button', { name: 'Add feature' });
    await expect(add).toBeVisible({ timeout: 60_000 });
    await expect(map).toHaveAttribute('aria-busy', 'false');

    // 'Add feature' → Trees, by keys; the map takes the focus; an arrow moves it off the oak.
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Trees' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Trees' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'New feature in Trees' })).toBeVisible();
    await expect(map).toBeFocused();
    const start = new URL(page.url()).searchParams.get('view');
    await page.keyboard.press('ArrowLeft');
    // Once the map has moved (the link follows it).
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).not.toBe(start);
    await page.keyboard.press('Enter');
    const form = page.getByRole('region', { name: 'New feature in Trees' });
    await expect(form.getByRole('heading', { name: 'New feature in Trees' })).toBeFocused();
    const treeName = form.getByRole('textbox', { name: 'Tree name' });
    await tabTo(page, treeName);
    await page.keyboard.type('Keyboard elm');
    await form.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(form).toBeHidden();
    await expect(map).toBeFocused();
    // Online, the save goes out as v2 at once: the keys below work on v2's map, not on v1's
    // while v2 replaces its layers.
    await expect(page.getByText(`Edits of waymark/${name} sent: version v2`)).toBeVisible({
      timeout: 60_000,
    });

    // Back over the oak: Enter opens it, 'Edit', the map moved, the oak moved to the centre.
    await page.keyboard.press('ArrowRight');
    const panel = page.getByRole('region', { name: 'Feature trees 1' });
    await expect(async () => {
      await page.keyboard.press('Enter');
      await expect(panel).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await tabTo(page, panel.getByRole('button', { name: 'Edit' }));
    await page.keyboard.press('Enter');
    const edit = page.getByRole('region', { name: 'Edit Trees 1' });
    await expect(edit.getByRole('heading', { name: 'Edit Trees 1' })).toBeFocused();
    await map.focus();
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('view'))
      .not.toContain(`${oak[1]}`);
    await tabTo(page, edit.getByRole('button', { name: 'Move to the map centre' }));
    await page.keyboard.press('Enter');
    await edit.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(edit).toBeHidden();
    await expect(page.getByText(`Edits of waymark/${name} sent: version v3`)).toBeVisible({
      timeout: 60_000,
    });

    // 'Use my location' places a point at the device's position and says how exact it is.
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Trees' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Trees' })).toBeFocused();
    await page.keyboard.press('Enter');
    const bar = page.getByRole('region', { name: 'New feature in Trees' });
    await bar.getByRole('button', { name: 'Use my location' }).press('Enter');
    const located = page.getByRole('region', { name: 'New feature in Trees' });
    await expect(located.getByRole('heading', { name: 'New feature in Trees' })).toBeFocused();
    await expect(located.getByRole('status')).toHaveText('Your position, accuracy ±12 m');
    await located.getByRole('textbox', { name: 'Tree name' }).fill('Located ash');
    await located.getByRole('button', { name: 'Save' }).press('Enter');
    await expect(located).toBeHidden();

    // Online, the saves are sent: the server's features say where they are now.
    const base = `/app/map/waymark/${encodeURIComponent(name)}/features/trees`;
    let elm = 0;
    await expect
      .poll(
        async () => {
          const response = await page.request.get(`${base}?file=${CAPTURE_FILE}`);
          const body = (await response.json()) as {
            features: { fid: number; properties: Record<string, unknown> }[];
          };
          elm = body.features.find((f) => f.properties.name === 'Keyboard elm')?.fid ?? 0;
          return elm;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(3);
    const geometryOf = async (fid: number) => {
      const response = await page.request.get(`${base}/${fid}?file=${CAPTURE_FILE}`);
      return ((await response.json()) as { geometry: { coordinates: number[] } }).geometry
        .coordinates;
    };
    const ash = async () => {
      const response = await page.request.get(`${base}?file=${CAPTURE_FILE}`);
      const body = (await response.json()) as {
        features: { fid: number; properties: Record<string, unknown> }[];
      };
      return body.features.find((f) => f.properties.name === 'Located ash')?.fid ?? 0;
    };
    await expect.poll(ash, { timeout: 60_000 }).toBeGreaterThan(3);
    const [ashLon, ashLat] = await geometryOf(await ash());
    expect(Math.abs(ashLon! - oak[0])).toBeLessThan(1e-6);
    expect(Math.abs(ashLat! - (oak[1] + 0.00036))).toBeLessThan(1e-6);
    // The arrow key moved the map left by a fraction of its width: the new tree is west of the oak.
    expect((await geometryOf(elm))[0]!).toBeLessThan(oak[0]);
    // The oak moved south (the map went down, the oak to its centre), not east or west.
    await expect
      .poll(async () => (await geometryOf(1))[1]!, { timeout: 60_000 })
      .toBeLessThan(oak[1]);
    expect(Math.abs((await geometryOf(1))[0]! - oak[0])).toBeLessThan(0.0001);
  } finally {
    await context.close();
  }
});

/** A finger dragged from one page point to another, in steps (Chromium's touch events). */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const at = (step: number) => ({
    x: from.x + ((to.x - from.x) * step) / 10,
    y: from.y + ((to.y - from.y) * step) / 10,
  });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(0)] });
  for (let step = 1; step <= 10; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(step)] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** EPSG:3857 metres as lon/lat (the fixture's plots are stored in Web Mercator). */
const lonLatOf = (x: number, y: number): [number, number] => [
  (x / 6378137) * (180 / Math.PI),
  (Math.atan(Math.sinh(y / 6378137)) * 180) / Math.PI,
];

test('by touch at 768 px: while editing, a tree is dragged whole and a plot’s corner moved', async ({
  browser,
}) => {
  const name = `Touch geometry ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: true });
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await signIn(page, e2eAdmin.username, e2eAdmin.password, mapUrl(name));
    const map = page.getByRole('application', { name: 'Map' });
    await expect(page.getByRole('button', { name: 'Add feature' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(map).toHaveAttribute('aria-busy', 'false');

    // The oak, dragged 60 px east by a finger while its form is open.
    const oak = TREES['Old oak'];
    const oakPanel = await openTree(page, map, 'Old oak', 1);
    await oakPanel.getByRole('button', { name: 'Edit' }).click();
    const editOak = page.getByRole('region', { name: 'Edit Trees 1' });
    await expect(editOak).toBeVisible();
    const from = await pixelOf(map, VIEW, oak);
    await touchDrag(page, from, { x: from.x + 60, y: from.y });
    await editOak.getByRole('button', { name: 'Save' }).click();
    await expect(editOak).toBeHidden();
    // The oak's save lands before the plot's view opens: every tap below is on one version's
    // map (both failures of this test, in full runs, tapped while v2 replaced v1's layers).
    await expect(page.getByText(`Edits of waymark/${name} sent: version v2`)).toBeVisible({
      timeout: 60_000,
    });

    // Plot 1's north-east corner, dragged 40 px further north-east (the plots lie 1 km south).
    const corner = lonLatOf(2339100, 6840100);
    const [plotLon, plotLat] = lonLatOf(2339250, 6840050);
    const plotView: LinkView = { lon: plotLon, lat: plotLat, zoom: 17 };
    await page.goto(
      `/projects/waymark/${encodeURIComponent(name)}/map?view=${plotView.lon},${plotView.lat},${plotView.zoom}`,
    );
    await expect(page.getByRole('button', { name: 'Add feature' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(map).toHaveAttribute('aria-busy', 'false');
    const inside = await pixelOf(map, plotView, lonLatOf(2339030, 6840030));
    const plotPanel = page.getByRole('region', { name: 'Feature plots 1' });
    try {
      await expect(async () => {
        await page.touchscreen.tap(inside.x, inside.y);
        await expect(plotPanel).toBeVisible({ timeout: 1500 });
      }).toPass({ timeout: 30_000 });
    } catch (error) {
      // What the map showed then tells whether the plot was drawn (traces keep no screencast).
      await test.info().attach('map when no tap opened plot 1', {
        body: await page.screenshot(),
        contentType: 'image/png',
      });
      throw error;
    }
    await plotPanel.getByRole('button', { name: 'Edit' }).click();
    const editPlot = page.getByRole('region', { name: 'Edit Plots 1' });
    await expect(editPlot).toBeVisible();
    const vertex = await pixelOf(map, plotView, corner);
    await touchDrag(page, vertex, { x: vertex.x + 40, y: vertex.y - 40 });
    await editPlot.getByRole('button', { name: 'Save' }).click();
    await expect(editPlot).toBeHidden();

    // Online, both saves are sent; the server's features say where they are now.
    const geometryOf = async (layer: string, fid: number) => {
      const response = await page.request.get(
        `/app/map/waymark/${encodeURIComponent(name)}/features/${layer}/${fid}?file=${CAPTURE_FILE}`,
      );
      return ((await response.json()) as { geometry: { coordinates: unknown } }).geometry
        .coordinates;
    };
    // 60 px at zoom 17 is about 72 m: 0.001° of longitude here.
    await expect
      .poll(async () => ((await geometryOf('trees', 1)) as number[])[0]! - oak[0], {
        timeout: 60_000,
      })
      .toBeGreaterThan(0.0006);
    expect(Math.abs(((await geometryOf('trees', 1)) as number[])[1]! - oak[1])).toBeLessThan(
      0.0002,
    );
    await expect
      .poll(
        async () => {
          const ring = ((await geometryOf('plots', 1)) as number[][][])[0]!;
          return ring.some(([lon, lat]) => lon! > corner[0] + 0.0003 && lat! > corner[1] + 0.0002);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    // The other corners stayed.
    const ring = ((await geometryOf('plots', 1)) as number[][][])[0]!;
    const sw = lonLatOf(2339000, 6840000);
    expect(
      ring.some(([lon, lat]) => Math.abs(lon! - sw[0]) < 1e-6 && Math.abs(lat! - sw[1]) < 1e-6),
    ).toBe(true);
  } finally {
    await context.close();
  }
});

const EDIT_BLUE = [0x19, 0x71, 0xc2];

test('at 768 px with touch the form leaves the edited feature in sight and in reach, Save and Cancel too', async ({
  browser,
}) => {
  const name = `Form sheet ${suffix()}`;
  await seedCaptureProject(name, { editablePlots: false });
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await signInSession(page, e2eAdmin.username, e2eAdmin.password);
    // Plane in the map's lower right quarter (about 170 px right of and 180 px below its
    // centre): where a form over the map's right half, or a sheet over its bottom, would be.
    const plane = TREES.Plane;
    const view: LinkView = { lon: plane[0] - 0.0018, lat: plane[1] + 0.0012, zoom: 17 };
    await page.goto(
      `/projects/waymark/${encodeURIComponent(name)}/map?view=${view.lon},${view.lat},${view.zoom}`,
    );
    const map = page.getByRole('application', { name: 'Map' });
    await expect(page.getByRole('button', { name: 'Add feature' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(map).toHaveAttribute('aria-busy', 'false');
    const panel = page.getByRole('region', { name: 'Feature trees 3' });
    await expect(async () => {
      const { x, y } = await pixelOf(map, view, plane);
      await page.touchscreen.tap(x, y);
      await expect(panel).toBeVisible({ timeout: 1500 });
    }).toPass({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Edit' }).tap();
    const form = page.getByRole('region', { name: 'Edit Trees 3' });
    await expect(form.getByRole('textbox', { name: 'Tree name' })).toHaveValue('Plane');

    // Save and Cancel on the screen, each a finger's target (44 px), as the form's other
    // controls.
    const save = form.getByRole('button', { name: 'Save' });
    const cancel = form.getByRole('button', { name: 'Cancel', exact: true });
    for (const target of [
      save,
      cancel,
      form.getByRole('button', { name: 'Cancel: Edit Trees 3' }),
      form.getByRole('button', { name: 'Move to the map centre' }),
      form.getByRole('tab', { name: 'Tree' }),
      form.getByRole('textbox', { name: 'Tree name' }),
    ]) {
      await expect(target).toBeInViewport();
      expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }

    // The plane is drawn for editing where the map shows it, on the map (not under the form or
    // the header) and on the screen.
    const planeAt = async () => pixelOf(map, linkView(page.url()) ?? view, plane);
    await expect(async () => {
      const { x, y } = await planeAt();
      expect(near(await colourAtPoint(page, x, y), EDIT_BLUE)).toBe(true);
      const onMap = await page.evaluate(
        `document.elementFromPoint(${x}, ${y})?.closest('[role="application"]') !== null`,
      );
      expect(onMap).toBe(true);
    }).toPass({ timeout: 20_000 });
    const box = (await map.boundingBox())!;
    const formBox = (await form.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(formBox.y + 1);

    // A finger reaches it: dragged 60 px west while the form is open, then saved.
    const from = await planeAt();
    await touchDrag(page, from, { x: from.x - 60, y: from.y });
    await save.tap();
    await expect(form).toBeHidden();
    const geometryOf = async () => {
      const response = await page.request.get(
        `/app/map/waymark/${encodeURIComponent(name)}/features/trees/3?file=${CAPTURE_FILE}`,
      );
      return ((await response.json()) as { geometry: { coordinates: number[] } }).geometry
        .coordinates;
    };
    // 60 px at zoom 17 is about 72 m: 0.001° of longitude here.
    await expect
      .poll(async () => plane[0] - (await geometryOf())[0]!, { timeout: 60_000 })
      .toBeGreaterThan(0.0006);
  } finally {
    await context.close();
  }
});
