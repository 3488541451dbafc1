/** The signed-in user's own profile (and its legacy form, for old desktop clients). */
import type { AppContext } from '../context';
import type { User, WorkspaceRole } from '../db/schema';
import { isoZ } from '../lib/time';
import { listUserWorkspaces } from './workspaces';
import { assertSignedIn } from './permissions';

export interface ProfileView {
  id: number;
  username: string;
  email: string | null;
  verified_email: boolean;
  first_name: string | null;
  last_name: string | null;
  name: string;
  receive_notifications: boolean;
  registration_date: string;
  last_signed_in: string | null;
  can_edit_profile: boolean;
  workspaces: { id: number; name: string; role: WorkspaceRole }[];
  preferred_workspace: number | null;
  invitations: { uuid: string; workspace: string; role: WorkspaceRole }[];
}

/** "first last", trimmed ("" when both are empty). */
export function displayName(user: Pick<User, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName]
    .filter((part): part is string => !!part)
    .join(' ')
    .trim();
}

export async function getOwnProfile(ctx: AppContext, user: User | null): Promise<ProfileView> {
  assertSignedIn(user);
  const workspaces = await listUserWorkspaces(ctx, user);
  const preferred =
    workspaces.find((w) => w.id === user.preferredWorkspaceId)?.id ?? workspaces[0]?.id ?? null;
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    verified_email: user.verifiedEmail,
    first_name: user.firstName,
    last_name: user.lastName,
    name: displayName(user),
    receive_notifications: user.receiveNotifications,
    registration_date: isoZ(user.registrationDate),
    last_signed_in: isoZ(user.lastSignedIn),
    can_edit_profile: user.passwordHash !== null && user.active,
    workspaces: workspaces.map(({ id, name, role }) => ({ id, name, role })),
    preferred_workspace: preferred,
    invitations: [],
  };
}

/** The legacy user info (`GET /v1/user/{username}`, api-reference A.3). */
export interface LegacyUserInfoView {
  username: string;
  email: string | null;
  disk_usage: number;
  storage: number;
  storage_limit: number;
  organisations: Record<string, WorkspaceRole>;
}

/**
 * `GET /v1/user/{username}` of old servers: the username in the path is ignored (as the
 * reference does); storage figures are those of the user's preferred workspace (else the
 * first they see), and `organisations` maps every workspace they see to their role.
 */
export async function getLegacyUserInfo(
  ctx: AppContext,
  user: User | null,
): Promise<LegacyUserInfoView> {
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
