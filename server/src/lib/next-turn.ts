/**
 * Resolves on the event loop's next turn (setImmediate). Background work a request starts
 * (a version's changeset, map, whole copy, webhooks) awaits it before its first statement,
 * so the request's own remaining statements (its answer, the push id's record) are not
 * queued behind that work's (PGlite runs one statement at a time).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
