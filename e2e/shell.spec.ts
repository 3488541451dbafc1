import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { createProject, signInSession } from './support/api';
import { e2eAdmin, freePorts } from './support/env';
import { OwnServer } from './support/own-server';
import { pushFiles } from './support/push';
import { signIn } from './pages/session';
import { unique } from './support/unique';

const READ_ONLY =
  'The service is currently in read-only mode for maintenance. Upload and update functions are not available at this time. Please try again later.';

test('maintenance switched on with the admin command makes the product read-only @serial', async ({
  page,
}) => {
  const user = await createUser('maint');
  await signInSession(page, user.username, user.password);
  await admin('maintenance', 'on');
  try {
    await page.goto('/profile');
    await expect(page.getByText(/read-only/i).first()).toBeVisible();

    const mutations: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') mutations.push(`${request.method()} ${request.url()}`);
    });
    await page.getByRole('button', { name: 'Edit account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /first name/i }).fill('Offline');
    await dialog.getByRole('button', { name: /save/i }).click();
    await expect(page.getByText(READ_ONLY)).toBeVisible();
    expect(mutations).toEqual([]);
  } finally {
    await admin('maintenance', 'off');
  }
});

test('the storage warning shows above 90 % of the workspace allowance', async ({ browser }) => {
  // The allowance comes from GLOBAL_STORAGE, which is one setting for a whole server: this
  // test runs its own server with a 100 000-byte default workspace and fills it by pushing
  // real files.
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-e2e-storage-'));
  const [port] = (await freePorts()) as [number];
  const server = new OwnServer(port, join(dataDir, 'server-data'), {
    GLOBAL_STORAGE: '100000',
  });
  try {
    await server.start();
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await signIn(page, e2eAdmin.username, e2eAdmin.password);
      const name = `Storage ${unique()}`;
      await createProject(page, 'waymark', name);
      const warning = page.getByRole('alert').filter({ hasText: 'Your storage is almost full' });

      // Exactly 90 %: not above the threshold, no warning.
      await pushFiles(page, 'waymark', name, { files: { 'survey.tif': randomBytes(90_000) } });
      await page.reload();
      const recent = page.getByRole('region', { name: 'Recent active projects' });
      await expect(recent.getByRole('link', { name })).toBeVisible();
      await expect(warning).toHaveCount(0);

      // 95 500 bytes of 100 000: 95 %, rounded down.
      await pushFiles(page, 'waymark', name, { files: { 'notes.csv': randomBytes(5_500) } });
      await page.reload();
      await expect(
        warning.getByText('Your storage is almost full (95%).', { exact: true }),
      ).toBeVisible();
      await expect(
        warning.getByText('Soon you will not be able to sync your projects.', { exact: true }),
      ).toBeVisible();
    } finally {
      await context.close();
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('below 1200 px the sidebar is a drawer that closes on navigation', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 800 });
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  const projects = page.getByRole('link', { name: 'Projects' });
  await expect(projects).toBeHidden();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(projects).toBeVisible();
  await projects.click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(projects).toBeHidden();
});

test('above 1200 px the sidebar starts open', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Projects' })).toBeVisible();
});
