/**
 * The permission rules, in one place (api-reference §3, with the specification's roles).
 *
 * Workspace roles, ranked: guest < reader < writer < admin < owner. A user's role in a
 * workspace: superuser → owner; an explicit membership → its role; otherwise, in the global
 * workspace only, GLOBAL_ADMIN → admin, GLOBAL_WRITE → writer, GLOBAL_READ → reader; else
 * guest. Inactive users and anonymous visitors have no workspace role.
 *
 * Project roles, ranked: reader < writer < owner (spec 001 §6; the reference's editor role
 * does not exist here, so its "edit" check is the writer check). For a project that is not
 * scheduled for deletion:
 * - read:   public, or direct role ≥ reader, or workspace role ≥ reader;
 * - upload: direct role ≥ writer, or workspace role ≥ writer;
 * - update and delete (owner's rights): direct role owner, or workspace role ≥ admin.
 * Only read via `public` is open to anonymous visitors. Superusers pass every check, also on
 * projects scheduled for deletion; nobody else gets anything on those.
 *
 * Every route's check goes through this folder (README.md): rules.ts (these pure rules),
 * project.ts (`projectFor`: a project, refused with the reference's 404 / 403), workspace.ts
 * (`workspaceFor`, `managedWorkspace`: a workspace and the caller's role in it), session.ts
 * (`assertSignedIn`: login required → 401), upload.ts (`uploadFor`: a running upload, its
 * own user's only).
 */
import type { Config } from '../../config';
import type { User } from '../../db/schema';
import {
  projectRoleRank,
  workspaceRoleRank,
  type ProjectRole,
  type WorkspaceRole,
} from '../../schemas/roles';

export type GlobalRoleConfig = Pick<
  Config,
  'globalWorkspace' | 'globalAdmin' | 'globalWrite' | 'globalRead'
>;

/** Who is asking: a user (possibly inactive) or null for an anonymous visitor. */
export type Actor = Pick<User, 'id' | 'isAdmin' | 'active'> | null;

/** The ranks of the roles, declared with them in the contract. */
export { projectRoleRank, workspaceRoleRank };

export function isGlobalWorkspace(config: Pick<Config, 'globalWorkspace'>, name: string): boolean {
  return name.toLowerCase() === config.globalWorkspace.toLowerCase();
}

export function workspaceRole(
  config: GlobalRoleConfig,
  user: Pick<User, 'isAdmin'>,
  workspaceName: string,
  memberRole: WorkspaceRole | null,
): WorkspaceRole {
  if (user.isAdmin) return 'owner';
  if (memberRole) return memberRole;
  if (isGlobalWorkspace(config, workspaceName)) {
    if (config.globalAdmin) return 'admin';
    if (config.globalWrite) return 'writer';
    if (config.globalRead) return 'reader';
  }
  return 'guest';
}

/** The actor's workspace role, or null for anonymous visitors and inactive users. */
export function actorWorkspaceRole(
  config: GlobalRoleConfig,
  actor: Actor,
  workspaceName: string,
  memberRole: WorkspaceRole | null,
): WorkspaceRole | null {
  if (!actor || !actor.active) return null;
  return workspaceRole(config, actor, workspaceName, memberRole);
}

export function hasWorkspaceRole(role: WorkspaceRole | null, minimum: WorkspaceRole): boolean {
  return role !== null && workspaceRoleRank(role) >= workspaceRoleRank(minimum);
}

/** Reads every project of the workspace (lists it, opens it). */
export function canReadWorkspace(role: WorkspaceRole | null): boolean {
  return hasWorkspaceRole(role, 'reader');
}

/** Lists the workspace's incoming access requests. */
export function canAdministerWorkspace(role: WorkspaceRole | null): boolean {
  return hasWorkspaceRole(role, 'admin');
}

/** Creates projects in the workspace (also as a clone target): workspace admin. */
export function canCreateProject(role: WorkspaceRole | null): boolean {
  return canAdministerWorkspace(role);
}

/**
 * Belongs to the workspace (may search its users): superusers everywhere, everybody active
 * in the global workspace, a membership row elsewhere.
 */
export function isWorkspaceMember(
  config: Pick<Config, 'globalWorkspace'>,
  actor: Actor,
  workspaceName: string,
  memberRole: WorkspaceRole | null,
): boolean {
  if (!actor?.active) return false;
  return actor.isAdmin || memberRole !== null || isGlobalWorkspace(config, workspaceName);
}

/** An active superuser. */
export function isSuperuser(actor: Actor): boolean {
  return !!actor?.active && actor.isAdmin;
}

export interface ProjectFacts {
  public: boolean;
  /** Scheduled for deletion. */
  removed: boolean;
  /** The actor's own role on the project (project_members), if any. */
  directRole: ProjectRole | null;
  /** The actor's role in the project's workspace (actorWorkspaceRole). */
  workspaceRole: WorkspaceRole | null;
}

export interface ProjectPermissions {
  read: boolean;
  upload: boolean;
  update: boolean;
  delete: boolean;
}

export function projectPermissions(actor: Actor, facts: ProjectFacts): ProjectPermissions {
  if (actor?.active && actor.isAdmin) {
    return { read: true, upload: true, update: true, delete: true };
  }
  const member = !!actor?.active && !facts.removed;
  const direct = member ? projectRoleRank(facts.directRole) : 0;
  const ws = member ? facts.workspaceRole : null;
  const owner = member && (direct >= projectRoleRank('owner') || hasWorkspaceRole(ws, 'admin'));
  const upload = member && (direct >= projectRoleRank('writer') || hasWorkspaceRole(ws, 'writer'));
  const read =
    (facts.public && !facts.removed) ||
    (member && (direct >= projectRoleRank('reader') || hasWorkspaceRole(ws, 'reader')));
  return { read: read || upload || owner, upload: upload || owner, update: owner, delete: owner };
}

/** Opens the project, its files, versions and member list. */
export function canRead(permissions: ProjectPermissions): boolean {
  return permissions.read;
}

/** Pushes new versions (writer). */
export function canWrite(permissions: ProjectPermissions): boolean {
  return permissions.upload;
}

/**
 * Owner's rights: shares (members, public flag), answers access requests, deletes the
 * project.
 */
export function canOwn(permissions: ProjectPermissions): boolean {
  return permissions.update;
}

/** Cancels (the requester) or declines (owner's rights) an access request. */
export function canRemoveAccessRequest(
  actor: Actor,
  permissions: ProjectPermissions,
  requestedBy: number,
): boolean {
  return !!actor?.active && (actor.id === requestedBy || canOwn(permissions));
}

/** Sends chunks to, finishes, cancels or asks about a running upload: its own user only. */
export function canUseUpload(actor: Actor, uploadUserId: number | null): boolean {
  return !!actor?.active && actor.id === uploadUserId;
}

/** owner / writer / reader / null, from the permissions (the `role` of project details). */
export function effectiveProjectRole(permissions: ProjectPermissions): ProjectRole | null {
  if (permissions.update) return 'owner';
  if (permissions.upload) return 'writer';
  if (permissions.read) return 'reader';
  return null;
}

/**
 * Which projects a project list may show (reference §6.1), as data for the SQL layer:
 * - all: everything, removed ones included (superusers asking with as_admin);
 * - public: public projects not scheduled for deletion (anonymous, inactive, only_public);
 * - member: projects not scheduled for deletion in the readable workspaces, or where the user
 *   has a direct role, plus public ones when `includePublic`.
 */
export type ProjectListScope =
  | { kind: 'all' }
  | { kind: 'public' }
  | { kind: 'member'; userId: number; readableWorkspaceIds: number[]; includePublic: boolean };

export interface WorkspaceRoleRow {
  id: number;
  name: string;
  active: boolean;
  memberRole: WorkspaceRole | null;
}

/** The actor's role in each workspace (null role: no access at all). */
export function workspaceRolesById(
  config: GlobalRoleConfig,
  actor: Actor,
  rows: WorkspaceRoleRow[],
): Map<number, WorkspaceRole | null> {
  return new Map(
    rows.map((row) => [
      row.id,
      row.active || actor?.isAdmin
        ? actorWorkspaceRole(config, actor, row.name, row.memberRole)
        : null,
    ]),
  );
}

/** Ids of the workspaces whose projects the actor may all read. */
export function readableWorkspaceIds(roles: Map<number, WorkspaceRole | null>): number[] {
  return [...roles].filter(([, role]) => canReadWorkspace(role)).map(([id]) => id);
}
