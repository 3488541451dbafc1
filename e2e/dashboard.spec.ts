import { expect, test } from '@playwright/test';
import { createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { signIn } from './pages/session';
import { unique } from './support/unique';

test('the dashboard lists recent projects, newest first, with links into them @serial', async ({
  page,
}) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  const stamp = unique();
  await createProject(page, 'waymark', `Older survey ${stamp}`);
  await createProject(page, 'waymark', `Newer survey ${stamp}`, true);
  await page.reload();

  const recent = page.getByRole('region', { name: 'Recent active projects' });
  const rows = recent.getByRole('row');
  await expect(rows.nth(1)).toContainText(`Newer survey ${stamp}`);
  await expect(rows.nth(1)).toContainText('Public');
  await expect(rows.nth(2)).toContainText(`Older survey ${stamp}`);

  await recent.getByRole('link', { name: `Older survey ${stamp}` }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/waymark/Older%20survey%20${stamp}/tree`));
});

test('the mobile app footer stays closed once dismissed', async ({ page }) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  const footer = page.getByText('Collect data in the field with the mobile app');
  await expect(footer).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss the mobile app invitation' }).click();
  await expect(footer).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Recent active projects' })).toBeVisible();
  await expect(footer).toBeHidden();
});
