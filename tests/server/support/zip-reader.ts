/**
 * A small ZIP reader for tests: reads the central directory (ZIP64 included), then each
 * entry's data through its local header, inflating deflated entries and checking CRC-32
 * and sizes. Throws on anything malformed.
 */
import zlib from 'node:zlib';

export interface ZipFileEntry {
  name: string;
  method: number;
  flags: number;
  data: Buffer;
  /** DOS date/time decoded as UTC. */
  mtime: Date;
  /** Whether the central record carried ZIP64 sizes or offset. */
  zip64: boolean;
}

export interface ZipArchive {
  entries: ZipFileEntry[];
  /** Whether the end records were ZIP64. */
  zip64End: boolean;
}

const MAX32 = 0xffffffff;

function u64(buffer: Buffer, at: number): number {
  return Number(buffer.readBigUInt64LE(at));
}

export function readZip(buffer: Buffer): ZipArchive {
  let end = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 65535); i--) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory record');
  let count = buffer.readUInt16LE(end + 10);
  let cdSize = buffer.readUInt32LE(end + 12);
  let cdOffset = buffer.readUInt32LE(end + 16);
  let zip64End = false;
  if (count === 0xffff || cdSize === MAX32 || cdOffset === MAX32) {
    const locator = end - 20;
    if (buffer.readUInt32LE(locator) !== 0x07064b50) throw new Error('no ZIP64 locator');
    const record = u64(buffer, locator + 8);
    if (buffer.readUInt32LE(record) !== 0x06064b50) throw new Error('no ZIP64 end record');
    count = u64(buffer, record + 32);
    cdSize = u64(buffer, record + 40);
    cdOffset = u64(buffer, record + 48);
    zip64End = true;
  }
  if (cdOffset + cdSize > buffer.length) throw new Error('central directory out of bounds');

  const entries: ZipFileEntry[] = [];
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header ${n}`);
    const flags = buffer.readUInt16LE(at + 8);
    const method = buffer.readUInt16LE(at + 10);
    const time = buffer.readUInt16LE(at + 12);
    const date = buffer.readUInt16LE(at + 14);
    const crc = buffer.readUInt32LE(at + 16);
    let compressedSize = buffer.readUInt32LE(at + 20);
    let size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    let offset = buffer.readUInt32LE(at + 42);
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    let zip64 = false;
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra < extraEnd) {
      const id = buffer.readUInt16LE(extra);
      const length = buffer.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        zip64 = true;
        let field = extra + 4;
        if (size === MAX32) {
          size = u64(buffer, field);
          field += 8;
        }
        if (compressedSize === MAX32) {
          compressedSize = u64(buffer, field);
          field += 8;
        }
        if (offset === MAX32) offset = u64(buffer, field);
      }
      extra += 4 + length;
    }
    at = extraEnd + commentLength;

    if (buffer.readUInt32LE(offset) !== 0x04034b50) throw new Error(`bad local header ${name}`);
    const localName = buffer.readUInt16LE(offset + 26);
    const localExtra = buffer.readUInt16LE(offset + 28);
    if (buffer.subarray(offset + 30, offset + 30 + localName).toString('utf8') !== name) {
      throw new Error(`local name differs for ${name}`);
    }
    const dataStart = offset + 30 + localName + localExtra;
    const raw = buffer.subarray(dataStart, dataStart + compressedSize);
    const data = method === 8 ? zlib.inflateRawSync(raw) : method === 0 ? raw : null;
    if (!data) throw new Error(`unknown method ${method}`);
    if (data.length !== size) throw new Error(`size mismatch for ${name}`);
    if (zlib.crc32(data) !== crc) throw new Error(`CRC mismatch for ${name}`);
    // The data descriptor follows the data.
    if (flags & 0x0008 && buffer.readUInt32LE(dataStart + compressedSize) !== 0x08074b50) {
      throw new Error(`no data descriptor for ${name}`);
    }
    const mtime = new Date(
      Date.UTC(
        (date >> 9) + 1980,
        ((date >> 5) & 0xf) - 1,
        date & 0x1f,
        time >> 11,
        (time >> 5) & 0x3f,
        (time & 0x1f) * 2,
      ),
    );
    entries.push({ name, method, flags, data: Buffer.from(data), mtime, zip64 });
  }
  return { entries, zip64End };
}
