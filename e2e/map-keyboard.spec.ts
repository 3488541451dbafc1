// The map without a mouse (issue 19: every control reachable by keyboard, pinch zoom and pan
// on touch at 768 px). Keyboard: Tab reaches the map, a centre mark shows, Enter opens the
// attributes of the feature under it, Escape closes them, the arrow keys move the map away
// (then Enter says nothing is there) and back. Touch at 768 px: the layer drawer opens and
// works by tap, and a two-finger pinch zooms the map (touch events dispatched through CDP).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { V1, V2 } from './support/map-geopackage';
import { seedMapProject } from './support/map-project';
import { touchGesture } from './support/map-touch';
import { unique } from './support/unique';

const suffix = unique;

const seedPublicProject = (name: string) =>
  seedMapProject(name, { isPublic: true, versions: [V1, V2] });

const mapPath = (name: string, view: string) =>
  `/projects/waymark/${encodeURIComponent(name)}/map?view=${view}`;

const viewOf = (page: Page) => new URL(page.url()).searchParams.get('view');

/** Whether the element has the focus. */
const focused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** Presses Tab until the map has the focus (as a keyboard user gets there). */
async function tabToMap(page: Page) {
  const map = page.getByRole('application', { name: 'Map' });
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await focused(map)) return map;
  }
  throw new Error('Tab never reached the map');
}

test('a keyboard user pans, zooms and opens a feature’s attributes', async ({ page }) => {
  const name = `Keyboard trees ${suffix()}`;
  await seedPublicProject(name);
  const birch = V2.trees.find((tree) => tree.name === 'Birch')!;

  // The view centred on Birch (the link names it).
  const start = `${birch.at[0]},${birch.at[1]},9`;
  await page.goto(mapPath(name, start));
  await expect(page.getByRole('checkbox', { name: 'trees' })).toBeChecked();
  const map = await tabToMap(page);
  await expect(map).toHaveAccessibleDescription(/Enter shows the feature at the centre mark/);
  await expect(page.getByTestId('map-centre-mark')).toBeVisible();
  await expectAccessible(page, 'map with keyboard focus');

  // Enter at the centre: Birch's attributes (tiles may still be loading: Enter again).
  const panel = page.getByRole('region', { name: 'Feature trees 2' });
  await expect(async () => {
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(panel.getByRole('row', { name: 'name Birch' })).toBeVisible();
  await expect(panel.getByRole('row', { name: 'height 30' })).toBeVisible();
  await expect(map).toBeFocused();
  // Screen readers hear what Enter found.
  await expect(page.getByRole('status').filter({ hasText: 'Feature trees 2 shown' })).toHaveCount(
    1,
  );
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // The arrow keys move the map away: nothing at the centre, and it says so.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => viewOf(page)).not.toBe(start);
  const away = viewOf(page);
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'No feature at the centre of the map' }),
  ).toBeVisible();
  await expect(panel).toBeHidden();
  // Back (the same distance the other way), and zoomed in with +: Birch again.
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => viewOf(page)).not.toBe(away);
  await page.keyboard.press('+');
  await expect.poll(() => viewOf(page)?.split(',')[2]).toBe('10');
  // The new zoom's tiles are read (the map is busy until then) before Enter looks at the centre:
  // on a busy machine Enter came first and found nothing (issue 37).
  await expect(map).toHaveAttribute('aria-busy', 'false');
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('row', { name: 'name Birch' })).toBeVisible();

  // The feature panel's own control is next in the Tab order after the map's buttons.
  const close = panel.getByRole('button', { name: 'Close the feature' });
  for (let i = 0; i < 10 && !(await focused(close)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(close).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toBeHidden();
});

test('on a 768 px touch screen the layer drawer works by tap and a pinch zooms', async ({
  browser,
}) => {
  const name = `Touch trees ${suffix()}`;
  await seedPublicProject(name);
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const start = '19.5,50.5,8';
    await page.goto(mapPath(name, start));
    await page.getByRole('button', { name: 'Layers' }).tap();
    const drawer = page.getByRole('dialog', { name: 'Layers' });
    await expect(drawer.getByRole('checkbox', { name: 'trees' })).toBeChecked();
    await drawer.getByRole('checkbox', { name: 'fields' }).tap();
    await expect(page).toHaveURL(/layers=trees,wells/);
    await drawer.getByRole('button', { name: 'Close' }).tap();
    await expect(drawer).toBeHidden();

    const map = page.getByRole('application', { name: 'Map' });
    const box = (await map.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);

    // Two fingers spread apart: the map zooms in.
    await touchGesture(
      cdp,
      [
        { x: cx - 40, y: cy },
        { x: cx + 40, y: cy },
      ],
      [
        { x: cx - 160, y: cy },
        { x: cx + 160, y: cy },
      ],
    );
    await expect.poll(() => Number(viewOf(page)?.split(',')[2])).toBeGreaterThan(8.5);
    const [lon, lat] = viewOf(page)!.split(',').map(Number);
    // Spread around the centre: the centre stays.
    expect(lon).toBeCloseTo(19.5, 1);
    expect(lat).toBeCloseTo(50.5, 1);
  } finally {
    await context.close();
  }
});
