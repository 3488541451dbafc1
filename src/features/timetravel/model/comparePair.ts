/**
 * Two picked versions as a compare search (issue 20). Apart from compareSearch.ts, which the
 * route's definition (first-screen code) imports whole.
 */
import type { CompareSearch } from './compareSearch';

/** The number of a version name (v12 → 12). */
export function versionNumber(name: string): number {
  return Number(name.slice(1));
}

/** Two picked versions as a compare search: the older one first. */
export function compareSearchOf(a: string, b: string): Required<CompareSearch> {
  return versionNumber(a) <= versionNumber(b) ? { from: a, to: b } : { from: b, to: a };
}
