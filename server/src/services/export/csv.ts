/**
 * CSV as spreadsheets open it: UTF-8 with a byte-order mark (Excel reads UTF-8 only then),
 * a header row, CRLF line ends, RFC 4180 quoting. Text cells that a spreadsheet would run as
 * a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) get a leading `'`
 * (OWASP's CSV injection advice); numbers are written as numbers.
 */
import type { Cell } from './cells';
import { textCell } from './cells';

export const BOM = '\ufeff';
export const CRLF = '\r\n';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Text made inert for a spreadsheet (the leading `'`). */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field, quoted when it has to be. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell: text neutralised and quoted; numbers, BigInts and booleans as they are. */
export function csvCell(cell: Cell): string {
  if (typeof cell === 'string') return csvField(neutralise(cell));
  return textCell(cell);
}

/** Header names: `wanted` unless an attribute has it, then with `_` added until free. */
export function freeName(wanted: string, taken: ReadonlySet<string>): string {
  let name = wanted;
  while (taken.has(name.toLowerCase())) name = `${name}_`;
  return name;
}
