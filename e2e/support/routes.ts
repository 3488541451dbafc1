// Route handlers (page.route / context.route) must not outlive their test: a handler still
// running when the test ends fires on a closing page and fails whatever runs next.
import type { BrowserContext } from '@playwright/test';

/** Removes every route handler of `context` and its pages; running handlers' errors are dropped. */
export async function removeRoutes(context: BrowserContext): Promise<void> {
  for (const page of context.pages()) await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
}
