/** The download building blocks on their own: path rule, ranges, type sniffing, ZIP writer. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseRange } from '../../server/src/lib/http-range';
import { attachmentDisposition, projectPathError } from '../../server/src/lib/paths';
import { sniffContentType } from '../../server/src/lib/sniff';
import { worthCompressing, zipStream, type ZipEntry } from '../../server/src/lib/zip';
import { readZip } from './support/zip-reader';

describe('project paths', () => {
  it('accepts relative paths inside the project', () => {
    for (const ok of ['a.txt', 'data/survey.gpkg', 'a..b/c', '.hidden/x', 'ünïcödé/名前.txt']) {
      expect(projectPathError(ok), ok).toBeNull();
    }
  });

  it('refuses anything that could leave the project', () => {
    for (const bad of [
      '',
      '../x',
      'a/../../b',
      'a/..',
      './a',
      'a/./b',
      '/etc/passwd',
      'a//b',
      'a/',
      'a\\..\\b',
      '..\\x',
      'C:/Windows',
      'c:x',
      'a\u0000b',
      'line\nbreak',
    ]) {
      expect(projectPathError(bad), JSON.stringify(bad)).not.toBeNull();
    }
  });

  it('names downloads with RFC 8187 encoding', () => {
    expect(attachmentDisposition("a b'(1)*.txt")).toBe(
      "attachment; filename*=UTF-8''a%20b%27%281%29%2A.txt",
    );
    expect(attachmentDisposition('Übersicht.pdf')).toBe(
      "attachment; filename*=UTF-8''%C3%9Cbersicht.pdf",
    );
  });
});

describe('HTTP ranges', () => {
  it('parses the three single-range forms, clamping the end', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'range', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('bytes=50-5000', 100)).toEqual({ kind: 'range', start: 50, end: 99 });
    expect(parseRange('bytes=99-99', 100)).toEqual({ kind: 'range', start: 99, end: 99 });
  });

  it('answers unsatisfiable for ranges past the end or of nothing', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve (whole file instead)', () => {
    for (const header of [
      undefined,
      'bytes=5-2',
      'bytes=0-1,5-6',
      'items=0-1',
      'bytes=-',
      'bytes=a-b',
    ]) {
      expect(parseRange(header, 100), String(header)).toEqual({ kind: 'none' });
    }
  });
});

describe('content type sniffing', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(
      parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
    );

  it('recognises the formats by their first bytes', () => {
    expect(sniffContentType(bytes([0x89], 'PNG\r\n\x1a\n', 'rest'))).toBe('image/png');
    expect(sniffContentType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(bytes('GIF89a...'))).toBe('image/gif');
    expect(sniffContentType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffContentType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffContentType(bytes('SQLite format 3', [0], 'more'))).toBe('application/vnd.sqlite3');
    expect(sniffContentType(bytes('PK', [3, 4], 'zipped'))).toBe('application/zip');
    expect(sniffContentType(bytes('II*', [0]))).toBe('image/tiff');
    expect(sniffContentType(bytes('MM', [0], '*'))).toBe('image/tiff');
  });

  it('serves text, markup included, as text/plain and other bytes as octet-stream', () => {
    expect(sniffContentType(Buffer.from('hello\nworld\n'))).toBe('text/plain');
    expect(sniffContentType(Buffer.from('{"a": "ü"}'))).toBe('text/plain');
    expect(sniffContentType(Buffer.alloc(0))).toBe('text/plain');
    expect(
      sniffContentType(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      ),
    ).toBe('text/plain');
    expect(sniffContentType(Buffer.from('<!doctype html><html><script>alert(1)</script>'))).toBe(
      'text/plain',
    );
    // A multi-byte character cut by the end of the sample is still text.
    expect(sniffContentType(Buffer.from('abc€').subarray(0, 5))).toBe('text/plain');
    expect(sniffContentType(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBe(
      'application/octet-stream',
    );
    expect(sniffContentType(Buffer.from([0xc3, 0x28, 0x41]))).toBe('application/octet-stream');
  });
});

function entry(name: string, content: Buffer, compress = true): ZipEntry {
  return {
    name,
    size: content.length,
    mtime: new Date(Date.UTC(2024, 4, 4, 14, 21, 56)),
    compress,
    open: async () => Readable.from([content.subarray(0, 7), content.subarray(7)]),
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function unzipTest(file: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('unzip', ['-t', file], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

const hasUnzip = fs.existsSync('/usr/bin/unzip');

describe('ZIP writer', () => {
  const text = Buffer.from('line\n'.repeat(2000));
  const random = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251));
  const entries = () => [
    entry('notes.txt', text),
    entry('data/ü-名前.bin', random, false),
    entry('empty.txt', Buffer.alloc(0)),
  ];

  for (const forceZip64 of [false, true]) {
    it(`writes stored and deflated entries with UTF-8 names${forceZip64 ? ' (ZIP64)' : ''}`, async () => {
      const zip = await collect(zipStream(entries(), { forceZip64 }));
      const archive = readZip(zip);
      expect(archive.zip64End).toBe(forceZip64);
      expect(archive.entries.map((e) => [e.name, e.method, e.zip64])).toEqual([
        ['notes.txt', 8, forceZip64],
        ['data/ü-名前.bin', 0, forceZip64],
        ['empty.txt', 0, forceZip64],
      ]);
      expect(archive.entries[0]!.data.equals(text)).toBe(true);
      expect(archive.entries[1]!.data.equals(random)).toBe(true);
      expect(archive.entries[2]!.data.length).toBe(0);
      for (const e of archive.entries) {
        expect(e.flags & 0x0808).toBe(0x0808); // data descriptor + UTF-8 names
        expect(e.mtime.toISOString()).toBe('2024-05-04T14:21:56.000Z');
      }
      // Deflate made the text smaller.
      expect(zip.length).toBeLessThan(text.length);

      if (hasUnzip) {
        const file = path.join(os.tmpdir(), `waymark-zip-${process.pid}-${String(forceZip64)}.zip`);
        fs.writeFileSync(file, zip);
        try {
          const result = await unzipTest(file);
          expect(result.out).toContain('No errors detected');
          expect(result.code).toBe(0);
        } finally {
          fs.rmSync(file, { force: true });
        }
      }
    });
  }

  it('stores entries whose bytes do not compress', async () => {
    const noise = randomBytes(200 * 1024);
    const archive = readZip(
      await collect(zipStream([entry('raster.tif', noise), entry('t.txt', text)])),
    );
    expect(archive.entries.map((e) => [e.name, e.method])).toEqual([
      ['raster.tif', 0],
      ['t.txt', 8],
    ]);
    expect(archive.entries[0]!.data.equals(noise)).toBe(true);
  });

  it('writes an empty archive', async () => {
    const archive = readZip(await collect(zipStream([])));
    expect(archive.entries).toEqual([]);
  });

  it('fails the stream when an entry cannot be read', async () => {
    const broken: ZipEntry = {
      name: 'gone.txt',
      size: 3,
      mtime: new Date(),
      compress: true,
      open: async () => {
        throw new Error('blob missing');
      },
    };
    await expect(collect(zipStream([entry('a.txt', text), broken]))).rejects.toThrow(
      'blob missing',
    );
  });

  it('stores formats that are compressed already', () => {
    expect(worthCompressing('a/photo.JPG')).toBe(false);
    expect(worthCompressing('project.qgz')).toBe(false);
    expect(worthCompressing('data.gpkg')).toBe(true);
    expect(worthCompressing('README')).toBe(true);
    expect(worthCompressing('dir.jpg/file')).toBe(true);
  });
});
