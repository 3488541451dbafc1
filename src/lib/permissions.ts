/**
 * The permission rules of the client, in one place (spec 000 §6, spec 001 §5 and §6). They
 * mirror the server's (server/src/services/permissions): a control shows when the server would
 * accept what it does, and hides when the server would refuse it.
 *
 * - Project roles, ranked: none 0, reader 1, writer 2, owner 3 (the reference's editor counts
 *   as a writer, as on our server). The server sends the viewer's effective role (`role`) and
 *   `permissions` {upload, update, delete} with every project: superusers and workspace
 *   admins are owners there, workspace writers writers, workspace readers and visitors of a
 *   public project readers.
 * - Workspace roles, ranked: guest 0, reader 1, writer 2, admin 3, owner 4; superusers are
 *   owners of every workspace.
 * - Global roles (global_read, global_write, global_admin) come from the instance
 *   configuration; while one is set, sharing and removing collaborators are not offered.
 * The roles and their ranks are declared once, in the contract (`@contract/roles`).
 */
import {
  PROJECT_ROLES,
  WORKSPACE_ROLES,
  projectRoleRank as contractProjectRank,
  workspaceRoleRank,
  type ProjectRole,
  type WorkspaceRole,
} from '@contract/roles';

export { PROJECT_ROLES, WORKSPACE_ROLES, workspaceRoleRank, type WorkspaceRole };
export type ProjectRoleName = ProjectRole;

/** Rank of a project role: none 0, reader 1, writer 2 (the reference's editor too), owner 3. */
export function projectRoleRank(role: string | null | undefined): number {
  return contractProjectRank(role === 'editor' ? 'writer' : role);
}

export function hasProjectRole(role: string | null | undefined, atLeast: ProjectRoleName): boolean {
  return projectRoleRank(role) >= projectRoleRank(atLeast);
}

/** Global workspace roles, ranked (spec 000 §6): guest 0, reader 1, writer 2, admin 3, owner 4. */
export function hasWorkspaceRole(role: string | null | undefined, atLeast: WorkspaceRole): boolean {
  return workspaceRoleRank(role) >= workspaceRoleRank(atLeast);
}

/** The role a user has in a workspace: superusers own every workspace. */
export function effectiveWorkspaceRole(
  role: string | null | undefined,
  superuser = false,
): string | null {
  return superuser ? 'owner' : (role ?? null);
}

/**
 * Global workspace admins (admin or owner) create and clone projects, see the workspace's
 * access requests (dashboard and collaborators tab) and may accept them (spec 000 §6).
 */
export function isWorkspaceAdmin(role: string | null | undefined): boolean {
  return hasWorkspaceRole(role, 'admin');
}

export type GlobalRole = 'global_read' | 'global_write' | 'global_admin';

/** The instance's global role from /config, the highest one set; undefined when none is. */
export function globalRoleOf(
  config: { global_read?: boolean; global_write?: boolean; global_admin?: boolean } | undefined,
): GlobalRole | undefined {
  if (config?.global_admin) return 'global_admin';
  if (config?.global_write) return 'global_write';
  if (config?.global_read) return 'global_read';
  return undefined;
}

/** The project role a global role gives everybody. */
const GLOBAL_ROLE_PROJECT_ROLE: Record<GlobalRole, ProjectRoleName> = {
  global_read: 'reader',
  global_write: 'writer',
  global_admin: 'owner',
};

/** What a project answers about the viewer. */
export interface ProjectAccessFacts {
  /** The viewer's effective role; null without access. */
  role?: string | null;
  permissions?: { upload?: boolean; update?: boolean; delete?: boolean };
  workspace_id?: number;
}

/** Owner check: role at least owner (spec 001 §6). */
export function isProjectOwner(project: Pick<ProjectAccessFacts, 'role'> | undefined): boolean {
  return hasProjectRole(project?.role, 'owner');
}

/** Upload area, 'Delete file' (spec 001 §6: project permission upload). */
export function canUpload(project: ProjectAccessFacts | undefined): boolean {
  return project?.permissions?.upload === true;
}

/** Project deletion (spec 001 §6: project permission delete). */
export function canDeleteProject(project: ProjectAccessFacts | undefined): boolean {
  return project?.permissions?.delete === true;
}

function inWorkspace(
  project: Pick<ProjectAccessFacts, 'workspace_id'>,
  workspace: { id: number } | null | undefined,
): boolean {
  return workspace != null && project.workspace_id === workspace.id;
}

/**
 * Collaborators and Settings tabs (spec 001 §6): the project owner, only when the project
 * belongs to the current workspace.
 */
export function canManageProject(
  project: ProjectAccessFacts | undefined,
  workspace: { id: number } | null | undefined,
): boolean {
  return project !== undefined && isProjectOwner(project) && inWorkspace(project, workspace);
}

/**
 * Share and collaborator removal (spec 001 §6): a project manager, and only while no global
 * role is set.
 */
export function canShareProject(
  project: ProjectAccessFacts | undefined,
  workspace: { id: number } | null | undefined,
  globalRole: GlobalRole | undefined,
): boolean {
  return globalRole === undefined && canManageProject(project, workspace);
}

/** Leave project (spec 001 §5): a project of the current workspace, current role guest. */
export function canLeaveProject(
  project: Pick<ProjectAccessFacts, 'workspace_id'>,
  workspace: { id: number; role: string } | null | undefined,
): boolean {
  return inWorkspace(project, workspace) && workspace?.role === 'guest';
}

/** One row of the members table, as far as the rules need it. */
export interface MemberFacts {
  id: number;
  /** Direct project role; null when the access comes from the workspace only. */
  project_role: string | null;
}

/**
 * The remove button of a member (spec 001 §2): never on the viewer's own row, only while no
 * global role is set, and only for a direct role (removing sets it to none; without one the
 * server would change nothing).
 */
export function canRemoveMember(
  member: MemberFacts,
  viewerId: number | undefined,
  globalRole: GlobalRole | undefined,
): boolean {
  return member.id !== viewerId && globalRole === undefined && member.project_role !== null;
}

/** The role select of a member is disabled on the viewer's own row (spec 001 §2). */
export function canChangeMemberRole(member: MemberFacts, viewerId: number | undefined): boolean {
  return member.id !== viewerId;
}

/**
 * Whether a role option may be assigned (spec 001 §2, §6): never above the viewer's own project
 * role, and, while a global role is set, never above what that global role gives.
 */
export function canAssignProjectRole(
  option: ProjectRoleName,
  viewerRole: string | null | undefined,
  globalRole: GlobalRole | undefined,
): boolean {
  const rank = projectRoleRank(option);
  if (rank > projectRoleRank(viewerRole)) return false;
  return globalRole === undefined || rank <= projectRoleRank(GLOBAL_ROLE_PROJECT_ROLE[globalRole]);
}

/** Listing a workspace's incoming access requests needs workspace admin (api-reference A.7). */
export function canListWorkspaceAccessRequests(workspaceRole: string | null | undefined): boolean {
  return isWorkspaceAdmin(workspaceRole);
}

/**
 * Accepting an access request (spec 001 §5): project role at least owner and a request that
 * has not expired. On the workspace lists the viewer is a workspace admin, hence an owner of
 * every project of the workspace.
 */
export function canAcceptAccessRequest(
  projectRole: string | null | undefined,
  expired: boolean,
): boolean {
  return hasProjectRole(projectRole, 'owner') && !expired;
}

/** Cancelling (declining) an access request: its requester, or the project owner (spec 001 §5). */
export function canCancelAccessRequest(
  projectRole: string | null | undefined,
  isRequester: boolean,
): boolean {
  return isRequester || hasProjectRole(projectRole, 'owner');
}
