// Where the end-to-end server runs and with which superuser; shared by playwright.config.ts
// and the specs.
import { createServer, type AddressInfo } from 'node:net';
import { getPriority } from 'node:os';
import { resolve } from 'node:path';

export const e2ePort = Number(process.env.E2E_PORT ?? 8099);
export const e2eBaseURL = `http://127.0.0.1:${e2ePort}`;
export const e2eDataDir = resolve(process.env.E2E_DATA_DIR ?? `.data-e2e-${e2ePort}`);
export const e2eAdmin = { username: 'admin', password: 'E2e-admin-Passw0rd!' };

/**
 * The browser the tests drive: Debian's Chromium headless shell (package
 * `chromium-headless-shell`, the same Chromium build without the browser's window layer), or
 * CHROMIUM_PATH. On the same map, history and time-travel tests, quiet, it used 11 % less CPU
 * than the full `chromium` in headless mode (194 vs 217 CPU seconds), and the tier is CPU-bound
 * (issue 37, record 0151).
 */
export const e2eChromium = {
  path: process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell',
  debianPackage: 'chromium-headless-shell',
};

/**
 * The full browser (Debian's `chromium`, or CHROMIUM_FULL_PATH), for the tests of what the
 * headless shell leaves out: Background Sync ("Background Sync is disabled" there). A spec
 * opts in with `test.use(fullChromium)` (support/full-chromium.ts).
 */
export const e2eFullChromium = {
  path: process.env.CHROMIUM_FULL_PATH || '/usr/bin/chromium',
  debianPackage: 'chromium',
};

/** Chromium's switches for every test browser. */
export const e2eChromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The e2e server's environment (scripts/e2e-server.ts), for whoever starts it. */
export const e2eServerEnv: Record<string, string> = {
  PORT: String(e2ePort),
  HOST: '127.0.0.1',
  DATA_DIR: e2eDataDir,
  ADMIN_USERNAME: e2eAdmin.username,
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: e2eAdmin.password,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  // Work on files at the browsers' priority (this run's own nice value): at the default 10 it
  // waits behind them on a busy machine.
  FILE_WORK_NICE: String(Math.min(19, Math.max(0, getPriority()))),
  COMMUNITY_URL: 'https://chat.example.org/waymark',
};

/**
 * Set by scripts/e2e.ts, which starts one server for both parts of `npm run test:e2e`: the
 * Playwright runs use it instead of starting their own.
 */
export const e2eServerStarted = process.env.E2E_SERVER_STARTED === '1';

/**
 * `count` distinct TCP ports nothing listens on now (the system's choice), for servers of a
 * spec's own in the parallel part: two such specs running side by side, or another checkout's
 * run on the next ports, never meet on one.
 */
export async function freePorts(count = 1): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  return ports;
}
