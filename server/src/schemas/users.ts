/** The signed-in user: profile and the legacy user info (api-reference A.3). */
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, StringMap, WorkspaceRoleSchema } from './common';
import { OwnInvitationSchema } from './workspace-members';

/** GET /v1/user/profile. */
export const ProfileSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: NullableString(),
  verified_email: Type.Boolean(),
  /**
   * A new address waiting for its confirmation link (an addition to the reference): until it
   * is confirmed, `email` is the account's address for everything.
   */
  pending_email: NullableString(),
  first_name: NullableString(),
  last_name: NullableString(),
  name: Type.String(),
  receive_notifications: Type.Boolean(),
  registration_date: Type.String(),
  last_signed_in: NullableString(),
  can_edit_profile: Type.Boolean(),
  workspaces: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), role: WorkspaceRoleSchema }),
  ),
  preferred_workspace: NullableInteger(),
  invitations: Type.Array(OwnInvitationSchema),
});
export type Profile = Static<typeof ProfileSchema>;

/** GET /v1/user/{username} (old servers; the username is ignored). */
export const LegacyUserInfoSchema = Type.Object({
  username: Type.String(),
  email: NullableString(),
  disk_usage: Type.Integer(),
  storage: Type.Integer(),
  storage_limit: Type.Integer(),
  organisations: StringMap(WorkspaceRoleSchema),
});
export type LegacyUserInfo = Static<typeof LegacyUserInfoSchema>;

/** Path parameters of GET /v1/user/{username}. */
export const UsernameParamsSchema = Type.Object({ username: Type.String({ maxLength: 255 }) });
export type UsernameParams = Static<typeof UsernameParamsSchema>;
