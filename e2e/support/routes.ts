// Route handlers (page.route / context.route) must not outlive their test: a handler still
// running when the test ends fires on a closing page and fails whatever runs next.
import type { BrowserContext } from '@playwright/test';

/** Removes every route handler of `context` and its pages; running handlers' errors are dropped. */
export async function removeRoutes(context: BrowserContext): Promise<void> {
  for (const page of context.pages()) await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
}

/** Holds every push chunk request of `context` until the returned function is called. */
export async function holdChunks(context: BrowserContext): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/v1/project/push/chunk/**', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  return release;
}
