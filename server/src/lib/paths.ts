/**
 * Project file paths: relative, '/'-separated, and unable to leave the project. Every path
 * stored by commitVersion passes this rule, and every path asked for (raw download) is
 * checked against it first, so no request can name anything outside a project.
 */
import { UNPAIRED_SURROGATE } from './unicode';

/** Longest path accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4096;

/** Longest path segment (file or folder name), in UTF-8 bytes: file systems' limit. */
export const MAX_SEGMENT_BYTES = 255;

/** Device names Windows reserves, with or without an extension (`CON`, `com1.txt`). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

/** Characters no Windows file name may hold (the clients sync to Windows too). */
const WINDOWS_INVALID = /[:*?"<>|]/;

/**
 * Bidirectional text controls (U+061C, U+200E/F, U+202A-E, U+2066-9): invisible, they
 * reorder what is shown, so `invoice\u202Efdp.exe` displays as `invoiceexe.pdf`.
 */
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/** The reason projectPathError gives for a folder name ending in a space. */
export const TRAILING_SPACE_FOLDER = 'folder name ends with a space';

/**
 * Why `path` is not a valid project file path, or null when it is. Valid paths are
 * relative, '/'-separated, at most 4096 bytes, and every segment is a name that every
 * operating system the clients run on can hold: at most 255 bytes, no control, bidirectional
 * text control (names shown as another file type) or `\ : * ? " < > |` characters, no
 * unpaired UTF-16 surrogate, not `.` or `..`, no Windows device name, no trailing dot or
 * space (Windows drops them, so `a.txt.` and `a.txt` would be one file there).
 */
export function projectPathError(path: string): string | null {
  if (path === '') return 'empty path';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return 'path too long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control character';
  // No file system name holds one, and UTF-8 cannot store it.
  if (UNPAIRED_SURROGATE.test(path)) return 'unpaired surrogate';
  if (BIDI_CONTROL.test(path)) return 'bidirectional text control';
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive letter';
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '') return 'empty path segment';
    if (segment === '.' || segment === '..') return 'relative path segment';
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) return 'name too long';
    if (WINDOWS_INVALID.test(segment)) return 'character not allowed in names';
    if (WINDOWS_RESERVED.test(segment)) return 'reserved device name';
    if (segment.endsWith('.')) return 'name ends with a dot';
  }
  if (segments.at(-1)!.endsWith(' ')) return 'name ends with a space';
  // Last, so that push can answer the reference's own text for this one (push-rules.ts).
  if (segments.slice(0, -1).some((segment) => segment.endsWith(' '))) return TRAILING_SPACE_FOLDER;
  return null;
}

export function isValidProjectPath(path: string): boolean {
  return projectPathError(path) === null;
}

/** The last path segment. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** QGIS project files. */
export function isQgisProjectFile(path: string): boolean {
  return /\.(qgs|qgz)$/i.test(path);
}

/** `attachment; filename*=UTF-8''<percent-encoded name>` (RFC 6266 / 8187). */
export function attachmentDisposition(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename*=UTF-8''${encoded}`;
}
