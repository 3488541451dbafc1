// The Map tab prepared before it opens (issue 19; docs/decisions/0109-map-tab-prepared.md):
// once the project page has settled, the tiles the map shows first are fetched ahead, for the
// map's size at this window's layout (beside the layer panel, or alone at 768 px where the
// panel is a drawer). Opening the tab then asks the server for no tile with features: the map
// draws from those fetched ahead.
import { expect, test, type Request } from '@playwright/test';
import { colourAtPoint } from './support/map-canvas';
import { V1 } from './support/map-geopackage';
import { linkView, pixelOf, seedMapProject } from './support/map-project';
import { unique } from './support/unique';

const suffix = unique;
const isTile = (request: Request) => /\/tiles\/.+\.mvt\?/.test(request.url());

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 768, height: 1024 },
]) {
  test(`at ${viewport.width} px the Map tab draws from tiles fetched before it opened`, async ({
    browser,
  }) => {
    const name = `First tiles ${viewport.width} ${suffix()}`;
    await seedMapProject(name, { isPublic: true, versions: [V1] });
    // An anonymous visitor: the project is public.
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      // Tile requests by when they were made (an answer asked ahead may come after the click).
      const ahead: Request[] = [];
      const afterClick: Request[] = [];
      let clicked = false;
      page.on('request', (request) => {
        if (isTile(request)) (clicked ? afterClick : ahead).push(request);
      });
      const status = new Map<Request, number>();
      page.on('response', (response) => status.set(response.request(), response.status()));
      await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
      const tab = page.getByRole('tab', { name: 'Map' });
      await expect(tab).toBeVisible();
      // The page's idle moment fetches the first tiles, some of them with features.
      await expect
        .poll(() => ahead.filter((request) => status.get(request) === 200).length, {
          timeout: 60_000,
        })
        .toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');

      clicked = true;
      await tab.click();
      await expect(page).toHaveURL(/view=/);
      const map = page.getByRole('application', { name: 'Map' });
      await expect(map).toHaveAttribute('aria-busy', 'false');
      // The trees are drawn where they are (the fitted view is in the link).
      const view = linkView(page.url())!;
      for (const tree of V1.trees) {
        const { x, y } = await pixelOf(map, view, tree.at);
        await expect.poll(() => colourAtPoint(page, x, y)).not.toBeNull();
      }
      // No tile with features was asked for after the click: at most empty ones around them.
      const asked = await Promise.all(
        afterClick.map(async (request) => ({
          url: request.url(),
          status: (await request.response())?.status(),
        })),
      );
      expect(asked.filter((tile) => tile.status !== 204).map((tile) => tile.url)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
