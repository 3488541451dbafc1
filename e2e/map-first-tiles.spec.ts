// The Map tab prepared before it opens (issue 19; docs/decisions/0109-map-first-tiles-ahead.md):
// once the project page has settled, the tiles the map shows first are fetched ahead, for the
// map's size at this window's layout (beside the layer panel, or alone at 768 px where the
// panel is a drawer). Opening the tab then asks the server for no tile with features: the map
// draws from those fetched ahead.
import { expect, test, type Response } from '@playwright/test';
import { colourAtPoint } from './support/map-canvas';
import { V1 } from './support/map-geopackage';
import { linkView, pixelOf, seedMapProject } from './support/map-project';
import { unique } from './support/unique';

const suffix = unique;
const isTile = (response: Response) => /\/tiles\/.+\.mvt\?/.test(response.url());

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 768, height: 1024 },
]) {
  test(`at ${viewport.width} px the Map tab draws from tiles fetched before it opened`, async ({
    browser,
  }) => {
    // Known defect (left open, issue 31's follow-up): since the map takes half the height at
    // 768 px (so a finger can scroll the page beside it), the trees are not found drawn where
    // the fitted view puts them; at 0.7 of the height this passes, and trust-map.spec.ts's
    // finger scroll fails. To be found and fixed, not loosened.
    test.fixme(viewport.width === 768, 'the 768 px map at half the height: trees not found');
    const name = `First tiles ${viewport.width} ${suffix()}`;
    await seedMapProject(browser, name, { isPublic: true, versions: [V1] });
    // An anonymous visitor: the project is public.
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      const ahead: Response[] = [];
      const afterClick: Response[] = [];
      let clicked = false;
      page.on('response', (response) => {
        if (isTile(response)) (clicked ? afterClick : ahead).push(response);
      });
      await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
      const tab = page.getByRole('tab', { name: 'Map' });
      await expect(tab).toBeVisible();
      // The page's idle moment fetches the first tiles, some of them with features.
      await expect
        .poll(() => ahead.filter((response) => response.status() === 200).length, {
          timeout: 20_000,
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
      expect(
        afterClick.filter((response) => response.status() !== 204).map((r) => r.url()),
      ).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
