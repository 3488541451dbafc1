// The app's service worker in the tests that need it (offline, install, update, Background
// Sync). Every other test runs with it blocked (playwright.config.ts, record 0152).
import type { Page } from '@playwright/test';
import { serviceWorkerActive } from './page-predicates';

/** Resolves once the service worker is ready and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.waitForFunction(serviceWorkerActive);
}

/**
 * `test.use(withServiceWorker)`: the tests of a file run with the app's service worker, as a
 * person's browser does. The default blocks it: each new context precaching the app's 2 MB
 * (152 files) cost about a quarter of the CPU of tests that never go offline.
 */
export const withServiceWorker = { serviceWorkers: 'allow' as const };
