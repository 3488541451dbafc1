// Read-only maintenance (spec 000 §8, issues 22 and 31): during maintenance the upload area's
// buttons and 'Update Changes' are disabled with the read-only message (not refused only on
// click), a drop is refused with it, and no write is sent; when maintenance ends, the banner
// goes and uploads work again within seconds, without a reload (the status is read again
// often while maintenance lasts, and before any write is refused).
import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { createProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { ProjectFilesPage } from './pages/project-files-page';
import { unique } from './support/unique';

/**
 * How often the app reads the status while maintenance lasts (MAINTENANCE_PING_INTERVAL_MS,
 * src/platform/ping.ts). The page's clock is moved on by it once maintenance ended, so the next
 * read comes at once instead of up to 10 s later (the clock runs as usual otherwise).
 */
const MAINTENANCE_POLL_MS = 10_000;

const READ_ONLY =
  'The service is currently in read-only mode for maintenance. Upload and update functions are not available at this time. Please try again later.';

test('during maintenance uploads are disabled with the read-only message; after it they work again without a reload @serial', async ({
  page,
}) => {
  const name = `Maintenance ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);

  await admin('maintenance', 'on');
  try {
    await page.clock.install();
    await files.goto();
    // The banner says the ping told the app.
    const banner = page.getByText(/read-only mode for maintenance: you can browse/);
    await expect(banner).toBeVisible();
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
    });
    const area = files.uploadArea();
    await expect(area.getByRole('button', { name: 'Choose files' })).toBeDisabled();
    await expect(area.getByRole('button', { name: 'Choose folder' })).toBeDisabled();
    await expect(area.getByText(READ_ONLY)).toBeVisible();
    await files.dropFiles({ 'notes.txt': 'levelled\n' });
    // The refusal's toast (the area's notice above is no alert).
    await expect(page.getByRole('alert').filter({ hasText: READ_ONLY })).toBeVisible();
    await expect(files.dataSync()).toHaveCount(0);
    await expect(page.getByText(/Connection problem/)).toHaveCount(0);
    expect(writes).toEqual([]);
  } finally {
    await admin('maintenance', 'off');
  }

  // Ended: the banner goes and the upload works, well before the 5 minutes of the usual poll.
  await page.clock.fastForward(MAINTENANCE_POLL_MS);
  await expect(page.getByText(/read-only mode for maintenance: you can browse/)).toHaveCount(0, {
    timeout: 30_000,
  });
  await expect(files.uploadArea().getByRole('button', { name: 'Choose files' })).toBeEnabled();
  await files.dropFiles({ 'notes.txt': 'levelled\n' });
  await files.expectCounts(1, 0, 0);
  await files.updateChanges().click();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 30_000,
  });
});

test("changes made before maintenance began are refused with the read-only message and kept; 'Update Changes' waits disabled @serial", async ({
  page,
}) => {
  const name = `Maintenance pending ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);
  await page.clock.install();
  await files.goto();
  await files.dropFiles({ 'notes.txt': 'levelled\n' });
  await files.expectCounts(1, 0, 0);
  const pushes: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/project/push')) pushes.push(request.url());
  });

  await admin('maintenance', 'on');
  try {
    // The page had not heard of it yet: the status is read again before the upload starts.
    await files.updateChanges().click();
    await expect(page.getByText(READ_ONLY).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/read-only mode for maintenance: you can browse/)).toBeVisible();
    await files.expectCounts(1, 0, 0);
    await expect(files.updateChanges()).toBeDisabled();
    await expect(files.dataSync().getByText(READ_ONLY)).toBeVisible();
    expect(pushes).toEqual([]);
  } finally {
    await admin('maintenance', 'off');
  }
  await page.clock.fastForward(MAINTENANCE_POLL_MS);
  await expect(files.updateChanges()).toBeEnabled({ timeout: 30_000 });
  await files.updateChanges().click();
  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 30_000,
  });
});
