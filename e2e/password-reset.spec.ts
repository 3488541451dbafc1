import { expect, test } from '@playwright/test';
import { createUser, linkFromOutbox } from './support/admin';
import { LoginPage } from './pages/login-page';
import { signInThroughScreen } from './pages/session';

test('a forgotten password is reset through the emailed link', async ({ page }) => {
  const user = await createUser('reset');
  const login = new LoginPage(page);
  await login.goto();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/login\/reset$/);

  const reset = page.getByRole('button', { name: 'Reset password' });
  await expect(reset).toBeDisabled();
  await page.getByRole('textbox', { name: /email/i }).fill(`  ${user.email}  `);
  await reset.click();
  await expect(
    page.getByText('Email with password reset link was sent to your email address'),
  ).toBeVisible();

  await page.goto(await linkFromOutbox(user.email, '/change-password/'));
  const newPassword = 'Changed-Passw0rd!';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByText('Your password was changed. You can now')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();

  await signInThroughScreen(page, user.username, newPassword);
});

test('an unknown email gets the error under the email field', async ({ page }) => {
  await page.goto('/login/reset');
  await page.getByRole('textbox', { name: /email/i }).fill('nobody-here@example.com');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Account with given email does not exist')).toBeVisible();
});

test('a broken reset link is refused', async ({ page }) => {
  await page.goto('/change-password/not-a-token');
  await page.getByLabel('New Password', { exact: true }).fill('Changed-Passw0rd!');
  await page.getByLabel('Confirm password', { exact: true }).fill('Changed-Passw0rd!');
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByText('Invalid token')).toBeVisible();
});
