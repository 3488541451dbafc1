import { Button, Group, Table, Text, TextInput } from '@mantine/core';
import { IconSearch, IconShare } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { MemberRow } from '@/components/MemberRow';
import { Paginator } from '@/components/Paginator';
import { SortMenu } from '@/components/SortMenu';
import { TitledSection } from '@/components/TitledSection';
import { notifyError, notifySuccess } from '@/lib/notify';
import {
  PROJECT_ROLES,
  canAssignProjectRole,
  canChangeMemberRole,
  canRemoveMember,
  type GlobalRole,
  type ProjectRoleName,
} from '@/lib/permissions';
import { projectAccessQueryKey, projectAccessQueryOptions } from '../api/projectAccess';
import { useUpdateMemberRoleMutation } from '../api/updateMemberRole';
import {
  GET_ACCESS_FALLBACK,
  MEMBERS_PER_PAGE,
  MEMBER_SORT_OPTIONS,
  NO_MEMBERS,
  REMOVE,
  ROLE_LABELS,
  memberRemoved,
  removeMemberText,
  removeMemberTitle,
  roleChanged,
  clampPage,
  filterMembers,
  pageOf,
  sortMembers,
  updateAccessForUserFallback,
  type MemberSort,
  type ProjectAccessLists,
  type ProjectMember,
} from '../model/collaborators';
import { ShareDialog } from './ShareDialog';

export const MEMBERS_TITLE = 'Members';

export interface ProjectCollaboratorsProps {
  project: { id: string; name: string; namespace: string; access?: ProjectAccessLists };
  /** The logged user. */
  viewerId: number | undefined;
  /** The viewer's effective project role. */
  viewerRole: string | null;
  globalRole: GlobalRole | undefined;
  /** Whether the Share button is offered (spec 001 §6). */
  canShare: boolean;
  docsUrl: string;
  /** Called when the project's access changed (share, role change, removal). */
  onAccessChanged: () => void;
}

/**
 * The members of a project on its collaborators tab (spec 001 §2): 'Search members', Share,
 * the sort menu, and a table of email, username, project permissions and remove, 10 per page.
 */
export function ProjectCollaborators({
  project,
  viewerId,
  viewerRole,
  globalRole,
  canShare,
  docsUrl,
  onAccessChanged,
}: ProjectCollaboratorsProps) {
  const queryClient = useQueryClient();
  const query = useQuery(projectAccessQueryOptions(project.id));
  const update = useUpdateMemberRoleMutation(onAccessChanged);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<MemberSort>('username_asc');
  const [page, setPage] = useState(1);
  const [sharing, setSharing] = useState(false);

  const members = sortMembers(filterMembers(query.data ?? [], search), sort);
  const current = clampPage(page, members.length, MEMBERS_PER_PAGE);
  const shown = pageOf(members, current, MEMBERS_PER_PAGE);

  const [removing, setRemoving] = useState<ProjectMember | null>(null);

  const setRole = (member: ProjectMember, role: ProjectRoleName | 'none') =>
    update.mutate(
      { projectId: project.id, member, role },
      {
        onSuccess: () => {
          setRemoving(null);
          notifySuccess(
            role === 'none'
              ? memberRemoved(member.username)
              : roleChanged(member.username, ROLE_LABELS[role]),
          );
        },
        onError: (error) =>
          notifyError(errorMessage(error, updateAccessForUserFallback(member.username))),
      },
    );

  const roleOptions = PROJECT_ROLES.map((value) => ({
    value,
    label: ROLE_LABELS[value],
    disabled: !canAssignProjectRole(value, viewerRole, globalRole),
  }));

  return (
    <TitledSection
      title={MEMBERS_TITLE}
      actions={
        canShare && (
          <Button
            leftSection={<IconShare size={16} aria-hidden />}
            onClick={() => setSharing(true)}
          >
            Share
          </Button>
        )
      }
    >
      <Group gap="xs" mb="sm" wrap="nowrap">
        <TextInput
          aria-label="Search members"
          placeholder="Search members"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1 }}
        />
        <SortMenu options={MEMBER_SORT_OPTIONS} value={sort} onChange={setSort} />
      </Group>
      {query.isPending ? (
        <LoadingIndicator label="Loading members" />
      ) : query.isError ? (
        <Text size="sm" c="dimmed">
          {errorMessage(query.error, GET_ACCESS_FALLBACK)}
        </Text>
      ) : members.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_MEMBERS}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Username</Table.Th>
                <Table.Th>Project permissions</Table.Th>
                <Table.Th>Remove</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((member) => {
                const me = member.id === viewerId;
                const busy = update.isPending && update.variables?.member.id === member.id;
                return (
                  <MemberRow
                    key={member.id}
                    username={member.username}
                    email={member.email}
                    me={me}
                    roleLabel={`Project permissions of ${member.username}`}
                    roleOptions={roleOptions}
                    role={member.role ?? member.project_role}
                    roleWidth={130}
                    roleDisabled={!canChangeMemberRole(member, viewerId) || busy}
                    onRoleChange={(role) => setRole(member, role)}
                    removable={canRemoveMember(member, viewerId, globalRole)}
                    removing={busy}
                    onRemove={() => setRemoving(member)}
                  />
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && setRole(removing, 'none')}
        title={removing ? removeMemberTitle(removing.username) : undefined}
        confirmText={REMOVE}
        loading={update.isPending}
        danger
      >
        {removing ? removeMemberText(removing.username) : ''}
      </ConfirmDialog>
      <Paginator
        page={current}
        count={members.length}
        perPage={MEMBERS_PER_PAGE}
        onChange={setPage}
        label="Members pages"
      />
      {canShare && (
        <ShareDialog
          opened={sharing}
          onClose={() => setSharing(false)}
          namespace={project.namespace}
          projectName={project.name}
          access={project.access}
          viewerRole={viewerRole}
          globalRole={globalRole}
          docsUrl={docsUrl}
          onShared={() => {
            void queryClient.invalidateQueries({ queryKey: projectAccessQueryKey(project.id) });
            onAccessChanged();
          }}
        />
      )}
    </TitledSection>
  );
}
