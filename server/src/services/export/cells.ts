/**
 * Attribute values as each export format writes them. Rows are read with SQLite's integers
 * as BigInt (exact beyond 2^53); a boolean column's 0 and 1 are false and true; blobs are
 * written as base64 text.
 */
import type { LayerColumn } from '../map/gpkg';

export type RawValue = null | bigint | number | string | Uint8Array;

/** A cell's value as plain data: null, a boolean, a number or BigInt, or text. */
export type Cell = null | boolean | number | bigint | string;

export function cellOf(raw: unknown, column: Pick<LayerColumn, 'type'>): Cell {
  if (raw === null || raw === undefined) return null;
  if (column.type === 'boolean' && (raw === 0n || raw === 1n || raw === 0 || raw === 1)) {
    return raw === 1n || raw === 1;
  }
  if (typeof raw === 'bigint' || typeof raw === 'number' || typeof raw === 'string') return raw;
  if (raw instanceof Uint8Array) return Buffer.from(raw).toString('base64');
  return String(raw);
}

/** A cell as JSON text (BigInt as its digits; infinite or NaN numbers as null). */
export function jsonCell(cell: Cell): string {
  if (cell === null) return 'null';
  if (typeof cell === 'bigint') return cell.toString();
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : 'null';
  return JSON.stringify(cell);
}

/** A cell as plain text ('' for null). */
export function textCell(cell: Cell): string {
  if (cell === null) return '';
  return String(cell);
}
