// Ways back and words for what happened (issue 22): the anonymous not-found page leads to the
// public projects, and a non-owner sent away from a project's settings is told why.
import { expect, test } from '@playwright/test';
import { createUser } from './support/admin';
import { apiSession, createProject } from './support/api';
import { signIn } from './pages/session';
import { unique } from './support/unique';

test('an anonymous visitor on the not-found page finds the way to the public projects', async ({
  page,
}) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Ooops, it seems the GPS has lost its way.')).toBeVisible();
  await page.getByRole('link', { name: 'Explore public projects' }).click();
  await expect(page).toHaveURL(/\/projects\/explore$/);
});

test('a non-owner opening Settings is sent to the projects and told why', async ({ page }) => {
  const name = `Open fields ${unique()}`;
  const admin = await apiSession();
  await createProject(admin, 'waymark', name, true);
  await admin.dispose();
  const user = await createUser('visitor');
  await signIn(
    page,
    user.username,
    user.password,
    `/projects/waymark/${encodeURIComponent(name)}/settings`,
  );
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByText("Only the project's owners can open its settings")).toBeVisible();
});
