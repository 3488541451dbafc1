// At 768 and 1280 px nothing stays hidden (issues 22 and 31): on wide screens the Data Sync panel
// sits beside the files, in a column kept for it, covering no row; on narrow ones it floats in
// the bottom right corner collapsed to its title, over neither the project's title nor its
// tabs, and the page scrolls its last rows out from under it and the uploads toast. The first
// 'Delete file' moves no row: the same place then undoes it, and the panel's close asks first.
import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { transitionsFinished } from './support/page-predicates';
import { pushFiles } from './support/push';
import { holdChunks, removeRoutes } from './support/routes';
import { ProjectFilesPage } from './pages/project-files-page';
import { unique } from './support/unique';

test.afterEach(({ context }) => removeRoutes(context));

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const box = async (locator: Locator): Promise<Box> => {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
};

async function projectWithRows(page: Page, width: number) {
  await page.setViewportSize({ width, height: 700 });
  const name = `Layout ${width} ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const many: Record<string, string> = {};
  for (let i = 0; i < 30; i += 1) many[`row-${String(i).padStart(2, '0')}.txt`] = `${i}\n`;
  await pushFiles(page, 'waymark', name, { files: many });
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  return files;
}

test('at 1280 px the Data Sync panel sits beside the files and covers no row', async ({ page }) => {
  const files = await projectWithRows(page, 1280);
  await files.dropFiles({ 'new.txt': 'new\n' });
  await files.expectCounts(1, 0, 0);
  await expect(files.updateChanges()).toBeVisible();
  const panel = await box(files.dataSync());
  const table = await box(page.getByRole('table'));
  expect(overlaps(panel, table)).toBe(false);
  for (const name of ['row-00.txt', 'row-05.txt', 'row-10.txt']) {
    const remove = await box(page.getByRole('button', { name: `Delete file ${name}` }));
    expect(overlaps(panel, remove)).toBe(false);
  }
});

test('at 768 px the Data Sync panel starts collapsed in a corner, over neither the title nor the tabs, and hides no row for good', async ({
  page,
}) => {
  const files = await projectWithRows(page, 768);
  await files.dropFiles({ 'new.txt': 'new\n' });
  const toggle = files.dataSync().getByRole('button', {
    name: 'Show or hide the Data Sync details',
  });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const panel = await box(files.dataSync());
  for (const covered of [
    page.getByRole('heading', { level: 1 }),
    page.getByRole('tab', { name: 'Files' }),
    page.getByRole('tab', { name: 'History' }),
  ]) {
    expect(overlaps(panel, await box(covered))).toBe(false);
  }
  await toggle.click();
  await files.expectCounts(1, 0, 0);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // The last row scrolls above the panel.
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  const last = page.getByRole('link', { name: 'row-29.txt' });
  await expect
    .poll(async () => {
      const row = await last.boundingBox();
      const over = await files.dataSync().boundingBox();
      return row !== null && over !== null && row.y + row.height <= over.y;
    })
    .toBe(true);
});

for (const width of [768, 1280]) {
  test(`at ${width} px the uploads toast hides no row for good`, async ({ page }) => {
    const files = await projectWithRows(page, width);
    // A running upload (its chunk held): the toast shows, and the last row scrolls above it.
    const release = await holdChunks(page.context());
    await files.filesInput().setInputFiles({
      name: 'big.tif',
      mimeType: 'image/tiff',
      buffer: randomBytes(256 * 1024),
    });
    const toggle = files.dataSync().getByRole('button', {
      name: 'Show or hide the Data Sync details',
    });
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
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

  test(`at ${width} px the first 'Delete file' moves no row; the same place undoes it; closing the panel asks`, async ({
    page,
  }) => {
    const files = await projectWithRows(page, width);
    const remove = page.getByRole('button', { name: 'Delete file row-00.txt' });
    const before = await box(remove);
    const next = await box(page.getByRole('link', { name: 'row-01.txt' }));
    await remove.click();
    await expect(page.getByRole('row').filter({ hasText: 'row-00.txt' })).toContainText(
      'Deleted file',
    );
    // Nothing moved: the next row is where it was, and the place pressed now undoes.
    expect(await box(page.getByRole('link', { name: 'row-01.txt' }))).toEqual(next);
    const undo = page.getByRole('button', { name: 'Undo change row-00.txt' });
    expect(await box(undo)).toEqual(before);
    await page.mouse.click(before.x + before.width / 2, before.y + before.height / 2);
    await expect(page.getByRole('row').filter({ hasText: 'row-00.txt' })).not.toContainText(
      'Deleted file',
    );
    await expect(files.dataSync()).toHaveCount(0);

    // Two deletions, then the panel's close: it asks before discarding them all.
    await page.getByRole('button', { name: 'Delete file row-00.txt' }).click();
    await page.getByRole('button', { name: 'Delete file row-01.txt' }).click();
    await files.dataSync().getByRole('button', { name: 'Discard pending changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard pending changes?' });
    await expect(confirm).toContainText('The pending changes (2 deleted) will be discarded');
    await page.waitForFunction(transitionsFinished);
    await confirm.getByRole('button', { name: 'Keep them' }).click();
    await expect(files.dataSync()).toBeVisible();
    await files.dataSync().getByRole('button', { name: 'Discard pending changes' }).click();
    await page.waitForFunction(transitionsFinished);
    await page
      .getByRole('dialog', { name: 'Discard pending changes?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await expect(files.dataSync()).toHaveCount(0);
    await expect(page.getByText('Deleted file')).toHaveCount(0);
  });
}
