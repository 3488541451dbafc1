// A link that is up but carries nothing ("lie-fi": the browser says online, every call to the
// server fails): a page opened before shows its saved copy and the offline notice, and the
// app's own reads (the server's status and configuration) fail quietly instead of toasting
// 'Failed to fetch ping data.' and 'Failed to fetch config data.' on every page load.
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { savedProject, storedKeys } from './support/outbox';
import { removeRoutes } from './support/routes';
import { signIn } from './pages/session';

test.afterEach(async ({ context }) => {
  await removeRoutes(context);
});

/** Whether this browser holds an offline copy under `key` (src/offline/offlineCache.ts). */
async function hasCopy(page: Page, key: string): Promise<boolean> {
  const keys = await storedKeys(page, 'offlineEntries');
  return keys.some((entry) => Array.isArray(entry) && entry[1] === key);
}

/** The server's API and status paths (the app's own pages and files still load). */
const API = /^\/(ping|config|app\/|v1\/|v2\/)/;

test('on a link that carries nothing, a project seen before shows its saved copy and no error toasts', async ({
  page,
  context,
}) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  const project = await savedProject(page, { 'notes.txt': 'seen once\n' });
  await expect
    .poll(() => hasCopy(page, `project:${JSON.stringify(['waymark', project.name])}`))
    .toBe(true);

  // Every alert shown from now on, kept as it appears (toasts close by themselves).
  await page.addInitScript(`
    window.shownAlerts = new Set();
    new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role="alert"]')) {
        if (alert.textContent) window.shownAlerts.add(alert.textContent);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  `);
  const asked = { ping: 0, config: 0, project: 0 };
  await context.route(
    (url) => API.test(url.pathname),
    async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/ping') asked.ping++;
      if (path === '/config') asked.config++;
      if (path.startsWith('/v1/project/waymark/')) asked.project++;
      await route.abort('internetdisconnected').catch(() => undefined);
    },
  );
  await page.reload();
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Offline — showing data saved' }),
  ).toBeVisible();
  // The app asked for its status and configuration, and the page read its project again
  // (2 s after it showed the copy): the first failures' toasts, if any, were shown by then.
  await expect.poll(() => asked.ping > 0 && asked.config > 0 && asked.project >= 2).toBe(true);
  const shown = (await page.evaluate('[...window.shownAlerts]')) as string[];
  expect(shown.filter((text) => text.includes('Failed to fetch'))).toEqual([]);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
});
