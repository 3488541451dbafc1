// Issue 31, "states that are not true": right after sign-in the header never says 'no
// workspace' while the workspaces are still being read (it waits for the answer).
import { expect, test } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { removeRoutes } from './support/routes';
import { LoginPage } from './pages/login-page';

test.afterEach(({ context }) => removeRoutes(context));

test("after sign-in the header does not say 'no workspace' before the workspaces answer", async ({
  page,
}) => {
  // Every text the header ever showed is recorded, from the first paint on.
  await page.addInitScript(`
    const seen = [];
    window.headerTexts = seen;
    new MutationObserver(() => {
      const header = document.querySelector('header');
      if (header) seen.push(header.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  `);
  // A slow answer (a busy server) makes the moment before it visible: the workspaces are held
  // until the signed-in header has been shown without them.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route('**/v1/workspaces', async (route) => {
    asked = true;
    await held;
    await route.continue().catch(() => undefined);
  });
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(e2eAdmin.username, e2eAdmin.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const profile = page.getByRole('banner').getByRole('button', { name: /^Profile menu/ });
  await expect(profile).toBeVisible();
  await expect.poll(() => asked).toBe(true);
  release();
  await expect(
    page.getByRole('banner').getByRole('button', { name: /^Profile menu admin waymark/ }),
  ).toBeVisible({ timeout: 30_000 });
  const texts = (await page.evaluate('window.headerTexts')) as string[];
  expect(texts.filter((text) => text.includes('no workspace'))).toEqual([]);
});
