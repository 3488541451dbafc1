import { expect, test, type Page } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { createProject } from './support/api';
import { signIn } from './pages/session';

async function switchTo(page: Page, workspace: string) {
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Profile menu/ })
    .click();
  await page.getByRole('menuitem', { name: new RegExp(`^${workspace} owner$`) }).click();
  await expect(
    page.getByRole('banner').getByRole('button', { name: /^Profile menu/ }),
  ).toContainText(workspace);
}

test('a user owning two workspaces switches between them and the choice survives a reload', async ({
  page,
}) => {
  const user = createUser('switch');
  const first = `north${Date.now().toString(36)}`;
  const second = `south${Date.now().toString(36)}`;
  for (const workspace of [first, second]) {
    admin('workspace', 'create', workspace);
    admin('workspace', 'role', workspace, user.username, 'owner');
  }
  await signIn(page, user.username, user.password);
  await createProject(page, first, 'North survey');
  await createProject(page, second, 'South survey');

  await page.goto('/projects');
  await switchTo(page, first);
  await expect(page.getByRole('link', { name: 'North survey' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'South survey' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create project' })).toBeVisible();

  await switchTo(page, second);
  await expect(page.getByRole('link', { name: 'South survey' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'North survey' })).toBeHidden();

  await page.reload();
  await expect(page.getByRole('link', { name: 'South survey' })).toBeVisible();
  await expect(
    page.getByRole('banner').getByRole('button', { name: /^Profile menu/ }),
  ).toContainText(second);

  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Recent active projects' })).toContainText(
    'South survey',
  );
  await expect(page.getByRole('region', { name: 'Recent active projects' })).not.toContainText(
    'North survey',
  );
});
