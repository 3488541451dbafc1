// Issue 22's walk, the items that had no end-to-end test yet: the file version detail of a
// GeoPackage added in that version settles at once; 'Diff not found' shows once (in the page,
// no toast repeating it); an over-quota browser upload says what it means and offers no Retry.
import { expect, test } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { createProject, signInSession } from './support/api';
import { pointsGeoPackage } from './support/geopackage';
import { pushFiles } from './support/push';
import { ProjectFilesPage } from './pages/project-files-page';
import { unique } from './support/unique';

const suffix = unique;

test('the file version detail of an added GeoPackage settles, and a file without a diff says so once', async ({
  page,
}) => {
  const user = await createUser('walker');
  await admin('workspace', 'role', 'waymark', user.username, 'admin');
  const name = `Walk history ${suffix()}`;
  await signInSession(page, user.username, user.password);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, {
    files: {
      'survey.gpkg': pointsGeoPackage('points', [
        { fid: 1, name: 'oak', height: 12, x: 16.3, y: 48.2 },
      ]),
      'notes.txt': 'first\n',
    },
  });
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'second\n' } });
  const base = `/projects/waymark/${encodeURIComponent(name)}/history`;

  await page.goto(`${base}/v1/survey.gpkg`);
  await expect(page.getByRole('heading', { name: 'survey.gpkg' })).toBeVisible();
  await expect(page.getByText('No changeset for current layer')).toBeVisible();
  await expect(page.getByText('Calculating changes…')).toHaveCount(0);

  await page.goto(`${base}/v2/notes.txt`);
  await expect(page.getByRole('heading', { name: 'Changes cannot be calculated' })).toBeVisible();
  await expect(page.getByText('Diff not found')).toHaveCount(1);
});

for (const width of [1280, 768]) {
  test(`at ${width} px an over-quota upload says what it means and offers no Retry`, async ({
    page,
  }) => {
    const user = await createUser('quota');
    const tiny = `tiny${width}${suffix()}`;
    await admin('workspace', 'create', tiny, '--storage', '100');
    await admin('workspace', 'role', tiny, user.username, 'owner');
    await page.setViewportSize({ width, height: 800 });
    await signInSession(page, user.username, user.password);
    await createProject(page, tiny, 'Full');
    const files = new ProjectFilesPage(page, tiny, 'Full');
    await files.goto();
    await files.dropFiles({ 'big.csv': 'x'.repeat(500) });
    await files.showDetails();
    await files.expectCounts(1, 0, 0);
    await files.updateChanges().click();
    const toast = files.uploadsToast();
    await expect(
      toast.getByText(
        'You have reached a data limit: the workspace has no storage left for this upload.',
      ),
    ).toBeVisible();
    await expect(toast).not.toContainText('StorageLimitHit');
    await expect(toast.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await expect(toast.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  });
}
