/**
 * Files a browser upload leaves out (spec 001 §5 "Ignored upload files"): names ending with shm,
 * wal, ~, pyc or swap (SQLite sidecars such as 'x.gpkg-wal', editor backups), plus the server's
 * blacklists from /config. The server drops blacklisted paths with the same substring rule
 * (a blacklisted folder name inside the folder part, a blacklisted file name inside the name).
 */

const IGNORED_ENDINGS = /(shm|wal|~|pyc|swap)$/i;

export interface Blacklists {
  dirs: readonly string[];
  files: readonly string[];
}

export const NO_BLACKLISTS: Blacklists = { dirs: [], files: [] };

export function isIgnored(path: string, blacklists: Blacklists = NO_BLACKLISTS): boolean {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  if (IGNORED_ENDINGS.test(name)) return true;
  if (blacklists.files.some((entry) => entry !== '' && name.includes(entry))) return true;
  return blacklists.dirs.some((entry) => {
    const folder = entry.replace(/\/+$/, '');
    return folder !== '' && dir.includes(folder);
  });
}
