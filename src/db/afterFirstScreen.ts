/**
 * Work that needs Dexie but not the first screen (issue 8's bundle budget): creating the
 * database on a first visit, to remember the workspace or save an offline copy. It waits until
 * the app says the first screen has rendered (`watchFirstScreen`, called by main.tsx), then runs
 * in an idle moment. Without a watcher (tests, other entry points) it runs at once.
 */

let shown: Promise<void> | null = null;

/** Runs `task` once the first screen has rendered (at once when nobody watches for it). */
export async function afterFirstScreen<T>(task: () => Promise<T>): Promise<T> {
  if (shown) await shown;
  return task();
}

export interface FirstScreenSource {
  /** Whether the first screen is still loading (route code, data). */
  busy(): boolean;
  /** Calls `check` whenever `busy` may have changed; returns the unsubscribe function. */
  subscribe(check: () => void): () => void;
  /**
   * Calls `leave` when the user leaves the first screen (navigates on): the screen has been
   * seen, so held work runs at once (what was shown is saved before the user can go offline
   * on the next page). Returns the unsubscribe function.
   */
  onLeave?(leave: () => void): () => void;
}

/** The longest wait for a quiet moment: work is never held back for longer. */
export const FIRST_SCREEN_MAX_WAIT_MS = 4000;

function idle(run: () => void): void {
  const request = (globalThis as { requestIdleCallback?: typeof requestIdleCallback })
    .requestIdleCallback;
  if (request) request(run, { timeout: 500 });
  else setTimeout(run, 0);
}

/**
 * How long `source` must stay quiet: a screen often waits on one answer before it asks the next
 * (the projects list asks for its page only once the current workspace is known), with a short
 * quiet moment between them.
 */
export const FIRST_SCREEN_QUIET_MS = 200;

/**
 * Holds `afterFirstScreen` work until `source` has not been busy for FIRST_SCREEN_QUIET_MS (the
 * first check once the current task ends, so a screen that starts loading right away counts),
 * then an idle moment after that.
 */
export function watchFirstScreen(source: FirstScreenSource): void {
  shown = new Promise<void>((resolve) => {
    let done = false;
    let unsubscribe = () => {};
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = (now = false) => {
      if (done) return;
      done = true;
      unsubscribe();
      stopLeave();
      clearTimeout(limit);
      clearTimeout(quiet);
      if (now) resolve();
      else idle(resolve);
    };
    const stopLeave = source.onLeave?.(() => finish(true)) ?? (() => {});
    const check = () => {
      if (done) return;
      if (source.busy()) {
        clearTimeout(quiet);
        quiet = undefined;
      } else {
        quiet ??= setTimeout(() => {
          quiet = undefined;
          if (source.busy()) return;
          finish();
        }, FIRST_SCREEN_QUIET_MS);
      }
    };
    const limit = setTimeout(() => finish(), FIRST_SCREEN_MAX_WAIT_MS);
    setTimeout(() => {
      unsubscribe = source.subscribe(check);
      check();
    }, 0);
  });
}
