// Issue 22's workspace items: the storage warning follows a workspace switch; pending
// invitations show as an icon in the header and are joined from there; 'Members' is in the
// sidebar for workspace admins; the dashboard's 'Tip from Waymark'. Layout at 1280 and 768 px.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { createProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { pushFiles } from './support/push';
import { inviteByEmail, switchTo } from './support/workspaces';
import { signIn } from './pages/session';
import { unique } from './support/unique';

const suffix = unique;

test('the storage warning follows a workspace switch', async ({ page }) => {
  const user = await createUser('storage');
  const full = `full${suffix()}`;
  const roomy = `roomy${suffix()}`;
  await admin('workspace', 'create', full, '--storage', '1000');
  await admin('workspace', 'create', roomy);
  for (const workspace of [full, roomy]) {
    await admin('workspace', 'role', workspace, user.username, 'owner');
  }
  await signInSession(page, user.username, user.password);
  await createProject(page, full, 'Crowded');
  // 960 of 1 000 bytes: 96 %.
  await pushFiles(page, full, 'Crowded', { files: { 'cells.tif': randomBytes(960) } });
  const warning = page.getByRole('alert').filter({ hasText: 'Your storage is almost full' });

  await page.goto('/dashboard');
  await switchTo(page, full);
  await expect(
    warning.getByText('Your storage is almost full (96%).', { exact: true }),
  ).toBeVisible();
  await switchTo(page, roomy);
  await expect(page.getByRole('region', { name: 'Recent active projects' })).toBeVisible();
  await expect(warning).toHaveCount(0);
  await switchTo(page, full);
  await expect(warning).toBeVisible();
});

for (const width of [1280, 768]) {
  test(`at ${width} px pending invitations show in the header and are joined from there`, async ({
    page,
    browser,
  }) => {
    const owner = await createUser('host');
    const guest = await createUser('guest');
    const crew = `crew${width}${suffix()}`;
    await admin('workspace', 'create', crew);
    await admin('workspace', 'role', crew, owner.username, 'owner');
    await signInSession(page, owner.username, owner.password);
    await inviteByEmail(page, crew, guest.email, 'writer');

    const context = await browser.newContext({ viewport: { width, height: 800 } });
    try {
      const invited = await context.newPage();
      await signIn(invited, guest.username, guest.password);
      const icon = invited
        .getByRole('banner')
        .getByRole('button', { name: 'Invitations: 1 pending' });
      await expect(icon).toBeVisible();
      await icon.click();
      const menu = invited.getByRole('menu');
      await expect(menu.getByText(`${crew} invites you as writer`)).toBeVisible();
      await expectAccessible(invited, 'header invitations');
      await menu.getByRole('menuitem', { name: `Join ${crew}` }).click();
      await expect(invited.getByText(`You joined ${crew}`)).toBeVisible();
      await expect(invited).toHaveURL(/\/dashboard$/);
      await expect(
        invited.getByRole('banner').getByRole('button', { name: /^Profile menu/ }),
      ).toContainText(crew);
      await expect(icon).toBeHidden();
      await invited.reload();
      await expect(
        invited.getByRole('banner').getByRole('button', { name: /^Invitations/ }),
      ).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
}

test('a declined invitation leaves the header, and the workspace keeps no member', async ({
  page,
  browser,
}) => {
  const owner = await createUser('host');
  const guest = await createUser('decliner');
  const crew = `nope${suffix()}`;
  await admin('workspace', 'create', crew);
  await admin('workspace', 'role', crew, owner.username, 'owner');
  await signIn(page, owner.username, owner.password);
  await inviteByEmail(page, crew, guest.email, 'reader');

  const context = await browser.newContext();
  try {
    const invited = await context.newPage();
    await signIn(invited, guest.username, guest.password);
    await invited
      .getByRole('banner')
      .getByRole('button', { name: 'Invitations: 1 pending' })
      .click();
    await invited.getByRole('menuitem', { name: `Decline ${crew}` }).click();
    await expect(
      invited.getByRole('banner').getByRole('button', { name: /^Invitations/ }),
    ).toHaveCount(0);
  } finally {
    await context.close();
  }
  await switchTo(page, crew);
  await page.goto(`/workspaces/${crew}/members`);
  await expect(page.getByRole('region', { name: 'Pending invitations' })).toContainText(
    'No pending invitations',
  );
  await expect(page.getByRole('region', { name: 'Members' })).not.toContainText(guest.username);
});

for (const width of [1280, 768]) {
  test(`at ${width} px 'Members' is in the sidebar for workspace admins only`, async ({ page }) => {
    const boss = await createUser('boss');
    const reader = await createUser('reader');
    const crew = `side${width}${suffix()}`;
    await admin('workspace', 'create', crew);
    await admin('workspace', 'role', crew, boss.username, 'admin');
    await admin('workspace', 'role', crew, reader.username, 'reader');
    await page.setViewportSize({ width, height: 800 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const openSidebar = async () => {
      // Below 1200 px the sidebar is a drawer behind the toggle.
      if (width < 1200) await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    };

    await signIn(page, boss.username, boss.password);
    await switchTo(page, crew, 'admin');
    await openSidebar();
    await nav.getByRole('link', { name: 'Members' }).click();
    await expect(page).toHaveURL(new RegExp(`/workspaces/${crew}/members$`));
    await expect(page.getByRole('heading', { name: `Members of ${crew}` })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Members' })).toContainText(reader.username);

    await page.context().clearCookies();
    await signIn(page, reader.username, reader.password);
    await switchTo(page, crew, 'reader');
    await openSidebar();
    await expect(nav.getByRole('link', { name: 'Projects' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Members' })).toHaveCount(0);
  });
}

for (const width of [1280, 768]) {
  test(`at ${width} px the dashboard shows the closable 'Tip from Waymark'`, async ({ page }) => {
    const user = await createUser('tipped');
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, user.username, user.password);
    const tip = page.getByRole('note').filter({ hasText: 'Tip from Waymark' });
    await expect(tip).toContainText(
      `sign in there with this account and the server address ${new URL(page.url()).origin}.`,
    );
    await tip.getByRole('button', { name: 'Dismiss the tip' }).click();
    await expect(tip).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Recent active projects' })).toBeVisible();
    await expect(tip).toHaveCount(0);
  });
}
