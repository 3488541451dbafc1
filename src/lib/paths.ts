/** The folder part of a file path ('a/b/c.gpkg' → 'a/b', 'c.gpkg' → ''). */
export function parentFolder(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const index = trimmed.lastIndexOf('/');
  return index > 0 ? trimmed.slice(0, index) : '';
}
