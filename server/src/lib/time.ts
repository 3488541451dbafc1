/** Date formatting for API responses. */

/** `2024-05-04T14:21:56Z` (the reference's DateTimeWithZ: UTC, no fraction, trailing Z). */
export function isoZ(date: Date): string;
export function isoZ(date: Date | null | undefined): string | null;
export function isoZ(date: Date | null | undefined): string | null {
  if (!date) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
