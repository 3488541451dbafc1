/**
 * Names of the diffs a v2 delta lists (`diffs[].id`) and raw/diff serves. A single stored diff
 * keeps its own name (as in the reference); a chain of several consecutive diffs of a file is
 * named `<path>-diff-v<first>-v<last>`, the versions of its first and last diff, from which
 * raw/diff finds the chain again and serves it merged (merged-diffs.ts).
 */

export interface MergedDiffId {
  path: string;
  first: number;
  last: number;
}

const MERGED_RE = /^(.+)-diff-v(\d{1,15})-v(\d{1,15})$/s;

export function mergedDiffId(path: string, first: number, last: number): string {
  return `${path}-diff-v${first}-v${last}`;
}

/** The chain a merged diff name stands for; null when the name is not one. */
export function parseMergedDiffId(id: string): MergedDiffId | null {
  const match = MERGED_RE.exec(id);
  if (!match) return null;
  const first = Number(match[2]);
  const last = Number(match[3]);
  if (first < 1 || last <= first) return null;
  return { path: match[1]!, first, last };
}
