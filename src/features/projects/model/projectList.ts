/** Projects as the list endpoints return them (api-reference A.5 ProjectListItem; spec 001 §2). */
import { formatFileSize } from '../../../lib/fileSize';

export interface ProjectAccess {
  owners: number[];
  ownersnames?: string[];
  writers: number[];
  writersnames?: string[];
  editors?: number[];
  editorsnames?: string[];
  readers: number[];
  readersnames?: string[];
  public: boolean;
}

export interface ProjectListItem {
  id: string;
  name: string;
  namespace: string;
  version: string;
  created?: string;
  updated: string;
  creator?: number | null;
  disk_usage: number;
  tags: string[];
  has_conflict?: boolean;
  permissions?: { upload: boolean; update: boolean; delete: boolean };
  access: ProjectAccess;
}

export interface ProjectList {
  projects: ProjectListItem[];
  count: number;
}

/** Query of GET /v1/project/paginated (spec 001 §7). */
export interface ProjectListParams {
  page: number;
  per_page: number;
  /** `<field>_asc` or `<field>_desc`, comma-separated. */
  order_params?: string;
  name?: string;
  only_namespace?: string;
  namespace?: string;
  flag?: 'created' | 'shared';
  as_admin?: boolean;
  public?: boolean;
  only_public?: boolean;
}

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
export function versionNumber(version: string | null | undefined): string {
  return (version ?? '').slice(1);
}

/** Size column: disk_usage in MB with 1 decimal. */
export function projectSize(diskUsage: number | null | undefined): string {
  return formatFileSize(diskUsage ?? 0, 'MB', 1);
}

/** Collaborators column: the number of readers (the access lists are inclusive). */
export function collaboratorCount(access: Pick<ProjectAccess, 'readers'> | undefined): number {
  return access?.readers?.length ?? 0;
}

/** Whether the 'Failed to find a QGIS project file' warning applies. */
export function lacksQgisProject(tags: readonly string[] | undefined): boolean {
  return !(tags ?? []).includes('valid_qgis');
}

/** Reads a list answer leniently (missing fields become an empty list). */
export function toProjectList(data: unknown): ProjectList {
  const value = (data ?? {}) as Partial<ProjectList>;
  return {
    projects: Array.isArray(value.projects) ? value.projects : [],
    count: typeof value.count === 'number' ? value.count : 0,
  };
}
