// Makes sure the browser the end-to-end tests drive is there: Debian's Chromium at
// /usr/bin/chromium (or CHROMIUM_PATH). Installs it with apt-get when missing and we are root.
// Playwright itself never downloads a browser.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!existsSync(path)) {
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH points to ${path}, which does not exist.`);
    process.exit(1);
  }
  if (process.getuid?.() !== 0) {
    console.error('Chromium is missing: install it with `sudo apt-get install -y chromium`.');
    process.exit(1);
  }
  console.log('Installing Chromium from Debian (apt-get install -y chromium)…');
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
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
