/** The signed-in user's own profile. */
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
