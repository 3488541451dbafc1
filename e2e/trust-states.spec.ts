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
  // The workspaces' answer is held (a busy server) until the header has been looked at
  // without it: the moment before the answer, for as long as the test needs, no fixed wait.
  let asked = false;
  let answer: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/v1/workspaces', async (route) => {
    asked = true;
    await held;
    await route.continue().catch(() => undefined);
  });
  const headerTexts = async () => (await page.evaluate('window.headerTexts')) as string[];
  const profileMenu = (name: RegExp) => page.getByRole('banner').getByRole('button', { name });
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(e2eAdmin.username, e2eAdmin.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect.poll(() => asked, { timeout: 30_000 }).toBe(true);
  // Signed in, the header shown, the workspaces not answered yet.
  await expect(profileMenu(/^Profile menu admin/)).toBeVisible({ timeout: 30_000 });
  expect((await headerTexts()).filter((text) => text.includes('no workspace'))).toEqual([]);
  answer();
  await expect(profileMenu(/^Profile menu admin waymark/)).toBeVisible({ timeout: 30_000 });
  expect((await headerTexts()).filter((text) => text.includes('no workspace'))).toEqual([]);
});
