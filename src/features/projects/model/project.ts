/** One project as GET /v1/project/{namespace}/{name} returns it (api-reference A.5 ProjectDetail). */
import type { ProjectDetail as ProjectAnswer, ProjectFile as FileAnswer } from '@contract/projects';
import { isApiError } from '@/api';
import { isVersionedFile } from '@contract/protocol';

/**
 * A file as the web app lists it: the server's file (`@contract/projects`) with `mtime` ''
 * when the server does not know it (it sends null), as files the browser adds have no checksum.
 */
export type ProjectFile = Pick<FileAnswer, 'path' | 'size'> &
  Partial<Pick<FileAnswer, 'checksum'>> & { mtime: string };

/** The latest project (GET /v1/project/{namespace}/{name}), its files as the web app lists them. */
export type ProjectDetail = Omit<ProjectAnswer, 'files'> & { files: ProjectFile[] };

export const PROJECT_KEY = ['projects', 'detail'] as const;

export const LOAD_PROJECT_FALLBACK = 'Failed to load project data';
export const REQUEST_ACCESS_FALLBACK = 'Failed to request';
export const ACCESS_REQUESTED = 'Access has been requested';
export const CREATE_PROJECT_FALLBACK = 'Failed to create project.';
export const CLONE_PROJECT_FALLBACK = 'Failed to clone project';
export const REMOVE_PROJECT_FALLBACK = 'Failed to remove project';
export const SAVE_SETTINGS_FALLBACK = 'Failed to save project settings';
export const UNSUBSCRIBE_FALLBACK = 'Failed to unsubscribe from project';

/** Role checks come from the one permission module (spec 001 §6). */
export {
  canLeaveProject,
  canManageProject,
  isProjectOwner,
  projectRoleRank,
} from '@/lib/permissions';

export type ProjectFailure = 'forbidden' | 'not-found' | 'requested' | 'other';

/** The failure screen of a project load (spec 001 §2 "Fetch failure screens"). */
export function projectFailure(error: unknown): ProjectFailure {
  if (!isApiError(error)) return 'other';
  if (error.status === 403) return 'forbidden';
  if (error.status === 404) return 'not-found';
  if (error.status === 409) return 'requested';
  return 'other';
}

export const FAILURE_TEXTS = {
  forbidden: {
    title: 'This is a private project',
    text: "You don't have permissions to access this project.",
  },
  'not-found': { title: 'Project not found', text: 'Please check if address is written correctly' },
  requested: {
    title: "You don't have permission to access this project",
    text: 'You already requested access',
  },
} as const;

/** The tab of the project view a path shows (spec 001 §2). */
export type ProjectTab = 'files' | 'map' | 'history' | 'collaborators' | 'settings';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The router may hand the path over encoded ('a%20b') or decoded ('a b'): both are read. */
export function projectTabOf(pathname: string, namespace: string, projectName: string): ProjectTab {
  const [, root, ns, name, first] = pathname.split('/').map(decodeSegment);
  if (root !== 'projects' || ns !== namespace || name !== projectName) return 'files';
  if (first === 'map' || first === 'history' || first === 'collaborators' || first === 'settings')
    return first;
  // Comparing versions (issue 20) belongs to the history.
  if (first === 'compare') return 'history';
  return 'files';
}

/**
 * Tabs shown (spec 001 §2): anonymous only Files; History for logged-in; owners all. Map
 * (issue 19) for everyone who sees the project, when it holds a GeoPackage (`hasMap`).
 */
export function visibleTabs(loggedIn: boolean, owner: boolean, hasMap = false): ProjectTab[] {
  const map: ProjectTab[] = hasMap ? ['files', 'map'] : ['files'];
  if (!loggedIn) return map;
  return owner ? [...map, 'history', 'collaborators', 'settings'] : [...map, 'history'];
}

/** Whether the project's map can show something: it holds a GeoPackage or SQLite file (issue 19). */
export const hasGeoPackage = (files: readonly { path: string }[]): boolean =>
  files.some((file) => isVersionedFile(file.path));

/** Why the settings of a project did not open (others are sent to /projects, spec 001 §2). */
export const SETTINGS_OWNER_ONLY = "Only the project's owners can open its settings";
/** After 'Delete project'. */
export const projectDeleted = (path: string) => `Project ${path} was deleted`;
