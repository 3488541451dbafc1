// Issue 31, "the surveyor loses sight of their work", offline: after an offline reload the file
// list marks the queued files and the Outbox names them; further changes queue on top of a
// queued one (as the next version, docs/decisions/0122-changes-on-top.md); a deletion
// skipped because the file changed on the server is a warning that stays in the Outbox.
import { expect, test } from '@playwright/test';
import { removeRoutes } from './support/routes';
import {
  fileOnDisk as writeFile,
  pushFromElsewhere,
  queue,
  savedProjectOffline,
} from './support/outbox';
import { setOffline } from './support/offline';
import { tempDir } from './support/temp-dir';
import { withServiceWorker } from './support/service-worker';

test.use(withServiceWorker);

const workDir = tempDir('trust-outbox');
const fileOnDisk = (name: string, text: string) => writeFile(workDir, name, Buffer.from(text));
test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

test('after an offline reload the files list marks what is queued, and the Outbox names the files', async ({
  page,
}) => {
  const project = await savedProjectOffline(page, { 'keep.txt': 'kept\n', 'old.txt': 'old\n' });
  await queue(
    project,
    [fileOnDisk('new.txt', 'new\n'), fileOnDisk('keep.txt', 'changed\n')],
    ['old.txt'],
  );

  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' }).first()).toBeVisible();
  const row = (path: string) => page.getByRole('row').filter({ hasText: path });
  await expect(row('new.txt')).toContainText('New file', { timeout: 30_000 });
  await expect(row('keep.txt')).toContainText('Modified file');
  await expect(row('old.txt')).toContainText('Deleted file');

  await page.getByRole('link', { name: /Outbox/ }).click();
  const item = page.getByRole('listitem', { name: `waymark/${project.name}` });
  const listed = item.getByRole('list', { name: 'Files' });
  await expect(listed).toContainText('new.txt (new)');
  await expect(listed).toContainText('keep.txt (modified)');
  await expect(listed).toContainText('old.txt (deleted)');
});

test('offline, more changes queue on top of a queued one and land as the next version', async ({
  page,
  context,
}) => {
  const project = await savedProjectOffline(page, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  await queue(project, [fileOnDisk('c.txt', 'c\n')]);

  // Nothing uploads: files can still be deleted and chosen.
  await page.getByRole('link', { name: 'b.txt' }).click();
  const panel = page.getByRole('dialog', { name: 'b.txt' });
  await panel.getByRole('button', { name: 'Delete file' }).click();
  await expect(panel.getByText('Deleted file')).toBeVisible();
  await page.keyboard.press('Escape');
  await project.filesInput().setInputFiles(fileOnDisk('d.txt', 'd\n'));
  await expect(page.getByText('You cannot update files during upload')).toHaveCount(0);
  await project.expectCounts(1, 0, 1);
  // The queued c.txt stays marked under the new changes.
  await expect(page.getByRole('row').filter({ hasText: 'c.txt' })).toContainText('New file');
  await expect(project.updateChanges()).toBeEnabled({ timeout: 30_000 });
  await project.updateChanges().click();

  await page.getByRole('link', { name: /Outbox/ }).click();
  await expect(page.getByRole('listitem', { name: `waymark/${project.name}` })).toHaveCount(2);

  await setOffline(context, false);
  await expect.poll(async () => (await project.project()).version, { timeout: 90_000 }).toBe('v3');
  const landed = await project.project();
  expect(landed.files.map((f) => f.path).sort()).toEqual(['a.txt', 'c.txt', 'd.txt']);
});

test('a deletion skipped because the file changed on the server is a warning kept in the Outbox', async ({
  page,
  context,
}) => {
  const project = await savedProjectOffline(page, { 'site.txt': 'base\n', 'other.txt': 'o\n' });
  await page.getByRole('link', { name: 'site.txt' }).click();
  const panel = page.getByRole('dialog', { name: 'site.txt' });
  await panel.getByRole('button', { name: 'Delete file' }).click();
  await page.keyboard.press('Escape');
  await project.updateChanges().click();
  await expect(project.dataSync()).toContainText('Waiting for the network', { timeout: 30_000 });

  expect(await pushFromElsewhere(project.name, { 'site.txt': 'theirs\n' })).toBe('v2');

  await setOffline(context, false);
  const title = `No new version of waymark/${project.name}: nothing was left to send`;
  const line = 'site.txt: not deleted, because it changed on the server meanwhile';
  await expect(page.getByText(title)).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(line)).toBeVisible();
  await expect(page.getByText('Project updated')).toHaveCount(0);
  expect((await project.project()).version).toBe('v2');

  // Readable later, after the toast and a reload, until dismissed.
  await page.reload();
  await page.getByRole('link', { name: /Outbox/ }).click();
  const notices = page.getByRole('region', { name: 'Landed, but not as asked' });
  const notice = notices.getByRole('listitem', { name: `waymark/${project.name}` });
  await expect(notice).toContainText(title);
  await expect(notice).toContainText(line);
  await notice.getByRole('button', { name: `Dismiss waymark/${project.name}` }).click();
  await expect(notices).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Outbox/ })).toHaveCount(0);
});
