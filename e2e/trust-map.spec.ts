// Issue 31 on the Map tab: a click or tap on a point drawn over a polygon opens the point (the
// feature drawn on top), and where several features are under the finger a short list offers
// them; 'Attribute table' brings the table into view; at 768 px the map leaves room to scroll.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { V1, type MapData } from './support/map-geopackage';
import { pixelOf, seedMapProject } from './support/map-project';
import { touchGesture } from './support/map-touch';
import { unique } from './support/unique';

const suffix = unique;

/** V1 with a tree in the middle of the Wheat field, and a second one right beside it. */
const OVER: MapData = {
  ...V1,
  trees: [
    ...V1.trees,
    { fid: 6, name: 'Lone lime', height: 9, at: [19.6, 51.75] },
    { fid: 7, name: 'Hazel', height: 4, at: [19.7, 51.8] },
  ],
};
const VIEW = { lon: 19.6, lat: 51.75, zoom: 9 };
const mapPath = (name: string, search: Record<string, string> = {}) => {
  const query = new URLSearchParams(search).toString();
  return `/projects/waymark/${encodeURIComponent(name)}/map${query ? `?${query}` : ''}`;
};

/** Runs `use` on a page of a 768 px touch screen (a tablet), closed afterwards. */
async function onTablet(
  browser: Browser,
  use: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    await use(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

async function openMap(page: Page, name: string) {
  await page.goto(mapPath(name, { view: `${VIEW.lon},${VIEW.lat},${VIEW.zoom}` }));
  const map = page.getByRole('application', { name: 'Map' });
  // The project's first tiles, read right after its upload (the server may still be preparing
  // its map): generous on a busy machine.
  await expect(map).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  return map;
}

test('a click on a point drawn over a polygon opens the point, a click beside it the polygon', async ({
  page,
}) => {
  const name = `Pick ${suffix()}`;
  await seedMapProject(name, { isPublic: true, versions: [OVER] });
  const map = await openMap(page, name);
  const lime = page.getByRole('region', { name: 'Feature trees 6' });
  await expect(async () => {
    const { x, y } = await pixelOf(map, VIEW, [19.6, 51.75]);
    await page.mouse.click(x, y);
    await expect(lime).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Feature fields 1' })).toHaveCount(0);
  // The field under it is offered too.
  const also = lime.getByRole('group', { name: 'Also here' });
  await also.getByRole('button', { name: 'fields 1' }).click();
  const field = page.getByRole('region', { name: 'Feature fields 1' });
  await expect(field).toBeVisible();
  await expect(field.getByRole('row', { name: 'crop Wheat' })).toBeVisible();
  await field
    .getByRole('group', { name: 'Also here' })
    .getByRole('button', { name: 'trees 6' })
    .click();
  await expect(lime).toBeVisible();
  await lime.getByRole('button', { name: 'Close the feature' }).click();

  // Inside the field, away from the trees: the field.
  const { x, y } = await pixelOf(map, VIEW, [19.5, 51.7]);
  await page.mouse.click(x, y);
  await expect(page.getByRole('region', { name: 'Feature fields 1' })).toBeVisible();
});

test('on a 768 px touch screen a tap on the point over the field opens the point', async ({
  browser,
}) => {
  const name = `Tap pick ${suffix()}`;
  await seedMapProject(name, { isPublic: true, versions: [OVER] });
  await onTablet(browser, async (page) => {
    const map = await openMap(page, name);
    const lime = page.getByRole('region', { name: 'Feature trees 6' });
    // A finger lands a little off the point's centre (within its drawn circle).
    await expect(async () => {
      const { x, y } = await pixelOf(map, VIEW, [19.6, 51.75]);
      await page.touchscreen.tap(x + 5, y - 4);
      await expect(lime).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
  });
});

test("'Attribute table' brings the table into view", async ({ page }) => {
  const name = `Table view ${suffix()}`;
  await seedMapProject(name, { isPublic: true, versions: [V1] });
  await page.setViewportSize({ width: 1280, height: 720 });
  await openMap(page, name);
  const table = page.getByRole('region', { name: 'Attribute table of trees' });
  await page
    .getByRole('complementary', { name: 'Layers' })
    .getByRole('button', { name: 'Attribute table of trees' })
    .click();
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expect(table).toBeInViewport({ ratio: 0.3 });
});

test('at 768 px with touch the table is reached: it comes into view, and the page scrolls with a finger outside the map', async ({
  browser,
}) => {
  const name = `Table touch ${suffix()}`;
  await seedMapProject(name, { isPublic: true, versions: [V1] });
  await onTablet(browser, async (page, context) => {
    const map = await openMap(page, name);
    // The map leaves part of the screen to the page: there a finger scrolls it.
    const box = (await map.boundingBox())!;
    expect(box.y + box.height).toBeLessThan(1024 - 120);
    await page.getByRole('button', { name: 'Layers' }).click();
    await page
      .getByRole('dialog', { name: 'Layers' })
      .getByRole('button', { name: 'Attribute table of trees' })
      .click();
    const table = page.getByRole('region', { name: 'Attribute table of trees' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table).toBeInViewport({ ratio: 0.3 });

    await page.evaluate('window.scrollTo(0, 0)');
    await expect.poll(() => page.evaluate('window.scrollY')).toBe(0);
    const below = (await map.boundingBox())!;
    const x = below.x + below.width / 2;
    const y = below.y + below.height + 60;
    const cdp = await context.newCDPSession(page);
    await touchGesture(cdp, [{ x, y }], [{ x, y: y - 200 }], 10);
    await expect.poll(() => page.evaluate('window.scrollY')).toBeGreaterThan(50);
  });
});
