/**
 * The changeset format of SQLite's session extension, as geodiff writes it (client-compat
 * §12): table groups ('T', varint column count, one primary-key flag byte per column, the
 * NUL-terminated table name) each followed by its changes (operation byte, indirect byte,
 * the old record for DELETE/UPDATE, the new record for INSERT/UPDATE). A record holds one
 * field per column: a type byte and its value.
 *
 * Values in JavaScript: `undefined` = undefined field (0x00), `null` = NULL (0x05), bigint =
 * INTEGER (0x01, 8 bytes big-endian), number = REAL (0x02, IEEE 754 big-endian), string =
 * TEXT (0x03), Uint8Array = BLOB (0x04). The reader never trusts a length: every read is
 * checked against the bytes left, so a corrupt changeset is a ChangesetFormatError.
 */
import { decodeVarint, encodeVarint, VarintError } from './varint';

export type Value = undefined | null | bigint | number | string | Uint8Array;

export type Operation = 'insert' | 'update' | 'delete';

export interface Change {
  op: Operation;
  indirect: boolean;
  /** DELETE: every column; UPDATE: primary key and changed columns' previous values. */
  old?: Value[];
  /** INSERT: every column; UPDATE: the changed columns' new values. */
  new?: Value[];
}

export interface ChangesetTable {
  name: string;
  /** One flag per column, in declaration order: part of the primary key. */
  pk: boolean[];
  changes: Change[];
}

export type Changeset = ChangesetTable[];

export class ChangesetFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChangesetFormatError';
  }
}

const OP_CODES: Record<Operation, number> = { insert: 0x12, update: 0x17, delete: 0x09 };
const OPS = new Map<number, Operation>([
  [0x12, 'insert'],
  [0x17, 'update'],
  [0x09, 'delete'],
]);
/** SQLite's own limit on columns per table. */
const MAX_COLUMNS = 32767;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

class Cursor {
  offset = 0;
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get done(): boolean {
    return this.offset >= this.bytes.length;
  }
  need(n: number, what: string): void {
    if (this.offset + n > this.bytes.length) {
      throw new ChangesetFormatError(`The changeset ends inside ${what} at byte ${this.offset}`);
    }
  }
  byte(what: string): number {
    this.need(1, what);
    return this.bytes[this.offset++]!;
  }
  varint(what: string): number {
    try {
      const { value, length } = decodeVarint(this.bytes, this.offset);
      this.offset += length;
      return value;
    } catch (error) {
      if (error instanceof VarintError) {
        throw new ChangesetFormatError(`Invalid ${what} at byte ${this.offset}: ${error.message}`);
      }
      throw error;
    }
  }
  slice(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  int64(): bigint {
    this.need(8, 'an integer');
    const v = this.view.getBigInt64(this.offset, false);
    this.offset += 8;
    return v;
  }
  float64(): number {
    this.need(8, 'a real');
    const v = this.view.getFloat64(this.offset, false);
    this.offset += 8;
    return v;
  }
}

function text(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ChangesetFormatError(`Invalid UTF-8 in ${what}`);
  }
}

function readValue(c: Cursor): Value {
  const at = c.offset;
  const type = c.byte('a field');
  switch (type) {
    case 0x00:
      return undefined;
    case 0x01:
      return c.int64();
    case 0x02:
      return c.float64();
    case 0x03:
      return text(c.slice(c.varint('text length'), 'a text'), 'a text value');
    case 0x04:
      return Uint8Array.from(c.slice(c.varint('blob length'), 'a blob'));
    case 0x05:
      return null;
    default:
      throw new ChangesetFormatError(`Invalid field type ${type} at byte ${at}`);
  }
}

function readRecord(c: Cursor, columns: number): Value[] {
  const record: Value[] = [];
  for (let i = 0; i < columns; i++) record.push(readValue(c));
  return record;
}

/** Parses a changeset (throws ChangesetFormatError when the bytes are not one). */
export function readChangeset(bytes: Uint8Array): Changeset {
  const c = new Cursor(bytes);
  const tables: Changeset = [];
  let table: ChangesetTable | null = null;
  while (!c.done) {
    const at = c.offset;
    const marker = c.byte('a change');
    if (marker === 0x54) {
      const columns = c.varint('column count');
      if (columns < 1 || columns > MAX_COLUMNS) {
        throw new ChangesetFormatError(`Invalid column count ${columns} at byte ${at}`);
      }
      const flags = c.slice(columns, 'the primary key flags');
      const end = c.bytes.indexOf(0, c.offset);
      if (end < 0) throw new ChangesetFormatError(`Unterminated table name at byte ${c.offset}`);
      const name = text(c.slice(end - c.offset, 'a table name'), 'a table name');
      c.offset++;
      if (name === '') throw new ChangesetFormatError(`Empty table name at byte ${at}`);
      table = { name, pk: [...flags].map((f) => f !== 0), changes: [] };
      tables.push(table);
      continue;
    }
    const op = OPS.get(marker);
    if (!op) throw new ChangesetFormatError(`Invalid operation ${marker} at byte ${at}`);
    if (!table) throw new ChangesetFormatError('The changeset does not start with a table');
    const indirect = c.byte('a change') !== 0;
    const change: Change = { op, indirect };
    if (op !== 'insert') change.old = readRecord(c, table.pk.length);
    if (op !== 'delete') change.new = readRecord(c, table.pk.length);
    table.changes.push(change);
  }
  return tables;
}

/** Growable byte buffer. */
class Writer {
  private buffer = new Uint8Array(4096);
  private view = new DataView(this.buffer.buffer);
  length = 0;
  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
  }
  int64(v: bigint): void {
    this.reserve(8);
    this.view.setBigInt64(this.length, BigInt.asIntN(64, v), false);
    this.length += 8;
  }
  float64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, false);
    this.length += 8;
  }
  result(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function writeValue(w: Writer, value: Value): void {
  if (value === undefined) w.byte(0x00);
  else if (value === null) w.byte(0x05);
  else if (typeof value === 'bigint') {
    w.byte(0x01);
    w.int64(value);
  } else if (typeof value === 'number') {
    w.byte(0x02);
    w.float64(value);
  } else if (typeof value === 'string') {
    const bytes = utf8Encoder.encode(value);
    w.byte(0x03);
    w.bytes(encodeVarint(bytes.length));
    w.bytes(bytes);
  } else {
    w.byte(0x04);
    w.bytes(encodeVarint(value.length));
    w.bytes(value);
  }
}

/** Streams a changeset out table by table (create.ts writes rows as it finds them). */
export class ChangesetWriter {
  private readonly w = new Writer();
  private columns = 0;

  table(name: string, pk: boolean[]): void {
    this.columns = pk.length;
    this.w.byte(0x54);
    this.w.bytes(encodeVarint(pk.length));
    for (const flag of pk) this.w.byte(flag ? 1 : 0);
    this.w.bytes(utf8Encoder.encode(name));
    this.w.byte(0);
  }

  change(change: Change): void {
    this.w.byte(OP_CODES[change.op]);
    this.w.byte(change.indirect ? 1 : 0);
    const records =
      change.op === 'insert'
        ? [change.new]
        : change.op === 'delete'
          ? [change.old]
          : [change.old, change.new];
    for (const record of records) {
      if (!record || record.length !== this.columns) {
        throw new ChangesetFormatError(`A ${change.op} needs ${this.columns} fields per record`);
      }
      for (const value of record) writeValue(this.w, value);
    }
  }

  get size(): number {
    return this.w.length;
  }

  result(): Uint8Array {
    return this.w.result();
  }
}

/** Serialises a changeset; tables without changes are left out. */
export function writeChangeset(changeset: Changeset): Uint8Array {
  const writer = new ChangesetWriter();
  for (const table of changeset) {
    if (table.changes.length === 0) continue;
    writer.table(table.name, table.pk);
    for (const change of table.changes) writer.change(change);
  }
  return writer.result();
}
