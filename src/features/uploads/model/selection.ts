/**
 * Where chosen or dropped files land in the project (spec 001 §4 "Drag and drop"): a single
 * dropped folder named like the project replaces the whole project content; any other drop
 * merges into the folder being viewed, and a dropped folder replaces what the project holds
 * under the same folder path.
 */

/** One chosen file, its path relative to the drop ('folder/sub/a.gpkg' or 'a.gpkg'). */
export interface ChosenFile {
  relativePath: string;
  file: Blob;
  size: number;
  /** Last modification, ms since the epoch. */
  lastModified: number;
}

export interface Placement {
  /** The dropped folder replaces everything: files missing from it are removed. */
  replaceAll: boolean;
  /** Project folders whose current content the drop replaces (merge drops of folders). */
  replacedFolders: string[];
  /** The files at their project paths. */
  files: Array<ChosenFile & { path: string }>;
}

/** Joins path parts, dropping empty parts and stray slashes. */
export function joinPath(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

function firstSegment(path: string): string {
  return joinPath(path).split('/')[0] ?? '';
}

/** Top-level folder names of a selection (entries whose relative path has a folder part). */
export function topLevelFolders(files: readonly Pick<ChosenFile, 'relativePath'>[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const path = joinPath(file.relativePath);
    if (path.includes('/')) folders.add(firstSegment(path));
  }
  return [...folders];
}

/** Whether the drop is exactly one folder named like the project (the replace-all rule). */
export function replacesProject(
  files: readonly Pick<ChosenFile, 'relativePath'>[],
  projectName: string,
): boolean {
  if (files.length === 0) return false;
  const folders = topLevelFolders(files);
  const allInside = files.every((file) => joinPath(file.relativePath).includes('/'));
  return allInside && folders.length === 1 && folders[0] === projectName;
}

/** Project paths of a selection dropped while viewing `location`. */
export function placeSelection(
  files: readonly ChosenFile[],
  location: string,
  projectName: string,
): Placement {
  if (replacesProject(files, projectName)) {
    return {
      replaceAll: true,
      replacedFolders: [],
      files: files.map((file) => ({
        ...file,
        path: joinPath(file.relativePath).split('/').slice(1).join('/'),
      })),
    };
  }
  return {
    replaceAll: false,
    replacedFolders: topLevelFolders(files).map((folder) => joinPath(location, folder)),
    files: files.map((file) => ({ ...file, path: joinPath(location, file.relativePath) })),
  };
}
