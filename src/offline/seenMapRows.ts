/**
 * A feature's attribute row as this device last saw it in an attribute table (issue 34: offline,
 * editing works on every layer whose map and table were seen before). The service worker keeps
 * the map's answers, attribute pages included, in the owner's cache (src/sw/mapData.ts); a
 * feature never opened on its own is found in a page of its layer's table that was shown.
 */
import { PUBLIC_OWNER_NAME, previewCacheName } from '@/sw/offline';
import { offlineOwner } from './owner';

/** A row as the map's attribute pages hold it. */
export interface SeenRow {
  fid: number;
  geometry_type?: string | null;
  properties: Record<string, string | number | boolean | null>;
}

/**
 * The row of `fid` in a saved attribute page of `layer` (`pagesPath`: the layer's features
 * route, `/app/map/{ns}/{name}/features/{layer}`) of `file` at `version`; undefined when none
 * was saved. Pages of the owner are read first, then public ones.
 */
export async function findSeenRow(
  pagesPath: string,
  file: string,
  version: string,
  fid: number,
  storage: CacheStorage | undefined = globalThis.caches,
): Promise<SeenRow | undefined> {
  if (!storage) return undefined;
  const owner = offlineOwner();
  const owners =
    owner === null || owner === PUBLIC_OWNER_NAME
      ? [PUBLIC_OWNER_NAME]
      : [owner, PUBLIC_OWNER_NAME];
  for (const name of owners) {
    if (!(await storage.has(previewCacheName(name)))) continue;
    const cache = await storage.open(previewCacheName(name));
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.pathname !== pagesPath || url.searchParams.get('file') !== file) continue;
      const asked = url.searchParams.get('version') ?? '';
      if (asked !== '' && asked !== version) continue;
      const answer = await cache.match(request);
      const page = (await answer?.json().catch(() => null)) as { features?: SeenRow[] } | null;
      const row = page?.features?.find((feature) => feature.fid === fid);
      if (row) return row;
    }
  }
  return undefined;
}
