/**
 * After an invitation is accepted (from its link or the header's list): the new workspace is
 * listed, becomes the current one, and the dashboard opens with 'You joined {workspace}'.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { profileQueryOptions } from '@/features/auth';
import { notifySuccess } from '@/lib/notify';
import type { InvitationOffer } from '../api/invitation';
import { workspacesQueryOptions } from '../api/workspaces';

export function useJoinWorkspace(
  setCurrentWorkspace: (id: number) => Promise<void>,
): (offer: InvitationOffer) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (offer) => {
    // The list must hold the new workspace before it is chosen (else the memory falls back).
    await queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey });
    await setCurrentWorkspace(offer.workspace_id);
    await queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey });
    notifySuccess(`You joined ${offer.workspace}`);
    await navigate({ to: '/dashboard' });
  };
}
