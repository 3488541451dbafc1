import { expect, test, type Page } from '@playwright/test';
import { createUser, linkFromOutbox } from './support/admin';
import { expectAccessible } from './support/axe';
import { signInSession } from './support/api';
import { signIn } from './pages/session';

async function openProfile(page: Page) {
  await page.goto('/profile');
  await expect(page.getByText('Account details')).toBeVisible();
}

test('editing the account trims the values and shows server errors under the fields', async ({
  page,
}) => {
  const user = await createUser('edit');
  await signInSession(page, user.username, user.password);
  await openProfile(page);

  await page.getByRole('button', { name: 'Edit account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /first name/i }).fill('  Jane  ');
  await dialog.getByRole('textbox', { name: /last name/i }).fill('  Surveyor ');
  const email = dialog.getByRole('textbox', { name: /email/i });
  await email.fill('admin@example.com');
  await dialog.getByRole('button', { name: /save/i }).click();
  await expect(dialog.getByText('Email already exists')).toBeVisible();

  await email.fill(`  ${user.email}  `);
  await dialog.getByRole('button', { name: /save/i }).click();
  await expect(page.getByText('Profile has been changed')).toBeVisible();
  await expect(page.getByText('Jane Surveyor', { exact: true }).first()).toBeVisible();
});

test('a changed email stays pending until the emailed link is opened', async ({ page }) => {
  const user = await createUser('confirm');
  await signInSession(page, user.username, user.password);
  await openProfile(page);

  const newEmail = `new-${user.email}`;
  await page.getByRole('button', { name: 'Edit account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /email/i }).fill(newEmail);
  await dialog.getByRole('button', { name: /save/i }).click();
  await expect(page.getByText('Profile has been changed')).toBeVisible();
  await expect(page.getByText(`Email was sent to address: ${newEmail}`)).toBeVisible();
  // The account keeps its address (issue 29): the new one waits for its link.
  const pending = page.getByRole('alert', { name: 'Confirm your new email address' });
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(`We sent a confirmation link to ${newEmail}`);
  await expect(pending).toContainText(`${user.email} stays the address you sign in with`);
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  await expectAccessible(page, 'pending email change');

  await page.goto(await linkFromOutbox(newEmail, '/confirm-email/'));
  await expect(page.getByText('Your email address has been verified.')).toBeVisible();
  await openProfile(page);
  await expect(page.getByRole('alert', { name: 'Confirm your new email address' })).toHaveCount(0);
  await expect(page.getByText('Please verify your email')).toHaveCount(0);
  await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
});

test('a pending email change can be cancelled', async ({ page }) => {
  const user = await createUser('cancel');
  await signInSession(page, user.username, user.password);
  await openProfile(page);

  await page.getByRole('button', { name: 'Edit account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /email/i }).fill(`other-${user.email}`);
  await dialog.getByRole('button', { name: /save/i }).click();
  const pending = page.getByRole('alert', { name: 'Confirm your new email address' });
  await expect(pending).toBeVisible();
  await pending.getByRole('button', { name: 'Cancel email change' }).click();
  await expect(page.getByText('Email change cancelled')).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
});

test('changing the password ends the other sessions', async ({ page, browser }) => {
  const user = await createUser('passwd');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, user.username, user.password);
  await signInSession(page, user.username, user.password);
  await openProfile(page);

  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog');
  const save = dialog.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled();
  await dialog.getByLabel(/old password/i).fill('wrong-Passw0rd!');
  await dialog.getByLabel(/^new password$/i).fill('Another-Passw0rd!');
  await dialog.getByLabel(/confirm/i).fill('Another-Passw0rd!');
  await save.click();
  await expect(dialog.getByText('The old password is incorrect')).toBeVisible();

  await dialog.getByLabel(/old password/i).fill(user.password);
  await save.click();
  await expect(page.getByText('Password has been changed')).toBeVisible();

  // This session goes on; the other browser's session has ended.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL(/\/login\?redirect=/);
  await other.close();
});

test('closing the account signs out and refuses later sign-ins', async ({ page }) => {
  const user = await createUser('close');
  await signInSession(page, user.username, user.password);
  await openProfile(page);

  await page.getByRole('button', { name: 'Close account' }).click();
  const dialog = page.getByRole('dialog');
  const confirm = dialog.getByRole('button', { name: /close account/i });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox').fill(user.username.toUpperCase());
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox').fill(user.username);
  await confirm.click();
  await expect(page).toHaveURL(/\/login/);
  // The app reloads signed out and says what happened.
  await expect(page.getByText('Your account has been closed')).toBeVisible();

  await page.getByRole('textbox', { name: 'Username or email' }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
});
