/** File sizes in the units of the specification (spec 000 §9): B, kB, MB, GB. */
const UNITS = ['B', 'kB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof UNITS)[number];

/** Bytes as text, e.g. 1536 → '1.5 kB'. `unit` forces a unit (e.g. 'MB' for project sizes). */
export function formatFileSize(bytes: number, unit?: SizeUnit, digits = 1): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let index = unit ? UNITS.indexOf(unit) : 0;
  if (!unit) {
    while (index < UNITS.length - 1 && bytes >= 1024 ** (index + 1)) index += 1;
  }
  const value = bytes / 1024 ** index;
  const text = index === 0 ? String(Math.round(value)) : value.toFixed(digits);
  return `${text} ${UNITS[index]}`;
}
