/**
 * Versions of a project as the history calls return them (spec 001 §3 "Version", §7; the
 * shapes are in docs/decisions/0039-history-api.md). Answers are read leniently: a missing list
 * becomes empty, a missing count zero.
 */

import type {
  ChangesetState,
  FileChange,
  VersionChangeCounts as CountsAnswer,
  VersionDetail as DetailAnswer,
  VersionListItem as ListItemAnswer,
} from '@contract/history';

/** Counts of changed files in a list item (`updated_diff`: updates sent as a diff). */
export type VersionChangeCounts = Omit<CountsAnswer, 'updated_diff'> &
  Partial<Pick<CountsAnswer, 'updated_diff'>>;

/** The keys the web app reads of a version (`@contract/history`). */
type VersionKeys = Pick<ListItemAnswer, 'name' | 'created' | 'project_size'> &
  Partial<Pick<ListItemAnswer, 'project_name' | 'namespace' | 'author' | 'origin'>>;

export type VersionListItem = VersionKeys & { changes: VersionChangeCounts };

export interface VersionList {
  versions: VersionListItem[];
  count: number;
}

/** One changed file of a version. */
export type VersionFileChange = Pick<FileChange, 'path' | 'size'> &
  Partial<Pick<FileChange, 'checksum' | 'mtime'>>;

/** The changeset of one file in a version: its summary, or why it cannot be shown. */
export type FileChangeset = Partial<ChangesetState>;

export type VersionDetail = VersionKeys &
  Partial<Pick<DetailAnswer, 'user_agent'>> & {
    changes: Record<keyof DetailAnswer['changes'], VersionFileChange[]>;
    changesets: Record<string, FileChangeset>;
  };

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

/** Query of GET /v1/project/versions/paginated (spec 001 §7). */
export interface VersionListParams {
  page: number;
  per_page: number;
  descending: boolean;
}

export function versionListParams(page: number, sort: VersionSortKey): VersionListParams {
  return { page, per_page: VERSIONS_PER_PAGE, descending: sort === 'newest' };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function toCounts(value: unknown): VersionChangeCounts {
  const changes = (value ?? {}) as Partial<Record<keyof VersionChangeCounts, unknown>>;
  return {
    added: count(changes.added),
    updated: count(changes.updated),
    updated_diff: count(changes.updated_diff),
    removed: count(changes.removed),
  };
}

export function toVersionList(data: unknown): VersionList {
  const value = (data ?? {}) as { versions?: unknown; count?: unknown };
  const versions = Array.isArray(value.versions) ? (value.versions as VersionListItem[]) : [];
  return {
    versions: versions.map((version) => ({ ...version, changes: toCounts(version.changes) })),
    count: count(value.count),
  };
}

function toFiles(value: unknown): VersionFileChange[] {
  return Array.isArray(value)
    ? (value as VersionFileChange[]).filter((file) => typeof file?.path === 'string')
    : [];
}

export function toVersionDetail(data: unknown): VersionDetail {
  const value = (data ?? {}) as Omit<Partial<VersionDetail>, 'changes'> & {
    changes?: Record<string, unknown>;
  };
  const changes: Record<string, unknown> = value.changes ?? {};
  const changesets =
    value.changesets && typeof value.changesets === 'object' && !Array.isArray(value.changesets)
      ? value.changesets
      : {};
  return {
    ...value,
    name: value.name ?? '',
    created: value.created ?? '',
    project_size: count(value.project_size),
    changes: {
      added: toFiles(changes.added),
      updated: toFiles(changes.updated),
      removed: toFiles(changes.removed),
    },
    changesets,
  };
}

/** Files edited in a list item: full-file updates and diff updates together. */
export function editedCount(changes: VersionChangeCounts): number {
  return changes.updated + (changes.updated_diff ?? 0);
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

/** GeoPackage and SQLite files are versioned: their edits get a changeset (spec 001 §1). */
export function isVersionedFile(path: string): boolean {
  return /\.(gpkg|sqlite)$/i.test(path);
}

/** Whether a changeset is still being calculated (an edited GeoPackage without one is too). */
export function isChangesetPending(path: string, changeset: FileChangeset | undefined): boolean {
  if (!changeset) return isVersionedFile(path);
  return changeset.status === 'pending';
}

/** Edited files whose changeset the server is still calculating (it works in the background). */
export function pendingChangesets(detail: VersionDetail): string[] {
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

/** 'Show on map' (issue 19): the map at `version` with the GeoPackage's changes drawn. */
export const SHOW_ON_MAP = 'Show on map';
export const isGeoPackage = (path: string): boolean => /\.gpkg$/i.test(path);
export const showOnMapSearch = (version: string, path: string) =>
  ({ version, file: path, changes: 'true' }) as const;
