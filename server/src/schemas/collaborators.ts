/**
 * Project access one user at a time (GET/PATCH /app/project/{id}/access, the reference's v2
 * collaborators) and the share dialog's user search (GET /app/auth/user/search).
 */
import { Type, type Static } from '@sinclair/typebox';
import { RowIdSchema } from './limits';
import { NullableString, ProjectRoleSchema, StringEnum, WorkspaceRoleSchema } from './common';

/** A member of a project with their workspace and project roles. */
export const MemberSchema = Type.Object({
  id: Type.Integer(),
  type: Type.Literal('member'),
  email: NullableString(),
  username: Type.String(),
  name: Type.String(),
  workspace_role: WorkspaceRoleSchema,
  project_role: Type.Union([ProjectRoleSchema, Type.Null()]),
  role: ProjectRoleSchema,
  project_permission: ProjectRoleSchema,
  roles: Type.Array(ProjectRoleSchema),
});
export type Member = Static<typeof MemberSchema>;

export const MemberListSchema = Type.Array(MemberSchema);
export type MemberList = Static<typeof MemberListSchema>;

/** Roles the v2 collaborator calls take (`editor` is the reference's writer). */
export const CollaboratorRoleSchema = StringEnum(['owner', 'writer', 'editor', 'reader']);
export type CollaboratorRole = Static<typeof CollaboratorRoleSchema>;

export const CollaboratorParamsSchema = Type.Object({ id: Type.String(), user_id: Type.String() });
export type CollaboratorParams = Static<typeof CollaboratorParamsSchema>;

/** Body of PATCH /app/project/{id}/access: one user's role (`none` removes), or the flag. */
export const AccessChangeBodySchema = Type.Object({
  user_id: Type.Optional(RowIdSchema),
  role: Type.Optional(StringEnum(['owner', 'writer', 'reader', 'none'])),
  public: Type.Optional(Type.Boolean()),
});
export type AccessChangeBody = Static<typeof AccessChangeBodySchema>;

/** Body of POST /v2/projects/{id}/collaborators. */
export const AddCollaboratorBodySchema = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 256 }),
  role: CollaboratorRoleSchema,
});
export type AddCollaboratorBody = Static<typeof AddCollaboratorBodySchema>;

/** Body of PATCH /v2/projects/{id}/collaborators/{user_id}. */
export const CollaboratorRoleBodySchema = Type.Object({ role: CollaboratorRoleSchema });
export type CollaboratorRoleBody = Static<typeof CollaboratorRoleBodySchema>;

/** Query of GET /app/auth/user/search. */
export const UserSearchQuerySchema = Type.Object({
  namespace: Type.String(),
  id: Type.Optional(Type.String()),
  names: Type.Optional(Type.String()),
  like: Type.Optional(Type.String({ maxLength: 256 })),
});
export type UserSearchQuery = Static<typeof UserSearchQuerySchema>;

export const UserSearchResultSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: NullableString(),
  name: Type.String(),
  profile: Type.Object({ first_name: NullableString(), last_name: NullableString() }),
});
export type UserSearchResult = Static<typeof UserSearchResultSchema>;

export const UserSearchResultListSchema = Type.Array(UserSearchResultSchema);
export type UserSearchResultList = Static<typeof UserSearchResultListSchema>;
