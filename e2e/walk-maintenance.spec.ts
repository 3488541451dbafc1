// Read-only maintenance (spec 000 §8, issue 22): a browser upload is refused on the client with
// the read-only message before any request; no push is sent.
import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { ProjectFilesPage } from './pages/project-files-page';
import { signIn } from './pages/session';

const READ_ONLY =
  'The service is currently in read-only mode for maintenance. Upload and update functions are not available at this time. Please try again later.';

test('during maintenance an upload is refused with the read-only message, before any request', async ({
  page,
}) => {
  const name = `Maintenance ${Date.now().toString(36)}`;
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const files = new ProjectFilesPage(page, 'waymark', name);

  admin('maintenance', 'on');
  try {
    await files.goto();
    // The banner says the ping told the app.
    await expect(page.getByText(/read-only/i).first()).toBeVisible();
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
    });
    await files.dropFiles({ 'notes.txt': 'levelled\n' });
    await files.expectCounts(1, 0, 0);
    await files.updateChanges().click();
    await expect(page.getByText(READ_ONLY).last()).toBeVisible();
    await expect(page.getByText(/Connection problem/)).toHaveCount(0);
    expect(writes).toEqual([]);
  } finally {
    admin('maintenance', 'off');
  }
});
