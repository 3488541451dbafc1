/**
 * HTTP Range requests (RFC 9110 §14) for one resource of known size: a single range
 * `bytes=a-b` (inclusive), `bytes=a-` or `bytes=-n`. Anything else (another unit, several
 * ranges, bad syntax) is ignored and the whole resource is served, as the RFC allows.
 */

export type RangeResult =
  { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'none' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'none' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'none' };
  if (first === '') {
    // Suffix: the last n bytes.
    const n = Number(last);
    if (!Number.isSafeInteger(n)) return { kind: 'none' };
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'none' };
  if (end < start) return { kind: 'none' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: Math.min(end, size - 1) };
}
