// Accessibility checks with axe-core in the real browser.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { transitionsFinished } from './page-predicates';

/** Fails on serious or critical axe-core violations, listing them. */
export async function expectAccessible(page: Page, name: string) {
  // Colour contrast is only meaningful once transitions (menus, dialogs, a toast fading in or
  // out) have ended: measured again while one runs during the check. A violation that stays
  // fails.
  await expect(async () => {
    await page.waitForFunction(transitionsFinished);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
    expect(serious).toEqual([]);
  }).toPass({ timeout: 30_000 });
}
