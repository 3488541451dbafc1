/**
 * A workspace's members and pending invitations (GET/PATCH/DELETE /v2/workspaces/{id}/members,
 * GET/POST/DELETE /v2/workspaces/{id}/invitations): the calls the desktop plugin makes too.
 */
import type {
  CreateInvitation,
  WorkspaceInvitation,
  WorkspaceMember,
  WorkspaceMemberUpdate,
} from '@contract/workspace-members';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';

export type { WorkspaceInvitation, WorkspaceMember } from '@contract/workspace-members';

export const MEMBERS_FALLBACK = 'Failed to load workspace members';
export const INVITATIONS_FALLBACK = 'Failed to load invitations';

const base = (workspaceId: number) => `/v2/workspaces/${encodeURIComponent(workspaceId)}`;

export const membersQueryKey = (workspaceId: number) =>
  ['workspaces', 'members', workspaceId] as const;
export const invitationsQueryKey = (workspaceId: number) =>
  ['workspaces', 'invitations', workspaceId] as const;

export const membersQueryOptions = (workspaceId: number) =>
  queryOptions({
    queryKey: membersQueryKey(workspaceId),
    queryFn: ({ signal }) =>
      api.get<WorkspaceMember[]>(`${base(workspaceId)}/members`, {
        signal,
        fallbackMessage: MEMBERS_FALLBACK,
      }),
    staleTime: 10_000,
  });

export const invitationsQueryOptions = (workspaceId: number) =>
  queryOptions({
    queryKey: invitationsQueryKey(workspaceId),
    queryFn: ({ signal }) =>
      api.get<WorkspaceInvitation[]>(`${base(workspaceId)}/invitations`, {
        signal,
        fallbackMessage: INVITATIONS_FALLBACK,
      }),
    staleTime: 10_000,
  });

/** Role changes, removals, invitations and revocations of one workspace; each refreshes its list. */
export function useMemberMutations(workspaceId: number) {
  const queryClient = useQueryClient();
  const refresh = (key: readonly unknown[]) => () =>
    queryClient.invalidateQueries({ queryKey: key });
  const members = refresh(membersQueryKey(workspaceId));
  const invitations = refresh(invitationsQueryKey(workspaceId));
  return {
    changeRole: useMutation({
      mutationFn: ({
        member,
        role,
      }: {
        member: WorkspaceMember;
        role: WorkspaceMember['workspace_role'];
      }) =>
        api.patch<WorkspaceMember>(
          `${base(workspaceId)}/members/${member.id}`,
          { workspace_role: role } satisfies WorkspaceMemberUpdate,
          { fallbackMessage: `Failed to change the role of ${member.username}` },
        ),
      onSettled: members,
    }),
    remove: useMutation({
      mutationFn: (member: WorkspaceMember) =>
        api.delete(`${base(workspaceId)}/members/${member.id}`, {
          fallbackMessage: `Failed to remove ${member.username}`,
        }),
      onSettled: members,
    }),
    invite: useMutation({
      mutationFn: (body: CreateInvitation) =>
        api.post<WorkspaceInvitation>(`${base(workspaceId)}/invitations`, body, {
          fallbackMessage: 'Failed to send the invitation',
        }),
      onSuccess: invitations,
    }),
    revoke: useMutation({
      mutationFn: (invitation: WorkspaceInvitation) =>
        api.delete(`${base(workspaceId)}/invitations/${invitation.id}`, {
          fallbackMessage: 'Failed to revoke the invitation',
        }),
      onSettled: invitations,
    }),
  };
}
