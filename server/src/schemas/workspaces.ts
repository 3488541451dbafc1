/** Workspaces (api-reference A.4). */
import { Type, type Static } from '@sinclair/typebox';
import { WorkspaceRoleSchema } from './common';

/** One workspace of the signed-in user, with its storage figures. */
export const WorkspaceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  storage: Type.Integer(),
  disk_usage: Type.Integer(),
  project_count: Type.Integer(),
  role: WorkspaceRoleSchema,
});
export type Workspace = Static<typeof WorkspaceSchema>;

/** GET /v1/workspaces. */
export const WorkspaceListSchema = Type.Array(WorkspaceSchema);
export type WorkspaceList = Static<typeof WorkspaceListSchema>;

/** POST /v1/workspace. */
export const CreateWorkspaceSchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
});
export type CreateWorkspace = Static<typeof CreateWorkspaceSchema>;
