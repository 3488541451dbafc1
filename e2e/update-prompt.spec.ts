// The update prompt against the real build: once a byte-different service worker (a new
// deployment) is installed and waiting, the page offers 'Reload'; it activates the new worker
// and reloads the page under its control. The test serves its own copy of the build (the real
// server on the next port), so it can deploy the new worker without touching dist/.
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { prepareDataDir } from '../scripts/e2e-database';
import { startServer, type RunningServer } from '../server/src/main';
import { freePorts } from './support/env';
import { reloadedAndLoaded, serviceWorkerActive } from './support/page-predicates';
import { withServiceWorker } from './support/service-worker';

test.use(withServiceWorker);

let origin = '';
let dir = '';
let server: RunningServer | undefined;

test.beforeAll(async () => {
  const [port] = (await freePorts()) as [number];
  origin = `http://127.0.0.1:${port}`;
  dir = await mkdtemp(join(tmpdir(), 'waymark-e2e-update-'));
  await cp(resolve('dist'), join(dir, 'dist'), { recursive: true });
  await prepareDataDir(join(dir, 'data'));
  server = await startServer(
    { DATA_DIR: join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    { handleSignals: false, exitOnError: false, print: () => {}, distDir: join(dir, 'dist') },
  );
});

test.afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('a new deployment is offered with Reload, which activates it and reloads', async ({
  page,
}) => {
  await page.goto(`${origin}/login`);
  await page.waitForFunction(serviceWorkerActive);
  const prompt = page.getByRole('alert', { name: 'A new version of Waymark is available.' });
  await expect(prompt).toHaveCount(0);

  // Deploy: a byte-different sw.js, found by the browser's next update check.
  await appendFile(join(dir, 'dist', 'sw.js'), '\n// next deployment\n');
  await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');

  await expect(prompt).toBeVisible({ timeout: 15_000 });
  await expect(prompt).toContainText('A new version of Waymark is available.');
  expect(
    await page.evaluate(
      'navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)',
    ),
  ).toBe(true);

  await page.evaluate("window.__beforeReload = 'still here'");
  await prompt.getByRole('button', { name: 'Reload' }).click();
  // The page reloaded (the marker is gone) under the new worker, and no worker waits any more.
  await page.waitForFunction(reloadedAndLoaded);
  await expect(page.getByRole('heading', { name: 'Sign in to Waymark' })).toBeVisible();
  await page.waitForFunction(serviceWorkerActive);
  expect(
    await page.evaluate(
      'navigator.serviceWorker.getRegistration().then((r) => r.waiting === null)',
    ),
  ).toBe(true);
  await expect(prompt).toHaveCount(0);
});
