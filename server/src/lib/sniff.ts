/**
 * The Content-Type of a project file, from its first bytes (api-reference A.9: text/plain
 * when the file is not binary, otherwise the MIME type of its format).
 *
 * Only inert types are ever named: a file is served as one of the formats below, as
 * text/plain, or as application/octet-stream. SVG, HTML and other markup are text, so they
 * come out as text/plain and a browser never renders them in the app's origin (responses
 * also carry `X-Content-Type-Options: nosniff` and `Content-Disposition: attachment`).
 */

/** How many leading bytes the sniffer looks at. */
export const SNIFF_BYTES = 4096;

export const TEXT_PLAIN = 'text/plain';
export const OCTET_STREAM = 'application/octet-stream';

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly { type: string; match: (b: Uint8Array) => boolean }[] = [
  {
    type: 'image/png',
    match: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: 'image/jpeg', match: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    type: 'image/gif',
    match: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  },
  {
    type: 'image/webp',
    match: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
  },
  { type: 'application/pdf', match: (b) => startsWith(b, ascii('%PDF-')) },
  // GeoPackage and SQLite files.
  {
    type: 'application/vnd.sqlite3',
    match: (b) => startsWith(b, [...ascii('SQLite format 3'), 0]),
  },
  // Zip containers: .qgz, .xlsx, .docx, .zip (local file header, empty or spanned archive).
  {
    type: 'application/zip',
    match: (b) =>
      startsWith(b, [0x50, 0x4b, 0x03, 0x04]) ||
      startsWith(b, [0x50, 0x4b, 0x05, 0x06]) ||
      startsWith(b, [0x50, 0x4b, 0x07, 0x08]),
  },
  // TIFF and BigTIFF, both byte orders.
  {
    type: 'image/tiff',
    match: (b) =>
      startsWith(b, [0x49, 0x49, 0x2a, 0x00]) ||
      startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) ||
      startsWith(b, [0x49, 0x49, 0x2b, 0x00]) ||
      startsWith(b, [0x4d, 0x4d, 0x00, 0x2b]),
  },
];

/**
 * Text: valid UTF-8 (a sequence cut at the end of the sample is fine) without NUL bytes and
 * with few other control characters.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return false;
  }
  let control = 0;
  for (const b of bytes) {
    // Tab, LF, FF, CR and ESC are common in text files.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b) control++;
  }
  return control * 100 <= bytes.length;
}

/** The Content-Type to serve for a file starting with `head` (its first SNIFF_BYTES). */
export function sniffContentType(head: Uint8Array): string {
  for (const { type, match } of SIGNATURES) if (match(head)) return type;
  return looksLikeText(head) ? TEXT_PLAIN : OCTET_STREAM;
}
