/**
 * A streaming ZIP writer (PKWARE APPNOTE 6.3): entries are written one after another as
 * their bytes arrive, each followed by a data descriptor (general purpose bit 3), so nothing
 * is buffered beyond one chunk and memory does not grow with the archive's size. Only the
 * central directory (a few dozen bytes per entry) is kept until the end.
 *
 * - names are UTF-8 (bit 11);
 * - entries are stored or deflated (raw deflate, zlib level ZIP_DEFLATE_LEVEL); an entry
 *   marked compressible is deflated only if its first 64 KiB shrink by a tenth or more;
 * - ZIP64 records are written where a size, an offset or the entry count needs them (an
 *   entry whose size is not far below 4 GiB gets ZIP64 sizes in its local header and data
 *   descriptor, because its final compressed size is not known in advance).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive ('/'-separated). */
  name: string;
  /** Uncompressed size in bytes, as known before reading (used to choose ZIP64). */
  size: number;
  mtime: Date;
  /** Worth trying to deflate (it is deflated if a sample of it shrinks); false: stored. */
  compress: boolean;
  /** Opens the entry's bytes. Called once, when the entry's turn comes. */
  open(): Promise<Readable>;
}

export interface ZipOptions {
  /** Write ZIP64 records for every entry and the end record (tests use it). */
  forceZip64?: boolean;
  /** zlib level for deflated entries. */
  level?: number;
}

export const ZIP_DEFLATE_LEVEL = 6;

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Entries at least this large get ZIP64 local records (deflate can grow data a little). */
const ZIP64_ENTRY_THRESHOLD = MAX32 - 64 * 1024 * 1024;

const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;
/** Made by: Unix (3), spec version 4.5. */
const VERSION_MADE_BY = (3 << 8) | VERSION_ZIP64;
/** Regular file, mode 0644. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;

/** MS-DOS date and time (local fields, 2-second resolution; years 1980-2107). */
function dosDateTime(date: Date): { time: number; date: number } {
  let d = date;
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1980) d = new Date(Date.UTC(1980, 0, 1));
  if (d.getUTCFullYear() > 2107) d = new Date(Date.UTC(2107, 11, 31, 23, 59, 58));
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

function u64(buffer: Buffer, value: number, offset: number): void {
  buffer.writeBigUInt64LE(BigInt(value), offset);
}

interface CentralRecord {
  name: Buffer;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  zip64: boolean;
}

function localHeader(
  name: Buffer,
  method: number,
  dos: { time: number; date: number },
  zip64: boolean,
): Buffer {
  const extra = zip64 ? 20 : 0;
  const header = Buffer.alloc(30 + name.length + extra);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 6);
  header.writeUInt16LE(method, 8);
  header.writeUInt16LE(dos.time, 10);
  header.writeUInt16LE(dos.date, 12);
  // CRC and sizes follow in the data descriptor; ZIP64 marks the sizes as 0xFFFFFFFF.
  header.writeUInt32LE(0, 14);
  header.writeUInt32LE(zip64 ? MAX32 : 0, 18);
  header.writeUInt32LE(zip64 ? MAX32 : 0, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra, 28);
  name.copy(header, 30);
  if (zip64) {
    const at = 30 + name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(16, at + 2);
    // Sizes (zero here; the data descriptor has them).
  }
  return header;
}

function dataDescriptor(crc: number, compressedSize: number, size: number, zip64: boolean): Buffer {
  const descriptor = Buffer.alloc(zip64 ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(crc, 4);
  if (zip64) {
    u64(descriptor, compressedSize, 8);
    u64(descriptor, size, 16);
  } else {
    descriptor.writeUInt32LE(compressedSize, 8);
    descriptor.writeUInt32LE(size, 12);
  }
  return descriptor;
}

function centralHeader(record: CentralRecord, force: boolean): Buffer {
  const big = (value: number) => record.zip64 || force || value >= MAX32;
  const fields: number[] = [];
  if (big(record.size)) fields.push(record.size);
  if (big(record.compressedSize)) fields.push(record.compressedSize);
  if (force || record.offset >= MAX32) fields.push(record.offset);
  const extra = fields.length > 0 ? 4 + 8 * fields.length : 0;
  const header = Buffer.alloc(46 + record.name.length + extra);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(extra > 0 || record.zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8, 8);
  header.writeUInt16LE(record.method, 10);
  header.writeUInt16LE(record.time, 12);
  header.writeUInt16LE(record.date, 14);
  header.writeUInt32LE(record.crc, 16);
  header.writeUInt32LE(big(record.compressedSize) ? MAX32 : record.compressedSize, 20);
  header.writeUInt32LE(big(record.size) ? MAX32 : record.size, 24);
  header.writeUInt16LE(record.name.length, 28);
  header.writeUInt16LE(extra, 30);
  header.writeUInt16LE(0, 32); // comment length
  header.writeUInt16LE(0, 34); // disk number start
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  header.writeUInt32LE(force || record.offset >= MAX32 ? MAX32 : record.offset, 42);
  record.name.copy(header, 46);
  if (extra > 0) {
    let at = 46 + record.name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(8 * fields.length, at + 2);
    at += 4;
    for (const value of fields) {
      u64(header, value, at);
      at += 8;
    }
  }
  return header;
}

function endRecords(count: number, cdSize: number, cdOffset: number, force: boolean): Buffer {
  const zip64 = force || count >= MAX16 || cdSize >= MAX32 || cdOffset >= MAX32;
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    u64(record, 44, 4); // size of the rest of this record
    record.writeUInt16LE(VERSION_MADE_BY, 12);
    record.writeUInt16LE(VERSION_ZIP64, 14);
    record.writeUInt32LE(0, 16); // this disk
    record.writeUInt32LE(0, 20); // disk with the central directory
    u64(record, count, 24);
    u64(record, count, 32);
    u64(record, cdSize, 40);
    u64(record, cdOffset, 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    u64(locator, cdOffset + cdSize, 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(zip64 ? MAX16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : cdOffset, 16);
  end.writeUInt16LE(0, 20);
  parts.push(end);
  return Buffer.concat(parts);
}

/** Bytes of an entry looked at to decide whether deflating it is worth it. */
const SAMPLE_BYTES = 64 * 1024;

/** Deflate only data that shrinks by a tenth or more (fast level on the sample). */
function worthDeflating(sample: Buffer): boolean {
  return zlib.deflateRawSync(sample, { level: 1 }).length < sample.length * 0.9;
}

/**
 * Reads the start of an entry, then says whether to deflate it and gives back all of its
 * bytes (the sample first): incompressible data (internally compressed rasters, random
 * bytes) is stored, so no CPU is spent on it.
 */
async function sampleEntry(
  source: Readable,
  wantCompress: boolean,
): Promise<{ compress: boolean; data: AsyncIterable<Buffer> }> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = !wantCompress;
  if (wantCompress) {
    while (headBytes < SAMPLE_BYTES) {
      const next = await chunks.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
  }
  const compress = headBytes > 0 && worthDeflating(Buffer.concat(head).subarray(0, SAMPLE_BYTES));
  async function* data(): AsyncGenerator<Buffer> {
    yield* head;
    if (!wantCompress) {
      yield* source as AsyncIterable<Buffer>;
      return;
    }
    while (!ended) {
      const next = await chunks.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { compress, data: data() };
}

async function* entryData(
  source: Readable,
  data: AsyncIterable<Buffer>,
  compress: boolean,
  level: number,
  totals: { crc: number; size: number; compressedSize: number },
): AsyncGenerator<Buffer> {
  async function* tap(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of input) {
      totals.crc = zlib.crc32(chunk, totals.crc);
      totals.size += chunk.length;
      yield chunk;
    }
  }
  if (!compress) {
    try {
      for await (const chunk of tap(data)) {
        totals.compressedSize += chunk.length;
        yield chunk;
      }
    } finally {
      source.destroy();
    }
    return;
  }
  const deflate = zlib.createDeflateRaw({ level });
  const feeding = pipeline(Readable.from(data), tap, deflate);
  feeding.catch(() => {}); // reported through the loop below
  try {
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      totals.compressedSize += chunk.length;
      yield chunk;
    }
    await feeding;
  } finally {
    source.destroy();
    deflate.destroy();
  }
}

async function* zipChunks(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions,
): AsyncGenerator<Buffer> {
  const force = options.forceZip64 ?? false;
  const level = options.level ?? ZIP_DEFLATE_LEVEL;
  const central: CentralRecord[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const dos = dosDateTime(entry.mtime);
    const source = await entry.open();
    let sampled: Awaited<ReturnType<typeof sampleEntry>>;
    try {
      sampled = await sampleEntry(source, entry.compress && entry.size > 0);
    } catch (error) {
      source.destroy();
      throw error;
    }
    const { compress, data } = sampled;
    const method = compress ? 8 : 0;
    const zip64 = force || entry.size >= ZIP64_ENTRY_THRESHOLD;
    const header = localHeader(name, method, dos, zip64);
    const start = offset;
    yield header;
    offset += header.length;
    const totals = { crc: 0, size: 0, compressedSize: 0 };
    for await (const chunk of entryData(source, data, compress, level, totals)) {
      offset += chunk.length;
      yield chunk;
    }
    if (!zip64 && (totals.size >= MAX32 || totals.compressedSize >= MAX32)) {
      throw new Error(`${entry.name}: ${totals.size} bytes, announced as ${entry.size}`);
    }
    const descriptor = dataDescriptor(totals.crc, totals.compressedSize, totals.size, zip64);
    yield descriptor;
    offset += descriptor.length;
    central.push({
      name,
      method,
      time: dos.time,
      date: dos.date,
      crc: totals.crc,
      compressedSize: totals.compressedSize,
      size: totals.size,
      offset: start,
      zip64,
    });
  }
  const cdOffset = offset;
  let cdSize = 0;
  // The central directory in batches: one write per entry would be slow for large projects.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (const record of central) {
    const header = centralHeader(record, force);
    batch.push(header);
    batchBytes += header.length;
    cdSize += header.length;
    if (batchBytes >= 64 * 1024) {
      yield Buffer.concat(batch);
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length > 0) yield Buffer.concat(batch);
  yield endRecords(central.length, cdSize, cdOffset, force);
}

/** A readable stream of the ZIP archive of `entries`, produced as it is read. */
export function zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  options: ZipOptions = {},
): Readable {
  return Readable.from(zipChunks(entries, options), { objectMode: false });
}

/** Formats whose bytes are already compressed: stored, not deflated again. */
const COMPRESSED_EXTENSIONS = new Set([
  '7z',
  'avi',
  'br',
  'bz2',
  'docx',
  'ecw',
  'gif',
  'gz',
  'heic',
  'jp2',
  'jpeg',
  'jpg',
  'm4a',
  'mkv',
  'mov',
  'mp3',
  'mp4',
  'odp',
  'ods',
  'odt',
  'ogg',
  'png',
  'pptx',
  'qgz',
  'rar',
  'sid',
  'tgz',
  'webm',
  'webp',
  'xlsx',
  'xz',
  'zip',
  'zst',
]);

/** Whether a file is worth deflating, by its extension. */
export function worthCompressing(path: string): boolean {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return true;
  return !COMPRESSED_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}
