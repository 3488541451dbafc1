/**
 * The search of .../compare (issue 20): `from` and `to`, two version names (vN) in either
 * order. A missing or malformed name is left out, and the page asks for two versions.
 */
import { searchString } from '@/lib/search';

export interface CompareSearch {
  from?: string;
  to?: string;
}

const VERSION_NAME = /^v[1-9]\d{0,8}$/;

/** The version name when `value` is one ('v3'; also '3' as people type it), else undefined. */
export function versionName(value: unknown): string | undefined {
  const text = searchString(value)?.trim();
  if (!text) return undefined;
  const name = /^\d+$/.test(text) ? `v${text}` : text;
  return VERSION_NAME.test(name) ? name : undefined;
}

/**
 * Both keys are always returned, undefined when malformed: the router lays a route's result
 * over the search as parsed, so a key left out would keep its raw text ('from=latest').
 */
export function validateCompareSearch(search: Record<string, unknown>): CompareSearch {
  return { from: versionName(search.from), to: versionName(search.to) };
}
