/**
 * Versions of a project as the history calls return them (spec 001 §3 "Version", §7; the
 * shapes are in docs/decisions/0039-history-api.md), typed by the contract (`@contract/history`):
 * the response schemas guarantee every key these types name, so answers are not re-read.
 */

import type {
  ChangesetState,
  FileChange,
  VersionChangeCounts,
  VersionDetail,
  VersionList,
  VersionListItem,
  VersionListQuery,
} from '@contract/history';
import { isVersionedFile } from '@contract/protocol';

export type { VersionChangeCounts, VersionDetail, VersionList, VersionListItem };

/** One changed file of a version. */
export type VersionFileChange = FileChange;

/** The changeset of one file in a version: its summary, or why it cannot be shown. */
export type FileChangeset = ChangesetState;

/** Versions per page of the versions table (spec 001 §9). */
export const VERSIONS_PER_PAGE = 50;
export const NO_VERSIONS_FOUND = 'No versions found.';
export const FETCH_VERSIONS_FALLBACK = 'Failed to fetch project versions';
export const FETCH_VERSION_FALLBACK = 'Failed to fetch project version';

/** The versions sort menu (spec 001 §2: newest, oldest). */
export const VERSION_SORT_OPTIONS = [
  { value: 'newest', label: 'Sort by newest' },
  { value: 'oldest', label: 'Sort by oldest' },
] as const;

export type VersionSortKey = (typeof VERSION_SORT_OPTIONS)[number]['value'];

/**
 * Query of GET /v1/project/versions/paginated (spec 001 §7, `@contract/history`); the web app
 * always gives the order.
 */
export type VersionListParams = Required<VersionListQuery>;

export function versionListParams(page: number, sort: VersionSortKey): VersionListParams {
  return { page, per_page: VERSIONS_PER_PAGE, descending: sort === 'newest' };
}

/** Files edited in a list item: full-file updates and diff updates together. */
export function editedCount(changes: VersionChangeCounts): number {
  return changes.updated + changes.updated_diff;
}

/** The accordion sections of the version detail (spec 001 §2 "Versions"). */
export const FILE_GROUPS = [
  { key: 'added', label: 'Files added' },
  { key: 'updated', label: 'Files edited' },
  { key: 'removed', label: 'Files removed' },
] as const;

export type FileGroupKey = (typeof FILE_GROUPS)[number]['key'];

/** 'Details not available: {error}' (spec 001 §8). */
export function detailsNotAvailable(error: string): string {
  return `Details not available: ${error}`;
}

/** Whether a changeset is still being calculated (an edited GeoPackage without one is too). */
export function isChangesetPending(path: string, changeset: FileChangeset | undefined): boolean {
  if (!changeset) return isVersionedFile(path);
  return changeset.status === 'pending';
}

/** Edited files whose changeset the server is still calculating (it works in the background). */
export function pendingChangesets(detail: Pick<VersionDetail, 'changes' | 'changesets'>): string[] {
  return detail.changes.updated
    .map((file) => file.path)
    .filter((path) => isChangesetPending(path, detail.changesets[path]));
}

/** How often the version detail is asked again while changesets are being calculated. */
export const CHANGESET_POLL_MS = 2000;
/** Polling stops after this many answers (about two minutes), so a stuck job does not poll forever. */
export const CHANGESET_POLL_LIMIT = 60;
export const CALCULATING_CHANGES = 'Calculating changes…';

/** Title of the versions list's 'Compare' while fewer than two versions are picked (issue 20). */
export const COMPARE_HINT = 'Pick two versions to compare';

/** Picks `version`, or unpicks it; a third pick lets go of the earliest one. */
export function togglePick(picked: readonly string[], version: string): string[] {
  if (picked.includes(version)) return picked.filter((name) => name !== version);
  return [...picked, version].slice(-2);
}

/**
 * 'Show on map' (issue 19): the map at `version` with the file's changes drawn, for every
 * versioned file (GeoPackage or SQLite, `isVersionedFile` of the contract), as the Map tab takes.
 */
export const SHOW_ON_MAP = 'Show on map';
export const showOnMapSearch = (version: string, path: string) =>
  ({ version, file: path, changes: 'true' }) as const;
