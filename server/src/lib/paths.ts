/**
 * Project file paths: relative, '/'-separated, and unable to leave the project. Every path
 * stored by commitVersion passes this rule, and every path asked for (raw download) is
 * checked against it first, so no request can name anything outside a project.
 */

/** Longest path accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4096;

/** Why `path` is not a valid project file path, or null when it is. */
export function projectPathError(path: string): string | null {
  if (path === '') return 'empty path';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return 'path too long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control character';
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive letter';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty path segment';
    if (segment === '.' || segment === '..') return 'relative path segment';
  }
  return null;
}

export function isValidProjectPath(path: string): boolean {
  return projectPathError(path) === null;
}

/** The last path segment. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Versioned files (GeoPackage, SQLite): their history is shown per change. */
export function isVersionedFile(path: string): boolean {
  return /\.(gpkg|sqlite)$/i.test(path);
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
