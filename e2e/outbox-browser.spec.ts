// The field outbox and the browser (issue 18): a Background Sync fired by Chromium reaches the
// service worker, which wakes the pages' upload engine, and the queued upload lands; the
// installed app's badge follows the number of uploads waiting; and not enough space on the
// device is said before anything is queued; a sync the browser fires reaches the pages. Run in
// the full Chromium: the headless shell the other specs use has no Background Sync.
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { removeRoutes } from './support/routes';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import {
  fileOnDisk as writeFile,
  queue,
  reloadOffline,
  savedProject,
  savedProjectOffline,
  storedRows,
} from './support/outbox';
import { signIn } from './pages/session';
import { setOffline } from './support/offline';
import { tempDir } from './support/temp-dir';
import { fullChromium } from './support/full-chromium';

/** The upload engine's Background Sync tag (src/sw/offline.ts UPLOAD_SYNC_TAG). */
const UPLOAD_SYNC_TAG = 'waymark-uploads';

// Background Sync is the subject here, and the headless shell has none: the full Chromium.
test.use(fullChromium);
test.use(withServiceWorker);

const workDir = tempDir('outbox-browser');
const fileOnDisk = (name: string, text: string) => writeFile(workDir, name, Buffer.from(text));
test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

/**
 * Fires Background Sync `tag` in the page's service worker as Chromium does (DevTools'
 * ServiceWorker.dispatchSyncEvent, on the registration DevTools reports).
 */
async function dispatchSync(page: Page, tag: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: new URL(page.url()).origin,
    registrationId: await registration,
    tag,
    lastChance: false,
  });
  await cdp.detach();
}

test('a Background Sync sends a queued upload while the engine still waits', async ({
  page,
  context,
}) => {
  const project = await savedProjectOffline(page, { 'site.txt': 'base\n' });
  await queue(project, [fileOnDisk('synced.txt', 'sent by a Background Sync\n')]);

  // The connection returns, but the server stays out of reach: the 'online' event's wake
  // meets failing requests, and from then on the engine's probes (GET /ping) fail.
  let failedApi = 0;
  let pushAttempts = 0;
  let probes = 0;
  await context.route('**/v1/project/**', async (route) => {
    failedApi += 1;
    if (/\/v1\/project\/push\//.test(route.request().url())) pushAttempts += 1;
    await route.abort('internetdisconnected');
  });
  await context.route('**/ping', async (route) => {
    probes += 1;
    await route.abort('internetdisconnected');
  });
  // Push starts answered by the server.
  const starts: string[] = [];
  context.on('requestfinished', (request) => {
    if (/\/v1\/project\/push\/waymark\//.test(request.url())) starts.push(request.url());
  });
  await setOffline(context, false);
  await expect.poll(() => failedApi, { timeout: 30_000 }).toBeGreaterThan(0);
  // The engine keeps waiting: it probes, and tries no push while its probes fail. (The API
  // stays cut until then: the page's own queries also refetch on reconnecting, so the first
  // failed API request need not be the engine's; cut off earlier, the engine's own first
  // request reached the server, loaded run C.)
  const probed = probes;
  await expect.poll(() => probes, { timeout: 30_000 }).toBeGreaterThan(probed + 1);
  expect(pushAttempts).toBe(0);
  await expect(project.dataSync()).toContainText('Waiting for the network');
  // The server is reachable again for uploads; the probes still fail.
  await context.unroute('**/v1/project/**');
  expect(starts).toEqual([]);

  // Chromium fires the upload sync in the service worker, which wakes the engine.
  await dispatchSync(page, UPLOAD_SYNC_TAG);
  await expect(page.getByText(`Upload finished: waymark/${project.name}`)).toBeVisible({
    timeout: 60_000,
  });
  expect(starts).toHaveLength(1);
  const landed = await project.project();
  expect(landed.version).toBe('v2');
  expect((await project.download('synced.txt')).toString()).toBe('sent by a Background Sync\n');
});

test('the app badge counts the uploads waiting, and clears once they are sent', async ({
  page,
  context,
}) => {
  // A spy on the Badging API (an installed app's icon), as the page calls it.
  await context.addInitScript(() => {
    const calls: (number | 'clear')[] = [];
    const nav = (globalThis as unknown as { navigator: object }).navigator;
    Object.defineProperty(globalThis, '__badge', { value: calls });
    Object.defineProperty(Object.getPrototypeOf(nav), 'setAppBadge', {
      configurable: true,
      value: async (count?: number) => {
        calls.push(count ?? 0);
      },
    });
    Object.defineProperty(Object.getPrototypeOf(nav), 'clearAppBadge', {
      configurable: true,
      value: async () => {
        calls.push('clear');
      },
    });
  });
  const badge = () =>
    page.evaluate(() => (globalThis as unknown as { __badge: (number | 'clear')[] }).__badge);
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  const first = await savedProject(page, { 'a.txt': 'a\n' });
  const second = await savedProject(page, { 'b.txt': 'b\n' });

  await setOffline(context, true);
  await reloadOffline(page, first);
  await queue(first, [fileOnDisk('first.txt', 'one\n')]);
  await expect.poll(badge).toEqual([1]);
  await reloadOffline(page, second);
  await queue(second, [fileOnDisk('second.txt', 'two\n')]);
  // The page was reloaded: the engine reports the queue again (1), then 2.
  await expect.poll(async () => (await badge()).at(-1)).toBe(2);
  const sidebar = page.getByRole('link', { name: /Outbox/ });
  await expect(sidebar).toContainText('2');

  const before = (await badge()).length;
  await setOffline(context, false);
  await expect
    .poll(async () => (await badge()).slice(before), { timeout: 90_000 })
    .toEqual([1, 'clear']);
  await expect(sidebar).toHaveCount(0);
  expect((await second.project()).version).toBe('v2');
});

test('not enough space on the device is said before anything is queued', async ({
  page,
  context,
}) => {
  // The site may store 1 MiB more than it holds now: less than the chosen file needs.
  await context.addInitScript(() => {
    const storage = (globalThis as unknown as { navigator: { storage: object } }).navigator.storage;
    Object.defineProperty(Object.getPrototypeOf(storage), 'estimate', {
      configurable: true,
      value: async () => ({ quota: 101 * 1024 * 1024, usage: 100 * 1024 * 1024 }),
    });
  });
  const project = await savedProjectOffline(page, { 'site.txt': 'base\n' });

  await project.filesInput().setInputFiles([fileOnDisk('big.bin', 'x'.repeat(3 * 1024 * 1024))]);
  await expect(
    page.getByText(
      'Not enough space on this device: these files need 3.0 MB, 1.0 MB is free. Free some space or choose fewer files.',
    ),
  ).toBeVisible();
  // The file was taken out again: no change to send, nothing queued or copied.
  await expect(project.updateChanges()).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Outbox/ })).toHaveCount(0);
  expect(await storedRows(page, 'uploads')).toBe(0);
  expect(await storedRows(page, 'stagedChunks')).toBe(0);
});

test('Background Sync of the upload queue reaches the pages through the service worker', async ({
  page,
  context,
}) => {
  await page.goto('/login');
  await waitForServiceWorker(page);
  // The tag the app registers when an upload is queued.
  expect(
    await page.evaluate(
      "navigator.serviceWorker.ready.then((r) => r.sync.register('waymark-uploads')).then(() => true)",
    ),
  ).toBe(true);
  // Not awaited here: the promise settles when the worker's message arrives.
  await page.evaluate(`(() => {
    window.__resumed = new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('message', (event) => {
        if (event.data && event.data.type === 'uploads/resume') resolve(true);
      }));
    return true;
  })()`);

  // The browser fires the sync (as when the connection is back): the worker tells the page.
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r: { isDeleted: boolean }) => !r.isDeleted);
      if (found) resolve(found.registrationId as string);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(page.url()).origin;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin,
    registrationId: await registration,
    tag: 'waymark-uploads',
    lastChance: false,
  });
  expect(await page.evaluate('window.__resumed')).toBe(true);
});
