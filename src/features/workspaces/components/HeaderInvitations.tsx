import { useQueryClient } from '@tanstack/react-query';
import { profileQueryOptions } from '@/features/auth';
import type { OwnInvitation } from '@contract/workspace-members';
import { useJoinWorkspace } from '../hooks/useJoinWorkspace';
import { InvitationsMenu } from './InvitationsMenu';

export interface HeaderInvitationsProps {
  invitations: readonly OwnInvitation[];
  /** Makes a workspace the current one (the shell's workspace memory). */
  setCurrentWorkspace: (id: number) => Promise<void>;
}

/**
 * The header's invitations menu with what joining and declining do. The shell loads this module
 * only while the user has pending invitations, so the first screens carry none of it (issue 8's
 * bundle budget; the auth feature's public face would bring the password field along).
 */
export function HeaderInvitations({ invitations, setCurrentWorkspace }: HeaderInvitationsProps) {
  const queryClient = useQueryClient();
  const joinWorkspace = useJoinWorkspace(setCurrentWorkspace);
  return (
    <InvitationsMenu
      invitations={invitations}
      onAccepted={joinWorkspace}
      onDeclined={() => queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey })}
    />
  );
}
