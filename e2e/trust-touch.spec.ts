// Issue 31, touch at 768 px: the history's checkboxes and the image preview's buttons take a
// finger (44 px targets), and a date's tooltip does not open, and stay, on a tap.
import { expect, test, type Page } from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { unique } from './support/unique';

test.use({ viewport: { width: 768, height: 1024 }, hasTouch: true });

/** A 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

/** Two animation frames: what a tap opens has rendered by then. */
const frames = (page: Page) =>
  page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
  );

test('at 768 px with touch, history checkboxes and zoom buttons are 44 px targets; a tapped date opens no tooltip', async ({
  page,
}) => {
  const name = `Touch ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'photo.png': PNG } });
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'two\n' } });
  const base = `/projects/waymark/${encodeURIComponent(name)}`;

  await page.goto(`${base}/history`);
  const versions = page.getByRole('table', { name: 'Versions' });
  const pick = versions.getByRole('checkbox', { name: 'Select v1' });
  await expect(pick).toBeVisible({ timeout: 30_000 });
  // The finger's target is 44 px: a tap 18 px from the box's centre, any side, lands on it
  // (the element there is the checkbox's own label), not on the cell around the 20 px box.
  const box = (await pick.boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  for (const [dx, dy] of [
    [18, 0],
    [-18, 0],
    [0, 18],
    [0, -18],
  ] as const) {
    const target = await page.evaluate(
      `document.elementFromPoint(${centre.x + dx}, ${centre.y + dy})?.closest('label')?.control?.getAttribute('aria-label') ?? null`,
    );
    expect(target, `a tap at ${dx},${dy} from the centre`).toBe('Select v1');
  }
  await page.touchscreen.tap(centre.x + 18, centre.y);
  await expect(pick).toBeChecked();

  // A date tapped (a touch screen's tap comes as a mouse too) opens no tooltip that would stay.
  const created = versions.locator('time').first();
  await created.click();
  await frames(page);
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  await page.goto(`${base}/tree?file_path=photo.png`);
  const panel = page.getByRole('dialog', { name: 'photo.png' });
  for (const label of ['Zoom out', 'Zoom in', 'Rotate']) {
    const button = panel.getByRole('button', { name: label });
    await expect(button).toBeVisible({ timeout: 30_000 });
    const size = (await button.boundingBox())!;
    expect(size.width).toBeGreaterThanOrEqual(44);
    expect(size.height).toBeGreaterThanOrEqual(44);
  }
});
