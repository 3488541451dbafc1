import { ActionIcon, Indicator, Menu } from '@mantine/core';
import { IconCheck, IconMail, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '@/api';
import { notifyError } from '@/lib/notify';
import {
  ACCEPT_FALLBACK,
  DECLINE_FALLBACK,
  acceptOwnInvitation,
  declineOwnInvitation,
  type InvitationOffer,
} from '../api/invitation';
import type { OwnInvitation } from '@contract/workspace-members';
import { WORKSPACE_ROLE_LABELS } from '../model/members';

export interface InvitationsMenuProps {
  /** The signed-in user's pending invitations: the icon shows while there are any. */
  invitations: readonly OwnInvitation[];
  /** Called once an invitation is accepted (the user is a member now). */
  onAccepted: (offer: InvitationOffer) => void | Promise<void>;
  /** Called once an invitation is declined (the profile's list changed). */
  onDeclined: () => void | Promise<void>;
}

export const invitationsLabel = (count: number) =>
  count === 1 ? 'Invitations: 1 pending' : `Invitations: ${count} pending`;

/**
 * The header's invitations icon (spec 000 §2 "an invitations icon slot"): a badge with the
 * number of pending workspace invitations, and a menu to join or decline each one.
 */
export function InvitationsMenu({ invitations, onAccepted, onDeclined }: InvitationsMenuProps) {
  const accept = useMutation({
    mutationFn: acceptOwnInvitation,
    onSuccess: (offer) => onAccepted(offer),
    onError: (error) => notifyError(errorMessage(error, ACCEPT_FALLBACK)),
  });
  const decline = useMutation({
    mutationFn: declineOwnInvitation,
    onSuccess: () => onDeclined(),
    onError: (error) => notifyError(errorMessage(error, DECLINE_FALLBACK)),
  });
  if (invitations.length === 0) return null;

  // The badge wraps the whole menu: the menu's target is the button itself, so its aria
  // attributes sit on a button (not on the badge's box).
  return (
    <Indicator label={invitations.length} size={16} offset={6} color="red">
      <Menu position="bottom-end" withinPortal shadow="md" width={280}>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={invitationsLabel(invitations.length)}
          >
            <IconMail size={22} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {invitations.map((invitation, index) => (
            <div key={invitation.uuid}>
              {index > 0 && <Menu.Divider />}
              <Menu.Label>
                {invitation.workspace} invites you as{' '}
                {WORKSPACE_ROLE_LABELS[invitation.role].toLowerCase()}
              </Menu.Label>
              <Menu.Item
                leftSection={<IconCheck size={18} />}
                disabled={accept.isPending || decline.isPending}
                onClick={() => accept.mutate(invitation.uuid)}
              >
                Join {invitation.workspace}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconX size={18} />}
                disabled={accept.isPending || decline.isPending}
                onClick={() => decline.mutate(invitation.uuid)}
              >
                Decline {invitation.workspace}
              </Menu.Item>
            </div>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Indicator>
  );
}
