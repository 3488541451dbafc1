// Offline after walking through the app (issue 22): the superuser the first start creates
// finds a private project opened by clicking through the app after an offline reload, still
// signed in, and a list shown on screen is saved at once (Explore, left at once for a project,
// still opens offline on a first visit).
import { expect, test } from '@playwright/test';
import { apiSession, createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { pushFiles } from './support/push';
import { signIn } from './pages/session';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { unique } from './support/unique';
import { setOffline } from './support/offline';

test.use(withServiceWorker);

const suffix = unique;

test('the superuser finds a private project offline after a reload, signed in', async ({
  page,
  context,
}) => {
  const name = `Quarry ${suffix()}`;
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  await createProject(page, 'waymark', name, false);
  await pushFiles(page, 'waymark', name, { files: { 'notes.txt': 'levelled\n' } });

  // Client-side navigation only, as a user clicks: Projects, then the project.
  await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

  await setOffline(context, true);
  try {
    await page.reload();
    await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'Profile menu' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
      'Offline — showing data saved',
    );
  } finally {
    await setOffline(context, false);
  }
});

test('a list shown on screen is saved at once: Explore left right away opens offline', async ({
  page,
  context,
}) => {
  const name = `Meadow ${suffix()}`;
  const admin = await apiSession();
  await createProject(admin, 'waymark', name, true);
  await pushFiles(admin, 'waymark', name, { files: { 'notes.txt': 'grazed\n' } });
  await admin.dispose();

  // A first visit (nothing stored in this browser yet): Explore, and a project tapped at once.
  await page.goto('/projects/explore');
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await waitForServiceWorker(page);

  await setOffline(context, true);
  try {
    await page.goto('/projects/explore');
    await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
      'Offline — showing data saved',
    );
  } finally {
    await setOffline(context, false);
  }
});
