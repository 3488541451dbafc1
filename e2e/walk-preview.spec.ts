// The image preview at '100%' shows a small photo at its own size (issue 22), not stretched.
import { expect, test } from '@playwright/test';
import { createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { signIn } from './pages/session';
import { unique } from './support/unique';

test('a 160 px photo previews at 160 px at 100%', async ({ page }) => {
  const name = `Photos ${unique()}`;
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  // A 160 × 120 PNG drawn by the browser.
  const dataUrl = await page.evaluate<string>(`(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const context = canvas.getContext('2d');
    context.fillStyle = '#2a7';
    context.fillRect(0, 0, 160, 120);
    return canvas.toDataURL('image/png');
  })()`);
  const png = Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
  await pushFiles(page, 'waymark', name, { files: { 'small.png': png } });

  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree?file_path=small.png`);
  const image = page.getByRole('img', { name: 'small.png' });
  await expect(image).toBeVisible();
  await expect(page.getByLabel('Zoom', { exact: true })).toHaveText('100%');
  await expect
    .poll(() => image.evaluate((element: unknown) => (element as { width: number }).width))
    .toBe(160);
});
