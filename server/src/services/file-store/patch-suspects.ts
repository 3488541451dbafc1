/**
 * Versions whose page patches failed a rebuild (a patch missing, damaged, or making other
 * bytes than the version's): rebuild.ts names them here, and the patch work
 * (page-patch-store.ts) then checks every patch of their chains, drops those that do not make
 * their version and makes them again from the diffs. Per context; kept in memory only: a
 * restart forgets them, and the next rebuild that fails names them again.
 */
const suspects = new WeakMap<object, Set<string>>();

/** Names blob `key` as a version whose chain holds a bad patch. */
export function suspectPatches(ctx: object, key: string): void {
  let keys = suspects.get(ctx);
  if (!keys) {
    keys = new Set();
    suspects.set(ctx, keys);
  }
  keys.add(key);
}

/** Whether blob `key` was named (and forgets it). */
export function takeSuspect(ctx: object, key: string): boolean {
  return suspects.get(ctx)?.delete(key) ?? false;
}
