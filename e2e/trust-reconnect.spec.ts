// Issue 31, "states that are not true": back online on the Outbox or the Projects page, the
// 'Offline — showing data saved …' notice goes once the pages are answered by the server again
// (not a minute later), and the queued change is sent.
import { expect, test } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { removeRoutes } from './support/routes';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { fileOnDisk as writeFile, queue, reloadOffline, savedProject } from './support/outbox';
import { signIn } from './pages/session';
import { setOffline } from './support/offline';
import { tempDir } from './support/temp-dir';

test.use(withServiceWorker);

const workDir = tempDir('trust-reconnect');
test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

for (const where of ['Outbox', 'Projects'] as const) {
  test(`back online on the ${where} page, the offline notice goes soon after the queued change was sent`, async ({
    page,
    context,
  }) => {
    await signIn(page, e2eAdmin.username, e2eAdmin.password);
    await waitForServiceWorker(page);
    const project = await savedProject(page, { 'a.txt': 'a\n' });
    // Both pages were seen online once (saved on this device).
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
    await expect(page.getByRole('link', { name: new RegExp(project.name) })).toBeVisible();

    await setOffline(context, true);
    await reloadOffline(page, project);
    await queue(project, [writeFile(workDir, 'b.txt', Buffer.from('b\n'))]);
    // Opened there offline, as after a reload.
    await page.goto(where === 'Outbox' ? '/outbox' : '/projects');
    const notice = page.getByRole('status').filter({ hasText: 'Offline —' });
    await expect(notice).toBeVisible();

    // The connection comes back before the server answers the pages' reads (a network that
    // says 'online' a moment early): they are answered from the saved copies again.
    let unreachable = true;
    await context.route(/\/v1\/(user\/profile|workspaces|project\/paginated)/, (route) =>
      unreachable ? route.abort('internetdisconnected') : route.continue(),
    );
    await setOffline(context, false);
    await expect(notice).toBeVisible();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.goBack();
    await expect(notice).toBeVisible();
    unreachable = false;
    await expect
      .poll(async () => (await project.project()).version, { timeout: 60_000 })
      .toBe('v2');
    await expect(notice).toHaveCount(0, { timeout: 20_000 });
  });
}
