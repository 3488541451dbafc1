/** Small text helpers for names shown in the UI. */

/** Header user name limit (spec 000 §9: 15 characters then an ellipsis). */
export const HEADER_NAME_LENGTH = 15;

/** `text` cut to `max` characters followed by '…' when longer. Counts characters, not UTF-16 units. */
export function shorten(text: string, max: number = HEADER_NAME_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')}…`;
}

/**
 * Avatar initials (spec 000 §9): first letters of the first and last word of the name, else the
 * first two letters of the username. Upper-cased.
 */
export function initials(name: string | null | undefined, username: string): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    const first = Array.from(words[0] as string)[0] ?? '';
    const last = words.length > 1 ? (Array.from(words[words.length - 1] as string)[0] ?? '') : '';
    return `${first}${last}`.toUpperCase();
  }
  return Array.from(username.trim()).slice(0, 2).join('').toUpperCase();
}
