/**
 * Who is looking at a page: signed in or not, the profile, the current workspace and what the
 * projects screens allow (spec 001 §5 and §6). Routes read it and pass plain values to features.
 */
import { useQuery } from '@tanstack/react-query';
import { initQueryOptions } from '@/features/auth/api/init';
import { profileQueryOptions } from '@/features/auth/api/profile';
import type { Profile } from '@contract/users';
import { canCreateProject } from '@/features/projects/model/projectList';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';
import { isWorkspaceAdmin } from '@/features/workspaces/model/roles';
import type { Workspace } from '@/features/workspaces/api/workspaces';

export interface Viewer {
  loggedIn: boolean;
  profile: Profile | null;
  workspace: Workspace | null;
  workspaces: Workspace[];
  /** Still learning who the user is or which workspace is current. */
  isLoading: boolean;
  /** Workspace admin with an email address: may create and clone projects. */
  canCreate: boolean;
}

export function useViewer(): Viewer {
  const session = useQuery(initQueryOptions);
  const loggedIn = session.data?.authenticated === true;
  const profile = useQuery({ ...profileQueryOptions, enabled: loggedIn });
  const user = loggedIn ? (profile.data ?? null) : null;
  const current = useCurrentWorkspace(user);
  const workspace = current.workspace;
  // Pending again on every new try while it has no data: once it has failed (offline and not
  // saved on this device) the page renders as it can instead of waiting for good.
  const profileLoading = profile.isPending && profile.errorUpdateCount === 0;
  return {
    loggedIn,
    profile: user,
    workspace,
    workspaces: current.workspaces,
    isLoading: session.isPending || (loggedIn && (profileLoading || current.isLoading)),
    canCreate: canCreateProject(isWorkspaceAdmin(workspace?.role), user?.email),
  };
}
