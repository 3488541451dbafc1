// Offline use with the real service worker and server (issue 8): public projects a visitor
// opened render offline with the offline indicator, deep links to them open offline, a project
// never opened says it is not saved, navigations to API and download URLs are never answered
// with the app shell, and signing out leaves none of the user's private project data in
// IndexedDB or Cache Storage.
import { expect, test, type Page } from '@playwright/test';
import { createUser } from './support/admin';
import { apiSession, createProject, shareProject } from './support/api';
import { pushFiles } from './support/push';
import { signIn } from './pages/session';
import { waitForServiceWorker, withServiceWorker } from './support/service-worker';
import { unique } from './support/unique';
import { setOffline } from './support/offline';

test.use(withServiceWorker);

const NOTE = 'Benchmarks along the ridge, levelled 2026-11-21.';
/** A 1×1 PNG, for an image preview. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const suffix = unique;

/** The admin creates a project with a note and a photo, through the real API. */
async function seedProject(name: string, isPublic: boolean): Promise<void> {
  const admin = await apiSession();
  await createProject(admin, 'waymark', name, isPublic);
  await pushFiles(admin, 'waymark', name, {
    files: { 'notes.txt': `${NOTE}\n`, 'photos/pixel.png': PIXEL },
  });
  await admin.dispose();
}

test('public projects a visitor opened render offline; others say they are not saved', async ({
  page,
  context,
}) => {
  const opened = `Ridge survey ${suffix()}`;
  const unvisited = `Valley survey ${suffix()}`;
  await seedProject(opened, true);
  await seedProject(unvisited, true);

  // Online: Explore and one project, with its versions.
  await page.goto('/projects/explore');
  await waitForServiceWorker(page);
  await expect(page.getByRole('link', { name: new RegExp(opened) })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(opened) }).click();
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  // Its small previews: a text and an image.
  const projectUrl = `/projects/waymark/${encodeURIComponent(opened)}/tree`;
  const noteUrl = `${projectUrl}?file_path=notes.txt`;
  const photoUrl = `${projectUrl}/photos?file_path=photos%2Fpixel.png`;
  await page.goto(noteUrl);
  await expect(page.getByText(NOTE)).toBeVisible();
  await page.goto(photoUrl);
  await expect(page.getByRole('img', { name: /pixel\.png/ })).toBeVisible();
  await page.goto(projectUrl);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0);

  await setOffline(context, true);
  try {
    // The project reloads offline, from the saved copy, and says so.
    await page.reload();
    await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'photos', exact: true })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
      'Offline — showing data saved just now',
    );
    // Downloading needs the server: disabled, with the reason on hover.
    const download = page.getByRole('button', { name: 'Download' });
    await expect(download).toBeDisabled();
    await download.locator('..').hover();
    await expect(page.getByRole('tooltip')).toHaveText(
      'Not available offline: connect to the internet first',
    );

    // The previews seen before.
    await page.goto(noteUrl);
    await expect(page.getByText(NOTE)).toBeVisible();
    await page.goto(photoUrl);
    const photo = page.getByRole('img', { name: /pixel\.png/ });
    await expect(photo).toBeVisible();
    await expect
      .poll(() =>
        photo.evaluate((image: unknown) => (image as { naturalWidth: number }).naturalWidth),
      )
      .toBe(1);

    // Explore, reloaded offline.
    await page.goto('/projects/explore');
    await expect(page.getByRole('link', { name: new RegExp(opened) })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
      'Offline — showing data saved',
    );

    // A deep link to the project, opened offline in a new tab.
    const deep = await context.newPage();
    await deep.goto(projectUrl);
    await expect(deep.getByRole('link', { name: 'notes.txt' })).toBeVisible();
    await expect(deep.getByRole('heading', { name: `waymark/${opened}` })).toBeVisible();

    // A project never opened here: a clear message, not an error. (Under load Chromium drops
    // its offline emulation at each navigation until support/offline.ts sends it again, so the
    // app's first requests can go out as if online and fail, and other alerts may show. The
    // message is found by its words among the alerts.)
    await deep.goto(`/projects/waymark/${encodeURIComponent(unvisited)}/tree`);
    await expect(
      deep.getByRole('alert').filter({
        hasText:
          'You are offline and this page has not been saved on this device. Connect to the internet to open it.',
      }),
    ).toBeVisible();
    await expect(deep.getByRole('link', { name: 'notes.txt' })).toHaveCount(0);

    // The shell answers client routes only: API calls and downloads are never given the app.
    for (const path of [
      '/v1/project/paginated?page=1&per_page=10&public=true',
      `/v1/project/download/waymark/${encodeURIComponent(opened)}?format=zip`,
      `/v1/project/raw/waymark/${encodeURIComponent(opened)}?file=notes.txt`,
    ]) {
      await expect(deep.goto(path), path).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    }
  } finally {
    await setOffline(context, false);
  }

  // Back online the indicator goes and the server answers again.
  await page.goto(projectUrl);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toHaveCount(0);
});

/** Every record of every IndexedDB store, and every Cache Storage entry, as text. */
async function storedData(page: Page): Promise<{
  records: { database: string; store: string; text: string }[];
  caches: { cache: string; urls: string[] }[];
}> {
  // A string: the e2e sources are typed without the DOM library.
  return page.evaluate(`(async () => {
    const records = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open(info.name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        for (const record of all) {
          records.push({ database: info.name, store, text: JSON.stringify(record) });
        }
      }
      db.close();
    }
    const cached = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      cached.push({ cache: name, urls: (await cache.keys()).map((request) => request.url) });
    }
    return { records, caches: cached };
  })()`);
}

test('a signed-in user reads opened projects offline; signing out leaves no private data', async ({
  page,
  context,
}) => {
  const secret = `Private quarry ${suffix()}`;
  const open = `Open meadow ${suffix()}`;
  await seedProject(secret, false);
  await seedProject(open, true);
  const user = await createUser('offline');
  const admin = await apiSession();
  await shareProject(admin, 'waymark', secret, { readersnames: [user.username] });
  await admin.dispose();

  await signIn(page, user.username, user.password);
  await waitForServiceWorker(page);
  const encoded = encodeURIComponent(secret);
  // The private project, its note and its photo (an image preview).
  await page.goto(`/projects/waymark/${encoded}/tree?file_path=notes.txt`);
  await expect(page.getByText(NOTE)).toBeVisible();
  await page.goto(`/projects/waymark/${encoded}/tree/photos?file_path=photos%2Fpixel.png`);
  await expect(page.getByRole('img', { name: /pixel\.png/ })).toBeVisible();
  await page.goto(`/projects/waymark/${encoded}/history`);
  await expect(page.getByRole('link', { name: 'v1', exact: true })).toBeVisible();

  // Saved while signed in: the private data is there (so the check below can fail).
  await expect
    .poll(async () => {
      const data = await storedData(page);
      const inDb = data.records.some((record) => record.text.includes(secret));
      const inCache = data.caches.some(({ urls }) => urls.some((url) => url.includes(encoded)));
      return inDb && inCache;
    })
    .toBe(true);

  // Signed in, the same works offline for the projects the user opened.
  await page.goto(`/projects/waymark/${encoded}/tree`);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await setOffline(context, true);
  try {
    await page.reload();
    await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Offline —' })).toContainText(
      'Offline — showing data saved',
    );
    await page.goto(`/projects/waymark/${encoded}/history`);
    await expect(page.getByRole('link', { name: 'v1', exact: true })).toBeVisible();
  } finally {
    await setOffline(context, false);
  }
  await page.goto(`/projects/waymark/${encoded}/tree`);
  await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);

  const after = await storedData(page);
  expect(after.records.filter((record) => record.text.includes(secret))).toEqual([]);
  expect(
    after.records.filter((record) => record.text.includes(`"owner":"user:`)),
    'no signed-in user owns any offline copy',
  ).toEqual([]);
  expect(after.caches.filter(({ cache }) => cache.includes('user:'))).toEqual([]);
  expect(after.caches.flatMap(({ urls }) => urls).filter((url) => url.includes(encoded))).toEqual(
    [],
  );

  // Public data may stay: an anonymous visit of a public project is saved and kept.
  await page.goto(`/projects/waymark/${encodeURIComponent(open)}/tree`);
  await expect(page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect
    .poll(async () =>
      (await storedData(page)).records.some(
        (record) => record.text.includes(open) && record.text.includes('"owner":"public"'),
      ),
    )
    .toBe(true);
});
