/**
 * A workspace's members and invitations: the reference's v2 calls the desktop plugin's library
 * makes (client-compat §8), which the web app's members screen uses too, and the invitation
 * link's own calls (/app/invitations/{token}).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, WorkspaceRoleSchema } from './common';

/** One member of a workspace with their workspace role. */
export const WorkspaceMemberSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: NullableString(),
  workspace_role: WorkspaceRoleSchema,
  /**
   * Present (true) when the role comes from the server's GLOBAL_* setting (global workspace),
   * not a membership: it cannot be removed; setting a role makes it a membership (an addition
   * to the reference's shape).
   */
  global: Type.Optional(Type.Literal(true)),
});
export type WorkspaceMember = Static<typeof WorkspaceMemberSchema>;

/** GET /v2/workspaces/{id}/members. */
export const WorkspaceMemberListSchema = Type.Array(WorkspaceMemberSchema);
export type WorkspaceMemberList = Static<typeof WorkspaceMemberListSchema>;

export const WorkspaceMemberParamsSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
});
export type WorkspaceMemberParams = Static<typeof WorkspaceMemberParamsSchema>;

/** PATCH /v2/workspaces/{id}/members/{user_id}. */
export const WorkspaceMemberUpdateSchema = Type.Object({
  workspace_role: Type.Optional(WorkspaceRoleSchema),
  /** Also removes the member's own roles in the workspace's projects. */
  reset_projects_roles: Type.Optional(Type.Boolean()),
});
export type WorkspaceMemberUpdate = Static<typeof WorkspaceMemberUpdateSchema>;

/** A pending invitation (its link's token is only in the mail). */
export const WorkspaceInvitationSchema = Type.Object({
  id: Type.Integer(),
  workspace_id: Type.Integer(),
  email: Type.String(),
  role: WorkspaceRoleSchema,
  created_at: Type.String(),
  expires_at: Type.String(),
});
export type WorkspaceInvitation = Static<typeof WorkspaceInvitationSchema>;

export const WorkspaceInvitationListSchema = Type.Array(WorkspaceInvitationSchema);
export type WorkspaceInvitationList = Static<typeof WorkspaceInvitationListSchema>;

/** POST /v2/workspaces/{id}/invitations. */
export const CreateInvitationSchema = Type.Object({
  email: Type.String({ maxLength: 120 }),
  role: WorkspaceRoleSchema,
});
export type CreateInvitation = Static<typeof CreateInvitationSchema>;

export const InvitationParamsSchema = Type.Object({
  id: Type.String(),
  invitation_id: Type.String(),
});
export type InvitationParams = Static<typeof InvitationParamsSchema>;

export const InvitationTokenParamsSchema = Type.Object({
  token: Type.String({ maxLength: 200 }),
});
export type InvitationTokenParams = Static<typeof InvitationTokenParamsSchema>;

/** GET /app/invitations/{token}: what the link offers. */
export const InvitationOfferSchema = Type.Object({
  workspace: Type.String(),
  workspace_id: Type.Integer(),
  email: Type.String(),
  role: WorkspaceRoleSchema,
  expires_at: Type.String(),
  /** An account with the invited email exists (sign in), or not (register from the link). */
  account_exists: Type.Boolean(),
});
export type InvitationOffer = Static<typeof InvitationOfferSchema>;

/** POST /v2/users: a workspace admin creates an account that joins the workspace. */
export const CreateMemberAccountSchema = Type.Object({
  email: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 200 }),
  workspace_id: Type.Integer(),
  role: WorkspaceRoleSchema,
  /** Accepted; Waymark sends no account mail (the admin passes the password on). */
  notify_user: Type.Optional(Type.Boolean()),
  username: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreateMemberAccount = Static<typeof CreateMemberAccountSchema>;

/** POST /app/invitations/{token}/register: an account for the invited email, from the link. */
export const InvitationRegisterSchema = Type.Object({
  username: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 200 }),
});
export type InvitationRegister = Static<typeof InvitationRegisterSchema>;

/** One item of the profile's `invitations` (api-reference A.3). */
export const OwnInvitationSchema = Type.Object({
  uuid: Type.String(),
  workspace: Type.String(),
  role: WorkspaceRoleSchema,
});
export type OwnInvitation = Static<typeof OwnInvitationSchema>;

/** POST /app/user/invitations/{uuid}/accept, DELETE /app/user/invitations/{uuid}. */
export const OwnInvitationParamsSchema = Type.Object({
  uuid: Type.String({ maxLength: 100 }),
});
export type OwnInvitationParams = Static<typeof OwnInvitationParamsSchema>;
