/** Projects as the list endpoints return them (api-reference A.5 ProjectListItem; spec 001 §2). */
import { formatFileSize } from '@/lib/fileSize';

import type {
  ProjectAccess,
  ProjectList,
  ProjectListItem,
  ProjectListQuery,
} from '@contract/projects';

/** A project's access lists, one project of the lists, GET /v1/project/paginated. */
export type { ProjectAccess, ProjectList, ProjectListItem };

/** Query of GET /v1/project/paginated (`order_params`: `<field>_asc` or `<field>_desc`). */
export type ProjectListParams = ProjectListQuery;

/** Dashboard 'Recent active projects' (spec 000 §9, 001 §2): updated descending, 5, page 1. */
export const RECENT_PROJECTS_PER_PAGE = 5;

export function recentProjectsParams(workspaceName: string): ProjectListParams {
  return {
    page: 1,
    per_page: RECENT_PROJECTS_PER_PAGE,
    order_params: 'updated_desc',
    only_namespace: workspaceName,
  };
}

export const FETCH_PROJECTS_FALLBACK = 'Failed to fetch list of projects';
export const NO_QGIS_PROJECT = 'Failed to find a QGIS project file';
export const CONFLICTING_FILE = 'Conflicting file in project';

/** Versions column: the version text without its first character ('v3' → '3'). */
export function versionColumn(version: string): string {
  return version.slice(1);
}

/** Size column: disk_usage in MB with 1 decimal. */
export function projectSize(diskUsage: number): string {
  return formatFileSize(diskUsage, 'MB', 1);
}

/** Collaborators column: the number of readers (the access lists are inclusive). */
export function collaboratorCount(access: Pick<ProjectAccess, 'readers'>): number {
  return access.readers.length;
}

/** Whether the 'Failed to find a QGIS project file' warning applies. */
export function lacksQgisProject(tags: readonly string[]): boolean {
  return !tags.includes('valid_qgis');
}

/** Projects list page size (spec 001 §9: 25 per page, page 1). */
export const PROJECTS_PER_PAGE = 25;
/** Search debounce of the projects list (spec 001 §4 and §9). */
export const PROJECT_SEARCH_DEBOUNCE_MS = 500;

export const SEARCH_PROJECTS_PLACEHOLDER = 'Search projects by name';
export const NO_MATCHING_PROJECTS = "We couldn't find any projects matching your search criteria.";
export const START_CREATING = 'Let’s start by creating a first one!';
/** Ours (issue 31): the empty list of one who may not create projects says who does. */
export const ADMINS_CREATE_PROJECTS =
  'Projects are created by the admins of your workspace: ask one to create a project or to share one with you.';
export const NAMESPACE_NOT_FOUND =
  'Namespace not found. Please check if address is written correctly';

/** A list sort: the field of the list options and its direction (spec 001 §3). */
export interface ProjectSort {
  sortBy: 'name' | 'updated' | 'meta.size' | 'owner';
  sortDesc: boolean;
}

/** The sort menu (spec 001 §9): name asc/desc, updated desc, meta.size desc. */
export const PROJECT_SORT_OPTIONS = [
  { value: 'name_asc', label: 'Sort by name A-Z' },
  { value: 'name_desc', label: 'Sort by name Z-A' },
  { value: 'updated_desc', label: 'Sort by last updated' },
  { value: 'size_desc', label: 'Sort by size' },
] as const;

export type ProjectSortKey = (typeof PROJECT_SORT_OPTIONS)[number]['value'];

export const DEFAULT_PROJECT_SORT: ProjectSortKey = 'updated_desc';

const SORTS: Record<ProjectSortKey, ProjectSort> = {
  name_asc: { sortBy: 'name', sortDesc: false },
  name_desc: { sortBy: 'name', sortDesc: true },
  updated_desc: { sortBy: 'updated', sortDesc: true },
  size_desc: { sortBy: 'meta.size', sortDesc: true },
};

export function projectSort(key: ProjectSortKey): ProjectSort {
  return SORTS[key];
}

/** Column names of the server for list fields (spec 001 §7: meta.size → disk_usage, owner → namespace). */
const ORDER_COLUMNS: Record<ProjectSort['sortBy'], string> = {
  name: 'name',
  updated: 'updated',
  'meta.size': 'disk_usage',
  owner: 'namespace',
};

/** `order_params` of a sort: the field plus `_asc` or `_desc`. */
export function orderParams(sort: ProjectSort): string {
  return `${ORDER_COLUMNS[sort.sortBy]}_${sort.sortDesc ? 'desc' : 'asc'}`;
}

/** Which list a page shows. */
export type ProjectListScope =
  | { kind: 'mine'; workspaceName: string }
  | { kind: 'public' }
  | { kind: 'namespace'; namespace: string };

export interface ProjectListState {
  page: number;
  search: string;
  sort: ProjectSortKey;
}

/** Query of GET /v1/project/paginated for a list page (spec 001 §7). */
export function projectListParams(
  scope: ProjectListScope,
  { page, search, sort }: ProjectListState,
): ProjectListParams {
  const params: ProjectListParams = {
    page,
    per_page: PROJECTS_PER_PAGE,
    order_params: orderParams(projectSort(sort)),
  };
  const name = search.trim();
  if (name) params.name = name;
  if (scope.kind === 'mine') {
    params.only_namespace = scope.workspaceName;
    params.public = false;
  } else if (scope.kind === 'public') {
    params.only_public = true;
  } else {
    params.only_namespace = scope.namespace;
  }
  return params;
}

/** Spec 001 §5: creating projects needs the workspace admin role and an email address. */
export function canCreateProject(
  workspaceRoleIsAdmin: boolean,
  email: string | null | undefined,
): boolean {
  return workspaceRoleIsAdmin && Boolean(email && email.trim());
}
