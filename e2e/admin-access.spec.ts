/**
 * Personal access tokens on the profile screen and the audit log screen (issue 33): a token
 * is made, copied once, used by a script (no browser session), listed with its last use and
 * revoked; the superuser reads, filters and exports the audit log.
 */
import { readFile } from 'node:fs/promises';
import { expect, request, test, type Page } from '@playwright/test';
import { createUser } from './support/admin';
import { e2eAdmin, e2ePort } from './support/env';
import { signInSession } from './support/api';
import { signIn } from './pages/session';

const baseURL = `http://127.0.0.1:${e2ePort}`;

/** A call as a script makes it: only the token, no cookies. */
async function asScript(token: string, path: string): Promise<number> {
  const context = await request.newContext({ baseURL });
  try {
    const response = await context.get(path, { headers: { authorization: `Bearer ${token}` } });
    return response.status();
  } finally {
    await context.dispose();
  }
}

async function openProfile(page: Page) {
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Access tokens' })).toBeVisible();
}

test('a token is made on the profile, used by a script, listed with its use and revoked', async ({
  page,
}) => {
  const user = await createUser('tokens');
  await signInSession(page, user.username, user.password);
  await openProfile(page);
  await expect(page.getByText('No access tokens yet')).toBeVisible();

  const form = page.getByRole('form', { name: 'New access token' });
  await form.getByRole('textbox', { name: 'Token name' }).fill('nightly export');
  await form.getByRole('combobox', { name: 'Scope' }).click();
  await page.getByRole('option', { name: 'Read and write' }).click();
  await form.getByRole('combobox', { name: 'Expires in' }).click();
  await page.getByRole('option', { name: '90 days' }).click();
  await form.getByRole('button', { name: 'Create token' }).click();

  await expect(page.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  const field = page.getByRole('textbox', { name: 'New token' });
  const token = await field.inputValue();
  expect(token).toMatch(/\.wmpat_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('button', { name: 'Copy new token' })).toBeVisible();

  const table = page.getByRole('table', { name: 'Access tokens' });
  const row = table.getByRole('row').filter({ hasText: 'nightly export' });
  await expect(row).toContainText('Read and write');
  await expect(row).toContainText('never');

  expect(await asScript(token, '/v1/user/profile')).toBe(200);
  // The list shows the use (after a reload: the token's value is not shown again).
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Access tokens' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'New token' })).toHaveCount(0);
  await expect(row).not.toContainText('never');
  await expect(row).toContainText('from 127.0.0.1');

  await row.getByRole('button', { name: 'Revoke nightly export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke token' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: 'Revoke nightly export' })).toHaveCount(0);
  expect(await asScript(token, '/v1/user/profile')).toBe(401);
});

test('the superuser reads, filters and exports the audit log', async ({ page }) => {
  const user = await createUser('audited');
  await signInSession(page, user.username, user.password);
  await openProfile(page);
  const form = page.getByRole('form', { name: 'New access token' });
  await form.getByRole('textbox', { name: 'Token name' }).fill('audited token');
  await form.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('textbox', { name: 'New token' })).toBeVisible();
  await page.context().clearCookies();

  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await page.getByRole('button', { name: /^Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const log = page.getByRole('table', { name: 'Audit log' });
  await expect(log.getByRole('row').filter({ hasText: 'Auth sign in' }).first()).toBeVisible();

  const filter = page.getByRole('form', { name: 'Filter the audit log' });
  await filter.getByRole('textbox', { name: 'User' }).fill(user.username);
  await filter.getByRole('button', { name: 'Filter' }).click();
  // Filtered once the admin's own sign-in has left the table (other tests make tokens too).
  await expect(log.getByRole('row').filter({ hasText: 'admin' })).toHaveCount(0);
  const made = log.getByRole('row').filter({ hasText: 'Token created' });
  await expect(made).toHaveCount(1);
  await expect(made).toContainText('token audited token');
  await expect(made).toContainText('127.0.0.1');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    filter.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^waymark-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    'time,action,user,address,workspace,project,target_type,target_id,target,details',
  );
  expect(csv).toContain(`,token.created,${user.username},`);
  expect(csv).not.toContain(',admin,');
});
