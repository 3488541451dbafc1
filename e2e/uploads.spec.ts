import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createUser } from './support/admin';
import { createProject, shareProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { holdChunks, removeRoutes } from './support/routes';
import { ProjectFilesPage } from './pages/project-files-page';
import { transitionsFinished } from './support/page-predicates';
import { unique } from './support/unique';
import { tempDir } from './support/temp-dir';

const stamp = unique;
// A held chunk route must not outlive its test (e.g. when the test fails before releasing it).
test.afterEach(({ context }) => removeRoutes(context));

test('upload a folder with nested files to get v1 with the same bytes; update one file and delete another to get v2', async ({
  page,
}) => {
  const name = `Upload survey ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);

  // A folder named like the project replaces the whole project content.
  const root = join(tempDir('upload'), name);
  mkdirSync(join(root, 'data', 'photos'), { recursive: true });
  const originals: Record<string, Buffer> = {
    'notes.txt': Buffer.from('Trees along the river, checked 2026-11-20.\n'),
    'data/points.csv': Buffer.from('id,lon,lat\n1,14.42,50.08\n'),
    'data/photos/tree.jpg': randomBytes(300 * 1024),
  };
  for (const [path, bytes] of Object.entries(originals)) writeFileSync(join(root, path), bytes);
  // Ignored: a SQLite sidecar.
  writeFileSync(join(root, 'data', 'points.gpkg-wal'), 'wal');

  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await expect(files.uploadArea()).toBeVisible();
  await files.folderInput().setInputFiles(root);
  await files.expectCounts(3, 0, 0);
  await expect(files.dataSync()).toContainText('1 ignored file');
  await expect(files.updateChanges()).toBeEnabled();
  await files.updateChanges().click();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({ timeout: 20_000 });
  await expect(files.dataSync()).toBeHidden();

  const v1 = await files.project();
  expect(v1.version).toBe('v1');
  expect(v1.files.map((f) => f.path).sort()).toEqual(Object.keys(originals).sort());
  for (const [path, bytes] of Object.entries(originals)) {
    expect((await files.download(path)).equals(bytes)).toBe(true);
  }
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

  // Stage the deletion of notes.txt from its detail sidebar.
  await page.getByRole('link', { name: 'notes.txt' }).click();
  const sidebar = page.getByRole('dialog', { name: 'notes.txt' });
  await sidebar.getByRole('button', { name: 'Delete file' }).click();
  await expect(sidebar.getByText('Deleted file')).toBeVisible();
  await expect(sidebar.getByRole('button', { name: 'Delete file' })).toHaveCount(0);
  await files.expectCounts(0, 0, 1);
  await page.keyboard.press('Escape');

  // Update data/points.csv from the files picker while in the data folder.
  await page.getByRole('link', { name: 'data', exact: true }).click();
  await expect(page).toHaveURL(/\/tree\/data$/);
  const changed = Buffer.from('id,lon,lat\n1,14.42,50.08\n2,14.43,50.09\n');
  await files.filesInput().setInputFiles({
    name: 'points.csv',
    mimeType: 'text/csv',
    buffer: changed,
  });
  await files.expectCounts(0, 1, 1);
  const row = page.getByRole('row').filter({ hasText: 'points.csv' });
  await expect(row.getByText('Modified file')).toBeVisible();

  // The diff filter lists the pending changes only.
  await page.getByRole('link', { name: 'Parent folder' }).click();
  await page.getByText('Pending changes').click();
  await expect(page.getByRole('row').filter({ hasText: 'notes.txt' })).toContainText(
    'Deleted file',
  );
  await expect(page.getByRole('row').filter({ hasText: 'data/points.csv' })).toContainText(
    'Modified file',
  );
  await expect(page.getByRole('link', { name: 'data/photos/tree.jpg' })).toHaveCount(0);

  await files.updateChanges().click();
  // The panel goes once the upload settled (the first 'Upload finished' may still show).
  await expect(files.dataSync()).toBeHidden({ timeout: 20_000 });
  await expect(page.getByText(`Upload finished: waymark/${name}`).last()).toBeVisible();
  const v2 = await files.project();
  expect(v2.version).toBe('v2');
  expect(v2.files.map((f) => f.path).sort()).toEqual(['data/photos/tree.jpg', 'data/points.csv']);
  expect((await files.download('data/points.csv')).equals(changed)).toBe(true);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toHaveCount(0);
});

test("dropping a file identical to the project's copy tells 'No changes detected. File already exists?'", async ({
  page,
}) => {
  const name = `Same file ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'same bytes\n' } });

  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await files.dropFiles({ 'notes.txt': 'same bytes\n' });
  await expect(page.getByText('No changes detected. File already exists?')).toBeVisible();
  await expect(files.dataSync()).toBeHidden();

  // A drop of something that is not a file is refused.
  await files.dropTransfer(`(() => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', 'just text');
    return transfer;
  })()`);
  await expect(page.getByText('Drop only files or folders')).toBeVisible();
});

test('a reader sees no upload area', async ({ page, browser }) => {
  const name = `Read only ${stamp()}`;
  const reader = await createUser('reader');
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'hello\n' } });
  await shareProject(page, 'waymark', name, { readersnames: [reader.username] });

  const context = await browser.newContext();
  const readerPage = await context.newPage();
  await signInSession(readerPage, reader.username, reader.password);
  const files = new ProjectFilesPage(readerPage, 'waymark', name);
  await files.goto();
  await expect(readerPage.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(files.uploadArea()).toHaveCount(0);
  await expect(readerPage.getByRole('button', { name: 'Choose files' })).toHaveCount(0);
  await readerPage.getByRole('link', { name: 'notes.txt' }).click();
  await expect(readerPage.getByRole('button', { name: 'Download' }).last()).toBeVisible();
  await expect(readerPage.getByRole('button', { name: 'Delete file' })).toHaveCount(0);
  await context.close();
});

test('replacing a GeoPackage changed on the server since the viewed version asks first', async ({
  page,
}) => {
  const name = `Geopackage ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, {
    files: { 'survey.gpkg': randomBytes(4096), 'notes.txt': 'v1\n' },
  });

  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await expect(page.getByRole('link', { name: 'survey.gpkg' })).toBeVisible();

  // Someone else updates the GeoPackage meanwhile (v2); this page still shows v1.
  await pushFiles(page, 'waymark', name, { files: { 'survey.gpkg': randomBytes(4096) } });

  const mine = randomBytes(8192);
  await files.filesInput().setInputFiles({
    name: 'survey.gpkg',
    mimeType: 'application/geopackage+sqlite3',
    buffer: mine,
  });
  await files.expectCounts(0, 1, 0);
  await files.updateChanges().click();
  const dialog = page.getByRole('dialog', { name: 'Changed on the server' });
  await expect(dialog).toContainText('survey.gpkg');
  // A click while the dialog still grows in may land beside its button on a loaded machine
  // (the persistent dialog ignores it): click once it stands still.
  await page.waitForFunction(transitionsFinished);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await files.project()).version).toBe('v2');

  await files.updateChanges().click();
  await expect(dialog).toBeVisible();
  await page.waitForFunction(transitionsFinished);
  await dialog.getByRole('button', { name: 'Overwrite' }).click();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({ timeout: 20_000 });
  const latest = await files.project();
  expect(latest.version).toBe('v3');
  expect((await files.download('survey.gpkg')).equals(mine)).toBe(true);
});

test('on a 768 px touch screen the picker button uploads, and the screen stays accessible', async ({
  browser,
}) => {
  const context = await browser.newContext({
    viewport: { width: 768, height: 1024 },
    hasTouch: true,
  });
  const page = await context.newPage();
  const name = `Tablet ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).tap();
  await (
    await chooser
  ).setFiles([
    { name: 'survey.qgs', mimeType: 'application/xml', buffer: Buffer.from('<qgis/>\n') },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('tablet\n') },
  ]);
  // The panel starts collapsed in a corner on a narrow screen: a tap shows its details, on
  // the screen.
  await files.showDetails();
  await files.expectCounts(2, 0, 0);
  const box = await files.dataSync().boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(768);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(1024);

  await expectAccessible(page, 'upload area at 768 px');

  await files.updateChanges().tap();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({ timeout: 20_000 });
  expect((await files.project()).version).toBe('v1');
  await context.close();
});

test("the toast follows a running upload; closing the Data Sync panel cancels it with 'Operation canceled by the user.'", async ({
  page,
}) => {
  const name = `Cancel ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();

  // Hold the chunks until the running state has been checked.
  const release = await holdChunks(page.context());

  await files.filesInput().setInputFiles({
    name: 'orthophoto.tif',
    mimeType: 'image/tiff',
    buffer: randomBytes(1024 * 1024),
  });
  await files.expectCounts(1, 0, 0);
  await files.updateChanges().click();

  const toast = files.uploadsToast();
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('progressbar', { name: `waymark/${name}` })).toHaveCount(1);
  await expect(toast).toContainText(`waymark/${name}`);
  await expect(files.updateChanges()).toBeDisabled();

  await files.dropFiles({ 'late.txt': 'too late' });
  await expect(page.getByText('You cannot update files during upload')).toBeVisible();

  await files.dataSync().getByRole('button', { name: 'Discard pending changes' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this upload?' });
  await page.waitForFunction(transitionsFinished);
  await confirm.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('Operation canceled by the user.')).toBeVisible();
  await expect(files.dataSync()).toBeHidden();
  release();
  await expect(toast).toBeHidden();
  expect((await files.project()).version).toBe('v0');
});

test("deleting a folder only updates the project directly: 'Project updated'", async ({ page }) => {
  const name = `Removals ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, {
    files: { 'notes.txt': 'keep\n', 'data/a.csv': 'a\n', 'data/b/c.csv': 'c\n' },
  });
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await page.getByRole('button', { name: 'Delete folder data' }).click();
  await files.expectCounts(0, 0, 2);
  await files.updateChanges().click();
  await expect(page.getByText('Project updated')).toBeVisible({ timeout: 20_000 });
  await expect(files.dataSync()).toBeHidden();
  const project = await files.project();
  expect(project.version).toBe('v2');
  expect(project.files.map((f) => f.path)).toEqual(['notes.txt']);
  await expect(page.getByRole('link', { name: 'data', exact: true })).toHaveCount(0);
});

test("a file's row deletes it like a folder's: staged, then 'Update Changes'", async ({ page }) => {
  const name = `File removal ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'keep\n', 'old.csv': 'a\n' } });
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await page.getByRole('button', { name: 'Delete file old.csv' }).click();
  await files.expectCounts(0, 0, 1);
  // Staged, not sent: the row says so and offers no second delete.
  await expect(page.getByRole('button', { name: 'Delete file old.csv' })).toHaveCount(0);
  expect((await files.project()).version).toBe('v1');
  await files.updateChanges().click();
  await expect(page.getByText('Project updated')).toBeVisible({ timeout: 20_000 });
  const project = await files.project();
  expect(project.version).toBe('v2');
  expect(project.files.map((f) => f.path)).toEqual(['notes.txt']);
});
