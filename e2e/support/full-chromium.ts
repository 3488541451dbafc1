import { e2eChromiumArgs, e2eFullChromium } from './env';

/**
 * `test.use(fullChromium)`: the tests of a file (or a describe) run in the full Chromium, not
 * the headless shell, for what the shell leaves out (Background Sync). A worker of their own
 * launches it.
 */
export const fullChromium = {
  launchOptions: { executablePath: e2eFullChromium.path, args: e2eChromiumArgs },
};
