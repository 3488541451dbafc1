/**
 * The .qgs text inside a .qgz (QGIS's zipped project: the project XML plus auxiliary files),
 * read from the ZIP's central directory: the first entry ending in `.qgs`, stored or
 * deflated, inflated with a bound on its size and its CRC-32 checked. Anything malformed is
 * a QgzError; nothing but that one entry is inflated.
 */
import zlib from 'node:zlib';

export class QgzError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QgzError';
  }
}

/** The project XML of a .qgz's bytes, at most `maxBytes` long once inflated. */
export function qgsFromQgz(zip: Buffer, maxBytes: number): string {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new QgzError('Not a ZIP archive');
  const count = zip.readUInt16LE(end + 10);
  const cdOffset = zip.readUInt32LE(end + 16);
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) {
      throw new QgzError('Broken ZIP directory');
    }
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (!name.toLowerCase().endsWith('.qgs') || name.includes('/')) continue;
    if (size > maxBytes) throw new QgzError('The project file is too large');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) {
      throw new QgzError('Broken ZIP entry');
    }
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressed > zip.length) throw new QgzError('Broken ZIP entry');
    const raw = zip.subarray(start, start + compressed);
    let data: Buffer;
    try {
      if (method === 0) data = Buffer.from(raw);
      else if (method === 8) data = zlib.inflateRawSync(raw, { maxOutputLength: maxBytes });
      else throw new QgzError(`Unsupported ZIP compression ${method}`);
    } catch (error) {
      if (error instanceof QgzError) throw error;
      throw new QgzError('The project file cannot be inflated');
    }
    if (data.length !== size || zlib.crc32(data) !== crc) {
      throw new QgzError('The project file is corrupt');
    }
    return data.toString('utf8');
  }
  throw new QgzError('No .qgs file in the archive');
}
