/** What the map reads of the project (issue 19): its GeoPackages, its versions, extents. */
import type { Extent } from '@contract/map';
import { isVersionedFile } from '@contract/protocol';

/** The project's files with a map (GeoPackages, SQLite files), by path. */
export const geoPackagesOf = (files: readonly { path: string }[]): string[] =>
  files
    .map((file) => file.path)
    .filter(isVersionedFile)
    .sort((a, b) => a.localeCompare(b));

/** Every version of a project whose latest is `latest` (`vN`), newest first. */
export function versionNames(latest: string): string[] {
  const match = /^v(\d+)$/.exec(latest);
  const count = match ? Number(match[1]) : 0;
  return Array.from({ length: count }, (_, index) => `v${count - index}`);
}

/**
 * Whether the map is on the project's latest version, where features are added and edited:
 * the version chosen in the link is the latest, or none is chosen (the map follows the latest:
 * while a version that just landed is read, the one in view is the base its edits are rebased
 * from). Only a version picked on purpose says 'choose the latest to edit', so a version landing
 * neither hides 'Edit' for a moment nor puts that line above the map, which moved it under a
 * finger about to tap (48 px at 768 px).
 */
export function onLatestVersion(
  chosen: string | undefined,
  shown: string | undefined,
  latest: string,
): boolean {
  return chosen === undefined || chosen === latest || shown === latest;
}

/** The extent covering all `extents` (nulls left out), or null when there is none. */
export function unionExtent(extents: ReadonlyArray<Extent | null>): Extent | null {
  const present = extents.filter((extent): extent is Extent => extent !== null);
  if (present.length === 0) return null;
  return [
    Math.min(...present.map((extent) => extent[0] as number)),
    Math.min(...present.map((extent) => extent[1] as number)),
    Math.max(...present.map((extent) => extent[2] as number)),
    Math.max(...present.map((extent) => extent[3] as number)),
  ];
}
