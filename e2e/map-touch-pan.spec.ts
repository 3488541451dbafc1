// One finger pans the map on a tablet (issue 19: pinch zoom and pan at 768 px). A swipe on
// the map moves the map under the finger, and never leaves the page (Chromium takes an
// unhandled horizontal swipe as "back"). The touches go through CDP, as a touch screen sends
// them; the map must not need the focus first (a finger does not give it, a mouse press does).
import { expect, test, type Page } from '@playwright/test';
import { apiSession, createProject } from './support/api';
import { V1, mapGeoPackage } from './support/map-geopackage';
import { touchGesture } from './support/map-touch';
import { pushFiles } from './support/push';
import { unique } from './support/unique';

const suffix = unique;

const viewOf = (page: Page) => new URL(page.url()).searchParams.get('view');

/** Web Mercator pixels of a lon/lat at a zoom (256-pixel tiles). */
function worldPixel([lon, lat]: readonly [number, number], zoom: number) {
  const size = 256 * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((lon + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

test('on a 768 px touch screen one finger pans the map and stays on it', async ({ browser }) => {
  const name = `Swipe trees ${suffix()}`;
  const seeder = await apiSession();
  await createProject(seeder, 'waymark', name, true);
  await pushFiles(seeder, 'waymark', name, { files: { 'survey.gpkg': mapGeoPackage(V1) } });
  await seeder.dispose();

  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    // The project first, then its map: a page to go back to, as a visitor has one.
    const project = `/projects/waymark/${encodeURIComponent(name)}`;
    await page.goto(project);
    await expect(page.getByRole('tab', { name: 'Map' })).toBeVisible();
    // Centred on Birch.
    const birch = V1.trees.find((tree) => tree.name === 'Birch')!;
    const start = `${birch.at[0]},${birch.at[1]},8`;
    await page.goto(`${project}/map?view=${start}`);
    const map = page.getByRole('application', { name: 'Map' });
    await expect(page.getByRole('button', { name: 'Layers' })).toBeVisible();
    await expect(map).toHaveAttribute('aria-busy', 'false');
    const box = (await map.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;

    // One finger from the centre 240 px right and 80 px down, in steps, then lifted.
    const cdp = await context.newCDPSession(page);
    await touchGesture(cdp, [{ x: cx, y: cy }], [{ x: cx + 240, y: cy + 80 }], 12);

    // The map moved with the finger: its centre is now west and north of Birch (a fling may
    // carry it further than the finger went, never less far), and the page is still the map.
    await expect.poll(() => viewOf(page)).not.toBe(start);
    await expect(map).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`${project}/map`);
    let view = viewOf(page)!;
    // Settled: the link no longer changes.
    await expect
      .poll(async () => {
        const now = viewOf(page)!;
        const settled = now === view;
        view = now;
        return settled;
      })
      .toBe(true);
    const [lon, lat, zoom] = view.split(',').map(Number) as [number, number, number];
    expect(zoom).toBe(8);
    const centre = worldPixel([lon, lat], zoom);
    const tree = worldPixel(birch.at, zoom);
    const dx = tree.x - centre.x;
    const dy = tree.y - centre.y;
    // The finger went 240 px right and 80 px down in 12 steps. Chromium decides what a touch
    // sequence is (a scroll of the page or the map's pan) on its first moves: on a busy
    // machine up to two of the steps go to that decision before the map takes the finger.
    const step = { x: 240 / 12, y: 80 / 12 };
    expect(dx).toBeGreaterThan(240 - 2 * step.x - 5);
    expect(dy).toBeGreaterThan(80 - 2 * step.y - 5);

    // Birch is drawn where the map now puts it: a tap there opens its attributes.
    await expect(map).toHaveAttribute('aria-busy', 'false');
    await page.touchscreen.tap(cx + dx, cy + dy);
    const panel = page.getByRole('region', { name: 'Feature trees 2' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('row', { name: 'name Birch' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`${project}/map`);
  } finally {
    await context.close();
  }
});
