/** Global workspace roles, ranked (spec 000 §6): guest 0, reader 1, writer 2, admin 3, owner 4. */
export const WORKSPACE_ROLE_RANK = {
  guest: 0,
  reader: 1,
  writer: 2,
  admin: 3,
  owner: 4,
} as const;

export type WorkspaceRole = keyof typeof WORKSPACE_ROLE_RANK;

/** Rank of a role; unknown roles rank below guest. */
export function workspaceRoleRank(role: string | null | undefined): number {
  return role && role in WORKSPACE_ROLE_RANK ? WORKSPACE_ROLE_RANK[role as WorkspaceRole] : -1;
}

export function hasWorkspaceRole(role: string | null | undefined, atLeast: WorkspaceRole): boolean {
  return workspaceRoleRank(role) >= WORKSPACE_ROLE_RANK[atLeast];
}

/**
 * Global workspace admins (admin or owner) create projects, see access requests on the
 * dashboard and the clone button (spec 000 §6).
 */
export function isWorkspaceAdmin(role: string | null | undefined): boolean {
  return hasWorkspaceRole(role, 'admin');
}
