import { expect, test } from '@playwright/test';
import { admin, createUser, linkFromOutbox } from './support/admin';
import { createProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { LoginPage } from './pages/login-page';
import { signIn } from './pages/session';
import { inviteByEmail, switchTo } from './support/workspaces';
import { unique } from './support/unique';

test('a user owning two workspaces switches between them and the choice survives a reload', async ({
  page,
}) => {
  const user = await createUser('switch');
  const first = `north${unique()}`;
  const second = `south${unique()}`;
  for (const workspace of [first, second]) {
    await admin('workspace', 'create', workspace);
    await admin('workspace', 'role', workspace, user.username, 'owner');
  }
  await signInSession(page, user.username, user.password);
  await createProject(page, first, 'North survey');
  await createProject(page, second, 'South survey');

  await page.goto('/projects');
  await switchTo(page, first);
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Profile menu/ })
    .click();
  await expect(page.getByRole('menuitem', { name: `${second} owner` })).toBeVisible();
  await expectAccessible(page, 'workspace switcher');
  await page.keyboard.press('Escape');
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

test('an owner manages members, and a new user accepts an emailed invitation after signing in', async ({
  page,
  browser,
}) => {
  const owner = await createUser('crewowner');
  const helper = await createUser('helper');
  const newcomer = await createUser('newcomer');
  const crew = `crew${unique()}`;
  await admin('workspace', 'create', crew);
  await admin('workspace', 'role', crew, owner.username, 'owner');
  await admin('workspace', 'role', crew, helper.username, 'reader');

  await signIn(page, owner.username, owner.password);
  await switchTo(page, crew);
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Profile menu/ })
    .click();
  await page.getByRole('menuitem', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { name: `Members of ${crew}` })).toBeVisible();

  const members = page.getByRole('region', { name: 'Members' });
  await expect(members.getByRole('row', { name: new RegExp(owner.username) })).toBeVisible();
  await members.getByRole('combobox', { name: `Role of ${helper.username}` }).click();
  await page.getByRole('option', { name: 'Writer' }).click();
  await expect(page.getByText(`${helper.username} is now writer`)).toBeVisible();

  await members.getByRole('button', { name: `Remove ${helper.username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove member' });
  await expect(dialog).toContainText(`Remove ${helper.username} from ${crew}?`);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`${helper.username} was removed from ${crew}`)).toBeVisible();
  await expect(members.getByRole('row', { name: new RegExp(helper.username) })).toBeHidden();

  const invite = page.getByRole('region', { name: 'Invite a member' });
  await invite.getByRole('textbox', { name: 'Email' }).fill(newcomer.email);
  await invite.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Writer' }).click();
  await invite.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invitation sent to ${newcomer.email}`)).toBeVisible();
  const pending = page.getByRole('region', { name: 'Pending invitations' });
  await expect(pending.getByRole('row', { name: new RegExp(newcomer.email) })).toContainText(
    'Writer',
  );
  await expectAccessible(page, 'members screen');

  const link = await linkFromOutbox(newcomer.email, '/invitations/');
  const context = await browser.newContext();
  const invited = await context.newPage();
  await invited.goto(link);
  await expect(invited.getByText(`Sign in as ${newcomer.email} to accept it.`)).toBeVisible();
  await invited.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
  const login = new LoginPage(invited);
  await login.signIn(newcomer.username, newcomer.password);
  await expect(
    invited.getByText(`You are invited to join the workspace ${crew} as writer.`),
  ).toBeVisible();
  await expectAccessible(invited, 'invitation page');
  await invited.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invited.getByText(`You joined ${crew}`)).toBeVisible();
  await expect(invited).toHaveURL(/\/dashboard$/);
  await expect(
    invited.getByRole('banner').getByRole('button', { name: /^Profile menu/ }),
  ).toContainText(crew);
  await context.close();

  await page.reload();
  await expect(members.getByRole('row', { name: new RegExp(newcomer.username) })).toBeVisible();
  await expect(pending.getByText('No pending invitations')).toBeVisible();
});

test('a person without an account registers from the invitation link and lands in the workspace', async ({
  page,
  browser,
}) => {
  const owner = await createUser('inviter');
  const crew = `team${unique()}`;
  await admin('workspace', 'create', crew);
  await admin('workspace', 'role', crew, owner.username, 'owner');
  await signInSession(page, owner.username, owner.password);
  const email = `fresh${unique()}@example.com`;
  await inviteByEmail(page, crew, email, 'reader');

  const link = await linkFromOutbox(email, '/invitations/');
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(link);
  await expect(
    visitor.getByText(`You are invited to join the workspace ${crew} as reader.`),
  ).toBeVisible();
  await expect(visitor.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  // At 1280 px the form keeps to the onboarding column (spec 000 §2: 480px; issue 31).
  const field = await visitor.getByRole('textbox', { name: 'Username' }).boundingBox();
  expect(field?.width ?? 0).toBeGreaterThan(200);
  expect(field?.width ?? Infinity).toBeLessThanOrEqual(480);
  const username = `fresh${unique()}`;
  await visitor.getByRole('textbox', { name: 'Username' }).fill(username);
  await visitor.getByLabel(/^Password/).fill('short');
  await visitor.getByRole('button', { name: 'Create account and join' }).click();
  await expect(visitor.getByText(/Password/).first()).toBeVisible();
  await visitor.getByLabel(/^Password/).fill('Field-Surv3y!');
  await visitor.getByRole('button', { name: 'Create account and join' }).click();
  await expect(visitor.getByText(`You joined ${crew}`)).toBeVisible();
  await expect(visitor).toHaveURL(/\/dashboard$/);
  await expect(
    visitor.getByRole('banner').getByRole('button', { name: /^Profile menu/ }),
  ).toContainText(crew);
  await context.close();
});
