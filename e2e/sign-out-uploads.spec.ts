// Signing out deletes the uploads this browser has not sent yet, so it asks first: 'Keep signed
// in' keeps the session and the queue; 'Sign out and delete them' signs out and empties it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { storedRows } from './support/outbox';
import { unique } from './support/unique';
import { tempDir } from './support/temp-dir';

test.use({ serviceWorkers: 'block' });

const workDir = tempDir('sign-out');

/** Uploads in this browser's queue (IndexedDB 'waymark', table 'uploads'). */
const queuedUploads = (page: Page) => storedRows(page, 'uploads');

async function chooseSignOut(page: Page) {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Profile menu/ })
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

test('signing out with an upload not sent yet asks first', async ({ page, context }) => {
  const name = `Unsent ${unique()}`;
  const path = join(mkdtempSync(join(workDir, 'f-')), 'notes.txt');
  writeFileSync(path, 'field notes\n');
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);

  // The server cannot be reached for the upload: it stays in the queue.
  await context.route('**/v1/project/push/**', (route) => route.abort('internetdisconnected'));
  await page.goto(`/projects/waymark/${encodeURIComponent(name)}/tree`);
  await expect(page.getByRole('region', { name: 'Upload files or folders' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByTestId('upload-files-input').setInputFiles(path);
  const dataSync = page.getByRole('region', { name: 'Data Sync' });
  await expect(dataSync.getByRole('group', { name: 'Changes' })).toContainText('Added: 1', {
    timeout: 60_000,
  });
  await dataSync.getByRole('button', { name: 'Update Changes' }).click();
  await expect.poll(() => queuedUploads(page), { timeout: 30_000 }).toBe(1);

  await chooseSignOut(page);
  const dialog = page.getByRole('dialog', { name: 'Uploads not sent yet' });
  await expect(dialog).toContainText(
    '1 upload has not been sent yet. Signing out deletes it from this device.',
  );
  const keep = dialog.getByRole('button', { name: 'Keep signed in' });
  await expect(keep).toBeFocused();
  await keep.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/tree$/);
  expect(await queuedUploads(page)).toBe(1);

  await chooseSignOut(page);
  await dialog.getByRole('button', { name: 'Sign out and delete them' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect.poll(() => queuedUploads(page)).toBe(0);
});
