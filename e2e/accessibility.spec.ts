import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { e2eAdmin } from './support/env';
import { signIn } from './pages/session';

test('the screens before sign-in have no serious accessibility violations', async ({ page }) => {
  for (const [path, text] of [
    ['/login', 'Sign in'],
    ['/login/reset', 'Reset password'],
    ['/change-password/some-token', 'Change'],
    ['/confirm-email/some-token', 'Continue'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: text })).toBeVisible();
    await expectAccessible(page, path);
  }
  await page.goto('/no/such/page');
  await expect(page.getByText('Ooops, it seems the GPS has lost its way.')).toBeVisible();
  await expectAccessible(page, 'not found');
});

test('the signed-in screens and dialogs have no serious accessibility violations', async ({
  page,
}) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await expectAccessible(page, '/dashboard');

  await page.goto('/profile');
  await expect(page.getByText('Account details')).toBeVisible();
  await expectAccessible(page, '/profile');

  for (const button of ['Edit account', 'Change password', 'Close account']) {
    await page.getByRole('button', { name: button }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, `${button} dialog`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await expectAccessible(page, 'profile menu');
});
