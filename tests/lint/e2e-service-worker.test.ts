/**
 * End-to-end tests run with the app's service worker blocked (playwright.config.ts, record
 * 0152); a spec that goes offline, waits for the worker or reloads offline says which it needs
 * (`test.use(withServiceWorker)`, or `serviceWorkers: 'block'` on purpose). Without it an
 * offline reload would find no app, and `waitForServiceWorker` would wait out the test's bound.
 */
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

/** What makes a spec need the worker: going offline, or waiting for the worker. */
const NEEDS =
  /\bsetOffline\(|\breloadOffline\(|\bsavedProjectOffline\(|\bwaitForServiceWorker\(|navigator\.serviceWorker/;

const specs = sourceFiles('e2e', /^e2e\/[^/]+\.spec\.ts$/).filter(([, text]) => NEEDS.test(text));

describe('end-to-end specs that go offline or wait for the service worker', () => {
  it('are found', () => {
    expect(specs.length).toBeGreaterThan(8);
  });

  it.each(specs)('%s says whether the service worker runs', (_file, text) => {
    expect(/test\.use\(withServiceWorker\)|serviceWorkers: '(allow|block)'/.test(text)).toBe(true);
  });
});
