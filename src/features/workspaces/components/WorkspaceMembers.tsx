import { ActionIcon, Button, Group, Table, Text, TextInput } from '@mantine/core';
import { IconMailForward, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '@/api';
import { AppDropdown } from '@/components/AppDropdown';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { MemberRow } from '@/components/MemberRow';
import { TitledSection } from '@/components/TitledSection';
import { notifyError, notifySuccess } from '@/lib/notify';
import type { WorkspaceRole } from '@/lib/permissions';
import { formatDate } from '@/lib/time';
import {
  INVITATIONS_FALLBACK,
  MEMBERS_FALLBACK,
  invitationsQueryOptions,
  membersQueryOptions,
  useMemberMutations,
  type WorkspaceMember,
} from '../api/members';
import {
  GLOBAL_ROLE_NOTE,
  INVITATION_REVOKED,
  NO_INVITATIONS,
  WORKSPACE_ROLES,
  WORKSPACE_ROLE_LABELS,
  canAssignWorkspaceRole,
  canManageMember,
  invitationSentText,
  removedText,
  roleChangedText,
} from '../model/members';

/** A table with its header row, scrolling sideways on narrow screens. */
function ListTable({ headers, children }: { headers: string[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export interface WorkspaceMembersProps {
  workspace: { id: number; name: string; role: string };
  /** The logged user. */
  viewerId: number | undefined;
}

/**
 * The members screen of a workspace, for its admins and owners: members with their roles (change,
 * remove after a confirmation), an invitation by email with a role, and pending invitations.
 */
export function WorkspaceMembers({ workspace, viewerId }: WorkspaceMembersProps) {
  const members = useQuery(membersQueryOptions(workspace.id));
  const invitations = useQuery(invitationsQueryOptions(workspace.id));
  const mutations = useMemberMutations(workspace.id);
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<WorkspaceRole>('reader');

  const roleOptions = WORKSPACE_ROLES.map((value) => ({
    value,
    label: WORKSPACE_ROLE_LABELS[value],
    disabled: !canAssignWorkspaceRole(workspace.role, value),
  }));

  const changeRole = (member: WorkspaceMember, role: WorkspaceRole) =>
    mutations.changeRole.mutate(
      { member, role },
      {
        onSuccess: () => notifySuccess(roleChangedText(member.username, role)),
        onError: (error) => notifyError(errorMessage(error, 'Failed to change the role')),
      },
    );

  const remove = () => {
    if (!removing) return;
    const member = removing;
    mutations.remove.mutate(member, {
      onSuccess: () => {
        setRemoving(null);
        notifySuccess(removedText(member.username, workspace.name));
      },
      onError: (error) => {
        setRemoving(null);
        notifyError(errorMessage(error, `Failed to remove ${member.username}`));
      },
    });
  };

  const invite = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    mutations.invite.mutate(
      { email: address, role: inviteRole },
      {
        onSuccess: () => {
          setEmail('');
          notifySuccess(invitationSentText(address));
        },
        onError: (error) => notifyError(errorMessage(error, 'Failed to send the invitation')),
      },
    );
  };

  return (
    <>
      <TitledSection title="Members">
        {members.isPending ? (
          <LoadingIndicator label="Loading members" />
        ) : members.isError ? (
          <Text size="sm" role="alert">
            {errorMessage(members.error, MEMBERS_FALLBACK)}
          </Text>
        ) : (
          <ListTable headers={['Email', 'Username', 'Role', 'Remove']}>
            {members.data.map((member) => {
              const manageable = canManageMember(workspace.role, member.workspace_role);
              const busy =
                mutations.changeRole.isPending &&
                mutations.changeRole.variables?.member.id === member.id;
              return (
                <MemberRow
                  key={member.id}
                  username={member.username}
                  email={member.email}
                  me={member.id === viewerId}
                  note={member.global ? GLOBAL_ROLE_NOTE : undefined}
                  roleLabel={`Role of ${member.username}`}
                  roleOptions={roleOptions}
                  role={member.workspace_role}
                  roleWidth={120}
                  roleDisabled={!manageable || busy}
                  onRoleChange={(role) => changeRole(member, role)}
                  removable={manageable && !member.global}
                  onRemove={() => setRemoving(member)}
                />
              );
            })}
          </ListTable>
        )}
      </TitledSection>

      <TitledSection title="Invite a member">
        <form onSubmit={invite}>
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Email"
              type="email"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              style={{ flex: 1, minWidth: 220 }}
            />
            <AppDropdown
              label="Role"
              w={140}
              options={roleOptions}
              value={inviteRole}
              onChange={setInviteRole}
            />
            <Button
              type="submit"
              leftSection={<IconMailForward size={16} aria-hidden />}
              loading={mutations.invite.isPending}
            >
              Invite
            </Button>
          </Group>
        </form>
      </TitledSection>

      <TitledSection title="Pending invitations">
        {invitations.isPending ? (
          <LoadingIndicator label="Loading invitations" />
        ) : invitations.isError ? (
          <Text size="sm" role="alert">
            {errorMessage(invitations.error, INVITATIONS_FALLBACK)}
          </Text>
        ) : invitations.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {NO_INVITATIONS}
          </Text>
        ) : (
          <ListTable headers={['Email', 'Role', 'Expires', 'Revoke']}>
            {invitations.data.map((invitation) => (
              <Table.Tr key={invitation.id}>
                <Table.Td>{invitation.email}</Table.Td>
                <Table.Td>{WORKSPACE_ROLE_LABELS[invitation.role]}</Table.Td>
                <Table.Td>{formatDate(invitation.expires_at)}</Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Revoke the invitation of ${invitation.email}`}
                    onClick={() =>
                      mutations.revoke.mutate(invitation, {
                        onSuccess: () => notifySuccess(INVITATION_REVOKED),
                        onError: (error) =>
                          notifyError(errorMessage(error, 'Failed to revoke the invitation')),
                      })
                    }
                  >
                    <IconX size={16} aria-hidden />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </TitledSection>

      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={remove}
        title="Remove member"
        confirmText="Remove"
        danger
        loading={mutations.remove.isPending}
      >
        {removing ? `Remove ${removing.username} from ${workspace.name}?` : ''}
      </ConfirmDialog>
    </>
  );
}
