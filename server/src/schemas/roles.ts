/**
 * Roles and their ranks, declared once (spec 000 §6, spec 001 §6). Each list is ranked by its
 * order: a role outranks every role before it. Everything else derives from these lists: the
 * database enums (db/schema.ts), the wire enums (common.ts), the server's permission rules
 * (services/permissions/rules.ts) and the web app's (src/lib/permissions.ts). Plain constants,
 * no TypeBox: the web app imports them at run time.
 */

/** Workspace roles, ranked: guest 0, reader 1, writer 2, admin 3, owner 4. */
export const WORKSPACE_ROLES = ['guest', 'reader', 'writer', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** Project roles, ranked: reader 1, writer 2, owner 3 (no role 0). */
export const PROJECT_ROLES = ['reader', 'writer', 'owner'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** Rank of a workspace role (its place in WORKSPACE_ROLES); anything else ranks -1, below guest. */
export function workspaceRoleRank(role: string | null | undefined): number {
  return WORKSPACE_ROLES.indexOf(role as WorkspaceRole);
}

/** Rank of a project role: reader 1, writer 2, owner 3; none (or anything else) 0. */
export function projectRoleRank(role: string | null | undefined): number {
  return PROJECT_ROLES.indexOf(role as ProjectRole) + 1;
}
