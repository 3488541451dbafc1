// Waiting for the app's service worker (offline specs).
import type { Page } from '@playwright/test';
import { serviceWorkerActive } from './page-predicates';

/** Resolves once the service worker is ready and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await page.waitForFunction(serviceWorkerActive);
}
