/** Workspace roles (spec 000 §6); the rules live in the one permission module. */
export {
  WORKSPACE_ROLES,
  hasWorkspaceRole,
  isWorkspaceAdmin,
  workspaceRoleRank,
  type WorkspaceRole,
} from '@/lib/permissions';
