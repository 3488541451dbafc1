// Issue 31, "the surveyor loses sight of their work": a finished upload shows its version at
// once wherever versions are listed (the history open while it lands, the dashboard), and the
// files never fall back to 'No files found.' between the upload's end and the new version.
import { expect, test } from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { holdChunks, removeRoutes } from './support/routes';
import { ProjectFilesPage } from './pages/project-files-page';
import { unique } from './support/unique';

const stamp = unique;
test.afterEach(({ context }) => removeRoutes(context));

test('a finished upload shows its version at once in the history and on the dashboard @serial', async ({
  page,
}) => {
  const name = `Landed ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'v1\n' } });
  // The dashboard has read the project list (v1) before the upload.
  await page.goto('/dashboard');
  const recent = page.getByRole('region', { name: 'Recent active projects' });
  await expect(recent.getByRole('row').filter({ hasText: name })).toBeVisible();

  const files = new ProjectFilesPage(page, 'waymark', name);
  await recent.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  const release = await holdChunks(page.context());
  await files.filesInput().setInputFiles({
    name: 'site.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('measured\n'),
  });
  await files.expectCounts(1, 0, 0);
  await files.updateChanges().click();
  await expect(files.uploadsToast()).toBeVisible();

  // The History tab is open (v1 read) while the upload lands.
  await page.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('link', { name: 'v1', exact: true })).toBeVisible();
  release();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 30_000,
  });
  // Within the 30 s the list would otherwise be kept as fresh (a busy machine is slow).
  await expect(versions.getByRole('link', { name: 'v2', exact: true })).toBeVisible({
    timeout: 20_000,
  });

  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  const row = recent.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible({ timeout: 20_000 });
});

test("no 'No files found.' between an upload's end and its version, however slow the project answers", async ({
  page,
}) => {
  const name = `First upload ${stamp()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);
  await files.goto();
  await expect(page.getByText('No files found.')).toBeVisible();

  // Once the upload finished, the project is read again slowly (a busy server): its answers
  // are held until the list has been looked at.
  let finished = false;
  let heldAnswers = 0;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  page.on('request', (request) => {
    if (request.url().includes('/v1/project/push/finish/')) finished = true;
  });
  await page.route(`**/v1/project/waymark/${encodeURIComponent(name)}`, async (route) => {
    if (finished) {
      heldAnswers += 1;
      await held;
    }
    await route.continue().catch(() => undefined);
  });
  await files.dropFiles({ 'notes.txt': 'levelled\n' });
  await files.expectCounts(1, 0, 0);
  await expect(page.getByText('No files found.')).toHaveCount(0);
  await files.updateChanges().click();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 30_000,
  });
  // The project's answer is still held: the list shows the landed version, not an empty one.
  await expect.poll(() => heldAnswers).toBeGreaterThan(0);
  const landed = page.getByRole('row').filter({ hasText: 'notes.txt' });
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(page.getByText('No files found.')).toHaveCount(0);
  await expect(landed).not.toContainText('New file');
  // And once it answers, the list stays so.
  const answered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === `/v1/project/waymark/${encodeURIComponent(name)}`,
  );
  release();
  await answered;
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(page.getByText('No files found.')).toHaveCount(0);
  await expect(landed).not.toContainText('New file');
});
