// Predicates for page.waitForFunction. They are functions, not strings: the app's
// Content-Security-Policy forbids eval, which a string predicate needs. They run in the page,
// so they reach the DOM through `globalThis` (the e2e code is typed without the DOM library).

interface PageGlobals {
  navigator: { serviceWorker: { controller: { state: string } | null } };
  document: {
    readyState: string;
    getAnimations(): { playState: string; constructor: { name: string } }[];
    querySelectorAll(selector: string): Iterable<{ style: { opacity: string } }>;
  };
  __beforeReload?: unknown;
}

/** A service worker controls the page and is active. */
export function serviceWorkerActive(): boolean {
  const page = globalThis as unknown as PageGlobals;
  return page.navigator.serviceWorker.controller?.state === 'activated';
}

/**
 * Every CSS transition (menus and dialogs opening) has finished, and none is about to start:
 * Mantine sets a menu's, dialog's or tooltip's starting styles inline (opacity 0) a frame
 * before its transition runs, when no transition is running yet.
 */
export function transitionsFinished(): boolean {
  const page = globalThis as unknown as PageGlobals;
  const running = page.document
    .getAnimations()
    .some((a) => a.constructor.name === 'CSSTransition' && a.playState !== 'finished');
  if (running) return false;
  const opening = ['menu', 'dialog', 'tooltip', 'listbox'].map(
    (r) => `[role="${r}"][style*="opacity"]`,
  );
  for (const element of page.document.querySelectorAll(opening.join(', '))) {
    const opacity = element.style.opacity;
    if (opacity !== '' && opacity !== '1') return false;
  }
  return true;
}

/** The page has reloaded (the marker set before the reload is gone) and finished loading. */
export function reloadedAndLoaded(): boolean {
  const page = globalThis as unknown as PageGlobals;
  return page.__beforeReload === undefined && page.document.readyState === 'complete';
}
