// Issue 31, offline: a changeset page never opened on this device says so, as other pages do
// (not 'Changes cannot be calculated'), and one opened before shows its rows offline; a first
// visit's copy of a page left at once (by address, a reload) is kept all the same.
import { expect, test } from '@playwright/test';
import { apiSession, createProject } from './support/api';
import { e2eAdmin } from './support/env';
import { pointsGeoPackage, type PointFeature } from './support/geopackage';
import { pushFiles } from './support/push';
import { removeRoutes } from './support/routes';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { signIn } from './pages/session';
import { unique } from './support/unique';
import { setOffline } from './support/offline';

test.use(withServiceWorker);

const NOT_SAVED =
  'You are offline and this page has not been saved on this device. Connect to the internet to open it.';
const V1: PointFeature[] = [
  { fid: 1, name: 'oak', height: 12.5, x: 14.1, y: 50.1 },
  { fid: 2, name: 'ash', height: 8.25, x: 14.2, y: 50.2 },
];
const V2: PointFeature[] = [{ ...(V1[0] as PointFeature), name: 'beech' }, V1[1] as PointFeature];

test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

test('offline, a changeset page never opened says it was not saved on this device; one opened before shows its rows', async ({
  page,
  context,
}) => {
  const name = `Changeset offline ${unique()}`;
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  await createProject(page, 'waymark', name);
  await pushFiles(page, 'waymark', name, {
    files: { 'survey.gpkg': pointsGeoPackage('points', V1) },
  });
  await pushFiles(page, 'waymark', name, {
    files: { 'survey.gpkg': pointsGeoPackage('points', V2) },
  });
  const base = `/projects/waymark/${encodeURIComponent(name)}`;
  await page.goto(`${base}/tree`);
  await expect(page.getByRole('link', { name: 'survey.gpkg' })).toBeVisible({ timeout: 30_000 });

  await setOffline(context, true);
  await page.goto(`${base}/history/v2/survey.gpkg`);
  await expect(page.getByText(NOT_SAVED)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Changes cannot be calculated')).toHaveCount(0);
  await expect(page.getByText('Failed to display changeset of file')).toHaveCount(0);

  await setOffline(context, false);
  await page.reload();
  await expect(page.getByRole('cell', { name: 'beech' })).toBeVisible({ timeout: 30_000 });
  await setOffline(context, true);
  await page.reload();
  await expect(page.getByRole('cell', { name: 'beech' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Changes cannot be calculated')).toHaveCount(0);
});

test('a first visit left by address at once keeps its copy: Explore opens offline afterwards', async ({
  page,
  context,
}) => {
  const name = `Pasture ${unique()}`;
  const admin = await apiSession();
  await createProject(admin, 'waymark', name, true);
  await pushFiles(admin, 'waymark', name, { files: { 'notes.txt': 'grazed\n' } });
  await admin.dispose();

  // A busy device: the database code (Dexie, loaded once the first screen is shown) comes
  // only after the first page was left.
  let release: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/assets/*.js', async (route) => {
    const response = await route.fetch().catch(() => null);
    if (!response) return route.abort().catch(() => undefined);
    const body = await response.text();
    if (body.includes('Dexie')) await left;
    await route.fulfill({ response, body }).catch(() => undefined);
  });
  // A first visit (nothing stored in this browser yet), left by address as soon as it shows.
  await page.goto('/projects/explore');
  await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible({
    timeout: 30_000,
  });
  await page.goto('/login', { waitUntil: 'commit' });
  release();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await waitForServiceWorker(page);
  await context.unrouteAll({ behavior: 'ignoreErrors' });

  await setOffline(context, true);
  await page.goto('/projects/explore');
  await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
    'Offline — showing data saved',
  );
});
