/** The signed-in user's own profile (and its legacy form, for old desktop clients). */
import type { AppContext } from '../context';
import type { User } from '../db/schema';
import { isoZ } from '../lib/time';
import { listOwnInvitations } from './workspace-members';
import { listUserWorkspaces } from './workspaces';
import { assertSignedIn } from './permissions';
import type { LegacyUserInfo, Profile } from '../schemas/users';

/** An account as services give it to routes (a row of the users table). */
export type { User };

/** "first last", trimmed ("" when both are empty). */
export function displayName(user: Pick<User, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName]
    .filter((part): part is string => !!part)
    .join(' ')
    .trim();
}

export async function getOwnProfile(ctx: AppContext, user: User | null): Promise<Profile> {
  assertSignedIn(user);
  const workspaces = await listUserWorkspaces(ctx, user);
  const preferred =
    workspaces.find((w) => w.id === user.preferredWorkspaceId)?.id ?? workspaces[0]?.id ?? null;
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    verified_email: user.verifiedEmail,
    pending_email: user.pendingEmail,
    first_name: user.firstName,
    last_name: user.lastName,
    name: displayName(user),
    receive_notifications: user.receiveNotifications,
    registration_date: isoZ(user.registrationDate),
    last_signed_in: isoZ(user.lastSignedIn),
    can_edit_profile: user.passwordHash !== null && user.active,
    workspaces: workspaces.map(({ id, name, role }) => ({ id, name, role })),
    preferred_workspace: preferred,
    invitations: await listOwnInvitations(ctx, user),
  };
}

/**
 * `GET /v1/user/{username}` of old servers: the username in the path is ignored (as the
 * reference does); storage figures are those of the user's preferred workspace (else the
 * first they see), and `organisations` maps every workspace they see to their role.
 */
export async function getLegacyUserInfo(
  ctx: AppContext,
  user: User | null,
): Promise<LegacyUserInfo> {
  assertSignedIn(user);
  const workspaces = await listUserWorkspaces(ctx, user);
  const main = workspaces.find((w) => w.id === user.preferredWorkspaceId) ?? workspaces[0];
  return {
    username: user.username,
    email: user.email,
    disk_usage: main?.disk_usage ?? 0,
    storage: main?.storage ?? 0,
    storage_limit: main?.storage ?? 0,
    organisations: Object.fromEntries(workspaces.map((w) => [w.name, w.role])),
  };
}
