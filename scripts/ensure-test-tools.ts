// Makes sure the programs the tests drive are there, installing Debian's packages with apt-get
// when they are missing and we are root:
// - Chromium for the end-to-end tests (e2e/support/env.ts): Debian's headless shell
//   (chromium-headless-shell, or CHROMIUM_PATH) for most, the full chromium (or
//   CHROMIUM_FULL_PATH) for Background Sync; Playwright itself never downloads a browser;
// - GDAL's ogr2ogr (gdal-bin), which the tests use to build real GeoPackages.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { e2eChromium, e2eFullChromium } from '../e2e/support/env';

for (const [variable, browser] of [
  ['CHROMIUM_PATH', e2eChromium],
  ['CHROMIUM_FULL_PATH', e2eFullChromium],
] as const) {
  if (process.env[variable] && !existsSync(browser.path)) {
    console.error(`${variable} points to ${browser.path}, which does not exist.`);
    process.exit(1);
  }
}

function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

const missing = [
  ...[e2eChromium, e2eFullChromium]
    .filter((browser) => !existsSync(browser.path))
    .map((browser) => browser.debianPackage),
  ...(onPath('ogr2ogr') ? [] : ['gdal-bin']),
];

if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(
      `Missing for the tests: install with \`sudo apt-get install -y ${missing.join(' ')}\`.`,
    );
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} from Debian (apt-get install -y)…`);
  for (const args of [['update'], ['install', '-y', ...missing]]) {
    const run = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (run.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed.`);
      process.exit(1);
    }
  }
}
