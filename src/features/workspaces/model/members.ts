/** Texts and rules of the workspace members screen (the server enforces the same rules). */
import type { WorkspaceRole } from '@/lib/permissions';

export { WORKSPACE_ROLES } from '@/lib/permissions';

export const WORKSPACE_ROLE_LABELS: Record<WorkspaceRole, string> = {
  guest: 'Guest',
  reader: 'Reader',
  writer: 'Writer',
  admin: 'Admin',
  owner: 'Owner',
};

/** Only an owner grants, changes or removes the owner role. */
export function canAssignWorkspaceRole(
  viewerRole: string | null | undefined,
  role: WorkspaceRole,
): boolean {
  return role !== 'owner' || viewerRole === 'owner';
}

/** Whether the viewer may change or remove a member who holds `memberRole`. */
export function canManageMember(
  viewerRole: string | null | undefined,
  memberRole: string,
): boolean {
  return memberRole !== 'owner' || viewerRole === 'owner';
}

export const roleChangedText = (username: string, role: WorkspaceRole) =>
  `${username} is now ${WORKSPACE_ROLE_LABELS[role].toLowerCase()}`;
export const removedText = (username: string, workspace: string) =>
  `${username} was removed from ${workspace}`;
export const invitationSentText = (email: string) => `Invitation sent to ${email}`;
export const INVITATION_REVOKED = 'Invitation revoked';
export const NO_INVITATIONS = 'No pending invitations';

/** After the username of a member whose role comes from the server's GLOBAL_* setting. */
export const GLOBAL_ROLE_NOTE = '(global role)';
