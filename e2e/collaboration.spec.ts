import { expect, test, type Browser, type Page } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { createProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { ProjectFilesPage } from './pages/project-files-page';
import { unique } from './support/unique';

const DAY = 24 * 60 * 60 * 1000;

type User = Awaited<ReturnType<typeof createUser>>;

/** A signed-in page (none opened yet) of its own browser context: two users side by side. */
async function signedIn(browser: Browser, user: User): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInSession(page, user.username, user.password);
  return page;
}

/** A workspace admin of the default workspace, who owns the projects they create. */
async function createWorkspaceAdmin(): Promise<User> {
  const user = await createUser('owner');
  await admin('workspace', 'role', 'waymark', user.username, 'admin');
  return user;
}

function projectPath(name: string): string {
  return `/projects/waymark/${encodeURIComponent(name)}`;
}

/** Requests access to a private project through its failure screen. */
async function requestAccess(page: Page, name: string) {
  await page.goto(projectPath(name));
  await expect(page.getByText('This is a private project')).toBeVisible();
  await page.getByRole('button', { name: 'Request access' }).click();
  await expect(page.getByText('Access has been requested')).toBeVisible();
}

/** What the server says the signed-in user may do with a project. */
async function projectPermissions(page: Page, name: string) {
  return page.evaluate(
    async (path) => {
      const response = await fetch(path);
      const body = (await response.json()) as { role: string; permissions: { upload: boolean } };
      return { role: body.role, upload: body.permissions.upload };
    },
    `/v1/project/waymark/${encodeURIComponent(name)}`,
  );
}

/** The status of a push start: 200 for writers, 403 for readers. */
async function pushStartStatus(page: Page, name: string): Promise<number> {
  return page.evaluate(
    async (path) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const project = (await (await fetch(`/v1/project/${path}`)).json()) as { version: string };
      const response = await fetch(`/v1/project/push/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({
          version: project.version,
          changes: {
            added: [],
            updated: [],
            removed: [{ path: 'nothing.txt', size: 0, checksum: '' }],
          },
        }),
      });
      return response.status;
    },
    `waymark/${encodeURIComponent(name)}`,
  );
}

test('an access request is accepted as writer, downgraded to reader, and the member leaves', async ({
  page,
  browser,
}) => {
  const owner = await createWorkspaceAdmin();
  const guest = await createUser('guest');
  const name = `Wetlands ${unique()}`;
  await signInSession(page, owner.username, owner.password);
  await createProject(page, 'waymark', name);

  const guestPage = await signedIn(browser, guest);
  await requestAccess(guestPage, name);
  await guestPage.goto('/profile');
  const mine = guestPage.getByRole('region', { name: 'You requested access to these projects' });
  await expect(
    mine.getByText(`You requested an access to project ${name} in workspace waymark`),
  ).toBeVisible();

  // The owner sees the request on the dashboard...
  await page.goto('/dashboard');
  const dashboardRequests = page.getByRole('region', { name: 'Access requests' });
  const dashboardRow = dashboardRequests.getByRole('row').filter({ hasText: guest.username });
  await expect(dashboardRow).toContainText(name);
  await expect(dashboardRow).toContainText(/\d+ days?/);
  await expect(
    dashboardRow.getByRole('button', {
      name: `Accept request of ${guest.username} to waymark/${name}`,
    }),
  ).toBeVisible();

  // ...and on the collaborators tab, where they accept it as writer.
  await page.goto(projectPath(name));
  await page.getByRole('tab', { name: 'Collaborators' }).click();
  await expect(page).toHaveURL(/\/collaborators$/);
  await expect(page.getByRole('tab', { name: 'Collaborators' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const requests = page.getByRole('region', { name: /^Access requests/ });
  const who = `${guest.username} to waymark/${name}`;
  const permission = requests.getByRole('combobox', { name: `Permissions for ${who}` });
  await expect(permission).toHaveValue('Reader');
  await permission.click();
  await page.getByRole('option', { name: 'Writer' }).click();
  await expect(permission).toHaveValue('Writer');
  await requests.getByRole('button', { name: `Accept request of ${who}` }).click();
  await expect(requests).toBeHidden();

  const members = page.getByRole('region', { name: 'Members' });
  const guestRow = members.getByRole('row').filter({ hasText: guest.email });
  const guestRole = guestRow.getByRole('combobox', {
    name: `Project permissions of ${guest.username}`,
  });
  await expect(guestRole).toHaveValue('Writer');
  const ownerRow = members.getByRole('row').filter({ hasText: owner.email });
  await expect(ownerRow).toContainText('(me)');
  await expect(
    ownerRow.getByRole('combobox', { name: `Project permissions of ${owner.username}` }),
  ).toBeDisabled();
  await expect(ownerRow.getByRole('button', { name: /^Remove/ })).toHaveCount(0);

  // The guest, now a writer, no longer has a pending request, pushes a version and sees it.
  await guestPage.reload();
  await expect(guestPage.getByRole('heading', { name: 'Account details' })).toBeVisible();
  await expect(guestPage.getByText(`You requested an access to project ${name}`)).toHaveCount(0);
  expect(await projectPermissions(guestPage, name)).toEqual({ role: 'writer', upload: true });
  const guestFiles = new ProjectFilesPage(guestPage, 'waymark', name);
  await guestFiles.goto();
  await expect(guestFiles.uploadArea()).toBeVisible();
  await guestFiles.dropFiles({ 'notes.txt': 'Reed beds mapped on the north shore.\n' });
  await guestFiles.expectCounts(1, 0, 0);
  await guestFiles.updateChanges().click();
  await expect(guestPage.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 20_000,
  });
  await expect(guestPage.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(guestPage.getByRole('tab', { name: 'Collaborators' })).toHaveCount(0);

  // The owner makes the guest a reader: the server now refuses the guest's pushes.
  await guestRole.click();
  await page.getByRole('option', { name: 'Reader' }).click();
  await expect(guestRole).toHaveValue('Reader');
  await page.reload();
  await expect(
    page.getByRole('combobox', { name: `Project permissions of ${guest.username}` }),
  ).toHaveValue('Reader');
  expect(await projectPermissions(guestPage, name)).toEqual({ role: 'reader', upload: false });
  expect(await pushStartStatus(guestPage, name)).toBe(403);
  // The guest's upload controls are gone.
  await guestFiles.goto();
  await expect(guestPage.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(guestFiles.uploadArea()).toHaveCount(0);
  await guestPage.getByRole('link', { name: 'notes.txt' }).click();
  await expect(guestPage.getByRole('button', { name: 'Download' }).first()).toBeVisible();
  await expect(guestPage.getByRole('button', { name: 'Delete file' })).toHaveCount(0);

  // The guest leaves the project and loses access to it.
  await guestPage.goto(projectPath(name));
  await guestPage.getByRole('button', { name: 'Leave project' }).click();
  const dialog = guestPage.getByRole('dialog');
  await expect(dialog).toContainText(`Are you sure to leave the project waymark/${name}?`);
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(guestPage).toHaveURL(/\/dashboard$/);
  await page.reload();
  await expect(page.getByRole('cell', { name: guest.email })).toHaveCount(0);
  await guestPage.context().close();
});

test('the owner shares a project from the Share dialog', async ({ page }) => {
  const owner = await createWorkspaceAdmin();
  const colleague = await createUser('colleague');
  const name = `Hedges ${unique()}`;
  await signInSession(page, owner.username, owner.password);
  await createProject(page, 'waymark', name);
  await page.goto(`${projectPath(name)}/collaborators`);

  await expect(page.getByRole('region', { name: 'Members' })).toBeVisible();
  await expectAccessible(page, 'collaborators');
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share project' });
  const share = dialog.getByRole('button', { name: 'Share' });
  await expect(share).toBeDisabled();
  const docs = dialog.getByRole('link', { name: 'Learn more about permissions' });
  await expect(docs).toHaveAttribute('href', /\/manage\/permissions$/);
  await expect(docs).toHaveAttribute('target', '_blank');
  const field = dialog.getByRole('textbox', { name: 'Share with' });
  await expect(field).toHaveAttribute('placeholder', 'Search users by username or email');

  await field.fill('zz-nobody-has-this-name');
  await expect(page.getByText('No matches found - Try using their emails instead')).toBeVisible();
  await field.fill(colleague.email);
  await page.getByRole('option', { name: new RegExp(colleague.username) }).click();
  await expect(page.getByText('Not the right person? Try typing their email instead')).toHaveCount(
    0,
  );
  await expect(dialog.getByRole('combobox', { name: 'Permissions' })).toHaveValue('Reader');
  await expectAccessible(page, 'share dialog');
  await share.click();
  await expect(
    page.getByText(`Following users have been added to the project: ${colleague.username}`),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: colleague.email });
  await expect(
    row.getByRole('combobox', { name: `Project permissions of ${colleague.username}` }),
  ).toHaveValue('Reader');

  // Members are not suggested again.
  await page.getByRole('button', { name: 'Share' }).click();
  await dialog.getByRole('textbox', { name: 'Share with' }).fill(colleague.email);
  await expect(page.getByText('No matches found - Try using their emails instead')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // A role change says so; a removal asks first, then says so.
  await row.getByRole('combobox', { name: `Project permissions of ${colleague.username}` }).click();
  await page.getByRole('option', { name: 'Writer' }).click();
  await expect(
    page.getByText(`${colleague.username} now has Writer permissions on this project`),
  ).toBeVisible();
  await row.getByRole('button', { name: `Remove ${colleague.username}` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${colleague.username}?` });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`${colleague.username} was removed from the project`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a request past its expiry shows as expired and cannot be accepted', async ({
  page,
  browser,
}) => {
  const owner = await createWorkspaceAdmin();
  const guest = await createUser('late');
  const name = `Meadows ${unique()}`;
  await signInSession(page, owner.username, owner.password);
  await createProject(page, 'waymark', name);
  const guestPage = await signedIn(browser, guest);
  await requestAccess(guestPage, name);
  await guestPage.context().close();

  // The server's clock cannot move, so the owner's browser lives 8 days ahead: the request's
  // expiry (7 days) has passed there. (The server's own refusal of expired requests is covered
  // by the server tests.)
  await page.clock.install({ time: Date.now() + 8 * DAY });
  await page.goto(`${projectPath(name)}/collaborators`);
  const requests = page.getByRole('region', { name: /^Access requests/ });
  const row = requests.getByRole('row').filter({ hasText: guest.username });
  await expect(row).toContainText('expired');
  await expect(row.getByRole('button', { name: /^Accept/ })).toHaveCount(0);
  await expect(row.getByRole('combobox')).toHaveCount(0);
  await row.getByRole('button', { name: /^Decline/ }).click();
  await expect(requests).toBeHidden();
});
