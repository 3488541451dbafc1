// At 768 and 1280 px nothing stays hidden for good (issue 22): the Data Sync panel collapses to
// its title (at 768 px it sits over the project's title and tabs), and the page scrolls its
// last file rows out from under the 'Uploading data to projects' toast.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { holdChunks, removeRoutes } from './support/routes';
import { ProjectFilesPage } from './pages/project-files-page';
import { signIn } from './pages/session';

test.afterEach(({ context }) => removeRoutes(context));

for (const width of [768, 1280]) {
  test(`at ${width} px the Data Sync panel collapses to its title and the toast hides no row for good`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 700 });
    const name = `Layout ${width} ${Date.now().toString(36)}`;
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await createProject(page, 'waymark', name);
    const many: Record<string, string> = {};
    for (let i = 0; i < 30; i += 1) many[`row-${String(i).padStart(2, '0')}.txt`] = `${i}\n`;
    await pushFiles(page, 'waymark', name, { files: many });
    const files = new ProjectFilesPage(page, 'waymark', name);
    await files.goto();

    await files.dropFiles({ 'new.txt': 'new\n' });
    await files.expectCounts(1, 0, 0);
    const toggle = files.dataSync().getByRole('button', {
      name: 'Show or hide the Data Sync details',
    });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(files.updateChanges()).toBeHidden();
    // Whatever it covered can be used again: the tabs under it take clicks.
    await expect(page.getByRole('tab', { name: 'Files' })).toBeVisible();
    await page.getByRole('tab', { name: 'History' }).click({ trial: true });
    await toggle.click();
    await expect(files.updateChanges()).toBeVisible();

    // A running upload (its chunk held): the toast shows, and the last row scrolls above it.
    const release = await holdChunks(page.context());
    await files.filesInput().setInputFiles({
      name: 'big.tif',
      mimeType: 'image/tiff',
      buffer: randomBytes(256 * 1024),
    });
    await files.updateChanges().click();
    const toast = files.uploadsToast();
    await expect(toast).toBeVisible();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    const last = page.getByRole('link', { name: 'row-29.txt' });
    await expect(last).toBeVisible();
    await expect
      .poll(async () => {
        const row = await last.boundingBox();
        const over = await toast.boundingBox();
        return row !== null && over !== null && row.y + row.height <= over.y;
      })
      .toBe(true);
    release();
  });
}
