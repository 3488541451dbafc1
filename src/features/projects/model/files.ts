/**
 * The file browser's listings (spec 001 §2 "File browser"). A project may hold 10,000 files, so
 * the folder tree is indexed once per file list (O(files × depth)) and each folder listing is a
 * lookup, never a scan of every file.
 */
import type { FileChangeKind, ProjectFile } from '@contract/projects';

/**
 * A file as the browser lists it: a file of the project (`ProjectFile`), or one chosen for
 * upload that is not on the server yet (no checksum until it is analysed).
 */
export type ListedFile = Pick<ProjectFile, 'path' | 'size' | 'mtime'>;

export const FILES_PER_PAGE = 50;
export const NO_FILES_FOUND = 'No files found.';
export const SEARCH_FILES_PLACEHOLDER = 'Search files';

export interface FileEntry {
  type: 'file' | 'folder';
  /** Name shown in the list (relative to the folder listed). */
  name: string;
  /** Full project path. */
  path: string;
  size: number;
  /** Latest modification inside (ISO); null when the server does not know it. */
  mtime: string | null;
}

interface FolderNode {
  folders: Map<string, FileEntry>;
  files: FileEntry[];
}

export interface FolderIndex {
  folders: Map<string, FolderNode>;
  files: readonly ListedFile[];
}

function node(index: Map<string, FolderNode>, path: string): FolderNode {
  let found = index.get(path);
  if (!found) {
    found = { folders: new Map(), files: [] };
    index.set(path, found);
  }
  return found;
}

/** Indexes files by folder; folder entries carry the total size and latest mtime inside. */
export function buildFolderIndex(files: readonly ListedFile[]): FolderIndex {
  const folders = new Map<string, FolderNode>();
  node(folders, '');
  for (const file of files) {
    const parts = file.path.split('/').filter(Boolean);
    let parent = '';
    for (let i = 0; i < parts.length - 1; i += 1) {
      const name = parts[i] as string;
      const path = parent ? `${parent}/${name}` : name;
      const parentNode = node(folders, parent);
      let entry = parentNode.folders.get(name);
      if (!entry) {
        entry = { type: 'folder', name, path, size: 0, mtime: null };
        parentNode.folders.set(name, entry);
        node(folders, path);
      }
      entry.size += file.size;
      if (file.mtime !== null && (entry.mtime === null || file.mtime > entry.mtime))
        entry.mtime = file.mtime;
      parent = path;
    }
    node(folders, parent).files.push({
      type: 'file',
      name: parts[parts.length - 1] ?? file.path,
      path: file.path,
      size: file.size,
      mtime: file.mtime,
    });
  }
  return { folders, files };
}

export function normaliseFolder(location: string): string {
  return location.split('/').filter(Boolean).join('/');
}

export function folderExists(index: FolderIndex, location: string): boolean {
  return index.folders.has(normaliseFolder(location));
}

/** Entries of one folder; with a search, every file below it whose path contains the text. */
export function listFolder(index: FolderIndex, location: string, search = ''): FileEntry[] {
  const folder = normaliseFolder(location);
  const query = search.trim().toLowerCase();
  if (!query) {
    const found = index.folders.get(folder);
    return found ? [...found.folders.values(), ...found.files] : [];
  }
  const prefix = folder ? `${folder}/` : '';
  const result: FileEntry[] = [];
  for (const file of index.files) {
    if (!file.path.startsWith(prefix)) continue;
    const name = file.path.slice(prefix.length);
    if (!name.toLowerCase().includes(query)) continue;
    result.push({ type: 'file', name, path: file.path, size: file.size, mtime: file.mtime });
  }
  return result;
}

export const FILE_SORT_OPTIONS = [
  { value: 'name', label: 'Sort by name' },
  { value: 'mtime', label: 'Sort by last modified' },
  { value: 'size', label: 'Sort by size' },
] as const;

export type FileSortKey = (typeof FILE_SORT_OPTIONS)[number]['value'];

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Folders first; then by name (A-Z), modification (newest first) or size (largest first). */
export function sortEntries(entries: readonly FileEntry[], sort: FileSortKey): FileEntry[] {
  const compare = (a: FileEntry, b: FileEntry): number => {
    if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
    // An unknown time (null) sorts as the oldest.
    if (sort === 'mtime' && a.mtime !== b.mtime) return (a.mtime ?? '') < (b.mtime ?? '') ? 1 : -1;
    if (sort === 'size' && a.size !== b.size) return b.size - a.size;
    return collator.compare(a.name, b.name);
  };
  return [...entries].sort(compare);
}

export function pageOf<T>(items: readonly T[], page: number, perPage = FILES_PER_PAGE): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}

export type FileIconKind =
  | 'folder'
  | 'geopackage'
  | 'sql'
  | 'qgis'
  | 'archive'
  | 'raster'
  | 'spreadsheet'
  | 'photo'
  | 'generic';

const ICON_BY_EXTENSION: Record<string, FileIconKind> = {
  gpkg: 'geopackage',
  sql: 'sql',
  qgs: 'qgis',
  qgz: 'qgis',
  rar: 'archive',
  tif: 'raster',
  tiff: 'raster',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  jpg: 'photo',
  jpeg: 'photo',
  png: 'photo',
};

export function fileExtension(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The file-type icon of an entry (spec 001 §2). */
export function fileIconKind(entry: Pick<FileEntry, 'type' | 'name'>): FileIconKind {
  if (entry.type === 'folder') return 'folder';
  return ICON_BY_EXTENSION[fileExtension(entry.name)] ?? 'generic';
}

export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A pending change of a file (spec 001 §4 "File diff state"): the kinds the server names. */
export type { FileChangeKind };

/** State badges of the file browser and the file detail sidebar (spec 001 §2). */
export const FILE_CHANGE_LABELS: Record<FileChangeKind, string> = {
  added: 'New file',
  updated: 'Modified file',
  removed: 'Deleted file',
};

/** Filled dark shades: white badge text stays above 4.5:1 (WCAG AA). */
export const FILE_CHANGE_COLORS: Record<FileChangeKind, string> = {
  added: 'teal.9',
  updated: 'blue.8',
  removed: 'red.9',
};

/** The 'diff' filter: the pending changes under a folder, flat, with full paths as names. */
export function listChanges(
  files: readonly ListedFile[],
  changes: ReadonlyMap<string, FileChangeKind>,
  location: string,
  search = '',
): FileEntry[] {
  const folder = normaliseFolder(location);
  const prefix = folder ? `${folder}/` : '';
  const query = search.trim().toLowerCase();
  return files
    .filter((file) => changes.has(file.path) && file.path.startsWith(prefix))
    .filter((file) => !query || file.path.toLowerCase().includes(query))
    .map((file) => ({
      type: 'file' as const,
      name: file.path.slice(prefix.length),
      path: file.path,
      size: file.size,
      mtime: file.mtime,
    }));
}

/** The delete actions of a file (its row and its detail panel) and of a folder (its row). */
export const DELETE_FILE = 'Delete file';
export const DELETE_FOLDER = 'Delete folder';
/** A row's action undoing its pending change (issue 31; ours). */
export const UNDO_CHANGE = 'Undo change';
