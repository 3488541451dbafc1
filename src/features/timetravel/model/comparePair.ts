/**
 * Two picked versions as a compare search (issue 20). Apart from compareSearch.ts, which the
 * route's definition (first-screen code) imports whole.
 */
import { versionNumber } from '@contract/protocol';
import type { CompareSearch } from './compareSearch';

/** Two picked versions as a compare search: the older one first. */
export function compareSearchOf(a: string, b: string): Required<CompareSearch> {
  return versionNumber(a) <= versionNumber(b) ? { from: a, to: b } : { from: b, to: a };
}
