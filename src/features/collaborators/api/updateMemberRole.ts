/**
 * PATCH /app/project/{id}/access {user_id, role}: sets a member's project role; `none` removes
 * the direct role (spec 001 §6 "Removing a user's access sets the role to none").
 */
import type { AccessChangeBody, MemberList } from '@contract/collaborators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import type { ProjectRoleName } from '@/lib/permissions';
import { updateAccessForUserFallback, type ProjectMember } from '../model/collaborators';
import { projectAccessQueryKey } from './projectAccess';

export interface UpdateMemberRoleArgs {
  projectId: string;
  member: Pick<ProjectMember, 'id' | 'username'>;
  role: ProjectRoleName | 'none';
}

export async function updateMemberRole({
  projectId,
  member,
  role,
}: UpdateMemberRoleArgs): Promise<MemberList> {
  return api.patch<MemberList>(
    `/app/project/${encodeURIComponent(projectId)}/access`,
    { user_id: member.id, role } satisfies AccessChangeBody,
    { fallbackMessage: updateAccessForUserFallback(member.username) },
  );
}

export function useUpdateMemberRoleMutation(onChanged?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['collaborators', 'role'],
    mutationFn: updateMemberRole,
    onSuccess: (members, { projectId }) => {
      queryClient.setQueryData(projectAccessQueryKey(projectId), members);
      onChanged?.();
    },
  });
}
