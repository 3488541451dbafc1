// The field outbox (issue 18): uploads chosen offline on a project saved on this device are
// queued with their bytes in IndexedDB, survive a reload, and land when the connection
// returns: one version with exactly those bytes (every chunk written once), a conflicted copy
// beside a file another user changed meanwhile, and uploads of two projects in order.
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { removeRoutes } from './support/routes';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import {
  fileOnDisk as writeFile,
  queue,
  reloadOffline,
  savedProject,
  savedProjectOffline,
  expectConflictedCopyLanded,
  pushFromElsewhere,
} from './support/outbox';
import { signIn } from './pages/session';
import { setOffline } from './support/offline';
import { tempDir } from './support/temp-dir';

test.use(withServiceWorker);

const CHUNK_SIZE = 10 * 1024 * 1024;

const workDir = tempDir('outbox');
const fileOnDisk = (name: string, bytes: Buffer) => writeFile(workDir, name, bytes);
test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

/** Checks every finish: the transaction's chunks all arrived, each written exactly once. */
async function checkWritesAtFinish(context: BrowserContext): Promise<() => number[]> {
  const counted: number[] = [];
  await context.route('**/v1/project/push/finish/*', async (route: Route) => {
    const transaction = new URL(route.request().url()).pathname.split('/').pop()!;
    const status = await context.request.get(`/v1/project/push/${transaction}`);
    const body = (await status.json()) as { chunk_writes: Record<string, number> };
    counted.push(...Object.values(body.chunk_writes));
    await route.continue();
  });
  return () => counted;
}

async function rawFile(page: Page, name: string, path: string): Promise<Buffer> {
  const response = await page.request.get(
    `/v1/project/raw/waymark/${encodeURIComponent(name)}?file=${encodeURIComponent(path)}`,
  );
  expect(response.status()).toBe(200);
  return response.body();
}

test('chosen offline, still queued after a reload, one version with exactly those bytes once online', async ({
  page,
  context,
}) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  const project = await savedProject(page, { 'keep.txt': 'kept\n', 'old.txt': 'to delete\n' });
  const chosen = {
    'survey.tif': randomBytes(CHUNK_SIZE + 54_321),
    'notes.txt': Buffer.from('Measured offline at the quarry.\n'),
    'points.csv': Buffer.from('id,lon,lat\n1,14.42,50.08\n'),
  };
  const writes = await checkWritesAtFinish(context);
  const starts: string[] = [];
  context.on('request', (request) => {
    if (/\/v1\/project\/push\/waymark\//.test(request.url())) starts.push(request.url());
  });

  await setOffline(context, true);
  await reloadOffline(page, project);
  await queue(
    project,
    Object.entries(chosen).map(([name, bytes]) => fileOnDisk(name, bytes)),
    ['old.txt'],
  );
  await project.expectCounts(3, 0, 1);
  await expect(project.uploadsToast()).toContainText('3 added · 1 removed');

  // Reloaded, still offline: the upload waits in the Outbox.
  await page.reload();
  const outboxLink = page.getByRole('link', { name: /Outbox/ });
  await expect(outboxLink).toBeVisible({ timeout: 30_000 });
  await outboxLink.click();
  await expect(page).toHaveURL(/\/outbox$/);
  const item = page.getByRole('listitem', { name: `waymark/${project.name}` });
  await expect(item).toContainText('3 added · 1 removed');
  await expect(item).toContainText('Waiting for the network');
  expect(starts).toEqual([]);

  await setOffline(context, false);
  await expect(page.getByText(`Upload finished: waymark/${project.name}`)).toBeVisible({
    timeout: 90_000,
  });
  await expect(outboxLink).toHaveCount(0);
  const landed = await project.project();
  expect(landed.version).toBe('v2');
  expect(landed.files.map((f) => f.path).sort()).toEqual(
    ['keep.txt', 'notes.txt', 'points.csv', 'survey.tif'].sort(),
  );
  for (const [path, bytes] of Object.entries(chosen)) {
    expect((await rawFile(page, project.name, path)).equals(bytes)).toBe(true);
  }
  // survey.tif has two chunks, the others one each: four chunks, each written once.
  expect(writes()).toEqual([1, 1, 1, 1]);
  expect(starts).toHaveLength(1);
});

test('a file another user changed meanwhile: both contents land, the local one as a conflicted copy', async ({
  page,
  context,
}) => {
  const project = await savedProjectOffline(page, { 'site.txt': 'base\n' });
  const mine = Buffer.from('measured in the field\n');
  await queue(project, [fileOnDisk('site.txt', mine)]);

  // Meanwhile, another session pushes a new site.txt.
  expect(await pushFromElsewhere(project.name, { 'site.txt': 'theirs\n' })).toBe('v2');

  await setOffline(context, false);
  await expectConflictedCopyLanded(project, mine);
});

test('two projects with queued uploads both land, in order, after one reconnect', async ({
  page,
  context,
}) => {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  const first = await savedProject(page, { 'a.txt': 'a\n' });
  const second = await savedProject(page, { 'b.txt': 'b\n' });
  const starts: string[] = [];
  context.on('request', (request) => {
    const match = /\/v1\/project\/push\/waymark\/([^/?]+)$/.exec(request.url());
    if (match && request.method() === 'POST') starts.push(decodeURIComponent(match[1]!));
  });

  await setOffline(context, true);
  await reloadOffline(page, first);
  await queue(first, [fileOnDisk('first.txt', Buffer.from('one\n'))]);
  await reloadOffline(page, second);
  await queue(second, [fileOnDisk('second.txt', Buffer.from('two\n'))]);

  await setOffline(context, false);
  await expect.poll(async () => (await second.project()).version, { timeout: 90_000 }).toBe('v2');
  expect((await first.project()).version).toBe('v2');
  expect(starts).toEqual([first.name, second.name]);
});
