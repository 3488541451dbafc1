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

export function validateCompareSearch(search: Record<string, unknown>): CompareSearch {
  const from = versionName(search.from);
  const to = versionName(search.to);
  return { ...(from && { from }), ...(to && { to }) };
}

/** The number of a version name (v12 → 12). */
export function versionNumber(name: string): number {
  return Number(name.slice(1));
}

/** Two picked versions as a compare search: the older one first. */
export function compareSearchOf(a: string, b: string): Required<CompareSearch> {
  return versionNumber(a) <= versionNumber(b) ? { from: a, to: b } : { from: b, to: a };
}
