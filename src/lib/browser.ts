/**
 * Full page loads, behind one object so tests can replace them (jsdom cannot navigate).
 * Used where the app must start over, e.g. after closing the account (spec 000 §4).
 */
export const browser = {
  /** Loads `path` as a new page (every in-memory state is dropped). */
  reloadTo(path: string): void {
    window.location.assign(path);
  },
};
