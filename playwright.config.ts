// End-to-end tests run the real server (built PWA + API) on a fresh data directory and drive
// Debian's Chromium headless shell (support/env.ts). Playwright never downloads a browser here.
import { defineConfig } from '@playwright/test';
import {
  e2eBaseURL,
  e2eChromium,
  e2eChromiumArgs,
  e2eDataDir as dataDir,
  e2ePort as port,
  e2eServerEnv,
  e2eServerStarted,
} from './e2e/support/env';

// Two parts (`npm run test:e2e`, scripts/e2e.ts): 'serial' on one worker, then 'parallel' on 2,
// on one fresh server that scripts/e2e.ts starts (the serial tests undo what they change:
// maintenance ends, templates are removed). Tests with @serial in their title change what the
// whole server does (maintenance, community templates) or read a list of the shared workspace
// that other tests' projects change (the dashboard's 5 recent projects). All others name what
// they make with support/unique.ts and must hold beside one another; a server of a spec's own
// takes ports from freePorts() (support/env.ts), so it runs in the parallel part too. Run
// directly (`npx playwright test ...`), both parts share the one worker set here, on a server
// this config starts.
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  // One folder per port and part: a run empties the folders of the parts it runs first, so two
  // runs (on two ports) in one checkout must not share one (a removed trace fails the other
  // run's tests), and the parallel part must not remove the serial part's failure traces.
  projects: [
    { name: 'parallel', grepInvert: /@serial/, outputDir: `test-results/e2e-${port}/parallel` },
    { name: 'serial', grep: /@serial/, outputDir: `test-results/e2e-${port}/serial` },
  ],
  retries: 0,
  reporter: [['list']],
  // Bounds for conditions, not wall clocks tuned on a quiet machine: a step that is done is
  // done at once, and with every core busy (CI beside other work, two workers) the same steps
  // take several times longer. One bound for every test and hook (a test that passes ends when
  // it is done).
  timeout: 360_000,
  expect: { timeout: 30_000 },
  use: {
    actionTimeout: 60_000,
    navigationTimeout: 60_000,
    baseURL: e2eBaseURL,
    // A failed test's trace keeps its DOM snapshots, network and console, without a screencast:
    // encoding every frame cost about a third of the tier's time (issue 37: 13 map and capture
    // tests 3.2-3.5 min with screenshots, 2.3 min without, 2.3 min with no trace at all).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: { executablePath: e2eChromium.path, args: e2eChromiumArgs },
    // The app's service worker only where a test needs it (`test.use(withServiceWorker)`:
    // offline, install, update, Background Sync; tests/lint/e2e-service-worker.test.ts): each
    // new context precaching the app cost about a quarter of other tests' CPU (record 0152).
    serviceWorkers: 'block',
  },
  webServer: {
    // A fresh data directory, its database copied from a migrated one (scripts/e2e-server.ts).
    // Under scripts/e2e.ts the server it started, and nothing else, answers on the port.
    command: `rm -rf ${dataDir} && tsx scripts/e2e-server.ts`,
    url: `${e2eBaseURL}/ping`,
    reuseExistingServer: e2eServerStarted,
    // A bound for /ping to answer: `npm run test:e2e` builds first (scripts/e2e.ts), a direct
    // run may build here, which takes minutes with every core busy.
    timeout: 600_000,
    stdout: 'pipe',
    env: e2eServerEnv,
  },
});
